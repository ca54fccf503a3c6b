package io.weir.handler.codec.http2;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPipeline;
import io.weir.handler.codec.http.DefaultHttpHeaders;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpHeaders;
import io.weir.handler.codec.http.websocketx.WebSocketConfig;
import io.weir.handler.codec.http.websocketx.WebSocketHandshakeException;
import io.weir.handler.codec.http.websocketx.WebSocketServerHandshakeCompleted;
import io.weir.handler.codec.http.websocketx.WebSocketServerHandshaker;
import io.weir.util.AsciiString;
import java.util.List;
import java.util.Objects;

/**
 * A WebSocket endpoint on HTTP/2 streams (RFC 8441): the first handler of a stream's child pipeline. A stream
 * that opens with an extended CONNECT ({@code :method CONNECT}, {@code :protocol websocket}) for {@code path} is
 * answered with {@code :status 200} (subprotocol and permessage-deflate negotiated by the
 * {@link WebSocketServerHandshaker}, as on HTTP/1.1, without {@code Sec-WebSocket-Accept}); the handlers after
 * this one are then replaced by the WebSocket frame codec, its protocol handler (pings, close handshake) and
 * {@code frameHandler}, which receives the frames and a {@link WebSocketServerHandshakeCompleted} event, exactly as
 * after an HTTP/1.1 upgrade. DATA frames carry the WebSocket bytes; the stream's END_STREAM and RST_STREAM stand
 * for the TCP close and reset (RFC 8441 §6).
 *
 * <p>Every other stream is left to the handlers after this one (it removes itself after the first HEADERS). An
 * extended CONNECT for another protocol or path is answered 404; a refused handshake with the status the
 * handshaker chose (400, 403, 426) and its reason as text.
 *
 * <p>The connection's codec must advertise SETTINGS_ENABLE_CONNECT_PROTOCOL (see
 * {@link Http2Settings#connectProtocolEnabled}); without it the codec refuses {@code :protocol} with a stream
 * PROTOCOL_ERROR before this handler sees the stream. Note that the codec's stream read timeout also applies to a
 * WebSocket stream: configure idle pings ({@link WebSocketConfig#setIdlePingIntervalMillis}) below it, or raise it.
 *
 * <p>Keeps no state of its own: one instance may serve every stream of every connection (when
 * {@code frameHandler} is {@link ChannelHandler.Sharable} too). Only called on the channel's event loop.
 */
@ChannelHandler.Sharable
public final class Http2WebSocketServerHandler implements ChannelHandler {
    /** The {@code :protocol} value of a WebSocket (RFC 8441 §4). */
    public static final AsciiString WEBSOCKET = AsciiString.cached("websocket");
    private static final AsciiString OK = AsciiString.cached("200");

    private final String path;
    private final WebSocketServerHandshaker handshaker;
    private final ChannelHandler frameHandler;

    /**
     * An endpoint at {@code path} (the query is ignored) negotiating with {@code handshaker}, whose frames go to
     * {@code frameHandler} (a new instance per stream, or a {@link ChannelHandler.Sharable} one).
     */
    public Http2WebSocketServerHandler(String path, WebSocketServerHandshaker handshaker, ChannelHandler frameHandler) {
        this.path = Objects.requireNonNull(path, "path");
        this.handshaker = Objects.requireNonNull(handshaker, "handshaker");
        this.frameHandler = Objects.requireNonNull(frameHandler, "frameHandler");
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof Http2HeadersFrame frame) || frame.headers().protocol() == null) {
            ctx.pipeline().remove(this);
            ctx.fireChannelRead(msg);
            return;
        }
        Http2Headers request = frame.headers();
        // The codec let :protocol through only on a CONNECT with :scheme and :path (RFC 8441 §4).
        if (!WEBSOCKET.contentEqualsIgnoreCase(request.protocol()) || !path.equals(pathOf(request.path()))) {
            refuse(ctx, 404, "no WebSocket endpoint for :protocol " + request.protocol() + " at " + request.path());
            return;
        }
        if (frame.endStream()) {
            refuse(ctx, 400, "an extended CONNECT must leave the stream open");
            return;
        }
        HttpHeaders fields = regularFields(request);
        WebSocketServerHandshaker.Accepted accepted;
        try {
            accepted = handshaker.acceptExtendedConnect(fields);
        } catch (WebSocketHandshakeException e) {
            refuse(ctx, e.httpStatus(), e.getMessage());
            return;
        }
        Http2Headers answer = new Http2Headers().status(OK);
        HttpHeaders agreed = accepted.response().headers();
        accepted.response().release();
        if (accepted.subprotocol() != null) {
            answer.add(HttpHeaderNames.SEC_WEBSOCKET_PROTOCOL, agreed.get(HttpHeaderNames.SEC_WEBSOCKET_PROTOCOL));
        }
        if (accepted.extensions() != null) {
            answer.add(HttpHeaderNames.SEC_WEBSOCKET_EXTENSIONS, agreed.get(HttpHeaderNames.SEC_WEBSOCKET_EXTENSIONS));
        }
        ctx.writeAndFlush(new Http2HeadersFrame(answer, false)).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
        ChannelPipeline p = ctx.pipeline();
        List<String> names = p.names();
        for (int i = names.indexOf(ctx.name()) + 1; i < names.size(); i++) {
            if (p.get(names.get(i)) != null) {
                p.remove(names.get(i));
            }
        }
        p.addAfter(ctx.name(), Http2WebSocketTunnel.NAME,
                new Http2WebSocketTunnel(handshaker.config().closeTimeoutMillis()));
        handshaker.openTunnel(p, Http2WebSocketTunnel.NAME, accepted);
        p.addLast(frameHandler);
        p.remove(this);
        p.fireUserEventTriggered(new WebSocketServerHandshakeCompleted(request.path().toString(), fields,
                accepted.subprotocol(), accepted.extensions()));
    }

    private static String pathOf(CharSequence target) {
        String s = target.toString();
        int q = s.indexOf('?');
        return q < 0 ? s : s.substring(0, q);
    }

    static HttpHeaders regularFields(Http2Headers h2) {
        HttpHeaders out = new DefaultHttpHeaders(false);
        for (int i = h2.pseudoHeaderCount(); i < h2.size(); i++) {
            out.add(h2.name(i), h2.value(i));
        }
        return out;
    }

    /**
     * Answers {@code status} with {@code reason} as text and ends the stream (RFC 9113 §8.5: not a 2xx), then
     * closes the channel, which resets the client's half: nothing it sends on this stream would be read.
     */
    private static void refuse(ChannelHandlerContext ctx, int status, String reason) {
        Http2Headers answer = new Http2Headers().status(Integer.toString(status))
                .set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        if (status == 426) {
            answer.set(HttpHeaderNames.SEC_WEBSOCKET_VERSION, WebSocketServerHandshaker.VERSION);
        }
        ctx.write(new Http2HeadersFrame(answer, false));
        ByteBuf body = ctx.alloc().buffer();
        ByteBufUtil.writeUtf8(body, reason + "\n");
        ctx.writeAndFlush(new Http2DataFrame(body, true)).addListener(ChannelFutureListener.CLOSE);
    }
}
