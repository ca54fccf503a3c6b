package io.weir.handler.codec;

/** A decoded message that carries the {@link DecoderResult} of its decoding. */
public interface DecoderResultProvider {

    /** How decoding this message went. */
    DecoderResult decoderResult();

    /**
     * Records how decoding this message went.
     *
     * @throws NullPointerException if {@code result} is null
     */
    void setDecoderResult(DecoderResult result);
}
