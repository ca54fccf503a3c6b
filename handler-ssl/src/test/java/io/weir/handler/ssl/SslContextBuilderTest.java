package io.weir.handler.ssl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBufAllocator;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;

class SslContextBuilderTest {
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;

    @Test
    void defaultsAreTls13And12OnlyWithHostnameVerification() throws Exception {
        SslContext client = SslContextBuilder.forClient().build();
        SSLEngine engine = client.newEngine(ALLOC, "example.com", 443);
        assertThat(engine.getUseClientMode()).isTrue();
        assertThat(engine.getEnabledProtocols()).containsExactlyInAnyOrder("TLSv1.3", "TLSv1.2");
        assertThat(engine.getSSLParameters().getEndpointIdentificationAlgorithm()).isEqualTo("HTTPS");
        assertThat(client.provider()).isEqualTo(SslProvider.defaultProvider());
        assertThat(client.isClient()).isTrue();
    }

    @Test
    void customTrustManagerKeepsHostnameVerification() throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setCertificateEntry("ca", TlsTestSupport.SERVER_CERT.certificate());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store);
        for (SslContextBuilder b : List.of(SslContextBuilder.forClient().trustManager(tmf),
                SslContextBuilder.forClient().trustManager(TlsTestSupport.SERVER_CERT.certificate()))) {
            SSLEngine engine = b.build().newEngine(ALLOC, "localhost", 443);
            assertThat(engine.getSSLParameters().getEndpointIdentificationAlgorithm()).isEqualTo("HTTPS");
        }
        SSLEngine off = SslContextBuilder.forClient().endpointIdentificationAlgorithm(null).build()
                .newEngine(ALLOC, "localhost", 443);
        assertThat(off.getSSLParameters().getEndpointIdentificationAlgorithm()).isNull();
    }

    @Test
    void serverFromPemFilesOfEachKeyFormat() throws Exception {
        Path dir = Path.of(SslContextBuilderTest.class.getResource("rsa.crt").toURI()).getParent();
        assertThat(SslContextBuilder.forServer(dir.resolve("rsa.crt"), dir.resolve("rsa-pkcs1.key")).build().isServer())
                .isTrue();
        SslContextBuilder.forServer(dir.resolve("rsa.crt"), dir.resolve("rsa-encrypted.key"), "weir-test".toCharArray())
                .build();
        SslContextBuilder.forServer(dir.resolve("ec.crt"), dir.resolve("ec-sec1.key")).build();
        try (InputStream cert = PemReaderTest.resource("ec.crt"); InputStream key = PemReaderTest.resource("ec-pkcs8.key")) {
            SslContextBuilder.forServer(cert, key).build();
        }
    }

    @Test
    void keyNotMatchingItsCertificateIsRefused() {
        assertThatThrownBy(() -> SslContextBuilder.forServer(PemReaderTest.key("rsa-pkcs8.key", null),
                PemReaderTest.certificate("ec.crt")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void serverSettingsReachTheEngine() throws Exception {
        SslContext server = TlsTestSupport.server("TLSv1.2").clientAuth(ClientAuth.REQUIRE)
                .ciphers(List.of("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_NOT_A_REAL_SUITE"))
                .applicationProtocols("h2", "http/1.1").sessionCacheSize(100).sessionTimeout(60).build();
        SSLEngine engine = server.newEngine(ALLOC);
        assertThat(engine.getUseClientMode()).isFalse();
        assertThat(engine.getNeedClientAuth()).isTrue();
        assertThat(engine.getEnabledProtocols()).containsExactly("TLSv1.2");
        assertThat(engine.getEnabledCipherSuites()).containsExactly("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256");
        assertThat(engine.getSSLParameters().getApplicationProtocols()).containsExactly("h2", "http/1.1");
        assertThat(server.applicationProtocols()).containsExactly("h2", "http/1.1");
        assertThat(TlsTestSupport.server().clientAuth(ClientAuth.OPTIONAL).build().newEngine(ALLOC).getWantClientAuth())
                .isTrue();
    }

    @Test
    void badSettingsFailAtBuild() {
        assertThatThrownBy(() -> TlsTestSupport.server().ciphers(List.of("TLS_NOT_A_REAL_SUITE")).build())
                .isInstanceOf(SSLException.class).hasMessageContaining("TLS_NOT_A_REAL_SUITE");
        assertThatThrownBy(() -> TlsTestSupport.server("TLSv9").build())
                .isInstanceOf(SSLException.class).hasMessageContaining("TLSv9");
        assertThatThrownBy(() -> SslContextBuilder.forClient().clientAuth(ClientAuth.REQUIRE).build())
                .isInstanceOf(SSLException.class);
        assertThatThrownBy(() -> SslContextBuilder.forClient().applicationProtocols(""))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
