package io.weir.handler.codec.http.websocketx;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPipeline;
import io.weir.handler.codec.http.DefaultFullHttpResponse;
import io.weir.handler.codec.http.FullHttpResponse;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpHeaderValues;
import io.weir.handler.codec.http.HttpHeaders;
import io.weir.handler.codec.http.HttpMethod;
import io.weir.handler.codec.http.HttpRequest;
import io.weir.handler.codec.http.HttpResponseStatus;
import io.weir.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The server side of the RFC 6455 §4.2 opening handshake, version 13, over an HTTP/1.1 Upgrade.
 *
 * <p>A request is accepted when it is a GET of HTTP/1.1 or later with {@code Upgrade: websocket}, a
 * {@code Connection} list holding {@code upgrade}, {@code Sec-WebSocket-Version: 13} and a
 * {@code Sec-WebSocket-Key} that is the base64 of 16 bytes, and the origin check passes. The answer is 101 with
 * {@code Sec-WebSocket-Accept} = base64(SHA-1(key + GUID)), the first of the client's subprotocols that this
 * server supports, and permessage-deflate when configured and offered (see {@link PerMessageDeflateConfig}).
 * Refusals: 426 with {@code Sec-WebSocket-Version: 13} for another version (§4.4), 403 when the origin check
 * refuses, 400 with the reason as text otherwise.
 *
 * <p>Immutable and thread-safe: one instance may serve every connection.
 */
public final class WebSocketServerHandshaker {
    /** The GUID of RFC 6455 §1.3 appended to the key before hashing. */
    public static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    /** The only version spoken (RFC 6455 §4.1). */
    public static final String VERSION = "13";
    private static final int KEY_BYTES = 16;
    /** Largest Sec-WebSocket-Key accepted: the base64 of 16 bytes is 24 characters. */
    private static final int MAX_KEY_CHARS = 24;

    private final List<String> subprotocols;
    private final Predicate<String> originCheck;
    private final WebSocketConfig config;
    private final PerMessageDeflateConfig deflate;

    /**
     * A handshaker choosing among {@code subprotocols} (empty: none), refusing with 403 the requests whose
     * {@code Origin} (null when absent) {@code originCheck} rejects, with the limits of {@code config}, and
     * permessage-deflate when {@code deflate} is not null. The configs are copied.
     */
    public WebSocketServerHandshaker(List<String> subprotocols, Predicate<String> originCheck, WebSocketConfig config,
                                     PerMessageDeflateConfig deflate) {
        this.subprotocols = List.copyOf(subprotocols);
        this.originCheck = Objects.requireNonNull(originCheck, "originCheck");
        this.config = config.clone();
        this.deflate = deflate == null ? null : deflate.clone();
    }

    /** What an accepted request is answered with and what was agreed. */
    public static final class Accepted {
        private final FullHttpResponse response;
        private final String subprotocol;
        private final String extensions;
        private final PerMessageDeflate deflate;
        private ChannelFuture written;

        Accepted(FullHttpResponse response, String subprotocol, String extensions, PerMessageDeflate deflate) {
            this.response = response;
            this.subprotocol = subprotocol;
            this.extensions = extensions;
            this.deflate = deflate;
        }

        /** The 101 answer (owned by the caller until written). */
        public FullHttpResponse response() {
            return response;
        }

        /** The subprotocol selected, or null. */
        public String subprotocol() {
            return subprotocol;
        }

        /** The {@code Sec-WebSocket-Extensions} answered, or null. */
        public String extensions() {
            return extensions;
        }

        /** The write of the 101 answer, once {@link WebSocketServerHandshaker#handshake} made it; else null. */
        public ChannelFuture written() {
            return written;
        }

        PerMessageDeflate deflate() {
            return deflate;
        }
    }

    /** A copy of the limits and timeouts a connection accepted by this handshaker runs with. */
    public WebSocketConfig config() {
        return config.clone();
    }

