package io.weir.handler.proxy;

import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelHandler;
import io.weir.handler.codec.DecoderResultProvider;
import io.weir.handler.codec.http.DefaultFullHttpRequest;
import io.weir.handler.codec.http.DefaultHttpHeaders;
import io.weir.handler.codec.http.FullHttpRequest;
import io.weir.handler.codec.http.HttpClientCodec;
import io.weir.handler.codec.http.HttpContent;
import io.weir.handler.codec.http.HttpDecoderConfig;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpHeaders;
import io.weir.handler.codec.http.HttpMethod;
import io.weir.handler.codec.http.HttpResponse;
import io.weir.handler.codec.http.HttpVersion;
import io.weir.handler.codec.http.LastHttpContent;
import io.weir.handler.codec.http.PrematureChannelClosureException;
import io.weir.handler.proxy.ProxyConnectException.Reason;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;

/**
 * Connects through an HTTP proxy with {@code CONNECT} (RFC 9110 §9.3.6): sends
 * {@code CONNECT host:port HTTP/1.1} with {@code Host}, optionally {@code Proxy-Authorization: Basic} (RFC 7617,
 * UTF-8) and extra header fields, and takes any 2xx answer as the tunnel. See {@link ProxyHandler} for the life of
 * a connect.
 *
 * <p><b>Failures.</b> A 407 (or a 401, which some proxies send for wrong credentials) fails with
 * {@link Reason#AUTH_REFUSED}, any other non-2xx status with
 * {@link Reason#REFUSED}, both with the status as {@link ProxyConnectException#replyCode()}; the body of such an
 * answer is never read. An answer that is not HTTP, or whose head (status line and header fields) exceeds
 * {@linkplain #setMaxResponseHeadBytes the limit}, fails with {@link Reason#PROTOCOL_ERROR}. Interim 1xx answers
 * are skipped.
 *
 * <p>The credentials travel in clear text: over a network you do not trust, reach the proxy through TLS.
 */
public final class HttpProxyHandler extends ProxyHandler {
    /**
     * Default bound on the proxy's answer head, status line and header fields together, line endings not
     * counted: 8 KiB, of which at most a quarter for the status line. A CONNECT answer is a status line and a few
     * fields; more is a misbehaving proxy, and nothing of it needs to be kept.
     */
    public static final int DEFAULT_MAX_RESPONSE_HEAD_BYTES = 8192;
    /** The smallest head limit: room for a status line and a few fields. */
    public static final int MIN_MAX_RESPONSE_HEAD_BYTES = 256;

    private final String authorization;
    private final HttpHeaders extraHeaders;
    private int maxResponseHeadBytes = DEFAULT_MAX_RESPONSE_HEAD_BYTES;
    /** The status of the final answer whose head was read, or 0. */
    private int status;

    /**
     * A handler for the proxy at {@code proxyAddress}, without credentials.
     *
     * @throws NullPointerException if {@code proxyAddress} is null
     */
    public HttpProxyHandler(SocketAddress proxyAddress) {
        this(proxyAddress, null, null, null);
    }

    /**
     * A handler that authenticates with Basic credentials.
     *
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the username has a colon (Basic cannot carry one) or either has a control
     *         character
     */
    public HttpProxyHandler(SocketAddress proxyAddress, String username, String password) {
        this(proxyAddress, Objects.requireNonNull(username, "username"), Objects.requireNonNull(password, "password"),
                null);
    }

    /**
     * A handler that sends {@code headers} with its CONNECT, and Basic credentials unless {@code username} is null.
     *
     * @param headers extra header fields (for example {@code User-Agent}), copied now; may be null
     * @throws NullPointerException if {@code proxyAddress} is null, or exactly one of the credentials is
     * @throws IllegalArgumentException if the username has a colon or either credential has a control character
     */
    public HttpProxyHandler(SocketAddress proxyAddress, String username, String password, HttpHeaders headers) {
        super(proxyAddress);
        if (username == null) {
            if (password != null) {
                throw new NullPointerException("username (a password was given)");
            }
            authorization = null;
        } else {
            Objects.requireNonNull(password, "password (a username was given)");
            checkCredential(username, "username");
            checkCredential(password, "password");
            if (username.indexOf(':') >= 0) {
                throw new IllegalArgumentException("username has a colon, which Basic cannot carry (RFC 7617 §2)");
            }
            authorization = "Basic " + Base64.getEncoder().encodeToString(
                    (username + ':' + password).getBytes(StandardCharsets.UTF_8));
        }
        extraHeaders = headers == null ? null : new DefaultHttpHeaders().set(headers);
    }

