package io.weir.handler.codec.http.websocketx;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import java.nio.charset.StandardCharsets;

/**
 * A close frame (opcode 0x8, RFC 6455 §5.5.1): empty, or a 2-byte status code followed by an optional UTF-8
 * reason, 125 bytes at most in all. The decoder rejects (1002) a 1-byte payload and a code not
 * {@linkplain WebSocketCloseStatus#isValidOnWire valid on the wire}, and (1007) a reason that is not UTF-8.
 */
public final class CloseWebSocketFrame extends WebSocketFrame {
    /** Largest close reason in UTF-8 bytes: 125 bytes of control payload less the 2-byte status. */
    public static final int MAX_REASON_BYTES = 123;

    /** An empty close frame (no status: the peer sees 1005). */
    public CloseWebSocketFrame() {
        this(true, 0, Unpooled.EMPTY_BUFFER);
    }

    /**
     * A close frame with {@code status} and {@code reason} (may be null or empty).
     *
     * @throws IllegalArgumentException if {@code status} is not valid on the wire, or the reason is longer than
     *         {@link #MAX_REASON_BYTES} in UTF-8
     */
    public CloseWebSocketFrame(int status, String reason) {
        this(true, 0, payload(status, reason));
    }

    /** A close frame owning {@code payload} (status and reason already encoded). */
    public CloseWebSocketFrame(ByteBuf payload) {
        this(true, 0, payload);
    }

    /** A close frame owning {@code payload}; close frames are never fragmented, so {@code finalFragment} is true. */
    public CloseWebSocketFrame(boolean finalFragment, int rsv, ByteBuf payload) {
        super(finalFragment, rsv, payload);
    }

    private static ByteBuf payload(int status, String reason) {
        if (!WebSocketCloseStatus.isValidOnWire(status)) {
            throw new IllegalArgumentException("status: " + status + " (not a close code valid on the wire)");
        }
        byte[] r = reason == null ? new byte[0] : reason.getBytes(StandardCharsets.UTF_8);
        if (r.length > MAX_REASON_BYTES) {
            throw new IllegalArgumentException(
                    "reason: " + r.length + " bytes in UTF-8 (expected: <= " + MAX_REASON_BYTES + ")");
        }
        ByteBuf b = Unpooled.buffer(2 + r.length);
        b.writeShort(status);
        b.writeBytes(r);
        return b;
    }

    /** The status code, or -1 when the frame carries none (reported to applications as 1005). */
    public int statusCode() {
        ByteBuf c = content();
        if (c.readableBytes() < 2) {
            return -1;
        }
        return c.getUnsignedShort(c.readerIndex());
    }

    /** The reason text (empty when none). */
    public String reasonText() {
        ByteBuf c = content();
        if (c.readableBytes() <= 2) {
            return "";
        }
        return c.toString(c.readerIndex() + 2, c.readableBytes() - 2, StandardCharsets.UTF_8);
    }

    @Override
    public int opcode() {
        return WebSocketOpcodes.CLOSE;
    }

    @Override
    public CloseWebSocketFrame replace(ByteBuf content) {
        return new CloseWebSocketFrame(isFinalFragment(), rsv(), content);
    }

    @Override
    public String toString() {
        return "CloseWebSocketFrame(status: " + statusCode() + ", reason: " + reasonText() + ")";
    }
}