    /**
     * Checks {@code request} and builds the 101 answer.
     *
     * @throws WebSocketHandshakeException with the status to answer (400, 403, 426) if the request is refused
     */
    public Accepted accept(HttpRequest request) {
        HttpHeaders h = request.headers();
        if (!HttpMethod.GET.equals(request.method())) {
            throw new WebSocketHandshakeException(400, "a WebSocket upgrade must be a GET, not " + request.method());
        }
        HttpVersion v = request.protocolVersion();
        if (v.majorVersion() < 1 || v.majorVersion() == 1 && v.minorVersion() < 1) {
            throw new WebSocketHandshakeException(400, "a WebSocket upgrade needs HTTP/1.1, not " + v);
        }
        if (!h.containsValue(HttpHeaderNames.UPGRADE, HttpHeaderValues.WEBSOCKET, true)) {
            throw new WebSocketHandshakeException(400, "missing Upgrade: websocket");
        }
        if (!h.containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE, true)) {
            throw new WebSocketHandshakeException(400, "missing the upgrade token in Connection");
        }
        checkVersion(h);
        List<String> keys = h.getAll(HttpHeaderNames.SEC_WEBSOCKET_KEY);
        String key = keys.size() == 1 ? keys.get(0).trim() : null;
        if (key == null || !isValidKey(key)) {
            throw new WebSocketHandshakeException(400, "Sec-WebSocket-Key must be the base64 of 16 bytes");
        }
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.SWITCHING_PROTOCOLS,
                Unpooled.EMPTY_BUFFER);
        HttpHeaders rh = res.headers();
        rh.set(HttpHeaderNames.UPGRADE, HttpHeaderValues.WEBSOCKET);
        rh.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE);
        rh.set(HttpHeaderNames.SEC_WEBSOCKET_ACCEPT, acceptValue(key));
        return negotiate(h, res);
    }

    /**
     * Checks the fields of an RFC 8441 extended CONNECT ({@code :protocol websocket}, e.g. on an HTTP/2 stream) and
     * builds its answer: 200 with the subprotocol and extensions agreed, and no {@code Sec-WebSocket-Accept}
     * (RFC 8441 §5: the key and accept fields are not used; the version, origin, subprotocol and extension fields
     * are, as in RFC 6455). The method and {@code :protocol} are the caller's to check. The answer's status and
     * headers are to be carried in the tunnel's own framing (its version and empty body mean nothing).
     *
     * @param headers the request's regular fields
     * @throws WebSocketHandshakeException with the status to answer (400, 403, 426) if the request is refused
     */
    public Accepted acceptExtendedConnect(HttpHeaders headers) {
        checkVersion(headers);
        return negotiate(headers, new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.EMPTY_BUFFER));
    }

    /**
     * Makes {@code pipeline} speak WebSocket after an {@link #acceptExtendedConnect} whose answer was sent: the
     * frame encoder and decoder (and permessage-deflate's handlers when agreed) and a protocol handler (pings,
     * close handshake, timeouts) go after the handler named {@code after}, which must carry the tunnel's bytes
     * ({@code ByteBuf} both ways; closing the channel ends the tunnel). Frames reach the handlers after them. Only
     * on the event loop.
     */
    public void openTunnel(ChannelPipeline pipeline, String after, Accepted accepted) {
        String last = WebSocketPipeline.addCodec(pipeline, after, true, config, accepted.deflate());
        pipeline.addAfter(last, WebSocketTunnelProtocolHandler.NAME, new WebSocketTunnelProtocolHandler(config, true));
    }

    private static void checkVersion(HttpHeaders h) {
        List<String> versions = h.getAll(HttpHeaderNames.SEC_WEBSOCKET_VERSION);
        if (versions.size() != 1 || !VERSION.equals(versions.get(0).trim())) {
            throw new WebSocketHandshakeException(426, "unsupported Sec-WebSocket-Version " + versions
                    + " (supported: " + VERSION + ")");
        }
    }

    /** The origin check, subprotocol and permessage-deflate, shared by both handshakes; fills {@code res}. */
    private Accepted negotiate(HttpHeaders h, FullHttpResponse res) {
        if (!originCheck.test(h.get(HttpHeaderNames.ORIGIN))) {
            throw new WebSocketHandshakeException(403, "origin refused: " + h.get(HttpHeaderNames.ORIGIN));
        }
        String subprotocol = selectSubprotocol(h.getAll(HttpHeaderNames.SEC_WEBSOCKET_PROTOCOL));
        PerMessageDeflate agreed = deflate == null ? null
                : PerMessageDeflate.acceptOffer(h.getAll(HttpHeaderNames.SEC_WEBSOCKET_EXTENSIONS), deflate, config);
        HttpHeaders rh = res.headers();
        if (subprotocol != null) {
            rh.set(HttpHeaderNames.SEC_WEBSOCKET_PROTOCOL, subprotocol);
        }
        String extensions = agreed == null ? null : agreed.response();
        if (extensions != null) {
            rh.set(HttpHeaderNames.SEC_WEBSOCKET_EXTENSIONS, extensions);
        }
        return new Accepted(res, subprotocol, extensions, agreed);
    }

    /**
     * Answers {@code request} on {@code ctx}'s channel: on success writes the 101 and switches the pipeline to
     * WebSocket (the HTTP codec, aggregator and other HTTP handlers removed; frame codec and permessage-deflate
     * added); on refusal writes the error answer and closes. Does not release {@code request}. Only on the event
     * loop.
     *
     * @return the agreement, or null when the request was refused
     */
    public Accepted handshake(ChannelHandlerContext ctx, HttpRequest request) {
        Accepted a;
        try {
            a = accept(request);
        } catch (WebSocketHandshakeException e) {
            ctx.writeAndFlush(refusal(e)).addListener(ChannelFutureListener.CLOSE);
            return null;
        }
        ChannelFuture written = ctx.writeAndFlush(a.response());
        // The 101 has been encoded by the HTTP codec by now (writes run synchronously on the loop): switch.
        WebSocketPipeline.switchToWebSocket(ctx, true, config, a.deflate());
        written.addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
        a.written = written;
        return a;
    }

    /** The answer to a refused request: its status, the reason as text, and {@code Connection: close}. */
    public static FullHttpResponse refusal(WebSocketHandshakeException e) {
        HttpResponseStatus status = HttpResponseStatus.valueOf(e.httpStatus());
        ByteBuf body = Unpooled.copiedBuffer(e.getMessage() + "\n", StandardCharsets.UTF_8);
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
        res.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
        res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        if (e.httpStatus() == 426) {
            res.headers().set(HttpHeaderNames.SEC_WEBSOCKET_VERSION, VERSION);
        }
        return res;
    }

    /** base64(SHA-1(key + GUID)): the {@code Sec-WebSocket-Accept} for {@code key} (RFC 6455 §4.2.2). */
    public static String acceptValue(String key) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            byte[] digest = sha1.digest((key + GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every Java platform", e);
        }
    }

    private static boolean isValidKey(String key) {
        if (key.length() != MAX_KEY_CHARS) {
            return false;
        }
        try {
            return Base64.getDecoder().decode(key).length == KEY_BYTES;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The first of the client's subprotocols (in its order of preference) that we support, or null. */
    private String selectSubprotocol(List<String> requested) {
        if (subprotocols.isEmpty()) {
            return null;
        }
        for (int i = 0; i < requested.size(); i++) {
            for (String p : requested.get(i).split(",")) {
                String t = p.trim();
                if (subprotocols.contains(t)) {
                    return t;
                }
            }
        }
        return null;
    }
}
