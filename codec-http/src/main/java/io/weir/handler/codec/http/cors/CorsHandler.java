package io.weir.handler.codec.http.cors;

import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.handler.codec.http.DateFormatter;
import io.weir.handler.codec.http.DefaultFullHttpResponse;
import io.weir.handler.codec.http.FullHttpResponse;
import io.weir.handler.codec.http.HttpContent;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpHeaderValues;
import io.weir.handler.codec.http.HttpHeaders;
import io.weir.handler.codec.http.HttpMethod;
import io.weir.handler.codec.http.HttpRequest;
import io.weir.handler.codec.http.HttpResponse;
import io.weir.handler.codec.http.HttpResponseStatus;
import io.weir.handler.codec.http.HttpUtil;
import io.weir.handler.codec.http.LastHttpContent;
import io.weir.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Server-side CORS: answers preflight requests itself and adds the CORS response headers to the responses of
 * cross-origin requests. Place it after the HTTP server codec and before the application handlers.
 *
 * <ul>
 *   <li>A preflight ({@code OPTIONS} with {@code Origin} and {@code Access-Control-Request-Method}) is answered
 *       {@code 200} with {@code Access-Control-Allow-Origin/-Methods/-Headers/-Credentials/-Max-Age} and the
 *       configured extra headers when the origin, the requested method and every requested header are allowed,
 *       and {@code 403} otherwise. It is never passed on.</li>
 *   <li>Other requests with an {@code Origin} are passed on; their response gets
 *       {@code Access-Control-Allow-Origin}, {@code Access-Control-Allow-Credentials} and
 *       {@code Access-Control-Expose-Headers} when the origin is allowed, and {@code Vary: Origin} whenever the
 *       answer depends on the origin. With credentials the origin is echoed, never {@code *} (browsers refuse
 *       {@code *} with credentials). With {@linkplain CorsConfigBuilder#shortCircuit() short-circuit}, requests
 *       from origins not allowed are answered {@code 403} and not passed on.</li>
 * </ul>
 *
 * <p>Given several configs, the first that allows the request's origin is used; if none does, the first
 * config decides about short-circuiting. Responses are matched to requests in order, so pipelined requests are
 * fine as long as the application answers them in order (as HTTP/1.1 requires).
 *
 * <p>Only called from the channel's event loop; one instance per channel.
 */
public class CorsHandler implements ChannelHandler {
    private static final String ANY_ORIGIN = "*";

    private final List<CorsConfig> configs;
    /** Per request passed on, in order: the config and origin its response must be decorated with. */
    private final ArrayDeque<Pending> pending = new ArrayDeque<>(2);
    /** Content of a request this handler answered itself is dropped until its last part. */
    private boolean discarding;

    private record Pending(CorsConfig config, String origin) {
    }

    private static final Pending NONE = new Pending(null, null);

    /** A handler for one policy. */
    public CorsHandler(CorsConfig config) {
        this(List.of(Objects.requireNonNull(config, "config")));
    }

    /**
     * A handler choosing, per request, the first of {@code configs} that allows the request's origin.
     *
     * @throws IllegalArgumentException if {@code configs} is empty
     */
    public CorsHandler(List<CorsConfig> configs) {
        Objects.requireNonNull(configs, "configs");
        if (configs.isEmpty()) {
            throw new IllegalArgumentException("no CORS configs");
        }
        this.configs = List.copyOf(configs);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpRequest request) {
            discarding = false;
            String origin = request.headers().get(HttpHeaderNames.ORIGIN);
            CorsConfig config = select(origin);
            if (origin == null || !config.isCorsSupportEnabled()) {
                pending.add(NONE);
                ctx.fireChannelRead(msg);
                return;
            }
            if (isPreflight(request)) {
                answer(ctx, request, preflightResponse(request, config, origin));
                return;
            }
            if (config.isShortCircuit() && !config.isOriginAllowed(origin)) {
                answer(ctx, request, forbidden(request));
                return;
            }
            pending.add(new Pending(config, origin));
        } else if (discarding && msg instanceof HttpContent content) {
            discarding = !(content instanceof LastHttpContent);
            content.release();
            return;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (msg instanceof HttpResponse response && response.status().code() >= 200) {
            Pending p = pending.poll();
            if (p != null && p.config != null) {
                decorate(response, p.config, p.origin);
            }
        }
        ctx.write(msg, promise);
    }

    private CorsConfig select(String origin) {
        for (int i = 0; i < configs.size(); i++) {
            CorsConfig c = configs.get(i);
            if (c.isOriginAllowed(origin)) {
                return c;
            }
        }
        return configs.get(0);
    }

    private static boolean isPreflight(HttpRequest request) {
        HttpHeaders h = request.headers();
        return HttpMethod.OPTIONS.equals(request.method()) && h.contains(HttpHeaderNames.ORIGIN)
                && h.contains(HttpHeaderNames.ACCESS_CONTROL_REQUEST_METHOD);
    }

    private void answer(ChannelHandlerContext ctx, HttpRequest request, FullHttpResponse response) {
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        HttpUtil.setKeepAlive(response, keepAlive);
        discarding = !(request instanceof LastHttpContent);
        ReferenceCountUtil.release(request);
        ChannelFuture f = ctx.writeAndFlush(response);
        f.addListener(keepAlive ? ChannelFutureListener.CLOSE_ON_FAILURE : ChannelFutureListener.CLOSE);
    }

    private static FullHttpResponse preflightResponse(HttpRequest request, CorsConfig config, String origin) {
        if (!config.isOriginAllowed(origin) || !isRequestAllowed(request.headers(), config)) {
            return forbidden(request);
        }
        FullHttpResponse res = new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.OK);
        HttpHeaders h = res.headers();
        setAllowOrigin(h, config, origin);
        if (config.isCredentialsAllowed()) {
            h.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_CREDENTIALS, "true");
        }
        if (!config.allowMethodsValue().isEmpty()) {
            h.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_METHODS, config.allowMethodsValue());
        }
        if (!config.allowHeadersValue().isEmpty()) {
            h.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_HEADERS, config.allowHeadersValue());
        }
        if (config.maxAgeSeconds() > 0) {
            h.set(HttpHeaderNames.ACCESS_CONTROL_MAX_AGE, Long.toString(config.maxAgeSeconds()));
        }
        h.set(HttpHeaderNames.DATE, DateFormatter.currentDate());
        h.add(config.preflightHeaders());
        h.set(HttpHeaderNames.CONTENT_LENGTH, HttpHeaderValues.ZERO);
        return res;
    }

    /** Whether the method and every header the preflight asks for are allowed. */
    private static boolean isRequestAllowed(HttpHeaders h, CorsConfig config) {
        String method = h.get(HttpHeaderNames.ACCESS_CONTROL_REQUEST_METHOD).trim();
        if (!isMethodAllowed(config, method)) {
            return false;
        }
        List<String> requested = h.getAll(HttpHeaderNames.ACCESS_CONTROL_REQUEST_HEADERS);
        for (int i = 0; i < requested.size(); i++) {
            String line = requested.get(i);
            int start = 0;
            while (start <= line.length()) {
                int comma = line.indexOf(',', start);
                int end = comma < 0 ? line.length() : comma;
                String name = line.substring(start, end).trim();
                if (!name.isEmpty() && !config.allowedRequestHeaders().contains(name.toLowerCase(Locale.ROOT))) {
                    return false;
                }
                start = end + 1;
            }
        }
        return true;
    }

    private static boolean isMethodAllowed(CorsConfig config, String method) {
        // Compared by name so that a malformed method in the header is simply not allowed.
        for (HttpMethod m : config.allowedRequestMethods()) {
            if (m.name().equals(method)) {
                return true;
            }
        }
        return false;
    }

    private static FullHttpResponse forbidden(HttpRequest request) {
        FullHttpResponse res = new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.FORBIDDEN);
        res.headers().set(HttpHeaderNames.CONTENT_LENGTH, HttpHeaderValues.ZERO);
        return res;
    }

    private static void decorate(HttpResponse response, CorsConfig config, String origin) {
        HttpHeaders h = response.headers();
        if (!config.isOriginAllowed(origin)) {
            addVaryOrigin(h, config);
            return;
        }
        setAllowOrigin(h, config, origin);
        if (config.isCredentialsAllowed()) {
            h.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_CREDENTIALS, "true");
        }
        if (!config.exposeHeadersValue().isEmpty()) {
            h.set(HttpHeaderNames.ACCESS_CONTROL_EXPOSE_HEADERS, config.exposeHeadersValue());
        }
    }

    private static void setAllowOrigin(HttpHeaders h, CorsConfig config, String origin) {
        if (config.isAnyOriginSupported() && !config.isCredentialsAllowed()) {
            h.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, ANY_ORIGIN);
        } else {
            // Echoing the origin makes the response origin-specific, so shared caches must key on it.
            h.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, origin);
            addVaryOrigin(h, config);
        }
    }

    private static void addVaryOrigin(HttpHeaders h, CorsConfig config) {
        if (config.isAnyOriginSupported() && !config.isCredentialsAllowed()) {
            return;
        }
        List<String> vary = h.getAll(HttpHeaderNames.VARY);
        for (int i = 0; i < vary.size(); i++) {
            String v = vary.get(i);
            if (v.equals("*") || containsToken(v, "origin")) {
                return;
            }
        }
        h.add(HttpHeaderNames.VARY, HttpHeaderNames.ORIGIN);
    }

    private static boolean containsToken(String list, String token) {
        int start = 0;
        while (start <= list.length()) {
            int comma = list.indexOf(',', start);
            int end = comma < 0 ? list.length() : comma;
            if (list.substring(start, end).trim().equalsIgnoreCase(token)) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        pending.clear();
    }
}
