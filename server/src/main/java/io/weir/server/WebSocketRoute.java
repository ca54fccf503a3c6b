package io.weir.server;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.http.DefaultFullHttpResponse;
import io.weir.handler.codec.http.FullHttpRequest;
import io.weir.handler.codec.http.FullHttpResponse;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpMethod;
import io.weir.handler.codec.http.HttpResponseStatus;
import io.weir.handler.codec.http.QueryStringDecoder;
import io.weir.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.weir.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.weir.handler.codec.http.websocketx.PerMessageDeflateConfig;
import io.weir.handler.codec.http.websocketx.TextWebSocketFrame;
import io.weir.handler.codec.http.websocketx.WebSocketConfig;
import io.weir.handler.codec.http.websocketx.WebSocketServerHandshaker;
import io.weir.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.weir.handler.codec.http2.Http2WebSocketServerHandler;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The example server's WebSocket route: {@code /ws} echoes every text and binary message (permessage-deflate when
 * the client offers it), and {@code GET /ws.html} serves a small page that connects to it, sends what is typed and
 * shows the echo. Both handlers go right after the {@code HttpObjectAggregator}:
 *
 * <pre>{@code
 * pipeline.addLast(new HttpServerCodec(), ..., new HttpObjectAggregator(1 << 20),
 *         WebSocketRoute.newUpgradeHandler(), WebSocketRoute.newEchoHandler(), new HttpServerHandler());
 * }</pre>
 *
 * Other requests pass on untouched. After an upgrade the HTTP handlers leave the pipeline and frames reach the
 * echo handler. Over HTTP/2 the same echo answers RFC 8441's extended CONNECT: {@link #newHttp2Handler} goes first
 * in each stream's pipeline.
 */
public final class WebSocketRoute {
    /** Where the echo endpoint listens. */
    public static final String PATH = "/ws";
    /** Where the page is served. */
    public static final String PAGE_PATH = "/ws.html";
    /** Largest message accepted on {@link #PATH}. */
    public static final int MAX_MESSAGE_BYTES = 1 << 20;

    static final String PAGE = """
            <!doctype html>
            <html lang="en">
            <meta charset="utf-8">
            <title>Weir WebSocket echo</title>
            <input id="message" value="Hello, Weir!" size="40"> <button id="send">Send</button>
            <pre id="log"></pre>
            <script>
            const log = text => document.getElementById('log').textContent += text + '\\n';
            const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws');
            ws.onopen = () => log('open, extensions: ' + (ws.extensions || 'none'));
            ws.onmessage = event => log('echo: ' + event.data);
            ws.onclose = event => log('closed: ' + event.code);
            document.getElementById('send').onclick = () => ws.send(document.getElementById('message').value);
            </script>
            </html>
            """;
    private static final byte[] PAGE_BYTES = PAGE.getBytes(StandardCharsets.UTF_8);
    private static final Echo ECHO = new Echo();
    /** One configuration for every connection's upgrade handler (neither is changed once built). */
    private static final WebSocketConfig CONFIG = new WebSocketConfig().setMaxMessageBytes(MAX_MESSAGE_BYTES);
    private static final PerMessageDeflateConfig DEFLATE = new PerMessageDeflateConfig();

    private WebSocketRoute() {
    }

    /** The upgrade handler for {@link #PATH}: one per connection (it keeps the connection's WebSocket state). */
    public static ChannelHandler newUpgradeHandler() {
        return new WebSocketServerProtocolHandler(PATH, CONFIG).compression(DEFLATE);
    }

    /**
     * The first handler of each HTTP/2 stream: an extended CONNECT to {@link #PATH} (RFC 8441) becomes the same
     * echo, with the same limits and compression, over the stream; other streams pass on untouched. The server's
     * codec must advertise SETTINGS_ENABLE_CONNECT_PROTOCOL. Once open, the tunnel is exempt from the codec's
     * stream read timeout and minimum body rate; as over HTTP/1.1, an idle WebSocket is pinged every
     * {@value WebSocketConfig#DEFAULT_IDLE_PING_INTERVAL_MILLIS} ms and a peer that stops answering is closed with
     * 1001. The handler is shared by every stream.
     */
    public static ChannelHandler newHttp2Handler() {
        return new Http2WebSocketServerHandler(PATH,
                new WebSocketServerHandshaker(List.of(), origin -> true, CONFIG, DEFLATE), ECHO);
    }

    /** The handler serving {@link #PAGE_PATH} and echoing frames; shared by every connection. */
    public static ChannelHandler newEchoHandler() {
        return ECHO;
    }

    /** Serves the page and echoes data frames; passes everything else on. Keeps no state. */
    @ChannelHandler.Sharable
    static final class Echo implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof TextWebSocketFrame || msg instanceof BinaryWebSocketFrame
                    || msg instanceof ContinuationWebSocketFrame) {
                // The frame is handed to the write, which releases it once sent.
                ctx.writeAndFlush(msg);
                return;
            }
            if (msg instanceof FullHttpRequest req && PAGE_PATH.equals(new QueryStringDecoder(req.uri()).path())
                    && (req.method().equals(HttpMethod.GET) || req.method().equals(HttpMethod.HEAD))) {
                boolean head = req.method().equals(HttpMethod.HEAD);
                var version = req.protocolVersion();
                req.release();
                ByteBuf body = ctx.alloc().buffer(PAGE_BYTES.length);
                if (!head) {
                    body.writeBytes(PAGE_BYTES);
                }
                FullHttpResponse res = new DefaultFullHttpResponse(version, HttpResponseStatus.OK, body);
                res.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/html; charset=utf-8");
                res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, PAGE_BYTES.length);
                // Keep-alive is HttpServerKeepAliveHandler's business, as for every other route.
                ctx.writeAndFlush(res);
                return;
            }
            ctx.fireChannelRead(msg);
        }
    }
}
