package io.weir.handler.ssl;

import static io.weir.handler.ssl.TlsTestSupport.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBufAllocator;
import io.weir.channel.EventLoopGroup;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * OCSP stapling (RFC 6066 §8) on the OpenSSL provider: a real OCSP response made by {@code openssl ocsp} for the
 * test certificate is stapled by a Weir server and received byte for byte by a Weir client and by
 * {@code openssl s_client -status}; never stapled when off; sizes bounded on both sides.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OcspStaplingTest {
    private static final String OPENSSL_INSTALL = "apt-get install -y openssl";
    private static byte[] ocspResponse;

    @RegisterExtension
    final SocketFixture sockets = new SocketFixture();

    @BeforeAll
    static void makeOcspResponse() throws Exception {
        OpenSsl.ensureAvailability();
        ocspResponse = openSslOcspResponse();
    }

    /** A signed "good" OCSP response for {@link TlsTestSupport#SERVER_CERT}, made by {@code openssl ocsp}. */
    private static byte[] openSslOcspResponse() throws Exception {
        String openssl = ExternalPeers.require("openssl", OPENSSL_INSTALL);
        Path dir = Files.createTempDirectory("weir-ocsp");
        dir.toFile().deleteOnExit();
        Path cert = Files.writeString(dir.resolve("cert.pem"), TlsTestSupport.SERVER_CERT.certificatePem());
        Path key = Files.writeString(dir.resolve("key.pem"), TlsTestSupport.SERVER_CERT.privateKeyPem());
        String serial = TlsTestSupport.SERVER_CERT.certificate().getSerialNumber().toString(16).toUpperCase();
        if (serial.length() % 2 == 1) {
            serial = "0" + serial; // openssl's index holds whole bytes
        }
        Path index = Files.writeString(dir.resolve("index.txt"), "V\t491231000000Z\t\t" + serial
                + "\tunknown\t/CN=localhost\n");
        Path response = dir.resolve("response.der");
        for (Path p : List.of(cert, key, index, response)) {
            p.toFile().deleteOnExit();
        }
        Process p = new ProcessBuilder(openssl, "ocsp", "-index", index.toString(), "-rsigner", cert.toString(),
                "-rkey", key.toString(), "-CA", cert.toString(), "-issuer", cert.toString(), "-cert", cert.toString(),
                "-respout", response.toString(), "-ndays", "1").redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(ExternalPeers.waitFor(p)).as(output).isZero();
        byte[] der = Files.readAllBytes(response);
        assertThat(der).as(output).isNotEmpty();
        return der;
    }

    private EventLoopGroup group() {
        return sockets.group(1);
    }

    private static SslContext stapling(byte[] response) throws SSLException {
        SslContext ctx = TlsTestSupport.server().sslProvider(SslProvider.OPENSSL).enableOcsp(true).build();
        ctx.setOcspResponse(response);
        return ctx;
    }

    private static SslContext requestingClient(String protocol) throws SSLException {
        return TlsTestSupport.client(protocol).sslProvider(SslProvider.OPENSSL).enableOcsp(true).build();
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.2", "TLSv1.3"})
    void weirClientReceivesExactlyTheStapledResponse(String protocol) throws Exception {
        EventLoopGroup g = group();
        InetSocketAddress address = sockets.echoServer(g, stapling(ocspResponse), ssl -> { });
        SslHandler ssl = sockets.connect(g, address, requestingClient(protocol));
        OpenSslProviderSocketTest.assertHandshakeSucceeded(ssl);
        assertThat(ssl.session().getProtocol()).isEqualTo(protocol);
        assertThat(ssl.ocspResponse()).isEqualTo(ocspResponse);
        List<byte[]> statusResponses = ((ExtendedSSLSession) ssl.session()).getStatusResponses();
        assertThat(statusResponses).hasSize(1);
        assertThat(statusResponses.get(0)).isEqualTo(ocspResponse);
    }

    @Test
    void aResponseSetOnOneConnectionReplacesTheContextsForThatConnectionOnly() throws Exception {
        EventLoopGroup g = group();
        byte[] own = {0x30, 0x03, 0x0a, 0x01, 0x01}; // OCSPResponse { malformedRequest }: any bytes are stapled
        BlockingQueue<Boolean> first = new LinkedBlockingQueue<>(List.of(true));
        InetSocketAddress address = sockets.echoServer(g, stapling(ocspResponse), ssl -> {
            if (first.poll() != null) {
                ssl.setOcspResponse(own);
            }
        });
        SslContext client = requestingClient("TLSv1.3");
        assertThat(sockets.connect(g, address, client).ocspResponse()).isEqualTo(own);
        assertThat(sockets.connect(g, address, client).ocspResponse()).isEqualTo(ocspResponse);
    }

    @Test
    void nothingIsStapledToAClientThatDidNotAsk() throws Exception {
        EventLoopGroup g = group();
        InetSocketAddress address = sockets.echoServer(g, stapling(ocspResponse), ssl -> { });
        SslHandler ssl = sockets.connect(g, address, TlsTestSupport.client().sslProvider(SslProvider.OPENSSL).build());
        OpenSslProviderSocketTest.assertHandshakeSucceeded(ssl);
        assertThat(ssl.ocspResponse()).isNull();
        assertThat(((ExtendedSSLSession) ssl.session()).getStatusResponses()).isEmpty();
    }

    @Test
    void aServerWithStaplingOffStaplesNothing() throws Exception {
        EventLoopGroup g = group();
        SslContext off = TlsTestSupport.server().sslProvider(SslProvider.OPENSSL).build();
        assertThatThrownBy(() -> off.setOcspResponse(ocspResponse)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("enableOcsp");
        InetSocketAddress address = sockets.echoServer(g, off, ssl -> { });
        SslHandler ssl = sockets.connect(g, address, requestingClient("TLSv1.3"));
        OpenSslProviderSocketTest.assertHandshakeSucceeded(ssl);
        assertThat(ssl.ocspResponse()).isNull();
    }

    @Test
    void aServerWithStaplingOnButNoResponseYetStaplesNothing() throws Exception {
        EventLoopGroup g = group();
        SslContext ctx = stapling(ocspResponse);
        ctx.setOcspResponse(null);
        InetSocketAddress address = sockets.echoServer(g, ctx, ssl -> { });
        SslHandler ssl = sockets.connect(g, address, requestingClient("TLSv1.2"));
        OpenSslProviderSocketTest.assertHandshakeSucceeded(ssl);
        assertThat(ssl.ocspResponse()).isNull();
    }

    @Test
    void oversizedResponsesAreRefusedByTheServersSetters() throws Exception {
        SslContext ctx = TlsTestSupport.server().sslProvider(SslProvider.OPENSSL).enableOcsp(true)
                .maxOcspResponseBytes(100).build();
        assertThatThrownBy(() -> ctx.setOcspResponse(new byte[101])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("101 bytes").hasMessageContaining("1..100");
        assertThatThrownBy(() -> ctx.setOcspResponse(new byte[0])).isInstanceOf(IllegalArgumentException.class);
        SslHandler handler = ctx.newHandler(ByteBufAllocator.DEFAULT);
        try {
            assertThatThrownBy(() -> handler.setOcspResponse(new byte[101]))
                    .isInstanceOf(IllegalArgumentException.class);
        } finally {
            handler.engine().closeOutbound();
            handler.engine().closeInbound();
        }
        assertThatThrownBy(() -> SslContextBuilder.forClient().maxOcspResponseBytes(0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anOversizedStapledResponseFailsTheClientsHandshake() throws Exception {
        EventLoopGroup g = group();
        InetSocketAddress address = sockets.echoServer(g, stapling(ocspResponse), ssl -> { });
        SslContext client = TlsTestSupport.client().sslProvider(SslProvider.OPENSSL).enableOcsp(true)
                .maxOcspResponseBytes(ocspResponse.length - 1).build();
        SslHandler ssl = client.newHandler(ByteBufAllocator.DEFAULT, "localhost", address.getPort());
        sockets.channels.add(SocketTransport.NIO.connect(g, address, ssl));
        await(ssl.handshakeFuture());
        assertThat(ssl.handshakeFuture().isSuccess()).isFalse();
        Throwable cause = ssl.handshakeFuture().cause();
        while (cause != null && !(cause instanceof OcspResponseTooLargeException)) {
            cause = cause.getCause();
        }
        assertThat(cause).isInstanceOf(OcspResponseTooLargeException.class);
        OcspResponseTooLargeException tooLarge = (OcspResponseTooLargeException) cause;
        assertThat(tooLarge.sizeBytes()).isEqualTo(ocspResponse.length);
        assertThat(tooLarge.limitBytes()).isEqualTo(ocspResponse.length - 1);
    }

    @Test
    void theJdkProviderRefusesStaplingAtBuild() {
        assertThatThrownBy(() -> TlsTestSupport.server().sslProvider(SslProvider.JDK).enableOcsp(true).build())
                .isInstanceOf(SSLException.class).hasMessageContaining("OCSP stapling needs the OPENSSL provider");
        assertThatThrownBy(() -> TlsTestSupport.client().sslProvider(SslProvider.JDK).enableOcsp(true).build())
                .isInstanceOf(SSLException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tls1_2", "tls1_3"})
    void opensslClientShowsTheStapledResponse(String version) throws Exception {
        String output = sClientStatus(stapling(ocspResponse), version);
        assertThat(output).contains("OCSP Response Data:").contains("OCSP Response Status: successful")
                .contains("Cert Status: good");
    }

    @Test
    void opensslClientGetsNoResponseWhenStaplingIsOff() throws Exception {
        String output = sClientStatus(TlsTestSupport.server().sslProvider(SslProvider.OPENSSL).build(), "tls1_3");
        assertThat(output).contains("OCSP response: no response sent").doesNotContain("OCSP Response Data:");
    }

    private String sClientStatus(SslContext serverCtx, String version) throws Exception {
        String openssl = ExternalPeers.require("openssl", OPENSSL_INSTALL);
        InetSocketAddress address = sockets.echoServer(group(), serverCtx, ssl -> { });
        Process p = new ProcessBuilder(openssl, "s_client", "-connect", "127.0.0.1:" + address.getPort(),
                "-servername", "localhost", "-" + version, "-status").redirectErrorStream(true).start();
        p.getOutputStream().close(); // close_notify at end of input, then exit
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(ExternalPeers.waitFor(p)).as(output).isZero();
        return output;
    }
}
