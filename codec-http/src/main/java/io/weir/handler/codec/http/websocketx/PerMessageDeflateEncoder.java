package io.weir.handler.codec.http.websocketx;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import java.nio.channels.ClosedChannelException;
import java.nio.ByteBuffer;
import java.util.zip.Deflater;

/**
 * Compresses the data messages written to the channel (RFC 7692 §7.2.1): each frame's payload goes through one
 * raw-deflate compressor kept for the connection (context takeover) with a sync flush, the final frame of a
 * message loses the trailing {@code 00 00 FF FF}, and RSV1 is set on the first frame of the message only.
 * Control frames, and messages whose first frame already carries an RSV bit, pass unchanged.
 *
 * <p>Sits after the {@link WebSocketFrameEncoder} in inbound order (so frames reach it first when written).
 * Releases every frame it compresses; the compressor's native memory is freed when the handler is removed or the
 * channel goes inactive. Called only on the channel's event loop; one instance per channel.
 */
public final class PerMessageDeflateEncoder implements ChannelHandler {
    /** Output room added at a time while compressing. */
    private static final int OUTPUT_STEP_BYTES = 8192;
    private static final int TAIL = 0x0000FFFF;

    private final boolean noContextTakeover;
    private final int level;
    private Deflater deflater;
    private boolean compressingMessage;
    private boolean ended;

    /**
     * An encoder compressing at {@code level} (0..9), starting afresh for every message when
     * {@code noContextTakeover} (as agreed with {@code server_no_context_takeover} or
     * {@code client_no_context_takeover} for our side).
     */
    public PerMessageDeflateEncoder(int level, boolean noContextTakeover) {
        if (level < 0 || level > 9) {
            throw new IllegalArgumentException("level: " + level + " (expected: 0..9)");
        }
        this.level = level;
        this.noContextTakeover = noContextTakeover;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (!(msg instanceof WebSocketFrame frame) || frame.isControl()) {
            ctx.write(msg, promise);
            return;
        }
        boolean first = !(frame instanceof ContinuationWebSocketFrame);
        if (first) {
            compressingMessage = frame.rsv() == 0;
        }
        if (!compressingMessage) {
            ctx.write(msg, promise);
            return;
        }
        if (ended) {
            frame.release();
            promise.setFailure(new ClosedChannelException());
            return;
        }
        boolean fin = frame.isFinalFragment();
        ByteBuf out;
        try {
            out = compress(ctx, frame.content(), fin);
        } finally {
            frame.release();
        }
        int rsv = first ? WebSocketFrame.RSV1 : 0;
        WebSocketFrame compressed;
        if (frame instanceof TextWebSocketFrame) {
            compressed = new TextWebSocketFrame(fin, rsv, out);
        } else if (frame instanceof BinaryWebSocketFrame) {
            compressed = new BinaryWebSocketFrame(fin, rsv, out);
        } else {
            compressed = new ContinuationWebSocketFrame(fin, rsv, out);
        }
        if (fin) {
            compressingMessage = false;
            if (noContextTakeover) {
                deflater.reset();
            }
        }
        ctx.write(compressed, promise);
    }

    private ByteBuf compress(ChannelHandlerContext ctx, ByteBuf payload, boolean fin) {
        Deflater d = deflater;
        if (d == null) {
            d = deflater = new Deflater(level, true);
        }
        int len = payload.readableBytes();
        ByteBuf out = ctx.alloc().buffer(Math.min(len + 64, OUTPUT_STEP_BYTES));
        try {
            d.setInput(payload.nioBuffer(payload.readerIndex(), len));
            for (;;) {
                out.ensureWritable(out.writableBytes() == 0 ? OUTPUT_STEP_BYTES : 1);
                ByteBuffer dst = out.nioBuffer(out.writerIndex(), out.writableBytes());
                int room = dst.remaining();
                int n = d.deflate(dst, Deflater.SYNC_FLUSH);
                out.writerIndex(out.writerIndex() + n);
                if (n < room) {
                    break;
                }
            }
            if (fin) {
                int w = out.writerIndex();
                if (w >= 4 && out.getInt(w - 4) == TAIL) {
                    // RFC 7692 §7.2.1: the sync flush's empty block ends the message; the receiver adds it back.
                    out.writerIndex(w - 4);
                } else {
                    // Nothing to flush (an empty final fragment right after a flush): §7.2.3.6's single 0x00.
                    out.writeByte(0);
                }
            }
            return out;
        } catch (Throwable t) {
            out.release();
            throw t;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        end();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        end();
    }

    private void end() {
        ended = true;
        if (deflater != null) {
            deflater.end();
            deflater = null;
        }
    }
}
