package io.weir.handler.codec.http.cors;

import io.weir.handler.codec.http.HttpHeaders;
import io.weir.handler.codec.http.HttpMethod;
import java.util.Locale;
import java.util.Set;

/**
 * An immutable CORS policy, built with {@link CorsConfigBuilder}. Thread-safe; one instance may serve every
 * channel.
 */
public final class CorsConfig {
    private final boolean enabled;
    private final boolean anyOrigin;
    private final Set<String> origins;
    private final boolean allowNullOrigin;
    private final boolean allowCredentials;
    private final Set<String> exposeHeaders;
    private final Set<HttpMethod> allowedRequestMethods;
    private final Set<String> allowedRequestHeaders;
    private final long maxAgeSeconds;
    private final HttpHeaders preflightResponseHeaders;
    private final boolean shortCircuit;
    private final String allowMethodsValue;
    private final String allowHeadersValue;
    private final String exposeHeadersValue;

    CorsConfig(CorsConfigBuilder b) {
        enabled = b.enabled;
        anyOrigin = b.anyOrigin;
        origins = Set.copyOf(b.origins);
        allowNullOrigin = b.allowNullOrigin;
        allowCredentials = b.allowCredentials;
        exposeHeaders = Set.copyOf(b.exposeHeaders);
        allowedRequestMethods = Set.copyOf(b.allowedRequestMethods);
        allowedRequestHeaders = Set.copyOf(b.allowedRequestHeaders);
        maxAgeSeconds = b.maxAgeSeconds;
        preflightResponseHeaders = b.preflightResponseHeaders.copy();
        shortCircuit = b.shortCircuit;
        allowMethodsValue = join(b.allowedRequestMethods.stream().map(HttpMethod::name).toList());
        allowHeadersValue = join(b.allowedRequestHeaders);
        exposeHeadersValue = join(b.exposeHeaders);
    }

    private static String join(Iterable<String> values) {
        return String.join(", ", values);
    }

    /** Whether CORS processing is on; when off, {@link CorsHandler} passes everything through untouched. */
    public boolean isCorsSupportEnabled() {
        return enabled;
    }

    /** Whether every origin is allowed. */
    public boolean isAnyOriginSupported() {
        return anyOrigin;
    }

    /** The allowed origins, lower-cased; empty when {@link #isAnyOriginSupported()}. */
    public Set<String> origins() {
        return origins;
    }

    /** Whether the {@code null} origin (sandboxed frames, {@code file:} pages) is allowed. */
    public boolean isNullOriginAllowed() {
        return allowNullOrigin;
    }

    /** Whether responses carry {@code Access-Control-Allow-Credentials: true}. */
    public boolean isCredentialsAllowed() {
        return allowCredentials;
    }

    /** The response headers scripts may read, beyond the safelisted ones. */
    public Set<String> exposedHeaders() {
        return exposeHeaders;
    }

    /** The methods a preflight may ask for. */
    public Set<HttpMethod> allowedRequestMethods() {
        return allowedRequestMethods;
    }

    /** The request headers a preflight may ask for, lower-cased. */
    public Set<String> allowedRequestHeaders() {
        return allowedRequestHeaders;
    }

    /** How long browsers may cache a preflight answer, in seconds; 0 means the header is not sent. */
    public long maxAgeSeconds() {
        return maxAgeSeconds;
    }

    /** Extra headers added to every successful preflight response; a copy, changes do not affect this config. */
    public HttpHeaders preflightResponseHeaders() {
        return preflightResponseHeaders.copy();
    }

    /** Whether requests from origins this config does not allow are refused with 403 instead of passed on. */
    public boolean isShortCircuit() {
        return shortCircuit;
    }

    /** Whether {@code origin} (the Origin header value, possibly {@code null}) is allowed. */
    public boolean isOriginAllowed(String origin) {
        if (origin == null) {
            return false;
        }
        if ("null".equals(origin)) {
            return allowNullOrigin || anyOrigin;
        }
        return anyOrigin || origins.contains(origin.toLowerCase(Locale.ROOT));
    }

    HttpHeaders preflightHeaders() {
        return preflightResponseHeaders;
    }

    String allowMethodsValue() {
        return allowMethodsValue;
    }

    String allowHeadersValue() {
        return allowHeadersValue;
    }

    String exposeHeadersValue() {
        return exposeHeadersValue;
    }

    @Override
    public String toString() {
        return "CorsConfig[enabled=" + enabled + ", origins=" + (anyOrigin ? "*" : origins)
                + ", allowNullOrigin=" + allowNullOrigin + ", credentials=" + allowCredentials
                + ", exposeHeaders=" + exposeHeaders + ", methods=" + allowedRequestMethods
                + ", headers=" + allowedRequestHeaders + ", maxAge=" + maxAgeSeconds + "s, shortCircuit="
                + shortCircuit + ']';
    }
}
