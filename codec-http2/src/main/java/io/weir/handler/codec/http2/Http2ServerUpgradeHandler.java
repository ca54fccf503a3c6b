package io.weir.handler.codec.http2;

import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPipeline;
import io.weir.handler.codec.http.DefaultFullHttpResponse;
import io.weir.handler.codec.http.FullHttpResponse;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpHeaders;
import io.weir.handler.codec.http.HttpRequest;
import io.weir.handler.codec.http.HttpResponseStatus;
import io.weir.handler.codec.http.HttpServerCodec;
import io.weir.handler.codec.http.HttpUtil;
import io.weir.handler.codec.http.HttpVersion;
import io.weir.handler.codec.http.LastHttpContent;
import io.weir.util.AsciiString;
import io.weir.util.ReferenceCountUtil;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The HTTP/1.1 Upgrade to h2c (RFC 7540 §3.2; RFC 9113 §3.1 deprecates it but clients such as curl
 * {@code --http2} and the JDK's HttpClient still use it). Placed right after an {@link HttpServerCodec}: a request
 * without a body carrying {@code Upgrade: h2c}, one {@code HTTP2-Settings} field and {@code Connection: Upgrade,
 * HTTP2-Settings} is answered with 101 Switching Protocols; the HTTP/1.1 handlers are removed, the HTTP/2 ones
 * installed, the client's settings applied and the request served as stream 1. Any other request (a body, a
 * malformed HTTP2-Settings, another protocol) passes through untouched: the server may ignore an Upgrade.
 *
 * <p>Not sharable: one per connection. Event loop only.
 */
public final class Http2ServerUpgradeHandler implements ChannelHandler {

    private static final AsciiString H2C = AsciiString.cached("h2c");
    private static final AsciiString HTTP2_SETTINGS = AsciiString.cached("http2-settings");
    /** The HTTP2-Settings payload allowed, in octets (a few dozen in practice). */
    private static final int MAX_SETTINGS_PAYLOAD_BYTES = 1024;

    private final Http2ServerInitializer http2;
    private HttpRequest upgrading;
    private Http2Settings clientSettings;

    /** @param http2 installs the HTTP/2 handlers once the connection switched */
    public Http2ServerUpgradeHandler(Http2ServerInitializer http2) {
        this.http2 = Objects.requireNonNull(http2, "http2");
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (upgrading != null) {
            // The end of the upgrade request (it has no body).
            boolean last = msg instanceof LastHttpContent;
            ReferenceCountUtil.release(msg);
            if (last) {
                upgrade(ctx);
            }
            return;
        }
        if (msg instanceof HttpRequest request && request.decoderResult().isSuccess()) {
            Http2Settings settings = upgradeSettings(request);
            if (settings != null) {
                clientSettings = settings;
                upgrading = request;
                if (msg instanceof LastHttpContent) {
                    ReferenceCountUtil.release(msg);
                    upgrade(ctx);
                }
                return;
            }
        }
        ctx.fireChannelRead(msg);
    }

    /** The client's settings when {@code request} asks for h2c correctly, else null (no upgrade). */
    private static Http2Settings upgradeSettings(HttpRequest request) {
        HttpHeaders headers = request.headers();
        String upgrade = headers.get(HttpHeaderNames.UPGRADE);
        if (upgrade == null || !hasToken(upgrade, H2C)) {
            return null;
        }
        String connection = headers.get(HttpHeaderNames.CONNECTION);
        if (connection == null || !hasToken(connection, HttpHeaderNames.UPGRADE)
                || !hasToken(connection, HTTP2_SETTINGS)) {
            return null;
        }
        List<String> values = headers.getAll(HTTP2_SETTINGS);
        if (values.size() != 1) {
            return null;
        }
        if (HttpUtil.getContentLength(request, 0L) != 0 || HttpUtil.isTransferEncodingChunked(request)) {
            return null; // no buffering of an upgrade request's body: serve it as HTTP/1.1
        }
        return decodeSettings(values.get(0));
    }

    private static boolean hasToken(String value, CharSequence token) {
        for (String t : value.split(",")) {
            if (AsciiString.contentEqualsIgnoreCase(t.trim(), token)) {
                return true;
            }
        }
        return false;
    }

    /** Decodes a base64url SETTINGS payload (RFC 7540 §3.2.1); null when it is not one. */
    static Http2Settings decodeSettings(String value) {
        byte[] payload;
        try {
            payload = Base64.getUrlDecoder().decode(value.trim());
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (payload.length % 6 != 0 || payload.length > MAX_SETTINGS_PAYLOAD_BYTES) {
            return null;
        }
        Http2Settings settings = new Http2Settings();
        for (int i = 0; i < payload.length; i += 6) {
            int id = (payload[i] & 0xff) << 8 | payload[i + 1] & 0xff;
            long v = (payload[i + 2] & 0xffL) << 24 | (payload[i + 3] & 0xffL) << 16 | (payload[i + 4] & 0xffL) << 8
                    | payload[i + 5] & 0xffL;
            if (Http2Settings.isKnown(id)) {
                if (Http2Settings.violation(id, v) != null) {
                    return null;
                }
                settings.put(id, v);
            }
        }
        return settings;
    }

    private void upgrade(ChannelHandlerContext ctx) throws Http2Exception {
        HttpRequest request = upgrading;
        upgrading = null;
        ChannelPipeline pipeline = ctx.pipeline();
        FullHttpResponse switching = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.SWITCHING_PROTOCOLS, Unpooled.EMPTY_BUFFER);
        switching.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderNames.UPGRADE).set(HttpHeaderNames.UPGRADE, H2C);
        ctx.writeAndFlush(switching);
        // The HTTP/1.1 handlers go; the HTTP/2 ones come after the HTTP codec, so that bytes it still holds (the
        // client preface sent right behind the request) reach the frame codec when it is removed.
        ChannelHandlerContext httpCodec = pipeline.context(HttpServerCodec.class);
        List<String> names = pipeline.names();
        int self = names.indexOf(ctx.name());
        for (int i = names.size() - 1; i > self; i--) {
            pipeline.removeIfExists(names.get(i));
        }
        Http2FrameCodec codec = http2.install(pipeline);
        codec.upgradedFromHttp1(clientSettings, toHttp2Headers(request));
        pipeline.remove(this);
        if (httpCodec != null && pipeline.context(HttpServerCodec.class) != null) {
            pipeline.remove(httpCodec.handler());
        }
    }

    private static Http2Headers toHttp2Headers(HttpRequest request) {
        Http2Headers h2 = new Http2Headers();
        h2.method(request.method().name()).scheme("http").path(request.uri());
        String host = request.headers().get(HttpHeaderNames.HOST);
        if (host != null) {
            h2.authority(host);
        }
        Iterator<Map.Entry<CharSequence, CharSequence>> it = request.headers().iteratorCharSequence();
        while (it.hasNext()) {
            Map.Entry<CharSequence, CharSequence> e = it.next();
            String name = e.getKey().toString().toLowerCase(Locale.ROOT);
            switch (name) {
                case "host", "connection", "upgrade", "http2-settings", "keep-alive", "proxy-connection",
                        "transfer-encoding", "te" -> {
                }
                default -> h2.add(name, e.getValue());
            }
        }
        return h2;
    }
}
