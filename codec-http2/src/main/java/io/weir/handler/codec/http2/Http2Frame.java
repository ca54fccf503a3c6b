package io.weir.handler.codec.http2;

/**
 * An HTTP/2 frame as a message: what {@link Http2FrameCodec} fires inbound and accepts outbound. Frames that belong
 * to a stream implement {@link Http2StreamFrame}; the others concern the whole connection.
 */
public interface Http2Frame {

    /** The frame type's name as RFC 9113 spells it ({@code "HEADERS"}, {@code "DATA"}, ...). */
    String name();
}
