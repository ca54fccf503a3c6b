package io.weir.microbench.ssl;

import io.weir.handler.ssl.SelfSignedCertificate;
import java.util.List;

/**
 * What the in-memory TLS benchmarks share: contexts for Weir and Netty 4.2 built the same way (JDK provider, one
 * certificate, one protocol, the same cipher suites, the JVM's default groups on both sides), and the shuttles that
 * move records between two embedded channels until both are quiet. Setup and plumbing only.
 */
final class EmbeddedTlsPairs {
    /**
     * Pinned on both sides so that both negotiate the same suite whatever each framework's default list is: AES-128-GCM
     * for TLS 1.3, and its ECDHE form for either certificate type on TLS 1.2.
     */
    static final List<String> CIPHERS = List.of("TLS_AES_128_GCM_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");

    private EmbeddedTlsPairs() {
    }

    static io.weir.handler.ssl.SslContext weirServer(SelfSignedCertificate cert, String protocol) throws Exception {
        return io.weir.handler.ssl.SslContextBuilder.forServer(cert.privateKey(), cert.certificate())
                .sslProvider(io.weir.handler.ssl.SslProvider.JDK).protocols(protocol).ciphers(CIPHERS).build();
    }

    /** A client without hostname verification: it connects without a peer host, so no session is resumed. */
    static io.weir.handler.ssl.SslContext weirClient(SelfSignedCertificate cert, String protocol) throws Exception {
        return io.weir.handler.ssl.SslContextBuilder.forClient().trustManager(cert.certificate())
                .sslProvider(io.weir.handler.ssl.SslProvider.JDK).protocols(protocol).ciphers(CIPHERS)
                .endpointIdentificationAlgorithm(null).build();
    }

    static io.netty.handler.ssl.SslContext nettyServer(SelfSignedCertificate cert, String protocol) throws Exception {
        return io.netty.handler.ssl.SslContextBuilder.forServer(cert.privateKey(), cert.certificate())
                .sslProvider(io.netty.handler.ssl.SslProvider.JDK).protocols(protocol).ciphers(CIPHERS).build();
    }

    static io.netty.handler.ssl.SslContext nettyClient(SelfSignedCertificate cert, String protocol) throws Exception {
        return io.netty.handler.ssl.SslContextBuilder.forClient().trustManager(cert.certificate())
                .sslProvider(io.netty.handler.ssl.SslProvider.JDK).protocols(protocol).ciphers(CIPHERS)
                .endpointIdentificationAlgorithm(null).build();
    }

    static void shuttle(io.weir.channel.embedded.EmbeddedChannel a, io.weir.channel.embedded.EmbeddedChannel b) {
        for (boolean moved = true; moved; ) {
            moved = false;
            for (Object o; (o = a.readOutbound()) != null; moved = true) {
                b.writeInbound(o);
            }
            for (Object o; (o = b.readOutbound()) != null; moved = true) {
                a.writeInbound(o);
            }
        }
    }

    static void shuttle(io.netty.channel.embedded.EmbeddedChannel a, io.netty.channel.embedded.EmbeddedChannel b) {
        for (boolean moved = true; moved; ) {
            moved = false;
            for (Object o; (o = a.readOutbound()) != null; moved = true) {
                b.writeInbound(o);
            }
            for (Object o; (o = b.readOutbound()) != null; moved = true) {
                a.writeInbound(o);
            }
        }
    }
}
