package io.weir.resolver.dns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.channel.nio.NioSocketChannel;
import io.weir.handler.codec.dns.DnsMessage;
import io.weir.handler.codec.dns.DnsQuestion;
import io.weir.handler.codec.dns.DnsRecord;
import io.weir.handler.codec.dns.DnsRecordType;
import io.weir.handler.codec.dns.DnsSrvRecord;
import io.weir.handler.codec.dns.DnsTxtRecord;
import io.weir.util.concurrent.Future;
import java.io.IOException;
import java.net.BindException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Interop with a real dnsmasq started on loopback with a test zone ({@code test.weir}): addresses of both
 * families, a CNAME, SRV and TXT records, NXDOMAIN, a name with 100 addresses that only TCP can carry, and a
 * {@link Bootstrap} that connects by name through {@link DnsAddressResolverGroup}. Skipped only when
 * {@code /usr/sbin/dnsmasq} is missing ({@code apt-get install -y dnsmasq-base}).
 */
class DnsmasqInteropTest {
    private static final String DNSMASQ = "/usr/sbin/dnsmasq";
    private static final long WAIT_SECONDS = 10;
    private static final int BIG_RECORDS = 100;

    private static Process dnsmasq;
    private static Path dir;
    private static InetSocketAddress server;
    private static EventLoopGroup group;

    @BeforeAll
    static void startDnsmasq() throws Exception {
        // A real peer is the point of this test: without it the test fails rather than passing unseen.
        assertThat(Path.of(DNSMASQ)).as(DNSMASQ + " is missing: apt-get install -y dnsmasq-base (.ci/run does)")
                .isExecutable();
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        dir = Files.createTempDirectory("weir-dnsmasq");
        StringBuilder big = new StringBuilder();
        for (int i = 1; i <= BIG_RECORDS; i++) {
            big.append("198.51.100.").append(i).append(" big.test.weir\n");
        }
        Path hosts = Files.writeString(dir.resolve("zone.hosts"), big + "127.0.0.1 loop.test.weir\n");
        int port = freeUdpPort();
        server = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        Path log = dir.resolve("dnsmasq.log");
        dnsmasq = new ProcessBuilder(DNSMASQ, "--keep-in-foreground", "--conf-file=/dev/null", "--no-resolv",
                "--no-hosts", "--port=" + port, "--listen-address=127.0.0.1", "--bind-interfaces", "--pid-file=",
                "--user=root", "--local=/test.weir/", "--addn-hosts=" + hosts,
                "--host-record=www.test.weir,192.0.2.10,2001:db8::10",
                "--cname=alias.test.weir,www.test.weir",
                "--srv-host=_sip._udp.test.weir,sip.test.weir,5060,10,5",
                "--txt-record=txt.test.weir,v=weir1,second")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        awaitAnswers(port, log);
    }

