package io.weir.handler.codec.http.websocketx;

import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.handler.codec.http.FullHttpResponse;
import io.weir.util.concurrent.ScheduledFuture;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A WebSocket client in one handler. Placed after {@code HttpClientCodec} and {@code HttpObjectAggregator}, it
 * sends the upgrade request of its {@link WebSocketClientHandshaker} when the channel becomes active, validates
 * the answer, and then behaves as {@link WebSocketServerProtocolHandler} does after its handshake, except that
 * after the close handshake it waits for the server to close the TCP connection (RFC 6455 §7.1.1), closing it
 * itself after {@link WebSocketConfig#closeTimeoutMillis()}.
 *
 * <p>Events: {@link WebSocketClientHandshakeEvent#HANDSHAKE_ISSUED}, then {@code HANDSHAKE_COMPLETE} (frames may
 * be written from then on) or, after {@link WebSocketConfig#handshakeTimeoutMillis()} without a valid answer,
 * {@code HANDSHAKE_TIMEOUT} and a close. A refused answer fires the {@link WebSocketHandshakeException} and
 * closes. {@link #handshakeFuture()} tells the same.
 *
 * <p>One instance per channel. Only called on the channel's event loop.
 */
public final class WebSocketClientProtocolHandler extends WebSocketProtocolHandler {
    private final WebSocketClientHandshaker handshaker;
    private ChannelPromise handshakeFuture;
    private ScheduledFuture<?> handshakeTimeout;
    private ChannelHandlerContext ctx;
    private boolean issued;

    /** A client handler running {@code handshaker} (one per connection). */
    public WebSocketClientProtocolHandler(WebSocketClientHandshaker handshaker) {
        super(handshaker.config(), false);
        this.handshaker = Objects.requireNonNull(handshaker, "handshaker");
    }

    /** The handshaker, which knows the subprotocol and extensions agreed. */
    public WebSocketClientHandshaker handshaker() {
        return handshaker;
    }

    /** Succeeds when the handshake completes; fails if it is refused, times out or the channel closes first. */
    public ChannelFuture handshakeFuture() {
        return handshakeFuture;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        handshakeFuture = ctx.newPromise();
        if (ctx.channel().isActive()) {
            issue(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        issue(ctx);
        ctx.fireChannelActive();
    }

    private void issue(ChannelHandlerContext ctx) {
        if (issued) {
            return;
        }
        issued = true;
        handshakeTimeout = ctx.executor().schedule(this::handshakeTimedOut, config.handshakeTimeoutMillis(),
                TimeUnit.MILLISECONDS);
        ctx.writeAndFlush(handshaker.newHandshakeRequest()).addListener(f -> {
            if (f.isSuccess()) {
                ctx.fireUserEventTriggered(WebSocketClientHandshakeEvent.HANDSHAKE_ISSUED);
            } else {
                handshakeFuture.tryFailure(f.cause());
                ctx.close();
            }
        });
    }

    private void handshakeTimedOut() {
        if (handshakeFuture.isDone()) {
            return;
        }
        handshakeFuture.tryFailure(new WebSocketHandshakeException(0,
                "no handshake answer within " + config.handshakeTimeoutMillis() + " ms"));
        ctx.fireUserEventTriggered(WebSocketClientHandshakeEvent.HANDSHAKE_TIMEOUT);
        ctx.close();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (isWebSocketOpen()) {
            frameRead(ctx, msg);
            return;
        }
        if (msg instanceof FullHttpResponse res && !handshakeFuture.isDone()) {
            try {
                handshaker.finishHandshake(ctx, res);
            } catch (WebSocketHandshakeException e) {
                handshakeTimeout.cancel(false);
                handshakeFuture.tryFailure(e);
                ctx.fireExceptionCaught(e);
                ctx.close();
                return;
            } finally {
                res.release();
            }
            handshakeTimeout.cancel(false);
            webSocketOpened(ctx);
            handshakeFuture.trySuccess();
            ctx.fireUserEventTriggered(WebSocketClientHandshakeEvent.HANDSHAKE_COMPLETE);
            return;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancelTimers();
        if (handshakeTimeout != null) {
            handshakeTimeout.cancel(false);
        }
        handshakeFuture.tryFailure(new WebSocketHandshakeException(0, "connection closed before the handshake"));
        ctx.fireChannelInactive();
    }
}
