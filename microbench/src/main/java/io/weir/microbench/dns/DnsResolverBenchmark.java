package io.weir.microbench.dns;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Resolving a host name to its IPv4 address with Weir's {@code DnsNameResolver} and Netty 4.2's, against the
 * same in-process name server on loopback (a JDK {@link DatagramChannel} thread that answers every A question
 * with one record; it costs both sides the same). Two cases:
 * <ul>
 * <li>{@code CacheHit}: the name is in the resolver's cache, so the time is the hop to the resolver's event loop,
 *     the cache look-up and the future back to the benchmark thread;</li>
 * <li>{@code ColdQuery}: the cache is off, so every resolve sends a query and waits for the answer. Weir opens a
 *     new socket for every query (a fresh random source port, for spoofing resistance); Netty's default shares one
 *     socket per resolver, and {@code nettyColdQuery_channelPerResolution} shows Netty with a socket per
 *     resolution, the closer match.</li>
 * </ul>
 * Each resolver has its own single-thread NIO event loop; the benchmark thread blocks on each future.
 */
@BenchmarkMode(Mode.AverageTime)
public class DnsResolverBenchmark extends AbstractMicrobenchmark {
    private static final String NAME = "bench.weir.test";
    private static final long TIMEOUT_SECONDS = 10;
    private static final long QUERY_TIMEOUT_MILLIS = 5_000;

    private Responder responder;
    private io.weir.channel.EventLoopGroup weirGroup;
    private io.netty.channel.EventLoopGroup nettyGroup;
    private io.weir.resolver.dns.DnsNameResolver weirCached;
    private io.weir.resolver.dns.DnsNameResolver weirCold;
    private io.netty.resolver.dns.DnsNameResolver nettyCached;
    private io.netty.resolver.dns.DnsNameResolver nettyCold;
    private io.netty.resolver.dns.DnsNameResolver nettyColdPerResolution;

    @Setup
    public void setup() throws Exception {
        responder = new Responder();
        InetSocketAddress server = responder.address();
        weirGroup = new io.weir.channel.MultiThreadIoEventLoopGroup(1, io.weir.channel.nio.NioIoHandler.newFactory());
        nettyGroup = new io.netty.channel.MultiThreadIoEventLoopGroup(1,
                io.netty.channel.nio.NioIoHandler.newFactory());
        weirCached = weir(server).build();
        weirCold = weir(server).maxCacheEntries(0).build();
        nettyCached = netty(server).build();
        nettyCold = netty(server).resolveCache(io.netty.resolver.dns.NoopDnsCache.INSTANCE)
                .cnameCache(io.netty.resolver.dns.NoopDnsCnameCache.INSTANCE)
                .authoritativeDnsServerCache(io.netty.resolver.dns.NoopAuthoritativeDnsServerCache.INSTANCE).build();
        nettyColdPerResolution = netty(server).resolveCache(io.netty.resolver.dns.NoopDnsCache.INSTANCE)
                .cnameCache(io.netty.resolver.dns.NoopDnsCnameCache.INSTANCE)
                .authoritativeDnsServerCache(io.netty.resolver.dns.NoopAuthoritativeDnsServerCache.INSTANCE)
                .datagramChannelStrategy(io.netty.resolver.dns.DnsNameResolverChannelStrategy.ChannelPerResolution)
                .build();
        // Fill both caches (and check that every resolver gets the answer).
        for (Object answer : new Object[] {weirCacheHit(), nettyCacheHit(), weirColdQuery(), nettyColdQuery(),
            nettyColdQuery_channelPerResolution()}) {
            if (!Responder.ADDRESS.equals(answer)) {
                throw new IllegalStateException("unexpected answer " + answer);
            }
        }
    }

    private io.weir.resolver.dns.DnsNameResolverBuilder weir(InetSocketAddress server) {
        return new io.weir.resolver.dns.DnsNameResolverBuilder()
                .eventLoop((io.weir.channel.EventLoop) weirGroup.next())
                .nameServers(List.of(server))
                .resolvConf(io.weir.resolver.dns.ResolvConf.empty())
                .hostsFile(io.weir.resolver.dns.HostsFile.empty())
                .resolvedAddressTypes(io.weir.resolver.dns.ResolvedAddressTypes.IPV4_ONLY)
                .queryTimeoutMillis(QUERY_TIMEOUT_MILLIS);
    }

