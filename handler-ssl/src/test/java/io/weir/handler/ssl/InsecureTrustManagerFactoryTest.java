package io.weir.handler.ssl;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBufAllocator;
import io.weir.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The trust-everything factory on each engine: a self-signed server under the wrong name is accepted. */
class InsecureTrustManagerFactoryTest {

    /** Handshakes a client built from {@code client} with the self-signed test server; returns the client side. */
    private static SslHandler handshake(SslContextBuilder client, SslProvider provider) throws Exception {
        SslHandler serverSsl = TlsTestSupport.server().sslProvider(provider).build()
                .newHandler(ByteBufAllocator.DEFAULT);
        // The certificate names localhost: a client checking names would refuse this host.
        SslHandler clientSsl = client.sslProvider(provider).build()
                .newHandler(ByteBufAllocator.DEFAULT, "not-the-certificates-name.example", 443);
        EmbeddedChannel server = new EmbeddedChannel(serverSsl);
        EmbeddedChannel clientCh = new EmbeddedChannel(clientSsl);
        try {
            TlsTestSupport.shuttle(clientCh, server);
            return clientSsl;
        } finally {
            clientCh.finishAndReleaseAll();
            server.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(SslProvider.class)
    void selfSignedServerUnderAnotherNameIsAccepted(SslProvider provider) throws Exception {
        SslHandler client = handshake(SslContextBuilder.forClient()
                .trustManager(InsecureTrustManagerFactory.INSTANCE), provider);
        assertThat(client.handshakeFuture().isSuccess()).as("%s", client.handshakeFuture().cause()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(SslProvider.class)
    void withoutItTheSameServerIsRefused(SslProvider provider) throws Exception {
        SslHandler client = handshake(SslContextBuilder.forClient(), provider);
        assertThat(client.handshakeFuture().isSuccess()).isFalse();
    }
}
