package io.weir.handler.codec.http.websocketx;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.DefaultByteBufHolder;
import java.util.Objects;

/**
 * One WebSocket frame (RFC 6455 §5.2): its payload as a {@link ByteBuf}, whether it is the final fragment of its
 * message (FIN) and its three reserved bits (RSV1..3 as the low three bits of {@link #rsv()}; RSV1 = 4).
 *
 * <p>A frame owns its payload: whoever receives a frame from the pipeline releases it (or passes it on), and a
 * frame written to the channel is released by the encoder once its bytes are written. The payload is never
 * masked in a frame object: the decoder unmasks, the encoder masks.
 */
public abstract class WebSocketFrame extends DefaultByteBufHolder {
    /** RSV1 in {@link #rsv()}: set by permessage-deflate on the first frame of a compressed message. */
    public static final int RSV1 = 0x4;
    /** RSV2 in {@link #rsv()}. */
    public static final int RSV2 = 0x2;
    /** RSV3 in {@link #rsv()}. */
    public static final int RSV3 = 0x1;

    private final boolean finalFragment;
    private final int rsv;

    /**
     * A frame owning {@code payload}.
     *
     * @throws IllegalArgumentException if {@code rsv} is outside 0..7
     */
    protected WebSocketFrame(boolean finalFragment, int rsv, ByteBuf payload) {
        super(Objects.requireNonNull(payload, "payload"));
        if ((rsv & ~0x7) != 0) {
            throw new IllegalArgumentException("rsv: " + rsv + " (expected: 0..7)");
        }
        this.finalFragment = finalFragment;
        this.rsv = rsv;
    }

    /** The RFC 6455 opcode of this frame type (0x0 continuation .. 0xA pong). */
    public abstract int opcode();

    /** Whether this frame ends its message (FIN bit). Control frames always do. */
    public final boolean isFinalFragment() {
        return finalFragment;
    }

    /** The reserved bits RSV1..RSV3 as a 3-bit value ({@link #RSV1} = 4, {@link #RSV2} = 2, {@link #RSV3} = 1). */
    public final int rsv() {
        return rsv;
    }

    /** Whether this is a control frame (close, ping, pong; opcode 0x8 and above). */
    public final boolean isControl() {
        return opcode() >= WebSocketOpcodes.CLOSE;
    }

    @Override
    public WebSocketFrame copy() {
        return replace(content().copy());
    }

    @Override
    public WebSocketFrame duplicate() {
        return replace(content().duplicate());
    }

    @Override
    public WebSocketFrame retainedDuplicate() {
        return replace(content().retainedDuplicate());
    }

    /** A frame of the same type, FIN and RSV bits carrying {@code content} (which the new frame then owns). */
    @Override
    public abstract WebSocketFrame replace(ByteBuf content);

    @Override
    public WebSocketFrame retain() {
        super.retain();
        return this;
    }

    @Override
    public WebSocketFrame retain(int increment) {
        super.retain(increment);
        return this;
    }

    @Override
    public WebSocketFrame touch() {
        super.touch();
        return this;
    }

    @Override
    public WebSocketFrame touch(Object hint) {
        super.touch(hint);
        return this;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(fin: " + finalFragment + ", rsv: " + rsv + ", payload: "
                + content().readableBytes() + " bytes)";
    }
}
