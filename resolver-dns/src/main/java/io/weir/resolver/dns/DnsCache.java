package io.weir.resolver.dns;

import java.net.InetAddress;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The answers of one resolver, by name and record type: addresses with their expiry, and negative answers
 * ("no such name", "no such data"). TTLs are clamped: positive ones to [min, max], negative ones to
 * [0, max negative]; an entry whose clamped TTL is 0 is not stored. At most {@code maxEntries} entries, so an
 * attacker who makes the resolver ask for endless names cannot grow it: when full, expired entries go first, then
 * whichever entries iteration meets first (no LRU bookkeeping, so that reads need no lock).
 *
 * <p>Written on the resolver's event loop only; {@link #get} may be called from any thread (a cache hit then
 * needs no hop to the loop).
 */
final class DnsCache {
    /** A cached answer: addresses (empty for a negative one) and when it expires. */
    record Entry(List<InetAddress> addresses, boolean nxdomain, long expiresAtNanos) {
        boolean isNegative() {
            return addresses.isEmpty();
        }
    }

    private record Key(String name, int type) {
    }

    private final long minTtlSeconds;
    private final long maxTtlSeconds;
    private final long maxNegativeTtlSeconds;
    private final int maxEntries;
    private final LongSupplier nanoTime;
    private final ConcurrentHashMap<Key, Entry> entries = new ConcurrentHashMap<>();

    DnsCache(long minTtlSeconds, long maxTtlSeconds, long maxNegativeTtlSeconds, int maxEntries,
             LongSupplier nanoTime) {
        this.minTtlSeconds = minTtlSeconds;
        this.maxTtlSeconds = maxTtlSeconds;
        this.maxNegativeTtlSeconds = maxNegativeTtlSeconds;
        this.maxEntries = maxEntries;
        this.nanoTime = nanoTime;
    }

    /** The live entry for {@code name} (lower case) and {@code type}, or {@code null}. Any thread. */
    Entry get(String name, int type) {
        Entry e = entries.get(new Key(name, type));
        return e == null || e.expiresAtNanos - nanoTime.getAsLong() <= 0 ? null : e;
    }

    /** Caches {@code addresses} for {@code ttlSeconds} clamped to [min, max]; returns the TTL used. */
    long putPositive(String name, int type, List<InetAddress> addresses, long ttlSeconds) {
        long ttl = Math.max(minTtlSeconds, Math.min(maxTtlSeconds, ttlSeconds));
        put(name, type, List.copyOf(addresses), false, ttl);
        return ttl;
    }

    /** Caches a negative answer for {@code ttlSeconds} clamped to [0, max negative]; returns the TTL used. */
    long putNegative(String name, int type, boolean nxdomain, long ttlSeconds) {
        long ttl = Math.max(0, Math.min(maxNegativeTtlSeconds, ttlSeconds));
        put(name, type, List.of(), nxdomain, ttl);
        return ttl;
    }

    private void put(String name, int type, List<InetAddress> addresses, boolean nxdomain, long ttlSeconds) {
        if (ttlSeconds <= 0) {
            return;
        }
        long now = nanoTime.getAsLong();
        Key key = new Key(name, type);
        if (!entries.containsKey(key) && entries.size() >= maxEntries) {
            evict(now);
        }
        entries.put(key, new Entry(addresses, nxdomain, now + TimeUnit.SECONDS.toNanos(ttlSeconds)));
    }

    /** Makes room for one entry: the expired ones go, or else the first one iteration meets. */
    private void evict(long now) {
        entries.values().removeIf(e -> e.expiresAtNanos - now <= 0);
        Iterator<Key> it = entries.keySet().iterator();
        while (entries.size() >= maxEntries && it.hasNext()) {
            it.next();
            it.remove();
        }
    }

    int size() {
        return entries.size();
    }

    void clear() {
        entries.clear();
    }
}
