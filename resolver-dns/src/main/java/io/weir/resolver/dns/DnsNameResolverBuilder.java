package io.weir.resolver.dns;

import io.weir.bootstrap.ChannelFactory;
import io.weir.channel.Channel;
import io.weir.channel.EventLoop;
import io.weir.channel.nio.NioDatagramChannel;
import io.weir.channel.nio.NioSocketChannel;
import io.weir.handler.codec.dns.DnsMessageDecoder;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Configures and builds a {@link DnsNameResolver}. What is not set comes from the system: name servers, search
 * domains, ndots, timeout, attempts and rotation from {@code /etc/resolv.conf} ({@link ResolvConf#system()}), and
 * host entries from {@code /etc/hosts} ({@link HostsFile#system()}); with no name server anywhere, 127.0.0.1:53.
 * Reading those files blocks, so {@link #build()} should run off the event loops, or be given
 * {@link #resolvConf(ResolvConf)} and {@link #hostsFile(HostsFile)}. Not thread-safe; {@link #copy()} before
 * sharing.
 *
 * <p>Defaults and why:
 * <ul>
 * <li>query timeout {@value #DEFAULT_QUERY_TIMEOUT_MILLIS} ms, attempts per server 2 (resolv.conf's);</li>
 * <li>EDNS0 UDP payload {@value #DEFAULT_MAX_PAYLOAD_BYTES} bytes (the 2020 DNS flag day value: no IP
 *     fragmentation on common paths; larger answers come over TCP);</li>
 * <li>positive TTLs clamped to [{@value #DEFAULT_MIN_TTL_SECONDS}, {@value #DEFAULT_MAX_TTL_SECONDS}] seconds
 *     (a day: a poisoned or stale answer cannot stick for longer), negative ones to
 *     [0, {@value #DEFAULT_MAX_NEGATIVE_TTL_SECONDS}] seconds (a name that appears is found within five minutes),
 *     at most {@value #DEFAULT_MAX_CACHE_ENTRIES} cache entries;</li>
 * <li>CNAME chains of at most {@value #DEFAULT_MAX_CNAME_CHAIN} links (no legitimate chain is longer);</li>
 * <li>at most {@value #DEFAULT_MAX_IN_FLIGHT_QUERIES} queries in flight per resolver (each holds a socket);</li>
 * <li>at most {@value io.weir.handler.codec.dns.DnsMessageDecoder#DEFAULT_MAX_RECORDS} questions and records per
 *     answer.</li>
 * </ul>
 */
public final class DnsNameResolverBuilder {
    /** Default wait for one answer, in milliseconds. */
    public static final long DEFAULT_QUERY_TIMEOUT_MILLIS = 5_000;
    /** Default EDNS0 UDP payload size, in bytes. */
    public static final int DEFAULT_MAX_PAYLOAD_BYTES = 1232;
    /** The smallest payload size: what RFC 1035 guarantees without EDNS0. */
    public static final int MIN_PAYLOAD_BYTES = 512;
    /** Default lower bound of a cached positive TTL, in seconds. */
    public static final long DEFAULT_MIN_TTL_SECONDS = 0;
    /** Default upper bound of a cached positive TTL, in seconds. */
    public static final long DEFAULT_MAX_TTL_SECONDS = 86_400;
    /** Default upper bound of a cached negative TTL, in seconds. */
    public static final long DEFAULT_MAX_NEGATIVE_TTL_SECONDS = 300;
    /** Default cap on cache entries. */
    public static final int DEFAULT_MAX_CACHE_ENTRIES = 4096;
    /** Default cap on CNAME links followed for one name. */
    public static final int DEFAULT_MAX_CNAME_CHAIN = 8;
    /** Default cap on queries in flight. */
    public static final int DEFAULT_MAX_IN_FLIGHT_QUERIES = 256;

    private EventLoop eventLoop;
    private ChannelFactory<? extends Channel> datagramChannelFactory = NioDatagramChannel::new;
    private ChannelFactory<? extends Channel> socketChannelFactory = NioSocketChannel::new;
    private List<InetSocketAddress> nameServers;
    private ResolvConf resolvConf;
    private HostsFile hostsFile;
    private List<String> searchDomains;
    private int ndots = -1;
    private long queryTimeoutMillis = -1;
    private int attempts = -1;
    private Boolean rotate;
    private int maxPayloadBytes = DEFAULT_MAX_PAYLOAD_BYTES;
    private ResolvedAddressTypes resolvedAddressTypes = ResolvedAddressTypes.IPV4_PREFERRED;
    private long minTtlSeconds = DEFAULT_MIN_TTL_SECONDS;
    private long maxTtlSeconds = DEFAULT_MAX_TTL_SECONDS;
    private long maxNegativeTtlSeconds = DEFAULT_MAX_NEGATIVE_TTL_SECONDS;
    private int maxCacheEntries = DEFAULT_MAX_CACHE_ENTRIES;
    private int maxCnameChain = DEFAULT_MAX_CNAME_CHAIN;
    private int maxInFlightQueries = DEFAULT_MAX_IN_FLIGHT_QUERIES;
    private int maxRecords = DnsMessageDecoder.DEFAULT_MAX_RECORDS;
    private boolean recursionDesired = true;
    private LongSupplier nanoTime = System::nanoTime;

    /** A builder with the defaults. */
    public DnsNameResolverBuilder() {
    }

    /** A copy of this builder. */
    public DnsNameResolverBuilder copy() {
        DnsNameResolverBuilder b = new DnsNameResolverBuilder();
        b.eventLoop = eventLoop;
        b.datagramChannelFactory = datagramChannelFactory;
        b.socketChannelFactory = socketChannelFactory;
        b.nameServers = nameServers;
        b.resolvConf = resolvConf;
        b.hostsFile = hostsFile;
        b.searchDomains = searchDomains;
        b.ndots = ndots;
        b.queryTimeoutMillis = queryTimeoutMillis;
        b.attempts = attempts;
        b.rotate = rotate;
        b.maxPayloadBytes = maxPayloadBytes;
        b.resolvedAddressTypes = resolvedAddressTypes;
        b.minTtlSeconds = minTtlSeconds;
        b.maxTtlSeconds = maxTtlSeconds;
        b.maxNegativeTtlSeconds = maxNegativeTtlSeconds;
        b.maxCacheEntries = maxCacheEntries;
        b.maxCnameChain = maxCnameChain;
        b.maxInFlightQueries = maxInFlightQueries;
        b.maxRecords = maxRecords;
        b.recursionDesired = recursionDesired;
        b.nanoTime = nanoTime;
        return b;
    }

    /** The event loop the resolver runs on: its queries, timers and answers. Required by {@link #build()}. */
    public DnsNameResolverBuilder eventLoop(EventLoop eventLoop) {
        this.eventLoop = Objects.requireNonNull(eventLoop, "eventLoop");
        return this;
    }

    /**
     * The UDP channel type, through its public constructor taking an {@link EventLoop}; {@link NioDatagramChannel}
     * unless set. It must suit the event loop's I/O handler.
     *
     * @throws IllegalArgumentException if {@code type} has no such constructor
     */
    public DnsNameResolverBuilder datagramChannelType(Class<? extends Channel> type) {
        return datagramChannelFactory(factory(type));
    }

    /** How UDP channels are created. */
    public DnsNameResolverBuilder datagramChannelFactory(ChannelFactory<? extends Channel> factory) {
        this.datagramChannelFactory = Objects.requireNonNull(factory, "factory");
        return this;
    }

    /**
     * The TCP channel type for truncated answers, as {@link #datagramChannelType}; {@link NioSocketChannel} unless
     * set.
     *
     * @throws IllegalArgumentException if {@code type} has no public constructor taking an {@link EventLoop}
     */
    public DnsNameResolverBuilder socketChannelType(Class<? extends Channel> type) {
        return socketChannelFactory(factory(type));
    }

    /** How TCP channels are created. */
    public DnsNameResolverBuilder socketChannelFactory(ChannelFactory<? extends Channel> factory) {
        this.socketChannelFactory = Objects.requireNonNull(factory, "factory");
        return this;
    }

    /**
     * The name servers, tried in order (or rotated, see {@link #rotate(boolean)}); those of resolv.conf unless set.
     *
     * @throws IllegalArgumentException if the list is empty or holds an unresolved address
     */
    public DnsNameResolverBuilder nameServers(List<InetSocketAddress> nameServers) {
        List<InetSocketAddress> copy = List.copyOf(nameServers);
        if (copy.isEmpty()) {
            throw new IllegalArgumentException("no name server");
        }
        for (InetSocketAddress a : copy) {
            if (a.isUnresolved()) {
                throw new IllegalArgumentException("name server address is unresolved: " + a);
            }
        }
        this.nameServers = copy;
        return this;
    }

    /** The resolv.conf whose values are used where nothing else is set; {@link ResolvConf#system()} unless set. */
    public DnsNameResolverBuilder resolvConf(ResolvConf resolvConf) {
        this.resolvConf = Objects.requireNonNull(resolvConf, "resolvConf");
        return this;
    }

    /** The hosts file consulted before any query; {@link HostsFile#system()} unless set. */
    public DnsNameResolverBuilder hostsFile(HostsFile hostsFile) {
        this.hostsFile = Objects.requireNonNull(hostsFile, "hostsFile");
        return this;
    }

    /** The search domains appended to relative names; resolv.conf's unless set. */
    public DnsNameResolverBuilder searchDomains(List<String> searchDomains) {
        List<String> copy = new ArrayList<>();
        for (String d : searchDomains) {
            String lower = d.toLowerCase(Locale.ROOT);
            copy.add(lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower);
        }
        this.searchDomains = List.copyOf(copy);
        return this;
    }

    /**
     * Dots a name needs to be tried as is before the search domains; resolv.conf's unless set.
     *
     * @throws IllegalArgumentException if {@code ndots} is negative
     */
    public DnsNameResolverBuilder ndots(int ndots) {
        if (ndots < 0) {
            throw new IllegalArgumentException("ndots < 0: " + ndots);
        }
        this.ndots = ndots;
        return this;
    }

    /**
     * How long to wait for each answer before trying again (the next server), in milliseconds; resolv.conf's
     * timeout (5 s by default) unless set.
     *
     * @throws IllegalArgumentException if not positive
     */
    public DnsNameResolverBuilder queryTimeoutMillis(long queryTimeoutMillis) {
        if (queryTimeoutMillis <= 0) {
            throw new IllegalArgumentException("queryTimeoutMillis <= 0: " + queryTimeoutMillis);
        }
        this.queryTimeoutMillis = queryTimeoutMillis;
        return this;
    }

    /**
     * Tries per name server for one question (a question gets {@code attempts * servers} tries in all, each with
     * the query timeout); resolv.conf's (2 by default) unless set.
     *
     * @throws IllegalArgumentException if not positive
     */
    public DnsNameResolverBuilder attempts(int attempts) {
        if (attempts <= 0) {
            throw new IllegalArgumentException("attempts <= 0: " + attempts);
        }
        this.attempts = attempts;
        return this;
    }

    /** Whether each question starts at the next name server in turn (else at the first); resolv.conf's. */
    public DnsNameResolverBuilder rotate(boolean rotate) {
        this.rotate = rotate;
        return this;
    }

    /**
     * The UDP payload size advertised with EDNS0 and accepted; a larger datagram is dropped.
     *
     * @throws IllegalArgumentException if not in [512, 65535]
     */
    public DnsNameResolverBuilder maxPayloadBytes(int maxPayloadBytes) {
        if (maxPayloadBytes < MIN_PAYLOAD_BYTES || maxPayloadBytes > 0xFFFF) {
            throw new IllegalArgumentException("maxPayloadBytes not in [512, 65535]: " + maxPayloadBytes);
        }
        this.maxPayloadBytes = maxPayloadBytes;
        return this;
    }

    /** Which address families to resolve and in which order; IPv4 first unless set. */
    public DnsNameResolverBuilder resolvedAddressTypes(ResolvedAddressTypes types) {
        this.resolvedAddressTypes = Objects.requireNonNull(types, "types");
        return this;
    }

    /**
     * Bounds for the TTL of cached answers, in seconds: positive answers are kept for their TTL clamped to
     * [{@code min}, {@code max}], negative ones for their SOA's minimum clamped to [0, {@code maxNegative}].
     *
     * @throws IllegalArgumentException if a bound is negative or {@code min > max}
     */
    public DnsNameResolverBuilder ttl(long minSeconds, long maxSeconds, long maxNegativeSeconds) {
        if (minSeconds < 0 || maxSeconds < minSeconds || maxNegativeSeconds < 0) {
            throw new IllegalArgumentException("bad TTL bounds: min " + minSeconds + ", max " + maxSeconds
                    + ", max negative " + maxNegativeSeconds);
        }
        this.minTtlSeconds = minSeconds;
        this.maxTtlSeconds = maxSeconds;
        this.maxNegativeTtlSeconds = maxNegativeSeconds;
        return this;
    }

    /**
     * The most cached answers; 0 turns the cache off.
     *
     * @throws IllegalArgumentException if negative
     */
    public DnsNameResolverBuilder maxCacheEntries(int maxCacheEntries) {
        if (maxCacheEntries < 0) {
            throw new IllegalArgumentException("maxCacheEntries < 0: " + maxCacheEntries);
        }
        this.maxCacheEntries = maxCacheEntries;
        return this;
    }

    /**
     * The most CNAME links followed for one name; a longer chain fails the resolve.
     *
     * @throws IllegalArgumentException if negative
     */
    public DnsNameResolverBuilder maxCnameChain(int maxCnameChain) {
        if (maxCnameChain < 0) {
            throw new IllegalArgumentException("maxCnameChain < 0: " + maxCnameChain);
        }
        this.maxCnameChain = maxCnameChain;
        return this;
    }

    /**
     * The most queries in flight; a resolve that needs one more fails at once.
     *
     * @throws IllegalArgumentException if not positive
     */
    public DnsNameResolverBuilder maxInFlightQueries(int maxInFlightQueries) {
        if (maxInFlightQueries <= 0) {
            throw new IllegalArgumentException("maxInFlightQueries <= 0: " + maxInFlightQueries);
        }
        this.maxInFlightQueries = maxInFlightQueries;
        return this;
    }

    /**
     * The most questions and records an answer may hold; a larger one is dropped.
     *
     * @throws IllegalArgumentException if not positive
     */
    public DnsNameResolverBuilder maxRecords(int maxRecords) {
        if (maxRecords <= 0) {
            throw new IllegalArgumentException("maxRecords <= 0: " + maxRecords);
        }
        this.maxRecords = maxRecords;
        return this;
    }

    /** Whether queries ask the server to recurse (RD); true unless set. */
    public DnsNameResolverBuilder recursionDesired(boolean recursionDesired) {
        this.recursionDesired = recursionDesired;
        return this;
    }

    /** The clock of the cache (tests). */
    DnsNameResolverBuilder nanoTime(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        return this;
    }

    /**
     * Reads the system files for what is not set (see the class comment), so that later {@link #build()}s do not.
     * Blocks on file I/O.
     */
    public DnsNameResolverBuilder loadSystemDefaults() {
        if (resolvConf == null && (nameServers == null || searchDomains == null || ndots < 0
                || queryTimeoutMillis < 0 || attempts < 0 || rotate == null)) {
            resolvConf = ResolvConf.system();
        }
        if (hostsFile == null) {
            hostsFile = HostsFile.system();
        }
        return this;
    }

    /**
     * A resolver on the {@linkplain #eventLoop(EventLoop) event loop}. Reads the system files for what is not set.
     *
     * @throws IllegalStateException if no event loop was set
     */
    public DnsNameResolver build() {
        if (eventLoop == null) {
            throw new IllegalStateException("eventLoop not set");
        }
        loadSystemDefaults();
        ResolvConf conf = resolvConf == null ? ResolvConf.empty() : resolvConf;
        List<InetSocketAddress> servers = nameServers != null ? nameServers : conf.nameServers();
        if (servers.isEmpty()) {
            servers = List.of(new InetSocketAddress("127.0.0.1", ResolvConf.DNS_PORT));
        }
        return new DnsNameResolver(eventLoop, new DnsResolverConfig(datagramChannelFactory, socketChannelFactory,
                servers, hostsFile, searchDomains != null ? searchDomains : conf.searchDomains(),
                ndots >= 0 ? ndots : conf.ndots(),
                queryTimeoutMillis > 0 ? queryTimeoutMillis : conf.timeoutSeconds() * 1000L,
                attempts > 0 ? attempts : conf.attempts(), rotate != null ? rotate : conf.rotate(), maxPayloadBytes,
                resolvedAddressTypes, minTtlSeconds, maxTtlSeconds, maxNegativeTtlSeconds, maxCacheEntries,
                maxCnameChain, maxInFlightQueries, maxRecords, recursionDesired, nanoTime));
    }

    private static ChannelFactory<? extends Channel> factory(Class<? extends Channel> type) {
        Constructor<? extends Channel> c;
        try {
            c = type.getConstructor(EventLoop.class);
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(type.getName() + " has no public constructor "
                    + type.getSimpleName() + "(EventLoop)", e);
        }
        return loop -> {
            try {
                return c.newInstance(loop);
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof RuntimeException re ? re
                        : new io.weir.channel.ChannelException("cannot create " + type.getName(), e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new io.weir.channel.ChannelException("cannot create " + type.getName(), e);
            }
        };
    }
}
