package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.DefaultByteBufHolder;
import io.weir.handler.codec.DecoderResult;

import java.util.Objects;

/** The standard {@link HttpContent}: a buffer it owns plus a decoder result. Not thread-safe. */
public class DefaultHttpContent extends DefaultByteBufHolder implements HttpContent {
    private DecoderResult decoderResult = DecoderResult.SUCCESS;

    /**
     * A piece of content over {@code content}, whose reference passes to it.
     *
     * @throws NullPointerException if {@code content} is null
     */
    public DefaultHttpContent(ByteBuf content) {
        super(content);
    }

    @Override
    public HttpContent copy() {
        return replace(content().copy());
    }

    @Override
    public HttpContent duplicate() {
        return replace(content().duplicate());
    }

    @Override
    public HttpContent retainedDuplicate() {
        return replace(content().retainedDuplicate());
    }

    @Override
    public HttpContent replace(ByteBuf content) {
        DefaultHttpContent c = new DefaultHttpContent(content);
        c.setDecoderResult(decoderResult);
        return c;
    }

    @Override
    public HttpContent retain() {
        super.retain();
        return this;
    }

    @Override
    public HttpContent retain(int increment) {
        super.retain(increment);
        return this;
    }

    @Override
    public HttpContent touch() {
        super.touch();
        return this;
    }

    @Override
    public HttpContent touch(Object hint) {
        super.touch(hint);
        return this;
    }

    @Override
    public DecoderResult decoderResult() {
        return decoderResult;
    }

    @Override
    public void setDecoderResult(DecoderResult result) {
        this.decoderResult = Objects.requireNonNull(result, "result");
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(data: " + content() + ", decoderResult: " + decoderResult + ')';
    }
}