    private io.netty.resolver.dns.DnsNameResolverBuilder netty(InetSocketAddress server) {
        return new io.netty.resolver.dns.DnsNameResolverBuilder(nettyGroup.next())
                .datagramChannelType(io.netty.channel.socket.nio.NioDatagramChannel.class)
                .nameServerProvider(new io.netty.resolver.dns.SingletonDnsServerAddressStreamProvider(server))
                .resolvedAddressTypes(io.netty.resolver.ResolvedAddressTypes.IPV4_ONLY)
                .searchDomains(List.of()).ndots(1).queryTimeoutMillis(QUERY_TIMEOUT_MILLIS);
    }

    @TearDown
    public void tearDown() throws Exception {
        weirCached.close();
        weirCold.close();
        nettyCached.close();
        nettyCold.close();
        nettyColdPerResolution.close();
        weirGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        nettyGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        responder.close();
    }

    @Benchmark
    public InetAddress weirCacheHit() throws Exception {
        return weirCached.resolve(NAME).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Benchmark
    public InetAddress nettyCacheHit() throws Exception {
        return nettyCached.resolve(NAME).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Benchmark
    public InetAddress weirColdQuery() throws Exception {
        return weirCold.resolve(NAME).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Benchmark
    public InetAddress nettyColdQuery() throws Exception {
        return nettyCold.resolve(NAME).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Benchmark
    public InetAddress nettyColdQuery_channelPerResolution() throws Exception {
        return nettyColdPerResolution.resolve(NAME).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /**
     * A name server on loopback that answers every query with its own id and question and one A record
     * (192.0.2.1, TTL one hour), dropping any EDNS0 record. Works on the wire bytes directly, so neither
     * framework's codec is involved on the server side.
     */
    static final class Responder implements AutoCloseable {
        static final InetAddress ADDRESS = addressOf(new byte[] {(byte) 192, 0, 2, 1});
        private static final int HEADER_BYTES = 12;
        private static final byte[] ANSWER = {(byte) 0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0x0e, 0x10, 0, 4,
            (byte) 192, 0, 2, 1};

        private final DatagramChannel channel;
        private final Thread thread;

        Responder() throws IOException {
            channel = DatagramChannel.open();
            channel.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            thread = new Thread(this::serve, "dns-bench-responder");
            thread.setDaemon(true);
            thread.start();
        }

        InetSocketAddress address() throws IOException {
            return (InetSocketAddress) channel.getLocalAddress();
        }

        private static InetAddress addressOf(byte[] bytes) {
            try {
                return InetAddress.getByAddress(bytes);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        private void serve() {
            ByteBuffer in = ByteBuffer.allocate(4096);
            ByteBuffer out = ByteBuffer.allocate(4096);
            while (true) {
                try {
                    in.clear();
                    SocketAddress from = channel.receive(in);
                    in.flip();
                    int end = questionEnd(in);
                    if (end < 0) {
                        continue;
                    }
                    out.clear();
                    out.put(in.array(), 0, end);
                    // QR, RD copied, RA; one question, one answer, nothing else.
                    out.put(2, (byte) (0x80 | (in.get(2) & 0x01)));
                    out.put(3, (byte) 0x80);
                    out.putShort(6, (short) 1);
                    out.putShort(8, (short) 0);
                    out.putShort(10, (short) 0);
                    out.put(ANSWER);
                    out.flip();
                    channel.send(out, from);
                } catch (ClosedChannelException e) {
                    return;
                } catch (IOException | RuntimeException e) {
                    // A bad datagram: nothing to answer.
                }
            }
        }

        /** Where the (single, uncompressed) question ends, or -1. */
        private static int questionEnd(ByteBuffer in) {
            int p = HEADER_BYTES;
            while (p < in.limit()) {
                int len = in.get(p) & 0xFF;
                if (len == 0) {
                    return p + 1 + 4 <= in.limit() ? p + 1 + 4 : -1;
                }
                if (len > 63) {
                    return -1;
                }
                p += len + 1;
            }
            return -1;
        }

        @Override
        public void close() throws Exception {
            channel.close();
            thread.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        }
    }
}
