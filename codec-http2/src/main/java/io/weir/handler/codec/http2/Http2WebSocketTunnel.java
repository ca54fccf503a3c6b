package io.weir.handler.codec.http2;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The bytes of a WebSocket tunnelled in an HTTP/2 stream (RFC 8441 §5, §6), on the stream's child channel: the
 * payload of each DATA frame is passed on as a {@code ByteBuf} (to the WebSocket frame decoder), and each
 * {@code ByteBuf} written becomes a DATA frame. The stream's end stands for the TCP connection's:
 * <ul>
 * <li>a close of the channel sends END_STREAM (an orderly TCP close, §6) and closes once the peer ends its side
 *     too, or after {@code closeTimeoutMillis}; a second close resets the stream;</li>
 * <li>the peer's END_STREAM is answered with ours, which closes the stream and the channel;</li>
 * <li>RST_STREAM (a TCP reset) closes the channel at once.</li>
 * </ul>
 * Only called on the channel's event loop. One instance per stream.
 */
final class Http2WebSocketTunnel implements ChannelHandler {
    /** Its name in the child pipeline. */
    static final String NAME = "ws-h2-tunnel";

    private final long closeTimeoutMillis;
    private boolean outboundEnded;
    private boolean inboundEnded;
    private ScheduledFuture<?> closeTimeout;

    Http2WebSocketTunnel(long closeTimeoutMillis) {
        this.closeTimeoutMillis = closeTimeoutMillis;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Http2DataFrame data) {
            boolean end = data.endStream();
            ByteBuf content = data.content();
            if (content.isReadable()) {
                // The frame's one reference goes on with its content.
                ctx.fireChannelRead(content);
            } else {
                data.release();
            }
            if (end) {
                peerEnded(ctx);
            }
            return;
        }
        if (msg instanceof Http2HeadersFrame headers) {
            // Trailers: nothing for WebSocket, but END_STREAM counts.
            if (headers.endStream()) {
                peerEnded(ctx);
            }
            return;
        }
        if (msg instanceof Http2ResetFrame) {
            ctx.close();
            return;
        }
        ReferenceCountUtil.release(msg);
    }

    private void peerEnded(ChannelHandlerContext ctx) {
        inboundEnded = true;
        if (!outboundEnded) {
            // RFC 8441 §6: the peer closed its side (a TCP FIN); the WebSocket is over, end ours.
            endStream(ctx);
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ByteBuf buf) {
            // Bound to the stream here, so the child channel does not copy the frame to bind it.
            ctx.write(new Http2DataFrame(stream(ctx), buf, false, 0), promise);
            return;
        }
        ctx.write(msg, promise);
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        if (outboundEnded || inboundEnded || !ctx.channel().isActive()) {
            ctx.close(promise);
            return;
        }
        // RFC 8441 §6: an orderly close is END_STREAM; the channel closes when the peer's END_STREAM closes the
        // stream, or when it does not come in time.
        endStream(ctx);
        ctx.channel().closeFuture().addListener(f -> promise.trySuccess());
        closeTimeout = ctx.executor().schedule(() -> {
            if (ctx.channel().isOpen()) {
                ctx.close();
            }
        }, closeTimeoutMillis, TimeUnit.MILLISECONDS);
    }

    private void endStream(ChannelHandlerContext ctx) {
        outboundEnded = true;
        ctx.writeAndFlush(new Http2DataFrame(stream(ctx), Unpooled.EMPTY_BUFFER, true, 0));
    }

    /** The stream of the child channel this handler is in. */
    private static Http2FrameStream stream(ChannelHandlerContext ctx) {
        return ((Http2StreamChannel) ctx.channel()).stream();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (closeTimeout != null) {
            closeTimeout.cancel(false);
        }
        ctx.fireChannelInactive();
    }
}
