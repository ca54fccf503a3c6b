package io.weir.resolver.dns;

import io.weir.channel.EventLoop;
import io.weir.handler.codec.dns.DnsAddressRecord;
import io.weir.handler.codec.dns.DnsCnameRecord;
import io.weir.handler.codec.dns.DnsMessage;
import io.weir.handler.codec.dns.DnsMessageDecoder;
import io.weir.handler.codec.dns.DnsNames;
import io.weir.handler.codec.dns.DnsQuestion;
import io.weir.handler.codec.dns.DnsRecord;
import io.weir.handler.codec.dns.DnsRecordType;
import io.weir.handler.codec.dns.DnsResponseCode;
import io.weir.handler.codec.dns.DnsSoaRecord;
import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.Promise;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;

/**
 * An asynchronous DNS resolver on one {@link EventLoop}: host names to addresses (A and AAAA, CNAME chains
 * followed), and any question to its answer records (SRV, TXT, ...). Build it with {@link DnsNameResolverBuilder};
 * plug it into a {@code Bootstrap} through {@link DnsAddressResolverGroup}.
 *
 * <p>A host name is looked up in this order: an IP literal is returned as is; the hosts file; the cache; then the
 * name servers, for each candidate of the search list (a name with at least {@code ndots} dots, or ending in a dot,
 * is tried as is first). Queries go over UDP, from a fresh socket per try (a random source port chosen by the
 * system) with a random id from a {@link SecureRandom}, and over TCP when the answer is truncated. An answer is
 * accepted only from the address and port asked, with QR set and the query's id and question (RFC 5452); everything
 * else (malformed, oversized, spoofed, late) is released at once and counted ({@link #droppedDatagrams()}), and the
 * query keeps waiting. A timeout or a server failure (SERVFAIL, REFUSED, ...) moves on to the next name server.
 * Answers are cached with clamped TTLs, "no such name" and "no data" answers for their SOA minimum (RFC 2308),
 * within a bounded cache; a cache hit is answered on the calling thread.
 *
 * <p>Thread-safe: methods may be called from any thread. All state lives on the event loop, and every future
 * completes there. Every wait has a timeout: a resolve ends within {@code attempts * servers * queryTimeout} per
 * query it needs.
 */
public final class DnsNameResolver implements AutoCloseable {
    private final EventLoop eventLoop;
    private final DnsResolverConfig config;
    private final DnsMessageDecoder messageDecoder;
    private final DnsCache cache;
    private final SecureRandom random = new SecureRandom();
    // Event loop only.
    private final Set<DnsQuery> inFlight = new HashSet<>();
    private int nextServer;
    private boolean closed;
    // Written on the event loop only; volatile for readers elsewhere.
    private volatile long droppedDatagrams;
    private volatile int inFlightCount;

    DnsNameResolver(EventLoop eventLoop, DnsResolverConfig config) {
        this.eventLoop = eventLoop;
        this.config = config;
        this.messageDecoder = new DnsMessageDecoder(config.maxRecords());
        this.cache = config.maxCacheEntries() == 0 ? null : new DnsCache(config.minTtlSeconds(),
                config.maxTtlSeconds(), config.maxNegativeTtlSeconds(), config.maxCacheEntries(), config.nanoTime());
    }

    /** The event loop the resolver runs on, and on which its futures complete. */
    public EventLoop eventLoop() {
        return eventLoop;
    }

    /**
     * The first address of {@code host} (see {@link #resolveAll(String)}).
     *
     * @return a future failed with {@link UnknownHostException} when the name does not resolve
     */
    public Future<InetAddress> resolve(String host) {
        Future<List<InetAddress>> all = resolveAll(host);
        if (all.isDone()) {
            // A cache hit: no hop to the loop for the listener.
            return all.isSuccess() ? eventLoop.newSucceededFuture(all.getNow().get(0))
                    : eventLoop.newFailedFuture(all.cause());
        }
        Promise<InetAddress> promise = eventLoop.newPromise();
        all.addListener(f -> {
            if (f.isSuccess()) {
                promise.trySuccess(all.getNow().get(0));
            } else {
                promise.tryFailure(f.cause());
            }
        });
        return promise;
    }

