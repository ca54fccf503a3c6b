package io.weir.handler.ssl;

import static io.weir.handler.ssl.TlsTestSupport.TIMEOUT_SECONDS;
import static io.weir.handler.ssl.TlsTestSupport.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.channel.EventLoopGroup;
import io.weir.handler.ssl.internal.openssl.OpenSslEngine;
import java.net.InetSocketAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Settings the JDK provider cannot honour everywhere are applied or refused at build, never silently dropped:
 * key-exchange groups (per engine on JDK 20+, refused on older JDKs) and the key log (refused).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JdkProviderSettingsTest {
    @RegisterExtension
    final SocketFixture sockets = new SocketFixture();
    private final BlockingQueue<SslHandler> serverHandlers = new LinkedBlockingQueue<>();

    private static boolean jdkSetsGroups() {
        return Runtime.version().feature() >= 20;
    }

    private InetSocketAddress server(EventLoopGroup g, SslContext ctx) throws Exception {
        return sockets.echoServer(g, ctx, serverHandlers::add);
    }

    private SslHandler connect(EventLoopGroup g, InetSocketAddress address, SslContext ctx) throws Exception {
        SslHandler ssl = sockets.connect(g, address, ctx);
        OpenSslProviderSocketTest.assertHandshakeSucceeded(ssl);
        return ssl;
    }

    @Test
    void aJdkClientOffersOnlyTheConfiguredGroup() throws Exception {
        SslContextBuilder client = TlsTestSupport.client("TLSv1.3").sslProvider(SslProvider.JDK).groups("P-384");
        if (!jdkSetsGroups()) {
            assertThatThrownBy(client::build).isInstanceOf(SSLException.class)
                    .hasMessageContaining("jdk.tls.namedGroups");
            return;
        }
        EventLoopGroup g = sockets.group(1);
        InetSocketAddress address = server(g, TlsTestSupport.server().sslProvider(SslProvider.OPENSSL).build());
        connect(g, address, client.build());
        SslHandler serverSsl = serverHandlers.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        await(serverSsl.handshakeFuture());
        assertThat(((OpenSslEngine) serverSsl.engine()).keyExchangeGroup()).isEqualTo("P-384");
    }

    @Test
    void aJdkServerAcceptsOnlyTheConfiguredGroup() throws Exception {
        SslContextBuilder server = TlsTestSupport.server().sslProvider(SslProvider.JDK).groups("P-384");
        if (!jdkSetsGroups()) {
            assertThatThrownBy(server::build).isInstanceOf(SSLException.class)
                    .hasMessageContaining("jdk.tls.namedGroups");
            return;
        }
        EventLoopGroup g = sockets.group(1);
        InetSocketAddress address = server(g, server.build());
        SslHandler ssl = connect(g, address, TlsTestSupport.client("TLSv1.3").sslProvider(SslProvider.OPENSSL)
                .build());
        // The client's key shares (the hybrid group and X25519) are not acceptable: a HelloRetryRequest asks for P-384.
        assertThat(((OpenSslEngine) ssl.engine()).keyExchangeGroup()).isEqualTo("P-384");
    }

    @Test
    void aKeyLogWithTheJdkProviderNamedIsRefusedAtBuild() {
        assertThatThrownBy(() -> TlsTestSupport.client().sslProvider(SslProvider.JDK).keyLog(line -> { }).build())
                .isInstanceOf(SSLException.class).hasMessageContaining("keyLog is not supported by the JDK provider");
        assertThatThrownBy(() -> TlsTestSupport.server().sslProvider(SslProvider.JDK).keyLog(line -> { }).build())
                .isInstanceOf(SSLException.class);
    }
}
