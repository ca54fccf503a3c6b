package io.weir.handler.codec.http.websocketx;

import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.http.FullHttpRequest;
import io.weir.handler.codec.http.QueryStringDecoder;
import io.weir.util.concurrent.ScheduledFuture;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A WebSocket endpoint in one handler. Placed after {@code HttpServerCodec} and {@code HttpObjectAggregator}, it
 * answers the upgrade requests for its path (the query is ignored) with {@link WebSocketServerHandshaker}, passes
 * every other request on, and after the handshake:
 * <ul>
 * <li>the HTTP handlers are gone and the frame codec (and permessage-deflate, when configured and offered) is in
 *     their place; a {@link WebSocketServerHandshakeCompleted} user event carries the request URI, headers and
 *     the subprotocol chosen;</li>
 * <li>text, binary and continuation frames are passed on (whoever receives them releases them); pings are
 *     answered with pongs; pongs are dropped;</li>
 * <li>a close frame from the client is answered with the same status and the connection closed (the close frame
 *     is also passed on, to tell the application why); a close frame the application writes starts the close
 *     handshake, and a client that does not answer within {@link WebSocketConfig#closeTimeoutMillis()} is
 *     disconnected; data frames written after it fail;</li>
 * <li>with {@link WebSocketConfig#idlePingIntervalMillis()} set, an idle client is pinged, and closed with 1001
 *     when it stays silent another interval.</li>
 * </ul>
 * A 101 answer not written within {@link WebSocketConfig#handshakeTimeoutMillis()} closes the connection.
 *
 * <pre>{@code
 * ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(65536),
 *         new WebSocketServerProtocolHandler("/ws").compression(new PerMessageDeflateConfig()),
 *         new MyFrameHandler());
 * }</pre>
 *
 * <p>One instance per channel; configure it before adding it. Only called on the channel's event loop.
 */
public final class WebSocketServerProtocolHandler extends WebSocketProtocolHandler {
    private final String path;
    private List<String> subprotocols = List.of();
    private Predicate<String> originCheck = origin -> true;
    private PerMessageDeflateConfig deflate;
    private ScheduledFuture<?> handshakeTimeout;
    private final Runnable handshakeTimeoutTask = this::handshakeTimedOut;
    private ChannelHandlerContext ctx;

    /** An endpoint at {@code path} with the {@link WebSocketConfig} defaults. */
    public WebSocketServerProtocolHandler(String path) {
        this(path, new WebSocketConfig());
    }

    /** An endpoint at {@code path} with the limits of {@code config} (copied). */
    public WebSocketServerProtocolHandler(String path, WebSocketConfig config) {
        super(config, true);
        this.path = Objects.requireNonNull(path, "path");
    }

    /** Selects among {@code subprotocols}, in the client's order of preference. Returns this. */
    public WebSocketServerProtocolHandler subprotocols(List<String> subprotocols) {
        this.subprotocols = List.copyOf(subprotocols);
        return this;
    }

    /**
     * Refuses with 403 the upgrades whose {@code Origin} header (null when absent) {@code check} rejects; every
     * origin is accepted by default. Browsers send it: checking it keeps other sites' pages from using a
     * visitor's cookies on this endpoint. Returns this.
     */
    public WebSocketServerProtocolHandler originCheck(Predicate<String> check) {
        this.originCheck = Objects.requireNonNull(check, "check");
        return this;
    }

    /** Agrees to permessage-deflate with {@code config} when the client offers it (null: never). Returns this. */
    public WebSocketServerProtocolHandler compression(PerMessageDeflateConfig config) {
        this.deflate = config;
        return this;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (isWebSocketOpen()) {
            frameRead(ctx, msg);
            return;
        }
        if (msg instanceof FullHttpRequest req && path.equals(new QueryStringDecoder(req.uri()).path())) {
            try {
                upgrade(ctx, req);
            } finally {
                req.release();
            }
            return;
        }
        ctx.fireChannelRead(msg);
    }

    private void upgrade(ChannelHandlerContext ctx, FullHttpRequest req) {
        this.ctx = ctx;
        WebSocketServerHandshaker handshaker =
                new WebSocketServerHandshaker(subprotocols, originCheck, config, deflate);
        handshakeTimeout = ctx.executor().schedule(handshakeTimeoutTask, config.handshakeTimeoutMillis(),
                TimeUnit.MILLISECONDS);
        WebSocketServerHandshaker.Accepted a = handshaker.handshake(ctx, req);
        if (a == null) {
            handshakeTimeout.cancel(false);
            return;
        }
        a.written().addListener(f -> {
            ScheduledFuture<?> t = handshakeTimeout;
            if (t != null) {
                t.cancel(false);
            }
        });
        webSocketOpened(ctx);
        ctx.channel().closeFuture().addListener(f -> cancelTimers());
        ctx.fireUserEventTriggered(new WebSocketServerHandshakeCompleted(req.uri(), req.headers().copy(),
                a.subprotocol(), a.extensions()));
    }

    private void handshakeTimedOut() {
        handshakeTimeout = null;
        // Fired only while the 101 has not been written.
        if (ctx != null && ctx.channel().isOpen()) {
            ctx.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancelTimers();
        if (handshakeTimeout != null) {
            handshakeTimeout.cancel(false);
        }
        ctx.fireChannelInactive();
    }
}