    /**
     * Every address of {@code host}, in the configured family order ({@link ResolvedAddressTypes}).
     *
     * @return a future with a non-empty list, or failed with {@link UnknownHostException} (no such name, no
     *         address, no answer in time, a CNAME chain too long or looping, or the resolver is closed)
     */
    public Future<List<InetAddress>> resolveAll(String host) {
        Promise<List<InetAddress>> promise = eventLoop.newPromise();
        if (!eventLoop.inEventLoop()) {
            List<InetAddress> cached = cachedAddresses(host);
            if (cached != null) {
                return promise.setSuccess(cached);
            }
        }
        run(() -> resolveHost(host, promise), promise);
        return promise;
    }

    /**
     * What the cache alone answers for {@code host} from any thread without a hop to the loop, or {@code null}
     * when that takes the loop (not cached, negative, expired, a literal or a hosts-file name).
     */
    private List<InetAddress> cachedAddresses(String host) {
        if (cache == null || host.isEmpty() || host.charAt(host.length() - 1) == '.') {
            return null;
        }
        String name = host.toLowerCase(Locale.ROOT);
        if (!config.searchDomains().isEmpty() && dots(name) < config.ndots()) {
            // The search list comes first: its names would have to be known not to exist.
            return null;
        }
        ResolvedAddressTypes types = config.resolvedAddressTypes();
        DnsCache.Entry first = cache.get(name, types == ResolvedAddressTypes.IPV6_ONLY
                || types == ResolvedAddressTypes.IPV6_PREFERRED ? DnsRecordType.AAAA.value() : DnsRecordType.A.value());
        if (first == null || types == ResolvedAddressTypes.IPV4_ONLY || types == ResolvedAddressTypes.IPV6_ONLY) {
            return first == null || first.isNegative() ? null : first.addresses();
        }
        DnsCache.Entry second = cache.get(name, types == ResolvedAddressTypes.IPV6_PREFERRED
                ? DnsRecordType.A.value() : DnsRecordType.AAAA.value());
        if (second == null || first.isNegative() && second.isNegative()) {
            return null;
        }
        if (second.isNegative()) {
            return first.addresses();
        }
        if (first.isNegative()) {
            return second.addresses();
        }
        List<InetAddress> all = new ArrayList<>(first.addresses().size() + second.addresses().size());
        all.addAll(first.addresses());
        all.addAll(second.addresses());
        return List.copyOf(all);
    }

