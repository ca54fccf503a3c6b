package io.weir.handler.codec.http2;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.DefaultByteBufHolder;
import io.weir.buffer.Unpooled;

/**
 * A GOAWAY frame (RFC 9113 §6.8). Inbound: the peer stops accepting streams above {@link #lastStreamId()}. Outbound:
 * the codec fills in the last stream id itself (the highest stream the peer opened) and closes the connection once
 * the remaining streams are done; {@link Http2FrameCodec} sends GOAWAY on its own on {@code close()} and on
 * connection errors, so applications rarely write one.
 *
 * <p><b>Buffers.</b> The holder of the frame owns {@link #content()} (the debug data) and releases it by releasing
 * the frame.
 */
public final class Http2GoAwayFrame extends DefaultByteBufHolder implements Http2Frame {

    private final int lastStreamId;
    private final long errorCode;

    /** An outbound frame with no debug data. */
    public Http2GoAwayFrame(Http2Error error) {
        this(-1, error.code(), Unpooled.EMPTY_BUFFER);
    }

    /**
     * A frame; takes ownership of {@code debugData}.
     *
     * @param lastStreamId the last stream id (ignored outbound)
     * @param errorCode the unsigned 32-bit error code
     */
    public Http2GoAwayFrame(int lastStreamId, long errorCode, ByteBuf debugData) {
        super(debugData);
        this.lastStreamId = lastStreamId;
        this.errorCode = errorCode;
    }

    /** The highest stream id the sender may have acted on. */
    public int lastStreamId() {
        return lastStreamId;
    }

    /** The unsigned 32-bit error code. */
    public long errorCode() {
        return errorCode;
    }

    /** The error, or {@code null} for a code RFC 9113 does not define. */
    public Http2Error error() {
        return Http2Error.of(errorCode);
    }

    @Override
    public Http2GoAwayFrame replace(ByteBuf content) {
        return new Http2GoAwayFrame(lastStreamId, errorCode, content);
    }

    @Override
    public String name() {
        return "GOAWAY";
    }

    @Override
    public String toString() {
        return "Http2GoAwayFrame{lastStreamId=" + lastStreamId + ", errorCode=" + errorCode + '}';
    }
}
