package io.weir.handler.ssl;

import static io.weir.handler.ssl.TlsTestSupport.TIMEOUT_SECONDS;
import static io.weir.handler.ssl.TlsTestSupport.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBufAllocator;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.EventLoopGroup;
import io.weir.handler.ssl.SslHandlerSocketTest.Echo;
import io.weir.handler.ssl.SslHandlerSocketTest.PatternReader;
import io.weir.handler.ssl.SslHandlerSocketTest.PatternWriter;
import io.weir.handler.ssl.internal.openssl.OpenSslEngine;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The OpenSSL provider on real sockets against itself and the JDK provider: every client x server pair on TLS 1.2
 * and 1.3, ALPN, SNI, mutual TLS, resumption; every native SSL object freed when the connections close.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OpenSslProviderSocketTest {
    @RegisterExtension
    final SocketFixture sockets = new SocketFixture();
    private final BlockingQueue<SslHandler> serverHandlers = new LinkedBlockingQueue<>();

    @BeforeAll
    static void openSslLoads() {
        OpenSsl.ensureAvailability();
    }

    static Stream<Arguments> providerPairs() {
        List<Arguments> all = new ArrayList<>();
        for (SslProvider c : SslProvider.values()) {
            for (SslProvider s : SslProvider.values()) {
                for (String p : new String[] {"TLSv1.2", "TLSv1.3"}) {
                    all.add(Arguments.of(c, s, p));
                }
            }
        }
        return all.stream();
    }

    private EventLoopGroup group() {
        return sockets.group(2);
    }

    private InetSocketAddress server(EventLoopGroup g, SslContext ctx) throws Exception {
        Channel server = SocketTransport.NIO.bind(g, ch -> {
            sockets.serverChildren.add(ch);
            SslHandler ssl = ctx.newHandler(ch.alloc());
            ch.pipeline().addLast(ssl, Echo.INSTANCE);
            serverHandlers.add(ssl);
        });
        sockets.channels.add(server);
        return (InetSocketAddress) server.localAddress();
    }

    private SslHandler connect(EventLoopGroup g, InetSocketAddress address, SslContext ctx, String host,
                               ChannelHandler... app) throws Exception {
        SslHandler ssl = ctx.newHandler(ByteBufAllocator.DEFAULT, host, address.getPort());
        ChannelHandler[] handlers = new ChannelHandler[app.length + 1];
        handlers[0] = ssl;
        System.arraycopy(app, 0, handlers, 1, app.length);
        sockets.channels.add(SocketTransport.NIO.connect(g, address, handlers));
        await(ssl.handshakeFuture());
        return ssl;
    }

    @ParameterizedTest(name = "client {0}, server {1}, {2}")
    @MethodSource("providerPairs")
    void everyProviderPairHandshakesAndEchoes(SslProvider clientProvider, SslProvider serverProvider,
                                              String protocol) throws Exception {
        EventLoopGroup g = group();
        SslContext serverCtx = TlsTestSupport.server().sslProvider(serverProvider).build();
        assertThat(serverCtx.provider()).isEqualTo(serverProvider);
        InetSocketAddress address = server(g, serverCtx);
        PatternReader reader = new PatternReader(256 * 1024);
        PatternWriter writer = new PatternWriter(reader.expected, 1000);
        SslHandler ssl = connect(g, address, TlsTestSupport.client(protocol).sslProvider(clientProvider).build(),
                "localhost", writer, reader);
        assertHandshakeSucceeded(ssl);
        assertThat(ssl.session().getProtocol()).isEqualTo(protocol);
        assertThat(ssl.session().getCipherSuite()).startsWith("TLS_");
        assertThat(ssl.session().getPeerCertificates()[0]).isEqualTo(TlsTestSupport.SERVER_CERT.certificate());
        writer.start();
        assertThat(reader.done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(reader.expected);
        SslHandler serverSsl = serverHandlers.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(serverSsl.session().getProtocol()).isEqualTo(protocol);
        assertThat(serverSsl.session().getCipherSuite()).isEqualTo(ssl.session().getCipherSuite());
    }

    static Stream<Arguments> pairsWithOpenSsl() {
        return Stream.of(Arguments.of(SslProvider.OPENSSL, SslProvider.OPENSSL),
                Arguments.of(SslProvider.JDK, SslProvider.OPENSSL), Arguments.of(SslProvider.OPENSSL, SslProvider.JDK));
    }

    @ParameterizedTest(name = "client {0}, server {1}")
    @MethodSource("pairsWithOpenSsl")
    void alpnSelectsTheServersPreferenceAndSniReachesTheServer(SslProvider clientProvider,
                                                                SslProvider serverProvider) throws Exception {
        EventLoopGroup g = group();
        InetSocketAddress address = server(g, TlsTestSupport.server().sslProvider(serverProvider)
                .applicationProtocols("h2", "http/1.1").build());
        SslHandler ssl = connect(g, address, TlsTestSupport.client().sslProvider(clientProvider)
                .applicationProtocols("http/1.1", "h2").build(), "localhost");
        assertHandshakeSucceeded(ssl);
        assertThat(ssl.applicationProtocol()).isEqualTo("h2");
        SslHandler serverSsl = serverHandlers.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        await(serverSsl.handshakeFuture());
        assertThat(serverSsl.applicationProtocol()).isEqualTo("h2");
        if (clientProvider == SslProvider.OPENSSL) {
            // The JDK sends no SNI for a dotless name such as localhost; the OpenSSL client sends every host name.
            assertThat(((ExtendedSSLSession) serverSsl.session()).getRequestedServerNames())
                    .containsExactly(new SNIHostName("localhost"));
        }
    }

    @Test
    void alpnWithoutOverlapCompletesWithoutAProtocol() throws Exception {
        EventLoopGroup g = group();
        InetSocketAddress address = server(g, TlsTestSupport.server().sslProvider(SslProvider.OPENSSL)
                .applicationProtocols("h2").build());
        SslHandler ssl = connect(g, address, TlsTestSupport.client().sslProvider(SslProvider.OPENSSL)
                .applicationProtocols("http/1.1").build(), "localhost");
        assertHandshakeSucceeded(ssl);
        assertThat(ssl.applicationProtocol()).isNull();
    }

    @ParameterizedTest(name = "client {0}, server {1}")
    @MethodSource("pairsWithOpenSsl")
    void mutualTlsAcceptsATrustedClientAndRefusesOneWithoutCertificate(SslProvider clientProvider,
                                                                       SslProvider serverProvider) throws Exception {
        EventLoopGroup g = group();
        InetSocketAddress address = server(g, TlsTestSupport.server().sslProvider(serverProvider)
                .clientAuth(ClientAuth.REQUIRE).trustManager(TlsTestSupport.CLIENT_CERT.certificate()).build());
        SslHandler withCert = connect(g, address, TlsTestSupport.client().sslProvider(clientProvider)
                .keyManager(TlsTestSupport.CLIENT_CERT.privateKey(), TlsTestSupport.CLIENT_CERT.certificate())
                .build(), "localhost");
        assertHandshakeSucceeded(withCert);
        SslHandler serverSsl = serverHandlers.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        await(serverSsl.handshakeFuture());
        assertThat(serverSsl.session().getPeerCertificates()[0])
                .isEqualTo(TlsTestSupport.CLIENT_CERT.certificate());

        SslHandler without = connect(g, address, TlsTestSupport.client().sslProvider(clientProvider).build(),
                "localhost");
        // TLS 1.3 clients finish before the server checks their (absent) certificate: the refusal then arrives
        // as an alert that closes the connection.
        await(without.sslCloseFuture());
        SslHandler refused = serverHandlers.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        await(refused.handshakeFuture());
        assertThat(refused.handshakeFuture().isSuccess()).isFalse();
    }

    @Test
    void hostnameMismatchIsRefusedByTheOpenSslClient() throws Exception {
        EventLoopGroup g = group();
        InetSocketAddress address = server(g, TlsTestSupport.server().sslProvider(SslProvider.OPENSSL).build());
        SslHandler ssl = connect(g, address, TlsTestSupport.client().sslProvider(SslProvider.OPENSSL).build(),
                "weir.example");
        assertThat(ssl.handshakeFuture().isSuccess()).isFalse();
        assertThat(rootMessage(ssl.handshakeFuture().cause())).containsIgnoringCase("weir.example");
    }

    @Test
    void untrustedServerIsRefusedByTheOpenSslClientWithTheTrustManagersReason() throws Exception {
        EventLoopGroup g = group();
        InetSocketAddress address = server(g, TlsTestSupport.server().sslProvider(SslProvider.OPENSSL).build());
        // Trusts only a certificate the self-signed server does not present.
        SslHandler ssl = connect(g, address, SslContextBuilder.forClient().sslProvider(SslProvider.OPENSSL)
                .trustManager(TlsTestSupport.CLIENT_CERT.certificate()).build(), "localhost");
        assertThat(ssl.handshakeFuture().isSuccess()).isFalse();
        assertThat(ssl.handshakeFuture().cause()).isInstanceOf(javax.net.ssl.SSLHandshakeException.class)
                .hasMessageStartingWith("certificate verification failed: PKIX path building failed")
                .hasMessageContaining("CERTIFICATE_VERIFY_FAILED")
                .hasCauseInstanceOf(java.security.cert.CertificateException.class);
    }

    @Test
    void hybridPostQuantumGroupIsNegotiatedByDefaultAndTheGroupFilterApplies() throws Exception {
        EventLoopGroup g = group();
        InetSocketAddress address = server(g, TlsTestSupport.server().sslProvider(SslProvider.OPENSSL).build());
        SslHandler hybrid = connect(g, address, TlsTestSupport.client().sslProvider(SslProvider.OPENSSL).build(),
                "localhost");
        assertHandshakeSucceeded(hybrid);
        assertThat(((OpenSslEngine) hybrid.engine()).keyExchangeGroup()).isEqualTo("X25519MLKEM768");
        SslHandler classic = connect(g, address, TlsTestSupport.client().sslProvider(SslProvider.OPENSSL)
                .groups("X25519").build(), "localhost");
        assertHandshakeSucceeded(classic);
        assertThat(((OpenSslEngine) classic.engine()).keyExchangeGroup()).isEqualTo("X25519");
    }

    @Test
    void keyLogIsOffByDefaultAndReceivesSecretsWhenAsked() throws Exception {
        EventLoopGroup g = group();
        InetSocketAddress address = server(g, TlsTestSupport.server().sslProvider(SslProvider.OPENSSL).build());
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        SslHandler ssl = connect(g, address, TlsTestSupport.client().sslProvider(SslProvider.OPENSSL)
                .keyLog(lines::add).build(), "localhost");
        assertHandshakeSucceeded(ssl);
        assertThat(lines).anyMatch(l -> l.startsWith("CLIENT_HANDSHAKE_TRAFFIC_SECRET "));
        int logged = lines.size();
        SslHandler quiet = connect(g, address, TlsTestSupport.client().sslProvider(SslProvider.OPENSSL).build(),
                "localhost");
        assertHandshakeSucceeded(quiet);
        assertThat(lines).as("a context without keyLog logs nothing").hasSize(logged);
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return String.valueOf(root.getMessage());
    }

    static Stream<Arguments> resumptionCases() {
        List<Arguments> all = new ArrayList<>();
        for (Arguments pair : pairsWithOpenSsl().toList()) {
            all.add(Arguments.of(pair.get()[0], pair.get()[1], "TLSv1.3", true));
            all.add(Arguments.of(pair.get()[0], pair.get()[1], "TLSv1.2", true));
            all.add(Arguments.of(pair.get()[0], pair.get()[1], "TLSv1.2", false));
        }
        return all.stream();
    }

    @ParameterizedTest(name = "client {0}, server {1}, {2}, tickets {3}")
    @MethodSource("resumptionCases")
    void secondHandshakeResumesTheSession(SslProvider clientProvider, SslProvider serverProvider, String protocol,
                                          boolean tickets) throws Exception {
        EventLoopGroup g = group();
        InetSocketAddress address = server(g, TlsTestSupport.server().sslProvider(serverProvider)
                .sessionTickets(tickets).build());
        SslContext clientCtx = TlsTestSupport.client(protocol).sslProvider(clientProvider).sessionTickets(tickets)
                .build();
        boolean[] reused = new boolean[2];
        for (int i = 0; i < 2; i++) {
            PatternReader reader = new PatternReader(100);
            PatternWriter writer = new PatternWriter(reader.expected, 100);
            SslHandler ssl = connect(g, address, clientCtx, "localhost", writer, reader);
            assertHandshakeSucceeded(ssl);
            // The echo makes sure TLS 1.3 tickets, sent after the handshake, reached the client.
            writer.start();
            reader.done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            SslHandler serverSsl = serverHandlers.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            SslHandler openSsl = clientProvider == SslProvider.OPENSSL ? ssl : serverSsl;
            reused[i] = ((OpenSslEngine) openSsl.engine()).isSessionReused();
            sockets.channels.remove(sockets.channels.size() - 1).close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        assertThat(reused[0]).isFalse();
        assertThat(reused[1]).as("the second handshake resumed the first session").isTrue();
    }

    // ------------------------------------------------------------------------------------------ hostile peers

    static Stream<Arguments> hostileOpenings() {
        byte[] oversized = {0x16, 0x03, 0x03, (byte) 0xFF, (byte) 0xFF};
        byte[] garbage = new byte[4096];
        new java.util.Random(17).nextBytes(garbage);
        garbage[0] = 0x16;
        garbage[1] = 0x03;
        garbage[2] = 0x01;
        garbage[3] = 0x08;
        garbage[4] = 0x00;
        return Stream.of(Arguments.of("plaintext HTTP", "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII)),
                Arguments.of("oversized record", oversized),
                Arguments.of("garbage handshake record", garbage),
                Arguments.of("SSLv2-style hello", new byte[] {(byte) 0x80, 0x2e, 0x01, 0x03, 0x01, 0, 0x15, 0, 0, 0,
                        0x10}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileOpenings")
    void hostileOpeningEndsInACleanClose(String name, byte[] opening) throws Exception {
        EventLoopGroup g = group();
        InetSocketAddress address = server(g, TlsTestSupport.server().sslProvider(SslProvider.OPENSSL).build());
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            OutputStream out = socket.getOutputStream();
            out.write(opening);
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buf = new byte[1024];
            try {
                while (in.read(buf) >= 0) {
                    // An alert may come first; the connection must then close.
                }
            } catch (SocketException reset) {
                // A reset is a close too.
            }
        }
        SslHandler serverSsl = serverHandlers.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        await(serverSsl.handshakeFuture());
        assertThat(serverSsl.handshakeFuture().isSuccess()).isFalse();
        sockets.serverChildren.peek().closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(sockets.serverChildren.peek().isOpen()).isFalse();
    }

    @Test
    void silentClientIsClosedAtTheHandshakeTimeout() throws Exception {
        EventLoopGroup g = group();
        SslContext ctx = TlsTestSupport.server().sslProvider(SslProvider.OPENSSL).build();
        Channel server = SocketTransport.NIO.bind(g, ch -> {
            sockets.serverChildren.add(ch);
            SslHandler ssl = ctx.newHandler(ch.alloc());
            ssl.setHandshakeTimeout(200, TimeUnit.MILLISECONDS);
            ch.pipeline().addLast(ssl);
            serverHandlers.add(ssl);
        });
        sockets.channels.add(server);
        InetSocketAddress address = (InetSocketAddress) server.localAddress();
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            socket.getOutputStream().write(new byte[] {0x16, 0x03, 0x01});
            SslHandler serverSsl = serverHandlers.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            await(serverSsl.handshakeFuture());
            assertThat(serverSsl.handshakeFuture().cause()).isInstanceOf(SslHandshakeTimeoutException.class);
        }
    }

    static void assertHandshakeSucceeded(SslHandler ssl) {
        Throwable cause = ssl.handshakeFuture().cause();
        StringBuilder chain = new StringBuilder();
        for (Throwable t = cause; t != null; t = t.getCause()) {
            chain.append(t).append(" <- ");
        }
        assertThat(ssl.handshakeFuture().isSuccess()).as("%s", chain).isTrue();
    }
}
