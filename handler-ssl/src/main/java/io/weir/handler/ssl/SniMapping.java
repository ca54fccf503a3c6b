package io.weir.handler.ssl;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Host name to {@link SslContext} for {@link SniHandler}: exact names ({@code api.example.com}) and one-label
 * wildcards ({@code *.example.com}, which matches {@code a.example.com} but neither {@code example.com} nor
 * {@code a.b.example.com}, as RFC 6125 §6.4.3 matches certificates), with a default for clients that send no
 * server_name or a name nothing matches. Names are compared in lower case. Resolved names are cached, at most
 * {@link #DEFAULT_MAX_CACHED_HOSTS} of them (names beyond that are resolved each time, never cached, so a peer
 * sending random names cannot grow it). Immutable apart from the cache; safe to share between all connections.
 */
public final class SniMapping {
    /** How many resolved host names the cache keeps by default. */
    public static final int DEFAULT_MAX_CACHED_HOSTS = 1024;

    private final SslContext defaultContext;
    private final Map<String, SslContext> exact;
    private final Map<String, SslContext> wildcards;
    private final int maxCachedHosts;
    private final ConcurrentHashMap<String, SslContext> cache = new ConcurrentHashMap<>();

    private SniMapping(Builder b) {
        this.defaultContext = b.defaultContext;
        this.exact = Map.copyOf(b.exact);
        this.wildcards = Map.copyOf(b.wildcards);
        this.maxCachedHosts = b.maxCachedHosts;
    }

    /** A builder whose unmatched names (and clients without SNI) get {@code defaultContext}. */
    public static Builder builder(SslContext defaultContext) {
        return new Builder(defaultContext);
    }

    /** The context for {@code hostName} (already lower case, as {@link SniHandler} passes it), or the default for null. */
    public SslContext map(String hostName) {
        if (hostName == null) {
            return defaultContext;
        }
        SslContext cached = cache.get(hostName);
        if (cached != null) {
            return cached;
        }
        SslContext ctx = exact.get(hostName);
        if (ctx == null) {
            int dot = hostName.indexOf('.');
            ctx = dot > 0 ? wildcards.get(hostName.substring(dot + 1)) : null;
            if (ctx == null) {
                ctx = defaultContext;
            }
        }
        if (cache.size() < maxCachedHosts) {
            cache.putIfAbsent(hostName, ctx);
        }
        return ctx;
    }

    /** The number of host names cached. */
    public int cachedHosts() {
        return cache.size();
    }

    /** Builds a {@link SniMapping}; not thread-safe. */
    public static final class Builder {
        private final SslContext defaultContext;
        private final Map<String, SslContext> exact = new HashMap<>();
        private final Map<String, SslContext> wildcards = new HashMap<>();
        private int maxCachedHosts = DEFAULT_MAX_CACHED_HOSTS;

        private Builder(SslContext defaultContext) {
            this.defaultContext = Objects.requireNonNull(defaultContext, "defaultContext");
        }

        /** Maps {@code hostPattern} (an exact name or {@code *.domain}) to {@code context}. */
        public Builder add(String hostPattern, SslContext context) {
            Objects.requireNonNull(context, "context");
            String p = hostPattern.toLowerCase(Locale.ROOT);
            if (p.startsWith("*.")) {
                wildcards.put(p.substring(2), context);
            } else if (p.contains("*")) {
                throw new IllegalArgumentException("a wildcard is only allowed as the whole first label: " + hostPattern);
            } else {
                exact.put(p, context);
            }
            return this;
        }

        /** How many resolved names to cache (0 disables the cache). */
        public Builder maxCachedHosts(int hosts) {
            if (hosts < 0) {
                throw new IllegalArgumentException("maxCachedHosts: " + hosts + " (expected >= 0)");
            }
            this.maxCachedHosts = hosts;
            return this;
        }

        /** The mapping. */
        public SniMapping build() {
            return new SniMapping(this);
        }
    }
}
