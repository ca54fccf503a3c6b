package io.weir.handler.codec.http2;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.DefaultByteBufHolder;

/**
 * A frame of a type RFC 9113 does not define (an extension, §5.5), fired inbound so that an application can
 * implement the extension; the codec otherwise ignores it. Outbound, it is written as is.
 *
 * <p><b>Buffers.</b> The holder of the frame owns {@link #content()} (the payload) and releases it by releasing
 * the frame.
 */
public final class Http2UnknownFrame extends DefaultByteBufHolder implements Http2Frame {

    private final int frameType;
    private final int flags;
    private final int streamId;

    /** A frame; takes ownership of {@code payload}. */
    public Http2UnknownFrame(int frameType, int flags, int streamId, ByteBuf payload) {
        super(payload);
        this.frameType = frameType;
        this.flags = flags;
        this.streamId = streamId;
    }

    /** The frame type octet. */
    public int frameType() {
        return frameType;
    }

    /** The flags octet. */
    public int flags() {
        return flags;
    }

    /** The stream identifier, 0 for the connection. */
    public int streamId() {
        return streamId;
    }

    @Override
    public Http2UnknownFrame replace(ByteBuf content) {
        return new Http2UnknownFrame(frameType, flags, streamId, content);
    }

    @Override
    public String name() {
        return "UNKNOWN(0x" + Integer.toHexString(frameType) + ")";
    }

    @Override
    public String toString() {
        return "Http2UnknownFrame{type=" + frameType + ", flags=" + flags + ", stream=" + streamId + '}';
    }
}
