package io.weir.resolver.dns;

import static io.weir.resolver.dns.FakeDnsServer.response;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.handler.codec.dns.DnsAddressRecord;
import io.weir.handler.codec.dns.DnsCnameRecord;
import io.weir.handler.codec.dns.DnsMessage;
import io.weir.handler.codec.dns.DnsQuestion;
import io.weir.handler.codec.dns.DnsRecord;
import io.weir.handler.codec.dns.DnsRecordType;
import io.weir.handler.codec.dns.DnsResponseCode;
import io.weir.handler.codec.dns.DnsSoaRecord;
import io.weir.handler.codec.dns.DnsSrvRecord;
import io.weir.handler.codec.dns.DnsTxtRecord;
import io.weir.util.concurrent.Future;
import java.io.StringReader;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The resolver against a scripted server on loopback: ordinary answers, each hostile answer named after its
 * attack (refused, counted, and the real answer after it still accepted), TCP fallback, CNAME chains, timeouts and
 * rotation, the cache's TTL bounds and the negative cache.
 */
class DnsNameResolverTest {
    private static final long WAIT_SECONDS = 10;
    private static final long TEST_TIMEOUT_MILLIS = 1_000;
    private static EventLoopGroup group;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @BeforeAll
    static void startLoop() {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    }

    @AfterAll
    static void stopLoop() throws Exception {
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    private FakeDnsServer server(FakeDnsServer.Script script) throws Exception {
        FakeDnsServer s = new FakeDnsServer(script);
        closeables.add(s);
        return s;
    }

    private DnsNameResolverBuilder builder(FakeDnsServer... servers) {
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (FakeDnsServer s : servers) {
            addresses.add(s.address());
        }
        return new DnsNameResolverBuilder().eventLoop((EventLoop) group.next()).nameServers(addresses)
                .resolvConf(ResolvConf.empty()).hostsFile(HostsFile.empty()).queryTimeoutMillis(TEST_TIMEOUT_MILLIS)
                .attempts(1);
    }

    private DnsNameResolver resolver(DnsNameResolverBuilder b) {
        DnsNameResolver r = b.build();
        closeables.add(r);
        return r;
    }

    private static <T> T await(Future<T> f) throws Exception {
        try {
            return f.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw (Exception) e.getCause();
        }
    }

    static InetAddress ip(String literal) {
        return IpLiterals.parse(literal);
    }

    static DnsRecord a(String name, String ip, long ttl) {
        return new DnsAddressRecord(name, DnsRecord.CLASS_IN, ttl, ip(ip));
    }

    static DnsRecord soa(String zone, long minimum) {
        return new DnsSoaRecord(zone, DnsRecord.CLASS_IN, 3600, "ns." + zone, "admin." + zone, 1, 2, 3, 4, minimum);
    }

    /** Answers A questions with 192.0.2.1 and AAAA with 2001:db8::1, TTL 60. */
    static void answerAddresses(FakeDnsServer s, FakeDnsServer.Query q) throws Exception {
        String name = q.question().name();
        DnsRecord r = q.question().type().equals(DnsRecordType.AAAA) ? a(name, "2001:db8::1", 60)
                : a(name, "192.0.2.1", 60);
        s.reply(q, response(q, 0, List.of(r), List.of()));
    }

    private static byte[] withId(byte[] message, int id) {
        message[0] = (byte) (id >> 8);
        message[1] = (byte) id;
        return message;
    }

    @Test
    void resolvesBothFamiliesInTheConfiguredOrder() throws Exception {
        FakeDnsServer s = server(DnsNameResolverTest::answerAddresses);
        assertThat(await(resolver(builder(s)).resolveAll("host.example")))
                .containsExactly(ip("192.0.2.1"), ip("2001:db8::1"));
        assertThat(await(resolver(builder(s).resolvedAddressTypes(ResolvedAddressTypes.IPV6_PREFERRED))
                .resolveAll("host.example"))).containsExactly(ip("2001:db8::1"), ip("192.0.2.1"));
        assertThat(await(resolver(builder(s).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY))
                .resolve("host.example"))).isEqualTo(ip("192.0.2.1"));
        assertThat(s.queries).allSatisfy(q -> {
            assertThat(q.message().isResponse()).isFalse();
            assertThat(q.message().opt().udpPayloadSize()).isEqualTo(DnsNameResolverBuilder.DEFAULT_MAX_PAYLOAD_BYTES);
        });
    }

