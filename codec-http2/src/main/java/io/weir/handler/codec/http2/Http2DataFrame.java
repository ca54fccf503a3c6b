package io.weir.handler.codec.http2;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.DefaultByteBufHolder;

/**
 * A DATA frame (RFC 9113 §6.1).
 *
 * <p><b>Buffers.</b> Whoever holds the frame owns its {@link #content()} and releases it (by releasing the frame):
 * inbound, the handler that consumes it; outbound, the codec once it is written or has failed.
 *
 * <p><b>Flow control.</b> An inbound frame costs {@link #flowControlledBytes()} octets of the receive windows. Under
 * an {@link Http2MultiplexHandler} the bytes are given back (and WINDOW_UPDATE sent) when the stream's child channel
 * reads the frame; a handler using the {@link Http2FrameCodec} alone gives them back by writing an
 * {@link Http2WindowUpdateFrame} for the stream with that many octets, or calling
 * {@link Http2FrameCodec#consumeBytes(Http2FrameStream, int)}.
 */
public final class Http2DataFrame extends DefaultByteBufHolder implements Http2StreamFrame {

    private final Http2FrameStream stream;
    private final boolean endStream;
    private final int padding;

    /** An outbound frame not yet bound to a stream, without padding; takes ownership of {@code content}. */
    public Http2DataFrame(ByteBuf content, boolean endStream) {
        this(null, content, endStream, 0);
    }

    /**
     * A frame; takes ownership of {@code content}.
     *
     * @param padding octets of padding including the Pad Length octet: 0 (none) or 1..256
     * @throws IllegalArgumentException for a padding out of range
     */
    public Http2DataFrame(Http2FrameStream stream, ByteBuf content, boolean endStream, int padding) {
        super(content);
        if (padding < 0 || padding > 256) {
            throw new IllegalArgumentException("padding: " + padding + " (expected 0..256)");
        }
        this.stream = stream;
        this.endStream = endStream;
        this.padding = padding;
    }

    @Override
    public Http2FrameStream stream() {
        return stream;
    }

    /** Whether END_STREAM is set. */
    public boolean endStream() {
        return endStream;
    }

    /** Octets of padding, Pad Length octet included (0 when not padded). */
    public int padding() {
        return padding;
    }

    /** Octets this frame costs in flow control: its data plus its padding (RFC 9113 §6.9.1). */
    public int flowControlledBytes() {
        return content().readableBytes() + padding;
    }

    @Override
    public Http2DataFrame withStream(Http2FrameStream stream) {
        return new Http2DataFrame(stream, content(), endStream, padding);
    }

    @Override
    public Http2DataFrame replace(ByteBuf content) {
        return new Http2DataFrame(stream, content, endStream, padding);
    }

    @Override
    public Http2DataFrame retain() {
        super.retain();
        return this;
    }

    @Override
    public Http2DataFrame touch(Object hint) {
        super.touch(hint);
        return this;
    }

    @Override
    public String name() {
        return "DATA";
    }

    @Override
    public String toString() {
        return "Http2DataFrame{stream=" + (stream == null ? "none" : stream.id()) + ", bytes="
                + (refCnt() > 0 ? content().readableBytes() : -1) + ", endStream=" + endStream + ", padding="
                + padding + '}';
    }
}
