package io.weir.handler.codec.http.websocketx;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.handler.codec.http.websocketx.internal.WebSocketMasking;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes {@link WebSocketFrame}s as RFC 6455 §5.2 frames; other messages pass through untouched.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-------+-+-------------+-------------------------------+
 *  |F|R|R|R| opcode|M| Payload len |    Extended payload length    |
 *  |I|S|S|S|  (4)  |A|     (7)     |             (16/64)           |
 *  |N|V|V|V|       |S|             |   (if payload len==126/127)   |
 *  | |1|2|3|       |K|             |                               |
 *  +-+-+-+-+-------+-+-------------+ - - - - - - - - - - - - - - - +
 *  |     Extended payload length continued, if payload len == 127  |
 *  + - - - - - - - - - - - - - - - +-------------------------------+
 *  |                               |Masking-key, if MASK set to 1  |
 *  +-------------------------------+-------------------------------+
 *  | Masking-key (continued)       |          Payload Data         |
 *  +-------------------------------- - - - - - - - - - - - - - - - +
 * </pre>
 *
 * The length is always written in its shortest form. A client's encoder masks every frame with a fresh key
 * (§5.3), copying the payload; a server's never masks. A control frame longer than 125 bytes or not final fails
 * its write promise with {@link IllegalArgumentException}.
 *
 * <p>Ownership: the encoder releases each frame it is given (its payload is either copied out or handed on to the
 * transport). Called only on the channel's event loop; sharable only between channels of the same side.
 */
@ChannelHandler.Sharable
public final class WebSocketFrameEncoder implements ChannelHandler {
    /**
     * Largest payload copied behind its header into one buffer; larger unmasked payloads are written as a separate
     * buffer after the header (no copy).
     */
    public static final int COPY_PAYLOAD_MAX_BYTES = 1024;
    /** Largest payload of a control frame (§5.5). */
    public static final int MAX_CONTROL_PAYLOAD_BYTES = 125;

    private final boolean maskPayload;

    /** An encoder that masks frames when {@code maskPayload} (a client's) and never otherwise (a server's). */
    public WebSocketFrameEncoder(boolean maskPayload) {
        this.maskPayload = maskPayload;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (!(msg instanceof WebSocketFrame frame)) {
            ctx.write(msg, promise);
            return;
        }
        ByteBuf out;
        try {
            out = encodeHeader(ctx, frame);
        } catch (IllegalArgumentException e) {
            frame.release();
            promise.setFailure(e);
            return;
        }
        if (maskPayload || frame.content().readableBytes() <= COPY_PAYLOAD_MAX_BYTES) {
            // The header buffer was sized for the payload too: copy (or mask) it in.
            ByteBuf p = frame.content();
            int len = p.readableBytes();
            if (maskPayload) {
                int key = out.getInt(out.writerIndex() - 4);
                WebSocketMasking.maskCopy(p, p.readerIndex(), len, key, out);
            } else {
                out.writeBytes(p, p.readerIndex(), len);
            }
            frame.release();
            ctx.write(out, promise);
        } else {
            ByteBuf p = frame.content().retain();
            frame.release();
            ctx.write(out);
            ctx.write(p, promise);
        }
    }

    /**
     * Allocates the output buffer and writes the header (and mask key) into it; the buffer has room for the
     * payload when it is to be copied behind.
     */
    private ByteBuf encodeHeader(ChannelHandlerContext ctx, WebSocketFrame frame) {
        int opcode = frame.opcode();
        int len = frame.content().readableBytes();
        boolean fin = frame.isFinalFragment();
        if (opcode >= WebSocketOpcodes.CLOSE) {
            // RFC 6455 §5.5: control frames are never fragmented and carry at most 125 bytes.
            if (len > MAX_CONTROL_PAYLOAD_BYTES) {
                throw new IllegalArgumentException(
                        "control frame payload: " + len + " bytes (expected: <= " + MAX_CONTROL_PAYLOAD_BYTES + ")");
            }
            if (!fin) {
                throw new IllegalArgumentException("control frames cannot be fragmented");
            }
        }
        int headerLen = 2 + (len <= 125 ? 0 : len <= 0xFFFF ? 2 : 8) + (maskPayload ? 4 : 0);
        boolean copy = maskPayload || len <= COPY_PAYLOAD_MAX_BYTES;
        ByteBuf out = ctx.alloc().buffer(copy ? headerLen + len : headerLen);
        out.writeByte((fin ? 0x80 : 0) | frame.rsv() << 4 | opcode);
        int maskBit = maskPayload ? 0x80 : 0;
        if (len <= 125) {
            out.writeByte(maskBit | len);
        } else if (len <= 0xFFFF) {
            out.writeByte(maskBit | 126);
            out.writeShort(len);
        } else {
            out.writeByte(maskBit | 127);
            out.writeLong(len);
        }
        if (maskPayload) {
            // RFC 6455 §5.3: a fresh, unpredictable key per frame. The key's job is to keep script-chosen bytes
            // from looking like requests to intermediaries, which ThreadLocalRandom's unpredictability serves.
            out.writeInt(ThreadLocalRandom.current().nextInt());
        }
        return out;
    }
}
