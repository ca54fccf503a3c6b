package io.weir.handler.codec.http.websocketx;

import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelDrainEvent;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.concurrent.ScheduledFuture;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.TimeUnit;

/**
 * What both protocol handlers do once the connection speaks WebSocket: answer pings with pongs, drop pongs, run
 * the close handshake (RFC 6455 §5.5.1, §7) with its timeout, refuse data after a close, and send idle pings.
 * A server that is draining ({@link ChannelDrainEvent}) starts the close handshake with 1001 (going away).
 * Only called on the channel's event loop.
 */
abstract class WebSocketProtocolHandler implements ChannelHandler {
    private static final System.Logger LOGGER = System.getLogger(WebSocketProtocolHandler.class.getName());

    final WebSocketConfig config;
    private final boolean server;
    private ChannelHandlerContext ctx;
    private boolean open;
    private boolean closeSent;
    private boolean closeReceived;
    private ScheduledFuture<?> closeTimeout;
    private ScheduledFuture<?> idleCheck;
    private boolean readSinceCheck;
    private boolean pingOutstanding;
    private final Runnable closeTimeoutTask = this::closeTimedOut;
    private final Runnable idleCheckTask = this::idleCheck;

    WebSocketProtocolHandler(WebSocketConfig config, boolean server) {
        this.config = config.clone();
        this.server = server;
    }

    /** Called once the pipeline speaks WebSocket. */
    final void webSocketOpened(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        open = true;
        long ping = config.idlePingIntervalMillis();
        if (ping > 0) {
            idleCheck = ctx.executor().scheduleWithFixedDelay(idleCheckTask, ping, ping, TimeUnit.MILLISECONDS);
        }
    }

    final boolean isWebSocketOpen() {
        return open;
    }

    /** Handles a message read after the handshake. */
    final void frameRead(ChannelHandlerContext ctx, Object msg) {
        readSinceCheck = true;
        if (msg instanceof PingWebSocketFrame ping) {
            if (closeSent) {
                ping.release();
                return;
            }
            // §5.5.2: answer with a pong carrying the same data, as soon as practical.
            ctx.writeAndFlush(new PongWebSocketFrame(ping.content()));
            return;
        }
        if (msg instanceof PongWebSocketFrame pong) {
            pingOutstanding = false;
            pong.release();
            return;
        }
        if (msg instanceof CloseWebSocketFrame close) {
            closeRead(ctx, close);
            return;
        }
        if (closeReceived) {
            // §5.5.1: nothing follows the peer's close frame.
            ReferenceCountUtil.release(msg);
            return;
        }
        ctx.fireChannelRead(msg);
    }

    private void closeRead(ChannelHandlerContext ctx, CloseWebSocketFrame close) {
        if (closeReceived) {
            close.release();
            return;
        }
        closeReceived = true;
        if (closeSent) {
            // We started the close handshake: it is complete. A server closes TCP first (§7.1.1); a client waits
            // for the server to, within the close timeout already running.
            ctx.fireChannelRead(close);
            if (server) {
                ctx.close();
            }
            return;
        }
        closeSent = true;
        int status = close.statusCode();
        // The application hears why first: closing tears the pipeline down.
        // §5.5.1: echo the status code; an empty close is answered with an empty one.
        CloseWebSocketFrame answer = status < 0 ? new CloseWebSocketFrame(Unpooled.EMPTY_BUFFER)
                : new CloseWebSocketFrame(status, "");
        ctx.fireChannelRead(close);
        var written = ctx.writeAndFlush(answer);
        if (server) {
            written.addListener(ChannelFutureListener.CLOSE);
        } else {
            scheduleCloseTimeout(ctx);
        }
    }

    @Override
    public final void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (isWebSocketOpen()) {
            frameWrite(ctx, msg, promise);
        } else {
            ctx.write(msg, promise);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof ChannelDrainEvent && server && isWebSocketOpen() && !closeSent) {
            // RFC 6455 §7.4.1: 1001, the endpoint is going away (a server going down); the peer answers and the
            // close timeout bounds a peer that does not.
            closeSent = true;
            ctx.writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.GOING_AWAY, "server shutting down"));
            scheduleCloseTimeout(ctx);
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public final void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        if (cause instanceof WebSocketProtocolException) {
            protocolFailed(cause);
            return;
        }
        ctx.fireExceptionCaught(cause);
    }

    /** Handles a write after the handshake. */
    private void frameWrite(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof CloseWebSocketFrame) {
            if (closeSent) {
                ReferenceCountUtil.release(msg);
                promise.setFailure(new IllegalStateException("a close frame was already sent"));
                return;
            }
            closeSent = true;
            if (closeReceived && server) {
                ctx.write(msg, promise.unvoid()).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            ctx.write(msg, promise);
            scheduleCloseTimeout(ctx);
            return;
        }
        if (closeSent && msg instanceof WebSocketFrame f && !(f instanceof PongWebSocketFrame)) {
            // §5.5.1: no data frames after our close frame.
            f.release();
            promise.setFailure(new ClosedChannelException());
            return;
        }
        ctx.write(msg, promise);
    }

    private void protocolFailed(Throwable cause) {
        // The decoder or inflater already sent the close frame and is closing the channel.
        closeSent = true;
        LOGGER.log(System.Logger.Level.DEBUG, "WebSocket connection failed: {0}", cause);
    }

    private void scheduleCloseTimeout(ChannelHandlerContext ctx) {
        if (closeTimeout == null) {
            closeTimeout = ctx.executor().schedule(closeTimeoutTask, config.closeTimeoutMillis(),
                    TimeUnit.MILLISECONDS);
        }
    }

    private void closeTimedOut() {
        if (ctx != null && ctx.channel().isOpen()) {
            LOGGER.log(System.Logger.Level.DEBUG, "close handshake timed out after {0} ms: closing {1}",
                    config.closeTimeoutMillis(), ctx.channel());
            ctx.close();
        }
    }

    private void idleCheck() {
        if (closeSent || !ctx.channel().isActive()) {
            return;
        }
        if (readSinceCheck) {
            readSinceCheck = false;
            return;
        }
        if (pingOutstanding) {
            // A whole interval after our ping without a byte from the peer: it is gone.
            closeSent = true;
            ctx.writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.GOING_AWAY, "ping timeout"));
            scheduleCloseTimeout(ctx);
            return;
        }
        pingOutstanding = true;
        ctx.writeAndFlush(new PingWebSocketFrame());
    }

    final void cancelTimers() {
        if (closeTimeout != null) {
            closeTimeout.cancel(false);
        }
        if (idleCheck != null) {
            idleCheck.cancel(false);
        }
    }
}
