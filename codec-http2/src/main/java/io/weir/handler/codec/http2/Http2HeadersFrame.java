package io.weir.handler.codec.http2;

import java.util.Objects;

/**
 * A HEADERS frame with its CONTINUATION frames (RFC 9113 §6.2, §6.10): a request or response header section, or
 * trailers. Inbound the headers are decoded and validated (RFC 9113 §8.2, §8.3) before the frame is fired; the
 * frame owns no buffer.
 *
 * @param stream the stream (see {@link Http2StreamFrame})
 * @param headers the fields, pseudo-headers first
 * @param endStream whether END_STREAM is set: nothing follows on this stream in this direction
 */
public record Http2HeadersFrame(Http2FrameStream stream, Http2Headers headers, boolean endStream)
        implements Http2StreamFrame {

    /** @throws NullPointerException if {@code headers} is null */
    public Http2HeadersFrame {
        Objects.requireNonNull(headers, "headers");
    }

    /** An outbound frame not yet bound to a stream. */
    public Http2HeadersFrame(Http2Headers headers, boolean endStream) {
        this(null, headers, endStream);
    }

    @Override
    public Http2HeadersFrame withStream(Http2FrameStream stream) {
        return new Http2HeadersFrame(stream, headers, endStream);
    }

    @Override
    public String name() {
        return "HEADERS";
    }
}