    private static void checkCredential(String value, String what) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == 0x7F) {
                throw new IllegalArgumentException(what + " has a control character at index " + i);
            }
        }
    }

    /** {@code "http"}. */
    @Override
    public String protocol() {
        return "http";
    }

    /** {@code "basic"} with credentials, else {@code "none"}. */
    @Override
    public String authScheme() {
        return authorization != null ? "basic" : "none";
    }

    /** The bound on the proxy's answer head, in bytes. */
    public int maxResponseHeadBytes() {
        return maxResponseHeadBytes;
    }

    /**
     * Sets the bound on the proxy's answer head, status line and header fields together (line endings not counted;
     * the status line gets at most a quarter of it). An answer whose head is longer fails the connect with
     * {@link Reason#PROTOCOL_ERROR} as soon as the limit is passed.
     *
     * @return this handler
     * @throws IllegalArgumentException if below {@value #MIN_MAX_RESPONSE_HEAD_BYTES}
     */
    public HttpProxyHandler setMaxResponseHeadBytes(int maxResponseHeadBytes) {
        if (maxResponseHeadBytes < MIN_MAX_RESPONSE_HEAD_BYTES) {
            throw new IllegalArgumentException("maxResponseHeadBytes: " + maxResponseHeadBytes + " (expected >= "
                    + MIN_MAX_RESPONSE_HEAD_BYTES + ")");
        }
        this.maxResponseHeadBytes = maxResponseHeadBytes;
        return this;
    }

    @Override
    ChannelHandler[] newCodecs() {
        int statusLine = maxResponseHeadBytes / 4;
        return new ChannelHandler[] {new HttpClientCodec(new HttpDecoderConfig().setMaxInitialLineLength(statusLine)
                .setMaxHeaderSize(maxResponseHeadBytes - statusLine))};
    }

    @Override
    Object initialRequest(String host, int port) {
        // RFC 9110 §9.3.6: the target is authority-form, an IPv6 address in brackets (RFC 3986 §3.2.2).
        String authority = (host.indexOf(':') >= 0 ? '[' + host + ']' : host) + ':' + port;
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.CONNECT, authority);
        HttpHeaders headers = request.headers();
        if (extraHeaders != null) {
            headers.set(extraHeaders);
        }
        headers.set(HttpHeaderNames.HOST, authority);
        if (authorization != null) {
            headers.set(HttpHeaderNames.PROXY_AUTHORIZATION, authorization);
        }
        return request;
    }

    @Override
    boolean handleResponse(ChannelHandlerContext ctx, Object msg) throws ProxyConnectException {
        if (msg instanceof DecoderResultProvider p && p.decoderResult().isFailure()) {
            Throwable cause = p.decoderResult().cause();
            if (cause instanceof PrematureChannelClosureException) {
                throw failure(Reason.CLOSED, ProxyConnectException.NO_REPLY_CODE, cause.getMessage(), cause);
            }
            throw failure(Reason.PROTOCOL_ERROR, ProxyConnectException.NO_REPLY_CODE, "its answer is not acceptable "
                    + "HTTP: " + cause.getMessage(), cause);
        }
        if (msg instanceof HttpResponse response) {
            int code = response.status().code();
            if (code >= 200 && code < 300) {
                // The tunnel is up once the answer is complete (a 2xx to CONNECT has no body, RFC 9110 §9.3.6).
                status = code;
            } else if (code >= 300) {
                // 407 is the proxy's authentication status (RFC 9110 §15.5.8); some proxies (tinyproxy) answer
                // wrong credentials with 401.
                boolean auth = code == 407 || code == 401;
                throw failure(auth ? Reason.AUTH_REFUSED : Reason.REFUSED, code, "it answered " + code + ' '
                        + response.status().reasonPhrase() + (auth ? (authorization == null
                                ? " (no credentials were sent)" : " (the credentials were refused)") : ""), null);
            }
            // 1xx: interim, the final answer is still to come.
            return false;
        }
        if (msg instanceof LastHttpContent) {
            return status != 0;
        }
        if (msg instanceof HttpContent) {
            return false;
        }
        throw failure(Reason.PROTOCOL_ERROR, ProxyConnectException.NO_REPLY_CODE, "unexpected "
                + msg.getClass().getSimpleName() + " from the HTTP decoder", null);
    }
}
