package io.weir.handler.ssl;

import static io.weir.handler.ssl.TlsTestSupport.shuttle;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.metrics.TlsMetrics;
import io.weir.metrics.TlsMetrics.Engine;
import io.weir.metrics.TlsMetrics.FailureReason;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The TLS handler's counts: completed and resumed handshakes per engine, failures by reason. */
class SslHandlerMetricsTest {

    /** One handshake between a fresh client and server handler, each counting into its own metrics. */
    private static void handshake(SslContext clientCtx, SslContext serverCtx, TlsMetrics client, TlsMetrics server) {
        SslHandler clientSsl = clientCtx.newHandler(ByteBufAllocator.DEFAULT, "localhost", 443).metrics(client);
        SslHandler serverSsl = serverCtx.newHandler(ByteBufAllocator.DEFAULT).metrics(server);
        EmbeddedChannel c = new EmbeddedChannel(clientSsl);
        EmbeddedChannel s = new EmbeddedChannel(serverSsl);
        shuttle(c, s);
        // Let TLS 1.3 tickets (sent after the handshake) reach the client before it closes.
        c.writeAndFlush(Unpooled.copiedBuffer("x", StandardCharsets.US_ASCII));
        shuttle(c, s);
        c.finishAndReleaseAll();
        s.finishAndReleaseAll();
    }

    @ParameterizedTest
    @EnumSource(SslProvider.class)
    void completedHandshakesCountUnderTheirEngine(SslProvider provider) throws Exception {
        TlsMetrics client = new TlsMetrics();
        TlsMetrics server = new TlsMetrics();
        handshake(TlsTestSupport.client().sslProvider(provider).build(),
                TlsTestSupport.server().sslProvider(provider).build(), client, server);
        Engine engine = provider == SslProvider.OPENSSL ? Engine.OPENSSL : Engine.JDK;
        assertThat(server.handshakes().counter(engine.ordinal()).sum()).isEqualTo(1);
        assertThat(client.handshakes().counter(engine.ordinal()).sum()).isEqualTo(1);
        assertThat(server.handshakes().total()).isEqualTo(1);
        assertThat(server.failures().total()).isZero();
    }

    @Test
    void aResumedSessionRaisesTheResumptionRate() throws Exception {
        SslContext clientCtx = TlsTestSupport.client("TLSv1.2").sslProvider(SslProvider.OPENSSL).build();
        SslContext serverCtx = TlsTestSupport.server().sslProvider(SslProvider.OPENSSL).build();
        TlsMetrics client = new TlsMetrics();
        TlsMetrics server = new TlsMetrics();
        handshake(clientCtx, serverCtx, client, server);
        handshake(clientCtx, serverCtx, client, server);
        assertThat(server.handshakes().counter(Engine.OPENSSL.ordinal()).sum()).isEqualTo(2);
        assertThat(server.resumed().counter(Engine.OPENSSL.ordinal()).sum()).isEqualTo(1);
        assertThat(server.resumptionRate()).isEqualTo(0.5);
    }

    @ParameterizedTest
    @EnumSource(SslProvider.class)
    void anUntrustedCertificateFailsAsCertificate(SslProvider provider) throws Exception {
        TlsMetrics client = new TlsMetrics();
        SslContext distrustful = SslContextBuilder.forClient().sslProvider(provider)
                .trustManager(TlsTestSupport.CLIENT_CERT.certificate()).build();
        SslHandler clientSsl = distrustful.newHandler(ByteBufAllocator.DEFAULT, "localhost", 443).metrics(client);
        EmbeddedChannel c = new EmbeddedChannel(clientSsl);
        EmbeddedChannel s = new EmbeddedChannel(TlsTestSupport.server().build().newHandler(ByteBufAllocator.DEFAULT));
        shuttle(c, s);
        assertThat(clientSsl.handshakeFuture().isSuccess()).isFalse();
        assertThat(client.failures().counter(FailureReason.CERTIFICATE.ordinal()).sum())
                .as("failed with %s", clientSsl.handshakeFuture().cause()).isEqualTo(1);
        assertThat(client.handshakes().total()).isZero();
        c.finishAndReleaseAll();
        s.finishAndReleaseAll();
    }

    @Test
    void plainHttpOnTheTlsPortFailsAsNotTls() throws Exception {
        TlsMetrics server = new TlsMetrics();
        SslHandler serverSsl = TlsTestSupport.server().build().newHandler(ByteBufAllocator.DEFAULT).metrics(server);
        EmbeddedChannel s = new EmbeddedChannel(serverSsl);
        s.writeInbound(Unpooled.copiedBuffer("GET / HTTP/1.1\r\nHost: x\r\n\r\n", StandardCharsets.US_ASCII));
        s.runPendingTasks();
        assertThat(s.isOpen()).isFalse();
        assertThat(server.failures().counter(FailureReason.NOT_TLS.ordinal()).sum()).isEqualTo(1);
        s.finishAndReleaseAll();
    }

    @Test
    void failuresAreSortedIntoAClosedSetOfReasons() {
        assertThat(HandshakeMetrics.reasonOf(new SslHandshakeTimeoutException(10_000)))
                .isEqualTo(FailureReason.TIMEOUT);
        assertThat(HandshakeMetrics.reasonOf(new NotSslRecordException("not an SSL/TLS record")))
                .isEqualTo(FailureReason.NOT_TLS);
        SSLHandshakeException pkix = new SSLHandshakeException("PKIX path building failed");
        pkix.initCause(new CertificateException("unable to find valid certification path"));
        assertThat(HandshakeMetrics.reasonOf(pkix)).isEqualTo(FailureReason.CERTIFICATE);
        assertThat(HandshakeMetrics.reasonOf(new SSLHandshakeException("error:1000007d:SSL routines:"
                + "OPENSSL_internal:CERTIFICATE_VERIFY_FAILED"))).isEqualTo(FailureReason.CERTIFICATE);
        assertThat(HandshakeMetrics.reasonOf(new SSLHandshakeException("no cipher suites in common")))
                .isEqualTo(FailureReason.PROTOCOL);
        assertThat(HandshakeMetrics.reasonOf(new SSLException("Received fatal alert: protocol_version")))
                .isEqualTo(FailureReason.PROTOCOL);
        assertThat(HandshakeMetrics.reasonOf(new ClosedChannelException())).isEqualTo(FailureReason.CLOSED);
        assertThat(HandshakeMetrics.reasonOf(new IOException("Connection reset by peer")))
                .isEqualTo(FailureReason.CLOSED);
        assertThat(HandshakeMetrics.reasonOf(new IllegalStateException("bug"))).isEqualTo(FailureReason.OTHER);
    }
}
