package io.weir.handler.codec.http.websocketx;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.http.websocketx.internal.Utf8Validator;
import io.weir.util.ReferenceCountUtil;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Inflates compressed data messages (RFC 7692 §7.2.2): a message whose first frame has RSV1 is inflated frame by
 * frame through one raw-inflate decompressor kept for the connection, with {@code 00 00 FF FF} appended after
 * its final frame; the frames passed on carry the inflated payload and no RSV1. Text messages are checked as
 * UTF-8 across their fragments after inflation.
 *
 * <p>Bounded: inflation proceeds in pieces (the output grows from {@value #OUTPUT_STEP_BYTES} bytes) and stops
 * as soon as the message's inflated size passes the limit, so a deflate bomb fails the connection with 1009
 * (Message Too Big) before memory grows past it. Corrupt compressed data fails it with 1007, invalid UTF-8 with
 * 1007. On failure
 * the decoder sends the close frame, closes the channel, fires the {@link WebSocketProtocolException} and
 * releases every later frame.
 *
 * <p>Sits after the {@link WebSocketFrameDecoder}, which must allow RSV1. Releases every frame it inflates; the
 * decompressor's native memory is freed when the handler is removed or the channel goes inactive. Called only on
 * the channel's event loop; one instance per channel.
 */
public final class PerMessageDeflateDecoder implements ChannelHandler {
    /** Output room added at a time while inflating. */
    public static final int OUTPUT_STEP_BYTES = 16384;
    private static final byte[] TAIL = {0, 0, (byte) 0xFF, (byte) 0xFF};

    private final int maxMessageBytes;
    private final Utf8Validator utf8 = new Utf8Validator();
    private Inflater inflater = new Inflater(true);
    private boolean compressedMessage;
    private boolean textMessage;
    private long messageBytes;
    private boolean failed;

    /** A decoder refusing messages that inflate to more than {@code maxMessageBytes}. */
    public PerMessageDeflateDecoder(int maxMessageBytes) {
        if (maxMessageBytes <= 0) {
            throw new IllegalArgumentException("maxMessageBytes: " + maxMessageBytes + " (expected: > 0)");
        }
        this.maxMessageBytes = maxMessageBytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (failed || inflater == null) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (!(msg instanceof WebSocketFrame frame) || frame.isControl()) {
            ctx.fireChannelRead(msg);
            return;
        }
        boolean first = !(frame instanceof ContinuationWebSocketFrame);
        if (first) {
            compressedMessage = (frame.rsv() & WebSocketFrame.RSV1) != 0;
            textMessage = frame instanceof TextWebSocketFrame;
            messageBytes = 0;
            utf8.reset();
        }
        if (!compressedMessage) {
            ctx.fireChannelRead(msg);
            return;
        }
        boolean fin = frame.isFinalFragment();
        ByteBuf out = ctx.alloc().buffer(Math.min(frame.content().readableBytes() * 2 + 64, OUTPUT_STEP_BYTES));
        int status = 0;
        String reason = null;
        try {
            ByteBuf in = frame.content();
            if (!inflate(in.nioBuffer(in.readerIndex(), in.readableBytes()), out)
                    || fin && !inflate(ByteBuffer.wrap(TAIL), out)) {
                status = WebSocketCloseStatus.MESSAGE_TOO_BIG;
            } else if (textMessage && (!utf8.update(out, out.readerIndex(), out.readableBytes())
                    || fin && !utf8.isComplete())) {
                status = WebSocketCloseStatus.INVALID_PAYLOAD_DATA;
                reason = "text message is not UTF-8";
            }
        } catch (DataFormatException e) {
            status = WebSocketCloseStatus.INVALID_PAYLOAD_DATA;
            reason = "corrupt compressed data";
        } finally {
            frame.release();
        }
        if (status != 0) {
            out.release();
            fail(ctx, status == WebSocketCloseStatus.MESSAGE_TOO_BIG
                    ? new WebSocketTooBigException("inflated message", messageBytes, maxMessageBytes)
                    : new WebSocketProtocolException(status, reason));
            return;
        }
        int rsv = frame.rsv() & ~WebSocketFrame.RSV1;
        WebSocketFrame inflated;
        if (frame instanceof TextWebSocketFrame) {
            inflated = new TextWebSocketFrame(fin, rsv, out);
        } else if (frame instanceof BinaryWebSocketFrame) {
            inflated = new BinaryWebSocketFrame(fin, rsv, out);
        } else {
            inflated = new ContinuationWebSocketFrame(fin, rsv, out);
        }
        if (fin) {
            compressedMessage = false;
            if (inflater.finished()) {
                // The peer ended its deflate stream (BFINAL): the next message starts a new one.
                inflater.reset();
            }
        }
        ctx.fireChannelRead(inflated);
    }

    /** Inflates all of {@code src} into {@code out}; false once the message passes the limit. */
    private boolean inflate(ByteBuffer src, ByteBuf out) throws DataFormatException {
        Inflater inf = inflater;
        inf.setInput(src);
        for (;;) {
            long room = maxMessageBytes - messageBytes + 1;
            if (out.writableBytes() == 0) {
                // Doubling (capped by what the limit leaves) keeps the copies of a growing buffer linear.
                out.ensureWritable((int) Math.min(Math.max(out.capacity(), OUTPUT_STEP_BYTES), room));
            }
            int step = (int) Math.min(out.writableBytes(), room);
            ByteBuffer dst = out.nioBuffer(out.writerIndex(), step);
            int n = inf.inflate(dst);
            out.writerIndex(out.writerIndex() + n);
            messageBytes += n;
            if (messageBytes > maxMessageBytes) {
                return false;
            }
            if (n == 0) {
                if (inf.needsDictionary()) {
                    throw new DataFormatException("preset dictionary requested");
                }
                if (inf.needsInput() || inf.finished()) {
                    return true;
                }
            }
        }
    }

    private void fail(ChannelHandlerContext ctx, WebSocketProtocolException cause) {
        failed = true;
        if (!ctx.channel().isOpen()) {
            return;
        }
        ctx.fireExceptionCaught(cause);
        if (ctx.channel().isActive()) {
            ctx.writeAndFlush(new CloseWebSocketFrame(cause.closeStatus(), cause.closeReason()))
                    .addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.close();
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
        if (inflater != null) {
            inflater.end();
            inflater = null;
        }
    }
}