    @Test
    void queriesUseRandomIdsAndSourcePorts() throws Exception {
        FakeDnsServer s = server(DnsNameResolverTest::answerAddresses);
        DnsNameResolver r = resolver(builder(s).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY)
                .maxCacheEntries(0));
        for (int i = 0; i < 8; i++) {
            await(r.resolve("host.example"));
        }
        assertThat(s.queries.stream().map(q -> q.client().getPort()).distinct().count()).isGreaterThan(1);
        assertThat(s.queries.stream().map(q -> q.message().id()).distinct().count()).isGreaterThan(1);
    }

    @Test
    void ipLiteralsAndHostsFileNeedNoQuery() throws Exception {
        FakeDnsServer s = server(DnsNameResolverTest::answerAddresses);
        DnsNameResolver r = resolver(builder(s).hostsFile(HostsFile.parse(new StringReader(
                "# comment\n10.1.2.3  db.internal db  # primary\n::1 db.internal\n"))));
        assertThat(await(r.resolveAll("DB.internal."))).containsExactly(ip("10.1.2.3"), ip("::1"));
        assertThat(await(r.resolveAll("198.51.100.7"))).containsExactly(ip("198.51.100.7"));
        assertThat(await(r.resolveAll("[2001:db8::5]"))).containsExactly(ip("2001:db8::5"));
        assertThat(s.queries).isEmpty();
    }

    @Test
    void searchDomainsComeFirstForNamesWithFewDots() throws Exception {
        FakeDnsServer s = server((srv, q) -> {
            if (q.question().name().equals("app.corp.example")) {
                answerAddresses(srv, q);
            } else {
                srv.reply(q, response(q, DnsResponseCode.NXDOMAIN, List.of(), List.of(soa("example", 60))));
            }
        });
        DnsNameResolver r = resolver(builder(s).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY)
                .searchDomains(List.of("lab.example", "corp.example.")).ndots(2));
        assertThat(await(r.resolve("app"))).isEqualTo(ip("192.0.2.1"));
        assertThat(s.queries.stream().map(q -> q.question().name()))
                .containsExactly("app.lab.example", "app.corp.example");
        s.queries.clear();
        assertThatThrownBy(() -> await(r.resolve("x.y.z"))).isInstanceOf(UnknownHostException.class);
        assertThat(s.queries.stream().map(q -> q.question().name()))
                .containsExactly("x.y.z", "x.y.z.lab.example", "x.y.z.corp.example");
    }

    @Test
    void srvAndTxtAreRawQueries() throws Exception {
        FakeDnsServer s = server((srv, q) -> srv.reply(q, response(q, 0, q.question().type().equals(DnsRecordType.SRV)
                ? List.of(new DnsSrvRecord(q.question().name(), 1, 60, 10, 5, 5060, "sip.example"))
                : List.of(new DnsTxtRecord(q.question().name(), 1, 60, List.of("v=1", "hello"))), List.of())));
        DnsNameResolver r = resolver(builder(s));
        assertThat(await(r.resolveAll(new DnsQuestion("_sip._udp.example", DnsRecordType.SRV))))
                .containsExactly(new DnsSrvRecord("_sip._udp.example", 1, 60, 10, 5, 5060, "sip.example"));
        assertThat(await(r.resolveAll(new DnsQuestion("t.example", DnsRecordType.TXT))))
                .containsExactly(new DnsTxtRecord("t.example", 1, 60, List.of("v=1", "hello")));
    }

    @Test
    void compressionPointerLoopIsRejected() throws Exception {
        FakeDnsServer s = server((srv, q) -> {
            // Header with one question whose name is a pointer loop, then the real answer.
            byte[] loop = withId(FakeDnsServer.encode(response(q, 0, List.of(), List.of())), q.message().id());
            byte[] bad = java.util.Arrays.copyOf(loop, 12 + 6);
            bad[12] = (byte) 0xc0;
            bad[13] = 14;
            bad[14] = (byte) 0xc0;
            bad[15] = 12;
            srv.send(q, bad);
            answerAddresses(srv, q);
        });
        DnsNameResolver r = resolver(builder(s).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY));
        assertThat(await(r.resolve("host.example"))).isEqualTo(ip("192.0.2.1"));
        assertThat(r.droppedDatagrams()).isEqualTo(1);
    }

    @Test
    void truncatedRecordIsRejected() throws Exception {
        FakeDnsServer s = server((srv, q) -> {
            byte[] whole = FakeDnsServer.encode(response(q, 0, List.of(a(q.question().name(), "10.6.6.6", 60)),
                    List.of()));
            srv.send(q, java.util.Arrays.copyOf(whole, whole.length - 2));
            answerAddresses(srv, q);
        });
        DnsNameResolver r = resolver(builder(s).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY));
        assertThat(await(r.resolve("host.example"))).isEqualTo(ip("192.0.2.1"));
        assertThat(r.droppedDatagrams()).isEqualTo(1);
    }

    @Test
    void oversizedAnswerIsRejected() throws Exception {
        FakeDnsServer s = server((srv, q) -> {
            String name = q.question().name();
            List<DnsRecord> many = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                many.add(a(name, "10.6.6." + i, 60));
            }
            // More records than the cap (8), then more bytes than the payload size (512), then the real answer.
            srv.reply(q, response(q, 0, many, List.of()));
            List<DnsRecord> big = List.of(new DnsTxtRecord(name, 1, 60, List.of("x".repeat(255), "y".repeat(255))),
                    a(name, "10.6.6.6", 60));
            srv.reply(q, response(q, 0, big, List.of()));
            answerAddresses(srv, q);
        });
        DnsNameResolver r = resolver(builder(s).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY).maxRecords(8)
                .maxPayloadBytes(512));
        assertThat(await(r.resolve("host.example"))).isEqualTo(ip("192.0.2.1"));
        assertThat(r.droppedDatagrams()).isEqualTo(2);
    }

    @Test
    void mismatchedIdIsIgnored() throws Exception {
        FakeDnsServer s = server((srv, q) -> {
            byte[] spoof = FakeDnsServer.encode(response(q, 0, List.of(a(q.question().name(), "10.6.6.6", 60)),
                    List.of()));
            srv.send(q, withId(spoof, q.message().id() ^ 0x5a5a));
            answerAddresses(srv, q);
        });
        DnsNameResolver r = resolver(builder(s).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY));
        assertThat(await(r.resolve("host.example"))).isEqualTo(ip("192.0.2.1"));
        assertThat(r.droppedDatagrams()).isEqualTo(1);
    }

    @Test
    void mismatchedIdOnlyTimesOutCleanly() throws Exception {
        FakeDnsServer s = server((srv, q) -> srv.send(q, withId(FakeDnsServer.encode(response(q, 0,
                List.of(a(q.question().name(), "10.6.6.6", 60)), List.of())), q.message().id() ^ 1)));
        DnsNameResolver r = resolver(builder(s).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY)
                .queryTimeoutMillis(200));
        assertThatThrownBy(() -> await(r.resolve("host.example"))).isInstanceOf(UnknownHostException.class)
                .hasMessageContaining("after 1 tries").hasMessageContaining("did not answer within 200 ms");
        assertThat(r.inFlightQueries()).isZero();
    }

    @Test
    void answerToAnotherQuestionIsIgnored() throws Exception {
        FakeDnsServer s = server((srv, q) -> {
            DnsMessage other = new DnsMessage(q.message().id(), DnsMessage.FLAG_RESPONSE,
                    List.of(new DnsQuestion("evil.example", DnsRecordType.A)),
                    List.of(a("host.example", "10.6.6.6", 60)), List.of(), List.of());
            srv.reply(q, other);
            DnsMessage otherType = new DnsMessage(q.message().id(), DnsMessage.FLAG_RESPONSE,
                    List.of(new DnsQuestion(q.question().name(), DnsRecordType.AAAA)),
                    List.of(a(q.question().name(), "10.6.6.7", 60)), List.of(), List.of());
            srv.reply(q, otherType);
            answerAddresses(srv, q);
        });
        DnsNameResolver r = resolver(builder(s).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY));
        assertThat(await(r.resolve("HOST.example"))).isEqualTo(ip("192.0.2.1"));
        assertThat(r.droppedDatagrams()).isEqualTo(2);
    }

    @Test
    void answerFromAnotherAddressIsIgnored() throws Exception {
        DatagramSocket spoofer = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        closeables.add(spoofer);
        FakeDnsServer s = server((srv, q) -> {
            byte[] spoof = FakeDnsServer.encode(response(q, 0, List.of(a(q.question().name(), "10.6.6.6", 60)),
                    List.of()));
            spoofer.send(new DatagramPacket(spoof, spoof.length, q.client()));
            answerAddresses(srv, q);
        });
        DnsNameResolver r = resolver(builder(s).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY));
        assertThat(await(r.resolve("host.example"))).isEqualTo(ip("192.0.2.1"));
        assertThat(r.droppedDatagrams()).isEqualTo(1);
    }

    @Test
    void unsolicitedDatagramFloodIsDropped() throws Exception {
        int flood = 5_000;
        FakeDnsServer s = server((srv, q) -> {
            if (q.number() == 0) {
                byte[] junk = FakeDnsServer.encode(response(q, 0, List.of(a(q.question().name(), "10.6.6.6", 60)),
                        List.of()));
                for (int i = 0; i < flood; i++) {
                    srv.send(q, withId(junk.clone(), q.message().id() ^ (1 + i % 0xFFFE)));
                }
            }
            answerAddresses(srv, q);
        });
        // Two tries: the kernel may drop the real answer when the flood fills the socket's buffer.
        DnsNameResolver r = resolver(builder(s).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY).attempts(2));
        assertThat(await(r.resolve("host.example"))).isEqualTo(ip("192.0.2.1"));
        assertThat(r.droppedDatagrams()).isPositive().isLessThanOrEqualTo(flood);
        assertThat(r.inFlightQueries()).isZero();
        assertThat(await(r.resolve("other.example"))).isEqualTo(ip("192.0.2.1"));
    }

    @Test
    void truncatedAnswerIsAskedAgainOverTcp() throws Exception {
        FakeDnsServer s = server((srv, q) -> {
            if (q.tcp() == null) {
                srv.reply(q, response(q, DnsMessage.FLAG_TRUNCATED, List.of(), List.of()));
                return;
            }
            List<DnsRecord> many = new ArrayList<>();
            for (int i = 1; i <= 100; i++) {
                many.add(a(q.question().name(), "198.51.100." + i, 60));
            }
            srv.reply(q, response(q, 0, many, List.of()));
        });
        DnsNameResolver r = resolver(builder(s).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY));
        List<InetAddress> all = await(r.resolveAll("big.example"));
        assertThat(all).hasSize(100).startsWith(ip("198.51.100.1")).endsWith(ip("198.51.100.100"));
        assertThat(s.queries).hasSize(1);
        assertThat(s.tcpQueries).hasSize(1);
    }

    @Test
    void cnameChainIsFollowedAcrossQueries() throws Exception {
        FakeDnsServer s = server((srv, q) -> {
            String name = q.question().name();
            if (name.equals("www.example")) {
                srv.reply(q, response(q, 0, List.of(new DnsCnameRecord(name, 1, 30, "edge.cdn.example"),
                        new DnsCnameRecord("edge.cdn.example", 1, 30, "node.cdn.example")), List.of()));
            } else {
                answerAddresses(srv, q);
            }
        });
        DnsNameResolver r = resolver(builder(s).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY));
        assertThat(await(r.resolve("www.example"))).isEqualTo(ip("192.0.2.1"));
        assertThat(s.queries.stream().map(q -> q.question().name())).containsExactly("www.example", "node.cdn.example");
    }

    @Test
    void cnameLoopIsBounded() throws Exception {
        FakeDnsServer s = server((srv, q) -> {
            String name = q.question().name();
            if (name.equals("loop.example")) {
                srv.reply(q, response(q, 0, List.of(new DnsCnameRecord(name, 1, 30, "b.example"),
                        new DnsCnameRecord("b.example", 1, 30, "LOOP.example")), List.of()));
            } else {
                // A chain c0 -> c1 -> ... one link per answer, never ending.
                int n = Integer.parseInt(name.substring(1, name.indexOf('.')));
                srv.reply(q, response(q, 0, List.of(new DnsCnameRecord(name, 1, 30, "c" + (n + 1) + ".example")),
                        List.of()));
            }
        });
        DnsNameResolver r = resolver(builder(s).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY));
        assertThatThrownBy(() -> await(r.resolve("loop.example"))).isInstanceOf(UnknownHostException.class)
                .hasMessageContaining("CNAME loop");
        assertThat(s.queries).hasSize(1);
        s.queries.clear();
        assertThatThrownBy(() -> await(r.resolve("c0.example"))).isInstanceOf(UnknownHostException.class)
                .hasMessageContaining("CNAME chain longer than 8");
        assertThat(s.queries).hasSize(9);
    }

    @Test
    void silentServerTimesOutAndTheNextServerAnswers() throws Exception {
        FakeDnsServer silent = server((srv, q) -> { });
        FakeDnsServer good = server(DnsNameResolverTest::answerAddresses);
        DnsNameResolver r = resolver(builder(silent, good).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY)
                .queryTimeoutMillis(300));
        assertThat(await(r.resolve("host.example"))).isEqualTo(ip("192.0.2.1"));
        assertThat(silent.queries).hasSize(1);
        assertThat(good.queries).hasSize(1);
    }

    @Test
    void serverFailureMovesOnAndRotationSpreadsQuestions() throws Exception {
        FakeDnsServer failing = server((srv, q) -> srv.reply(q, response(q, DnsResponseCode.SERVFAIL, List.of(),
                List.of())));
        FakeDnsServer good = server(DnsNameResolverTest::answerAddresses);
        DnsNameResolver r = resolver(builder(failing, good).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY)
                .rotate(true).maxCacheEntries(0));
        for (int i = 0; i < 4; i++) {
            assertThat(await(r.resolve("host.example"))).isEqualTo(ip("192.0.2.1"));
        }
        assertThat(good.queries).hasSize(4);
        assertThat(failing.queries).hasSize(2);
    }

    @Test
    void everyServerSilentFailsAfterAllTries() throws Exception {
        FakeDnsServer one = server((srv, q) -> { });
        FakeDnsServer two = server((srv, q) -> { });
        DnsNameResolver r = resolver(builder(one, two).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY)
                .queryTimeoutMillis(100).attempts(2));
        assertThatThrownBy(() -> await(r.resolve("host.example"))).isInstanceOf(UnknownHostException.class)
                .hasMessageContaining("after 4 tries");
        assertThat(one.queries).hasSize(2);
        assertThat(two.queries).hasSize(2);
    }

    @Test
    void queriesInFlightAreBounded() throws Exception {
        FakeDnsServer silent = server((srv, q) -> { });
        DnsNameResolver r = resolver(builder(silent).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY)
                .maxInFlightQueries(1).queryTimeoutMillis(500));
        Future<InetAddress> first = r.resolve("one.example");
        assertThatThrownBy(() -> await(r.resolve("two.example"))).isInstanceOf(UnknownHostException.class)
                .hasMessageContaining("1 queries are already in flight");
        assertThatThrownBy(() -> await(first)).isInstanceOf(UnknownHostException.class);
    }

    @Test
    void cacheClampsTtlsToItsBounds() throws Exception {
        AtomicLong now = new AtomicLong();
        FakeDnsServer s = server((srv, q) -> srv.reply(q, response(q, 0, List.of(a(q.question().name(), "192.0.2.1",
                q.question().name().startsWith("short") ? 1 : 1_000_000)), List.of())));
        DnsNameResolver r = resolver(builder(s).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY)
                .ttl(10, 60, 30).nanoTime(now::get));
        await(r.resolve("short.example"));
        await(r.resolve("long.example"));
        assertThat(s.queries).hasSize(2);
        now.set(TimeUnit.SECONDS.toNanos(9));
        await(r.resolve("short.example"));
        assertThat(s.queries).as("a 1 s TTL is kept for the 10 s minimum").hasSize(2);
        now.set(TimeUnit.SECONDS.toNanos(11));
        await(r.resolve("short.example"));
        await(r.resolve("long.example"));
        assertThat(s.queries).as("only the short one expired").hasSize(3);
        now.set(TimeUnit.SECONDS.toNanos(61));
        await(r.resolve("long.example"));
        assertThat(s.queries).as("a huge TTL is cut to the 60 s maximum").hasSize(4);
    }

    @Test
    void negativeAnswersAreCachedForTheSoaMinimum() throws Exception {
        AtomicLong now = new AtomicLong();
        FakeDnsServer s = server((srv, q) -> {
            boolean nx = q.question().name().startsWith("nx");
            srv.reply(q, response(q, nx ? DnsResponseCode.NXDOMAIN : 0, List.of(), List.of(soa("example",
                    nx ? 5 : 100_000))));
        });
        DnsNameResolver r = resolver(builder(s).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY)
                .ttl(0, 60, 30).nanoTime(now::get));
        assertThatThrownBy(() -> await(r.resolve("nx.example"))).isInstanceOf(UnknownHostException.class)
                .hasMessageContaining("NXDOMAIN");
        assertThatThrownBy(() -> await(r.resolve("nodata.example"))).isInstanceOf(UnknownHostException.class)
                .hasMessageContaining("no A record");
        assertThatThrownBy(() -> await(r.resolve("nx.example"))).isInstanceOf(UnknownHostException.class);
        assertThatThrownBy(() -> await(r.resolve("nodata.example"))).isInstanceOf(UnknownHostException.class);
        assertThat(s.queries).hasSize(2);
        now.set(TimeUnit.SECONDS.toNanos(6));
        assertThatThrownBy(() -> await(r.resolve("nx.example"))).isInstanceOf(UnknownHostException.class);
        assertThatThrownBy(() -> await(r.resolve("nodata.example"))).isInstanceOf(UnknownHostException.class);
        assertThat(s.queries).as("the SOA minimum of 5 s expired; the 30 s cap did not").hasSize(3);
        now.set(TimeUnit.SECONDS.toNanos(31));
        assertThatThrownBy(() -> await(r.resolve("nodata.example"))).isInstanceOf(UnknownHostException.class);
        assertThat(s.queries).hasSize(4);
    }

    @Test
    void cacheIsBoundedInEntries() throws Exception {
        FakeDnsServer s = server(DnsNameResolverTest::answerAddresses);
        DnsNameResolver r = resolver(builder(s).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY)
                .maxCacheEntries(4));
        for (int i = 0; i < 20; i++) {
            await(r.resolve("h" + i + ".example"));
        }
        int size = r.eventLoop().submit(() -> r.cache().size()).get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(size).isEqualTo(4);
    }

    @Test
    void badNamesFailWithoutAQuery() throws Exception {
        FakeDnsServer s = server(DnsNameResolverTest::answerAddresses);
        DnsNameResolver r = resolver(builder(s));
        assertThatThrownBy(() -> await(r.resolve("a..example"))).isInstanceOf(UnknownHostException.class)
                .hasMessageContaining("empty label");
        assertThatThrownBy(() -> await(r.resolve("x".repeat(64) + ".example")))
                .isInstanceOf(UnknownHostException.class).hasMessageContaining("longer than 63");
        assertThatThrownBy(() -> await(r.resolveAll(new DnsQuestion("a..b", DnsRecordType.TXT))))
                .isInstanceOf(UnknownHostException.class);
        assertThat(s.queries).isEmpty();
    }

    @Test
    void closedResolverFailsQueriesInFlight() throws Exception {
        FakeDnsServer silent = server((srv, q) -> { });
        DnsNameResolver r = resolver(builder(silent).queryTimeoutMillis(5_000));
        Future<InetAddress> pending = r.resolve("host.example");
        r.close();
        assertThatThrownBy(() -> await(pending)).isInstanceOf(UnknownHostException.class)
                .hasMessageContaining("resolver closed");
        assertThat(r.inFlightQueries()).isZero();
    }
}
