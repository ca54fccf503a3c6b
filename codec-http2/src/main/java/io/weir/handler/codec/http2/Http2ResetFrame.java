package io.weir.handler.codec.http2;

/**
 * A RST_STREAM frame (RFC 9113 §6.4): the stream ends at once.
 *
 * @param stream the stream (see {@link Http2StreamFrame})
 * @param errorCode the unsigned 32-bit error code (see {@link Http2Error#of(long)}; unknown codes are kept)
 */
public record Http2ResetFrame(Http2FrameStream stream, long errorCode) implements Http2StreamFrame {

    /** An outbound frame not yet bound to a stream. */
    public Http2ResetFrame(Http2Error error) {
        this(null, error.code());
    }

    /** The error, or {@code null} for a code RFC 9113 does not define. */
    public Http2Error error() {
        return Http2Error.of(errorCode);
    }

    @Override
    public Http2ResetFrame withStream(Http2FrameStream stream) {
        return new Http2ResetFrame(stream, errorCode);
    }

    @Override
    public String name() {
        return "RST_STREAM";
    }
}