    private static int dots(String name) {
        int dots = 0;
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) == '.') {
                dots++;
            }
        }
        return dots;
    }

    /**
     * The answer section of {@code question}, e.g. {@code new DnsQuestion("_sip._tcp.example.com",
     * DnsRecordType.SRV)} or a TXT question. No search list, hosts file or cache.
     *
     * @return a future with the answer records (empty for "no data"), or failed with {@link UnknownHostException}
     *         (no such name, no answer in time, a name that cannot be encoded, the resolver closed)
     */
    public Future<List<DnsRecord>> resolveAll(DnsQuestion question) {
        Promise<List<DnsRecord>> promise = eventLoop.newPromise();
        run(() -> {
            try {
                DnsNames.wireLength(question.name());
            } catch (IllegalArgumentException e) {
                promise.tryFailure(unknownHost(question.name() + ": " + e.getMessage()));
                return;
            }
            query(question).addListener(f -> {
                if (!f.isSuccess()) {
                    promise.tryFailure(f.cause());
                    return;
                }
                DnsMessage m = (DnsMessage) f.getNow();
                if (m.rcode() == DnsResponseCode.NXDOMAIN) {
                    promise.tryFailure(unknownHost(question.name() + ": no such name (NXDOMAIN)"));
                } else {
                    promise.trySuccess(m.answers());
                }
            });
        }, promise);
        return promise;
    }

    /** How many datagrams were dropped: malformed, oversized, from another address, or not answering a query. */
    public long droppedDatagrams() {
        return droppedDatagrams;
    }

    /** How many queries are in flight now. */
    public int inFlightQueries() {
        return inFlightCount;
    }

    /** Empties the cache. */
    public void clearCache() {
        run(() -> {
            if (cache != null) {
                cache.clear();
            }
        }, null);
    }

    /** Fails every query in flight and every later call with {@link UnknownHostException}. */
    @Override
    public void close() {
        run(() -> {
            closed = true;
            UnknownHostException e = unknownHost("resolver closed");
            for (DnsQuery q : new ArrayList<>(inFlight)) {
                q.cancel(e);
            }
        }, null);
    }

    private void run(Runnable task, Promise<?> promise) {
        if (eventLoop.inEventLoop()) {
            task.run();
            return;
        }
        try {
            eventLoop.execute(task);
        } catch (RejectedExecutionException e) {
            if (promise != null) {
                promise.tryFailure(unknownHost("resolver's event loop is shut down"));
            }
        }
    }

    DnsResolverConfig config() {
        return config;
    }

    DnsMessageDecoder messageDecoder() {
        return messageDecoder;
    }

    DnsCache cache() {
        return cache;
    }

    int nextQueryId() {
        return random.nextInt(0x10000);
    }

    void dropped() {
        droppedDatagrams++;
    }

    /** Asks {@code question}; the future fails when the query cannot run or gets no answer. Event loop only. */
    Future<DnsMessage> query(DnsQuestion question) {
        Promise<DnsMessage> promise = eventLoop.newPromise();
        if (closed) {
            return promise.setFailure(unknownHost("resolver closed"));
        }
        if (inFlight.size() >= config.maxInFlightQueries()) {
            return promise.setFailure(unknownHost(question.name() + ": not asked, "
                    + config.maxInFlightQueries() + " queries are already in flight"));
        }
        int first = config.rotate() ? nextServer++ & Integer.MAX_VALUE : 0;
        DnsQuery q = new DnsQuery(this, question, promise, first);
        inFlight.add(q);
        inFlightCount = inFlight.size();
        promise.addListener(f -> {
            inFlight.remove(q);
            inFlightCount = inFlight.size();
        });
        q.start();
        return promise;
    }

    private void resolveHost(String host, Promise<List<InetAddress>> promise) {
        InetAddress literal = IpLiterals.parse(host);
        if (literal != null) {
            promise.trySuccess(List.of(literal));
            return;
        }
        String name = host.toLowerCase(Locale.ROOT);
        boolean absolute = name.endsWith(".");
        if (absolute) {
            name = name.substring(0, name.length() - 1);
        }
        try {
            DnsNames.wireLength(name);
        } catch (IllegalArgumentException e) {
            promise.tryFailure(unknownHost(host + ": " + e.getMessage()));
            return;
        }
        if (name.isEmpty()) {
            promise.tryFailure(unknownHost("empty host name"));
            return;
        }
        List<InetAddress> fromHosts = config.hostsFile().addresses(name, config.resolvedAddressTypes());
        if (!fromHosts.isEmpty()) {
            promise.trySuccess(fromHosts);
            return;
        }
        new HostLookup(host, candidates(name, absolute), promise).next(null);
    }

    /** The names to ask for, in order (resolv.conf(5), "search" and "ndots"). */
    private List<String> candidates(String name, boolean absolute) {
        List<String> search = config.searchDomains();
        if (absolute || search.isEmpty()) {
            return List.of(name);
        }
        int dots = dots(name);
        List<String> all = new ArrayList<>(search.size() + 1);
        if (dots >= config.ndots()) {
            all.add(name);
        }
        for (String domain : search) {
            String candidate = name + "." + domain;
            if (candidate.length() <= DnsNames.MAX_NAME_BYTES - 2) {
                all.add(candidate);
            }
        }
        if (dots < config.ndots()) {
            all.add(name);
        }
        return all;
    }

    /** The search-list walk for one host name. Event loop only. */
    private final class HostLookup {
        private final String host;
        private final List<String> candidates;
        private final Promise<List<InetAddress>> promise;
        private int index;

        HostLookup(String host, List<String> candidates, Promise<List<InetAddress>> promise) {
            this.host = host;
            this.candidates = candidates;
            this.promise = promise;
        }

        void next(Throwable notFound) {
            if (index >= candidates.size()) {
                promise.tryFailure(unknownHost(host + ": " + (notFound == null ? "no address"
                        : notFound.getMessage()), notFound));
                return;
            }
            resolveFamilies(candidates.get(index++)).addListener(f -> {
                if (f.isSuccess()) {
                    @SuppressWarnings("unchecked")
                    List<InetAddress> found = (List<InetAddress>) f.getNow();
                    promise.trySuccess(found);
                } else if (f.cause() instanceof NotFoundException) {
                    next(f.cause());
                } else {
                    promise.tryFailure(f.cause());
                }
            });
        }
    }

    private Future<List<InetAddress>> resolveFamilies(String name) {
        return switch (config.resolvedAddressTypes()) {
            case IPV4_ONLY -> resolveType(name, DnsRecordType.A);
            case IPV6_ONLY -> resolveType(name, DnsRecordType.AAAA);
            case IPV4_PREFERRED -> both(resolveType(name, DnsRecordType.A), resolveType(name, DnsRecordType.AAAA));
            case IPV6_PREFERRED -> both(resolveType(name, DnsRecordType.AAAA), resolveType(name, DnsRecordType.A));
        };
    }

    /** The addresses of {@code first} then {@code second}; fails only if neither has any. */
    private Future<List<InetAddress>> both(Future<List<InetAddress>> first, Future<List<InetAddress>> second) {
        Promise<List<InetAddress>> promise = eventLoop.newPromise();
        first.addListener(f1 -> second.addListener(f2 -> {
            List<InetAddress> all = new ArrayList<>();
            if (f1.isSuccess()) {
                all.addAll(first.getNow());
            }
            if (f2.isSuccess()) {
                all.addAll(second.getNow());
            }
            if (!all.isEmpty()) {
                promise.trySuccess(List.copyOf(all));
            } else if (f1.cause() instanceof NotFoundException && f2.cause() instanceof NotFoundException) {
                promise.tryFailure(f1.cause());
            } else {
                promise.tryFailure(f1.cause() instanceof NotFoundException ? f2.cause() : f1.cause());
            }
        }));
        return promise;
    }

    /** The {@code type} addresses of {@code name} (lower case), from the cache or the name servers. */
    private Future<List<InetAddress>> resolveType(String name, DnsRecordType type) {
        Promise<List<InetAddress>> promise = eventLoop.newPromise();
        DnsCache.Entry cached = cache == null ? null : cache.get(name, type.value());
        if (cached != null) {
            if (cached.isNegative()) {
                promise.tryFailure(new NotFoundException(name, type, cached.nxdomain()));
            } else {
                promise.trySuccess(cached.addresses());
            }
            return promise;
        }
        new ChainLookup(name, type, promise).ask(name);
        return promise;
    }

    /** One name's addresses of one type, following CNAMEs across answers. Event loop only. */
    private final class ChainLookup {
        private final String origin;
        private final DnsRecordType type;
        private final Promise<List<InetAddress>> promise;
        private final Set<String> seen = new HashSet<>();
        private int links;
        private long ttl = DnsRecord.MAX_TTL_SECONDS;

        ChainLookup(String origin, DnsRecordType type, Promise<List<InetAddress>> promise) {
            this.origin = origin;
            this.type = type;
            this.promise = promise;
            seen.add(origin);
        }

        void ask(String name) {
            query(new DnsQuestion(name, type)).addListener(f -> {
                if (f.isSuccess()) {
                    answered(name, (DnsMessage) f.getNow());
                } else {
                    promise.tryFailure(f.cause());
                }
            });
        }

        private void answered(String asked, DnsMessage m) {
            if (m.rcode() == DnsResponseCode.NXDOMAIN) {
                negative(m, true);
                return;
            }
            String current = asked;
            for (;;) {
                List<InetAddress> found = new ArrayList<>();
                long foundTtl = ttl;
                List<DnsRecord> answers = m.answers();
                for (int i = 0; i < answers.size(); i++) {
                    DnsRecord r = answers.get(i);
                    if (r instanceof DnsAddressRecord a && a.type().value() == type.value()
                            && a.dnsClass() == DnsRecord.CLASS_IN && DnsNames.equalsIgnoreCase(a.name(), current)) {
                        found.add(a.address());
                        foundTtl = Math.min(foundTtl, a.ttl());
                    }
                }
                if (!found.isEmpty()) {
                    if (cache != null) {
                        cache.putPositive(origin, type.value(), found, foundTtl);
                    }
                    promise.trySuccess(List.copyOf(found));
                    return;
                }
                DnsCnameRecord cname = cname(answers, current);
                if (cname == null) {
                    break;
                }
                ttl = Math.min(ttl, cname.ttl());
                current = cname.target().toLowerCase(Locale.ROOT);
                if (!seen.add(current)) {
                    promise.tryFailure(unknownHost(origin + ": CNAME loop at " + current));
                    return;
                }
                if (++links > config.maxCnameChain()) {
                    promise.tryFailure(unknownHost(origin + ": CNAME chain longer than " + config.maxCnameChain()));
                    return;
                }
            }
            if (!current.equals(asked)) {
                // The chain leaves this answer: ask for where it leads (RFC 1034 §5.3.3 step 3c).
                ask(current);
                return;
            }
            negative(m, false);
        }

        private DnsCnameRecord cname(List<DnsRecord> answers, String name) {
            for (int i = 0; i < answers.size(); i++) {
                if (answers.get(i) instanceof DnsCnameRecord c && c.dnsClass() == DnsRecord.CLASS_IN
                        && DnsNames.equalsIgnoreCase(c.name(), name)) {
                    return c;
                }
            }
            return null;
        }

        private void negative(DnsMessage m, boolean nxdomain) {
            // RFC 2308 §5: cached for the SOA's TTL or minimum, whichever is smaller; without an SOA, not at all.
            List<DnsRecord> authorities = m.authorities();
            for (int i = 0; i < authorities.size(); i++) {
                if (authorities.get(i) instanceof DnsSoaRecord soa && cache != null) {
                    cache.putNegative(origin, type.value(), nxdomain, Math.min(soa.ttl(), soa.minimum()));
                    break;
                }
            }
            promise.tryFailure(new NotFoundException(origin, type, nxdomain));
        }
    }

    private static UnknownHostException unknownHost(String message) {
        return new UnknownHostException(message);
    }

    private static UnknownHostException unknownHost(String message, Throwable cause) {
        UnknownHostException e = new UnknownHostException(message);
        if (cause != null) {
            e.initCause(cause);
        }
        return e;
    }

    /** A name with no address of a type: no such name, or no such data. Cheap, as a server can cause it at will. */
    static final class NotFoundException extends UnknownHostException {
        private static final long serialVersionUID = 1L;

        NotFoundException(String name, DnsRecordType type, boolean nxdomain) {
            super(name + (nxdomain ? ": no such name (NXDOMAIN)" : ": no " + type + " record"));
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }
}
