package io.weir.handler.ssl;

import static io.weir.handler.ssl.TlsTestSupport.TIMEOUT_SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBufAllocator;
import io.weir.channel.EventLoopGroup;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code setEnabledProtocols} and {@code setEnabledCipherSuites} on OpenSSL engines, as users and frameworks call
 * them: they narrow the context's choice for one connection before its handshake and are refused afterwards.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OpenSslEngineRestrictionTest {
    private static final String TLS12_SUITE = "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384";
    private static final List<String> TLS13_SUITES = List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256");

    @RegisterExtension
    final SocketFixture sockets = new SocketFixture();

    private InetSocketAddress server(EventLoopGroup g, SslContext ctx, Consumer<SSLEngine> perConnection)
            throws Exception {
        return sockets.echoServer(g, ctx, handler -> perConnection.accept(handler.engine()));
    }

    private SslHandler connect(EventLoopGroup g, InetSocketAddress address, Consumer<SSLEngine> before)
            throws Exception {
        SslHandler ssl = sockets.connect(g, address, TlsTestSupport.client().sslProvider(SslProvider.OPENSSL).build(),
                handler -> before.accept(handler.engine()));
        OpenSslProviderSocketTest.assertHandshakeSucceeded(ssl);
        return ssl;
    }

    private static SslContext server() throws Exception {
        return TlsTestSupport.server().sslProvider(SslProvider.OPENSSL).build();
    }

    @Test
    void aServerEngineNarrowedToTls12NegotiatesTls12() throws Exception {
        EventLoopGroup g = sockets.group(1);
        InetSocketAddress address = server(g, server(), e -> e.setEnabledProtocols(new String[] {"TLSv1.2"}));
        SslHandler ssl = connect(g, address, e -> { });
        assertThat(ssl.session().getProtocol()).isEqualTo("TLSv1.2");
    }

    @Test
    void aClientEngineNarrowedToOneTls12SuiteNegotiatesIt() throws Exception {
        EventLoopGroup g = sockets.group(1);
        InetSocketAddress address = server(g, server(), e -> { });
        SslHandler ssl = connect(g, address, e -> {
            e.setEnabledCipherSuites(new String[] {TLS12_SUITE});
            assertThat(e.getEnabledCipherSuites()).containsExactly(TLS12_SUITE);
        });
        // No TLS 1.3 suite left: TLS 1.3 is off for this engine.
        assertThat(ssl.session().getProtocol()).isEqualTo("TLSv1.2");
        assertThat(ssl.session().getCipherSuite()).isEqualTo(TLS12_SUITE);
    }

    @Test
    void aServerEngineKeepingOnlyTls13SuitesNegotiatesTls13() throws Exception {
        EventLoopGroup g = sockets.group(1);
        InetSocketAddress address = server(g, server(), e -> e.setEnabledCipherSuites(TLS13_SUITES.toArray(new String[0])));
        SslHandler ssl = connect(g, address, e -> e.setEnabledProtocols(new String[] {"TLSv1.3", "TLSv1.2"}));
        assertThat(ssl.session().getProtocol()).isEqualTo("TLSv1.3");
    }

    @Test
    void choicesOutsideTheContextOrLeavingNothingAreRefused() throws Exception {
        SslContext tls13Only = TlsTestSupport.server("TLSv1.3").sslProvider(SslProvider.OPENSSL).build();
        SSLEngine engine = tls13Only.newEngine(ByteBufAllocator.DEFAULT);
        try {
            assertThatThrownBy(() -> engine.setEnabledProtocols(new String[] {"TLSv1.2"}))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("TLSv1.2");
            assertThatThrownBy(() -> engine.setEnabledProtocols(new String[] {"TLSv1.1"}))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> engine.setEnabledProtocols(new String[0]))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no protocol left");
            assertThatThrownBy(() -> engine.setEnabledCipherSuites(new String[] {"TLS_AES_128_GCM_SHA256"}))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("RFC 8446");
            assertThatThrownBy(() -> engine.setEnabledCipherSuites(new String[] {"TLS_RSA_WITH_NULL_SHA"}))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not enabled");
            assertThatThrownBy(() -> engine.setEnabledCipherSuites(new String[] {TLS12_SUITE}))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not enabled");
            // A refused call changes nothing.
            assertThat(engine.getEnabledProtocols()).containsExactly("TLSv1.3");
            assertThat(engine.getEnabledCipherSuites()).containsExactlyElementsOf(TLS13_SUITES);
        } finally {
            engine.closeOutbound();
            engine.closeInbound();
        }
    }

    @Test
    void frameworksRoundTripSslParameters() throws Exception {
        SSLEngine engine = server().newEngine(ByteBufAllocator.DEFAULT);
        try {
            SSLParameters p = engine.getSSLParameters();
            p.setProtocols(new String[] {"TLSv1.3"});
            engine.setSSLParameters(p);
            assertThat(engine.getEnabledProtocols()).containsExactly("TLSv1.3");
            assertThatThrownBy(() -> engine.setNeedClientAuth(true)).isInstanceOf(UnsupportedOperationException.class);
        } finally {
            engine.closeOutbound();
            engine.closeInbound();
        }
    }

    @Test
    void changesAfterTheHandshakeStartedAreRefused() throws Exception {
        EventLoopGroup g = sockets.group(1);
        InetSocketAddress address = server(g, server(), e -> { });
        SslHandler ssl = connect(g, address, e -> { });
        SSLEngine engine = ssl.engine();
        String[] before = engine.getEnabledProtocols();
        // The engine is the event loop's: called there, as a handler would.
        g.submit(() -> {
            assertThatThrownBy(() -> engine.setEnabledProtocols(new String[] {"TLSv1.2"}))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("handshake has started");
            assertThatThrownBy(() -> engine.setEnabledCipherSuites(new String[] {TLS12_SUITE}))
                    .isInstanceOf(IllegalStateException.class);
            return null;
        }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(engine.getEnabledProtocols()).containsExactly(before);
    }
}
