package io.weir.handler.codec.http.cors;

import io.weir.handler.codec.http.DefaultHttpHeaders;
import io.weir.handler.codec.http.HttpHeaders;
import io.weir.handler.codec.http.HttpMethod;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Builds a {@link CorsConfig}.
 *
 * <pre>{@code
 * CorsConfig config = CorsConfigBuilder.forOrigins("https://app.example.com")
 *         .allowCredentials()
 *         .allowedRequestMethods(HttpMethod.GET, HttpMethod.POST, HttpMethod.DELETE)
 *         .allowedRequestHeaders("content-type", "x-request-id")
 *         .exposeHeaders("x-request-id")
 *         .maxAge(600)
 *         .build();
 * }</pre>
 *
 * Defaults: methods {@code GET, HEAD, POST} (the CORS-safelisted ones), no extra request headers, no exposed
 * headers, no credentials, no max age, not short-circuiting. Not thread-safe.
 */
public final class CorsConfigBuilder {
    boolean enabled = true;
    final boolean anyOrigin;
    final Set<String> origins = new LinkedHashSet<>();
    boolean allowNullOrigin;
    boolean allowCredentials;
    final Set<String> exposeHeaders = new LinkedHashSet<>();
    final Set<HttpMethod> allowedRequestMethods = new LinkedHashSet<>();
    final Set<String> allowedRequestHeaders = new LinkedHashSet<>();
    long maxAgeSeconds;
    final HttpHeaders preflightResponseHeaders = new DefaultHttpHeaders();
    boolean shortCircuit;

    private CorsConfigBuilder(boolean anyOrigin) {
        this.anyOrigin = anyOrigin;
        allowedRequestMethods.add(HttpMethod.GET);
        allowedRequestMethods.add(HttpMethod.HEAD);
        allowedRequestMethods.add(HttpMethod.POST);
    }

    /** A policy allowing every origin. With {@link #allowCredentials()} the origin is echoed, never {@code *}. */
    public static CorsConfigBuilder forAnyOrigin() {
        return new CorsConfigBuilder(true);
    }

    /** A policy allowing {@code origin} (such as {@code https://example.com}); {@code "*"} means any origin. */
    public static CorsConfigBuilder forOrigin(String origin) {
        Objects.requireNonNull(origin, "origin");
        if ("*".equals(origin)) {
            return forAnyOrigin();
        }
        return forOrigins(origin);
    }

    /** A policy allowing each of {@code origins}, compared case-insensitively. */
    public static CorsConfigBuilder forOrigins(String... origins) {
        Objects.requireNonNull(origins, "origins");
        CorsConfigBuilder b = new CorsConfigBuilder(false);
        for (String origin : origins) {
            Objects.requireNonNull(origin, "origin");
            if (origin.isEmpty() || "*".equals(origin)) {
                throw new IllegalArgumentException("not a single origin: '" + origin + "' (use forAnyOrigin)");
            }
            b.origins.add(origin.toLowerCase(Locale.ROOT));
        }
        return b;
    }

    /** Allows the {@code null} origin of sandboxed iframes and {@code file:} pages. */
    public CorsConfigBuilder allowNullOrigin() {
        allowNullOrigin = true;
        return this;
    }

    /** Sends {@code Access-Control-Allow-Credentials: true}, so browsers include cookies. */
    public CorsConfigBuilder allowCredentials() {
        allowCredentials = true;
        return this;
    }

    /** Adds response headers scripts may read ({@code Access-Control-Expose-Headers}). */
    public CorsConfigBuilder exposeHeaders(String... headers) {
        for (String h : headers) {
            exposeHeaders.add(validToken(h));
        }
        return this;
    }

    /** Replaces the methods preflights may ask for. */
    public CorsConfigBuilder allowedRequestMethods(HttpMethod... methods) {
        allowedRequestMethods.clear();
        for (HttpMethod m : methods) {
            allowedRequestMethods.add(Objects.requireNonNull(m, "method"));
        }
        return this;
    }

    /** Adds request headers preflights may ask for, compared case-insensitively. */
    public CorsConfigBuilder allowedRequestHeaders(String... headers) {
        for (String h : headers) {
            allowedRequestHeaders.add(validToken(h).toLowerCase(Locale.ROOT));
        }
        return this;
    }

    /** How long browsers may cache a preflight answer ({@code Access-Control-Max-Age}), in seconds. */
    public CorsConfigBuilder maxAge(long maxAgeSeconds) {
        if (maxAgeSeconds < 0) {
            throw new IllegalArgumentException("maxAgeSeconds must not be negative: " + maxAgeSeconds);
        }
        this.maxAgeSeconds = maxAgeSeconds;
        return this;
    }

    /** Adds a header with {@code values} to every successful preflight response. */
    public CorsConfigBuilder preflightResponseHeader(CharSequence name, Object... values) {
        Objects.requireNonNull(name, "name");
        for (Object v : values) {
            preflightResponseHeaders.add(name, Objects.requireNonNull(v, "value"));
        }
        return this;
    }

    /** Refuses requests from origins the policy does not allow with 403 instead of passing them on. */
    public CorsConfigBuilder shortCircuit() {
        shortCircuit = true;
        return this;
    }

    /** Turns CORS processing off: the handler passes everything through untouched. */
    public CorsConfigBuilder disable() {
        enabled = false;
        return this;
    }

    /** The immutable config. */
    public CorsConfig build() {
        return new CorsConfig(this);
    }

    private static String validToken(String name) {
        Objects.requireNonNull(name, "header name");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("empty header name");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!ok) {
                throw new IllegalArgumentException("not a header name (bad character at index " + i + "): " + name);
            }
        }
        return name;
    }
}
