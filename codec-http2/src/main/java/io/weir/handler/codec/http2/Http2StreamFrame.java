package io.weir.handler.codec.http2;

/**
 * A frame that belongs to one stream. Inbound, {@link #stream()} is the stream it arrived on. Outbound, a frame
 * written on an {@link Http2StreamChannel} needs no stream (the child channel supplies it); a frame written straight
 * to an {@link Http2FrameCodec} names its stream, and a HEADERS frame for a stream from
 * {@link Http2FrameCodec#newStream()} opens it.
 */
public interface Http2StreamFrame extends Http2Frame {

    /** The stream, or {@code null} for an outbound frame not yet bound to one. */
    Http2FrameStream stream();

    /**
     * This frame bound to {@code stream}. A frame holding a buffer hands its buffer to the returned frame (no
     * retain): release only one of the two.
     */
    Http2StreamFrame withStream(Http2FrameStream stream);
}
