package io.weir.handler.codec.http2;

import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPipeline;
import io.weir.channel.ChannelPromise;
import io.weir.handler.codec.http.HttpHeaders;
import io.weir.handler.codec.http.websocketx.WebSocketClientHandshakeEvent;
import io.weir.handler.codec.http.websocketx.WebSocketClientHandshaker;
import io.weir.handler.codec.http.websocketx.WebSocketHandshakeException;
import io.weir.util.AsciiString;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.ScheduledFuture;
import java.net.URI;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A WebSocket client on an HTTP/2 stream (RFC 8441): added to a child channel opened with
 * {@link Http2StreamChannelBootstrap}, before the handler that reads the frames. Once the server's first SETTINGS
 * has shown SETTINGS_ENABLE_CONNECT_PROTOCOL = 1 it sends the extended CONNECT of its
 * {@link WebSocketClientHandshaker} ({@code :method CONNECT}, {@code :protocol websocket}, {@code :scheme} http
 * for ws and https for wss, {@code :path}, {@code :authority}); a 2xx answer with an agreed subprotocol and
 * extensions puts the WebSocket frame codec and protocol handler in its place, fires
 * {@link WebSocketClientHandshakeEvent#HANDSHAKE_COMPLETE} and succeeds {@link #handshakeFuture()}. A server that
 * does not enable the extended CONNECT, a refusal, or no answer within the handshake timeout fails the future and
 * closes the stream.
 *
 * <p>After the handshake it behaves as {@code WebSocketClientProtocolHandler}: pings answered, close handshake
 * with its timeout; the server's END_STREAM ends the tunnel (RFC 8441 §6).
 *
 * <p>One instance per stream. Only called on the channel's event loop.
 */
public final class Http2WebSocketClientHandler implements ChannelHandler {
    private static final AsciiString CONNECT = AsciiString.cached("CONNECT");

    private final WebSocketClientHandshaker handshaker;
    private ChannelPromise handshakeFuture;
    private ScheduledFuture<?> handshakeTimeout;
    private boolean issued;

    /** A client running {@code handshaker} (one per stream; its URI is ws or wss). */
    public Http2WebSocketClientHandler(WebSocketClientHandshaker handshaker) {
        this.handshaker = Objects.requireNonNull(handshaker, "handshaker");
    }

    /** The handshaker, which knows the subprotocol and extensions agreed. */
    public WebSocketClientHandshaker handshaker() {
        return handshaker;
    }

    /** Succeeds when the handshake completes; fails if it is refused, times out or the stream closes first. */
    public ChannelFuture handshakeFuture() {
        return handshakeFuture;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        handshakeFuture = ctx.newPromise();
        if (ctx.channel().isActive()) {
            issue(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        issue(ctx);
        ctx.fireChannelActive();
    }

    private void issue(ChannelHandlerContext ctx) {
        if (issued) {
            return;
        }
        issued = true;
        long timeout = handshaker.config().handshakeTimeoutMillis();
        handshakeTimeout = ctx.executor().schedule(() -> fail(ctx, new WebSocketHandshakeException(0,
                "no extended CONNECT answer within " + timeout + " ms")), timeout, TimeUnit.MILLISECONDS);
        Http2FrameCodec codec = ctx.channel().parent() == null ? null
                : ctx.channel().parent().pipeline().get(Http2FrameCodec.class);
        if (codec == null) {
            fail(ctx, new IllegalStateException("not an HTTP/2 stream channel: " + ctx.channel()));
            return;
        }
        Future<Boolean> support = codec.peerExtendedConnect();
        support.addListener(f -> {
            if (handshakeFuture.isDone()) {
                return;
            }
            if (!f.isSuccess()) {
                fail(ctx, f.cause());
            } else if (!Boolean.TRUE.equals(f.getNow())) {
                fail(ctx, new WebSocketHandshakeException(0, "the server did not send "
                        + "SETTINGS_ENABLE_CONNECT_PROTOCOL = 1: no WebSocket over HTTP/2 (RFC 8441 §3)"));
            } else {
                ctx.writeAndFlush(new Http2HeadersFrame(request(), false)).addListener(w -> {
                    if (!w.isSuccess()) {
                        fail(ctx, w.cause());
                    }
                });
            }
        });
    }

    private Http2Headers request() {
        URI uri = handshaker.uri();
        boolean secure = "wss".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme());
        String authority = uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
        Http2Headers h = new Http2Headers().method(CONNECT).protocol(Http2WebSocketServerHandler.WEBSOCKET)
                .scheme(secure ? "https" : "http").path(handshaker.requestTarget()).authority(authority);
        HttpHeaders fields = handshaker.newExtendedConnectHeaders();
        for (Iterator<Map.Entry<CharSequence, CharSequence>> it = fields.iterator(); it.hasNext();) {
            Map.Entry<CharSequence, CharSequence> e = it.next();
            // RFC 9113 §8.2.1: field names are lower case on HTTP/2.
            h.add(AsciiString.of(e.getKey()).toLowerCase(), e.getValue());
        }
        return h;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (handshakeFuture.isDone() || !(msg instanceof Http2HeadersFrame frame)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        Http2Headers answer = frame.headers();
        CharSequence status = answer.status();
        int code = status == null ? 0 : Integer.parseInt(status.toString());
        if (code >= 100 && code < 200) {
            return; // RFC 9113 §8.1: interim answers precede the final one.
        }
        if (frame.endStream() && code >= 200 && code < 300) {
            fail(ctx, new WebSocketHandshakeException(code, "the server accepted and ended the stream at once"));
            return;
        }
        ChannelPipeline p = ctx.pipeline();
        p.addAfter(ctx.name(), Http2WebSocketTunnel.NAME,
                new Http2WebSocketTunnel(handshaker.config().closeTimeoutMillis()));
        try {
            handshaker.finishExtendedConnect(p, Http2WebSocketTunnel.NAME, code,
                    Http2WebSocketServerHandler.regularFields(answer));
        } catch (WebSocketHandshakeException e) {
            p.remove(Http2WebSocketTunnel.NAME);
            fail(ctx, e);
            return;
        }
        handshakeTimeout.cancel(false);
        p.remove(this);
        handshakeFuture.trySuccess();
        p.fireUserEventTriggered(WebSocketClientHandshakeEvent.HANDSHAKE_COMPLETE);
    }

    private void fail(ChannelHandlerContext ctx, Throwable cause) {
        if (handshakeTimeout != null) {
            handshakeTimeout.cancel(false);
        }
        if (handshakeFuture.tryFailure(cause)) {
            ctx.fireExceptionCaught(cause);
            ctx.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (handshakeTimeout != null) {
            handshakeTimeout.cancel(false);
        }
        handshakeFuture.tryFailure(new WebSocketHandshakeException(0, "stream closed before the handshake"));
        ctx.fireChannelInactive();
    }
}
