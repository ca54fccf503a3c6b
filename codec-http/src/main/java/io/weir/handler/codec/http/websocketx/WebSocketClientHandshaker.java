package io.weir.handler.codec.http.websocketx;

import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPipeline;
import io.weir.handler.codec.http.DefaultFullHttpRequest;
import io.weir.handler.codec.http.DefaultHttpHeaders;
import io.weir.handler.codec.http.EmptyHttpHeaders;
import io.weir.handler.codec.http.FullHttpRequest;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpHeaderValues;
import io.weir.handler.codec.http.HttpHeaders;
import io.weir.handler.codec.http.HttpMethod;
import io.weir.handler.codec.http.HttpResponse;
import io.weir.handler.codec.http.HttpVersion;
import java.net.URI;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * The client side of the RFC 6455 §4.1 opening handshake, version 13, over an HTTP/1.1 Upgrade: builds the
 * request (a fresh random 16-byte key, the subprotocols and the permessage-deflate offer) and checks the answer:
 * 101, {@code Upgrade: websocket}, {@code Connection: upgrade}, the expected {@code Sec-WebSocket-Accept}, a
 * subprotocol only if it is one offered and extensions only as offered (§4.1, server's handshake points 1-6).
 *
 * <p>One instance per connection (it remembers the key it sent); used on the channel's event loop.
 */
public final class WebSocketClientHandshaker {
    private static final SecureRandom KEYS = new SecureRandom();

    private final URI uri;
    private final List<String> subprotocols;
    private final HttpHeaders extraHeaders;
    private final WebSocketConfig config;
    private final PerMessageDeflateConfig deflate;
    private String expectedAccept;
    private String subprotocol;
    private String extensions;
    private boolean complete;
    private boolean tunnelRequested;

    /**
     * A handshaker for {@code uri} (ws or wss; its path and query become the request-target, its authority the
     * {@code Host}), offering {@code subprotocols} (may be empty), adding {@code extraHeaders} (may be null; e.g.
     * {@code Origin}), with the limits of {@code config} and offering permessage-deflate when {@code deflate} is
     * not null. The configs are copied.
     */
    public WebSocketClientHandshaker(URI uri, List<String> subprotocols, HttpHeaders extraHeaders,
                                     WebSocketConfig config, PerMessageDeflateConfig deflate) {
        this.uri = Objects.requireNonNull(uri, "uri");
        this.subprotocols = List.copyOf(subprotocols);
        this.extraHeaders = extraHeaders == null ? EmptyHttpHeaders.INSTANCE : extraHeaders.copy();
        this.config = config.clone();
        this.deflate = deflate == null ? null : deflate.clone();
    }

    /** The limits and timeouts of the connection. */
    public WebSocketConfig config() {
        return config;
    }

    /** A new upgrade request with a fresh key (the caller owns it until written). */
    public FullHttpRequest newHandshakeRequest() {
        byte[] nonce = new byte[16];
        KEYS.nextBytes(nonce);
        String key = Base64.getEncoder().encodeToString(nonce);
        expectedAccept = WebSocketServerHandshaker.acceptValue(key);
        FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, requestTarget(),
                Unpooled.EMPTY_BUFFER);
        HttpHeaders h = req.headers();
        h.add(extraHeaders);
        if (!h.contains(HttpHeaderNames.HOST)) {
            int port = uri.getPort();
            h.set(HttpHeaderNames.HOST, port < 0 ? uri.getHost() : uri.getHost() + ":" + port);
        }
        h.set(HttpHeaderNames.UPGRADE, HttpHeaderValues.WEBSOCKET);
        h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE);
        h.set(HttpHeaderNames.SEC_WEBSOCKET_KEY, key);
        h.set(HttpHeaderNames.SEC_WEBSOCKET_VERSION, WebSocketServerHandshaker.VERSION);
        if (!subprotocols.isEmpty()) {
            h.set(HttpHeaderNames.SEC_WEBSOCKET_PROTOCOL, String.join(", ", subprotocols));
        }
        if (deflate != null) {
            h.set(HttpHeaderNames.SEC_WEBSOCKET_EXTENSIONS, PerMessageDeflate.offer(deflate));
        }
        return req;
    }

    /**
     * Checks the server's answer and, if it is valid, switches {@code ctx}'s pipeline to WebSocket (HTTP
     * handlers removed, frame codec and permessage-deflate added). Does not release {@code response}.
     *
     * @throws WebSocketHandshakeException if the answer is not a valid acceptance of our request
     * @throws IllegalStateException if no request was made
     */
    public void finishHandshake(ChannelHandlerContext ctx, HttpResponse response) {
        PerMessageDeflate agreed = validate(response);
        WebSocketPipeline.switchToWebSocket(ctx, false, config, agreed);
        complete = true;
    }

    PerMessageDeflate validate(HttpResponse response) {
        if (expectedAccept == null) {
            throw new IllegalStateException("no handshake request was made");
        }
        int code = response.status().code();
        if (code != 101) {
            throw new WebSocketHandshakeException(code, "expected 101 Switching Protocols, got " + response.status());
        }
        HttpHeaders h = response.headers();
        if (!h.containsValue(HttpHeaderNames.UPGRADE, HttpHeaderValues.WEBSOCKET, true)) {
            throw new WebSocketHandshakeException(code, "missing Upgrade: websocket in the answer");
        }
        if (!h.containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE, true)) {
            throw new WebSocketHandshakeException(code, "missing the upgrade token in the answer's Connection");
        }
        List<String> accepts = h.getAll(HttpHeaderNames.SEC_WEBSOCKET_ACCEPT);
        if (accepts.size() != 1 || !expectedAccept.equals(accepts.get(0).trim())) {
            throw new WebSocketHandshakeException(code, "wrong Sec-WebSocket-Accept " + accepts + " (expected "
                    + expectedAccept + ")");
        }
        return negotiated(code, h);
    }

    /**
     * The regular fields of an RFC 8441 extended CONNECT for this handshaker's URI: {@code Sec-WebSocket-Version},
     * the subprotocols, the permessage-deflate offer and the extra headers; no key (RFC 8441 §5). The caller adds
     * the pseudo-header fields ({@code :method CONNECT}, {@code :protocol websocket}, {@code :scheme},
     * {@code :path} = {@link #requestTarget()}, {@code :authority}).
     */
    public HttpHeaders newExtendedConnectHeaders() {
        tunnelRequested = true;
        HttpHeaders h = new DefaultHttpHeaders(false);
        h.add(extraHeaders);
        h.remove(HttpHeaderNames.HOST);
        h.set(HttpHeaderNames.SEC_WEBSOCKET_VERSION, WebSocketServerHandshaker.VERSION);
        if (!subprotocols.isEmpty()) {
            h.set(HttpHeaderNames.SEC_WEBSOCKET_PROTOCOL, String.join(", ", subprotocols));
        }
        if (deflate != null) {
            h.set(HttpHeaderNames.SEC_WEBSOCKET_EXTENSIONS, PerMessageDeflate.offer(deflate));
        }
        return h;
    }

    /** The URI's path and query: the request-target of the handshake ("/" when the path is empty). */
    public String requestTarget() {
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
    }

    /** The URI this handshaker connects to. */
    public URI uri() {
        return uri;
    }

    /**
     * Checks the answer to {@link #newExtendedConnectHeaders()} and, if it accepts, makes {@code pipeline} speak
     * WebSocket: the frame codec (and permessage-deflate) and a protocol handler go after the handler named
     * {@code after}, which must carry the tunnel's bytes ({@code ByteBuf} both ways). Only on the event loop.
     *
     * @param status the answer's status: a 2xx accepts (RFC 8441 §5, RFC 9113 §8.5)
     * @param headers the answer's regular fields
     * @throws WebSocketHandshakeException if the answer refuses or does not match the offer
     * @throws IllegalStateException if no extended CONNECT was made
     */
    public void finishExtendedConnect(ChannelPipeline pipeline, String after, int status, HttpHeaders headers) {
        if (!tunnelRequested) {
            throw new IllegalStateException("no extended CONNECT was made");
        }
        if (status < 200 || status > 299) {
            throw new WebSocketHandshakeException(status, "extended CONNECT refused with status " + status);
        }
        PerMessageDeflate agreed = negotiated(status, headers);
        String last = WebSocketPipeline.addCodec(pipeline, after, false, config, agreed);
        pipeline.addAfter(last, WebSocketTunnelProtocolHandler.NAME, new WebSocketTunnelProtocolHandler(config, false));
        complete = true;
    }

    /** The subprotocol and extensions of an accepting answer, checked against the offer. */
    private PerMessageDeflate negotiated(int code, HttpHeaders h) {
        List<String> protocols = h.getAll(HttpHeaderNames.SEC_WEBSOCKET_PROTOCOL);
        if (protocols.size() > 1
                || protocols.size() == 1 && !subprotocols.contains(protocols.get(0).trim())) {
            throw new WebSocketHandshakeException(code, "subprotocol not offered: " + protocols);
        }
        subprotocol = protocols.isEmpty() ? null : protocols.get(0).trim();
        List<String> ext = h.getAll(HttpHeaderNames.SEC_WEBSOCKET_EXTENSIONS);
        PerMessageDeflate agreed = PerMessageDeflate.acceptResponse(ext, deflate, config);
        extensions = agreed == null ? null : String.join(", ", ext);
        return agreed;
    }

    /** The subprotocol the server selected, or null (valid once the handshake is complete). */
    public String subprotocol() {
        return subprotocol;
    }

    /** The extensions the server agreed to, or null. */
    public String extensions() {
        return extensions;
    }

    /** Whether the answer was validated and the pipeline switched. */
    public boolean isHandshakeComplete() {
        return complete;
    }
}
