package io.weir.handler.codec.http;

import io.weir.handler.codec.DecoderResult;

import java.util.Objects;

/** Base of the default {@link HttpObject}s: holds the decoder result, {@code SUCCESS} until set. Not thread-safe. */
public abstract class DefaultHttpObject implements HttpObject {
    private DecoderResult decoderResult = DecoderResult.SUCCESS;

    /** For subclasses. */
    protected DefaultHttpObject() {
    }

    @Override
    public DecoderResult decoderResult() {
        return decoderResult;
    }

    @Override
    public void setDecoderResult(DecoderResult result) {
        this.decoderResult = Objects.requireNonNull(result, "result");
    }
}