    @AfterAll
    static void stopDnsmasq() throws Exception {
        if (dnsmasq != null) {
            dnsmasq.destroy();
            if (!dnsmasq.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)) {
                dnsmasq.destroyForcibly().waitFor(WAIT_SECONDS, TimeUnit.SECONDS);
            }
        }
        if (group != null) {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(WAIT_SECONDS, TimeUnit.SECONDS);
        }
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** A loopback port free for both UDP and TCP (dnsmasq listens on both). */
    private static int freeUdpPort() throws IOException {
        for (int i = 0; ; i++) {
            try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                 ServerSocket t = new ServerSocket()) {
                t.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), s.getLocalPort()));
                return s.getLocalPort();
            } catch (BindException taken) {
                if (i == 20) {
                    throw taken;
                }
            }
        }
    }

    /** Asks until dnsmasq answers: each try waits on the socket with a timeout, bounded in all. */
    private static void awaitAnswers(int port, Path log) throws Exception {
        byte[] query = FakeDnsServer.encode(DnsMessage.query(1, new DnsQuestion("www.test.weir", DnsRecordType.A),
                true, 0));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        try (DatagramSocket s = new DatagramSocket()) {
            s.setSoTimeout(200);
            while (System.nanoTime() < deadline) {
                if (!dnsmasq.isAlive()) {
                    break;
                }
                s.send(new DatagramPacket(query, query.length, InetAddress.getLoopbackAddress(), port));
                try {
                    s.receive(new DatagramPacket(new byte[512], 512));
                    return;
                } catch (SocketTimeoutException notYet) {
                    // dnsmasq is still starting.
                }
            }
        }
        throw new AssertionError("dnsmasq did not answer within " + WAIT_SECONDS + " s; its output: "
                + Files.readString(log));
    }

    private static DnsNameResolverBuilder builder() {
        return new DnsNameResolverBuilder().eventLoop((EventLoop) group.next()).nameServers(List.of(server))
                .resolvConf(ResolvConf.empty()).hostsFile(HostsFile.empty()).queryTimeoutMillis(2_000);
    }

    private static <T> T await(Future<T> f) throws Exception {
        try {
            return f.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw (Exception) e.getCause();
        }
    }

    @Test
    void resolvesAddressesOfBothFamiliesAndFollowsCname() throws Exception {
        try (DnsNameResolver r = builder().build()) {
            assertThat(await(r.resolveAll("www.test.weir")))
                    .containsExactly(IpLiterals.parse("192.0.2.10"), IpLiterals.parse("2001:db8::10"));
            assertThat(await(r.resolveAll("ALIAS.test.weir.")))
                    .containsExactly(IpLiterals.parse("192.0.2.10"), IpLiterals.parse("2001:db8::10"));
            assertThatThrownBy(() -> await(r.resolve("missing.test.weir"))).isInstanceOf(UnknownHostException.class)
                    .hasMessageContaining("missing.test.weir");
        }
    }

    @Test
    void srvAndTxtRecords() throws Exception {
        try (DnsNameResolver r = builder().build()) {
            assertThat(await(r.resolveAll(new DnsQuestion("_sip._udp.test.weir", DnsRecordType.SRV))))
                    .singleElement().isInstanceOfSatisfying(DnsSrvRecord.class, srv -> {
                        assertThat(srv.target()).isEqualTo("sip.test.weir");
                        assertThat(srv.port()).isEqualTo(5060);
                        assertThat(srv.priority()).isEqualTo(10);
                        assertThat(srv.weight()).isEqualTo(5);
                    });
            List<DnsRecord> txt = await(r.resolveAll(new DnsQuestion("txt.test.weir", DnsRecordType.TXT)));
            assertThat(txt).singleElement().isInstanceOfSatisfying(DnsTxtRecord.class,
                    t -> assertThat(t.strings()).containsExactly("v=weir1", "second"));
        }
    }

    @Test
    void answerTooBigForUdpComesOverTcp() throws Exception {
        try (DnsNameResolver r = builder().resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY).maxPayloadBytes(512)
                .build()) {
            List<InetAddress> all = await(r.resolveAll("big.test.weir"));
            List<InetAddress> expected = new ArrayList<>();
            for (int i = 1; i <= BIG_RECORDS; i++) {
                expected.add(IpLiterals.parse("198.51.100." + i));
            }
            assertThat(all).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    @Test
    void bootstrapConnectsByNameThroughTheGroup() throws Exception {
        Channel listener = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelHandler() { })
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        try (DnsAddressResolverGroup dns = new DnsAddressResolverGroup(builder())) {
            int port = ((InetSocketAddress) listener.localAddress()).getPort();
            ChannelFuture f = new Bootstrap().group(group).channel(NioSocketChannel.class).resolver(dns)
                    .handler(new ChannelHandler() { }).connect("loop.test.weir", port);
            assertThat(f.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(f.cause()).isNull();
            assertThat(((InetSocketAddress) f.channel().remoteAddress()).getAddress())
                    .isEqualTo(IpLiterals.parse("127.0.0.1"));
            f.channel().close().sync();
            ChannelFuture missing = new Bootstrap().group(group).channel(NioSocketChannel.class).resolver(dns)
                    .handler(new ChannelHandler() { }).connect("nowhere.test.weir", port);
            assertThat(missing.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(missing.cause()).isInstanceOf(UnknownHostException.class);
        } finally {
            listener.close().sync();
        }
    }
}
