package io.weir.microbench.ssl;

import io.weir.handler.ssl.SelfSignedCertificate;
import io.weir.microbench.util.AbstractMicrobenchmark;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Full TLS handshakes per millisecond through a pair of {@code SslHandler}s over embedded channels (no socket):
 * Weir's OpenSSL provider against Netty 4.2's OpenSSL provider (both BoringSSL from the same netty-tcnative jar),
 * the same certificate ({@code keyType}), protocol, key-exchange group and JVM. P-256 is listed after {@code group}
 * on both sides because TLS 1.2 only lets a server use an ECDSA P-256 certificate with clients that list that curve
 * (RFC 8422 §5.1); the key exchange itself uses {@code group}. Each operation makes a new client
 * and server handler; no session is resumed (the client has no peer host, so nothing is cached); both clients
 * verify the server's chain against the same trust anchor, hostname verification off on both.
 */
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class OpenSslHandshakeBenchmark extends AbstractMicrobenchmark {
    @Param({"EC_P256", "RSA_2048"})
    public String keyType;

    @Param({"TLSv1.3", "TLSv1.2"})
    public String protocol;

    @Param({"X25519"})
    public String group;

    private io.weir.handler.ssl.SslContext weirServerCtx;
    private io.weir.handler.ssl.SslContext weirClientCtx;
    private io.netty.handler.ssl.SslContext nettyServerCtx;
    private io.netty.handler.ssl.SslContext nettyClientCtx;

    @Setup
    public void setup() throws Exception {
        // Netty loads tcnative first; Weir then finds it bound and does not load a second copy.
        io.netty.handler.ssl.OpenSsl.ensureAvailability();
        io.weir.handler.ssl.OpenSsl.ensureAvailability();
        Instant now = Instant.now();
        SelfSignedCertificate cert = SelfSignedCertificate.create(SelfSignedCertificate.KeyType.valueOf(keyType),
                "localhost", now.minus(Duration.ofHours(1)), now.plus(Duration.ofDays(30)));
        weirServerCtx = io.weir.handler.ssl.SslContextBuilder.forServer(cert.privateKey(), cert.certificate())
                .sslProvider(io.weir.handler.ssl.SslProvider.OPENSSL).protocols(protocol).groups(group, "P-256").build();
        weirClientCtx = io.weir.handler.ssl.SslContextBuilder.forClient().trustManager(cert.certificate())
                .sslProvider(io.weir.handler.ssl.SslProvider.OPENSSL).protocols(protocol).groups(group, "P-256")
                .endpointIdentificationAlgorithm(null).build();
        nettyServerCtx = io.netty.handler.ssl.SslContextBuilder.forServer(cert.privateKey(), cert.certificate())
                .sslProvider(io.netty.handler.ssl.SslProvider.OPENSSL).protocols(protocol)
                .option(io.netty.handler.ssl.OpenSslContextOption.GROUPS, new String[] {group, "P-256"}).build();
        nettyClientCtx = io.netty.handler.ssl.SslContextBuilder.forClient().trustManager(cert.certificate())
                .sslProvider(io.netty.handler.ssl.SslProvider.OPENSSL).protocols(protocol)
                .option(io.netty.handler.ssl.OpenSslContextOption.GROUPS, new String[] {group, "P-256"})
                .endpointIdentificationAlgorithm(null).build();
        if (!weirHandshake() || !nettyHandshake()) {
            throw new IllegalStateException("a handshake did not complete");
        }
    }

    @Benchmark
    public boolean weirHandshake() {
        io.weir.handler.ssl.SslHandler client = weirClientCtx.newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT);
        io.weir.channel.embedded.EmbeddedChannel c = new io.weir.channel.embedded.EmbeddedChannel(client);
        io.weir.channel.embedded.EmbeddedChannel s = new io.weir.channel.embedded.EmbeddedChannel(
                weirServerCtx.newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT));
        EmbeddedTlsPairs.shuttle(c, s);
        boolean ok = client.handshakeFuture().isSuccess();
        c.finishAndReleaseAll();
        s.finishAndReleaseAll();
        return ok;
    }

    @Benchmark
    public boolean nettyHandshake() {
        io.netty.handler.ssl.SslHandler client = nettyClientCtx.newHandler(io.netty.buffer.ByteBufAllocator.DEFAULT);
        io.netty.channel.embedded.EmbeddedChannel c = new io.netty.channel.embedded.EmbeddedChannel(client);
        io.netty.channel.embedded.EmbeddedChannel s = new io.netty.channel.embedded.EmbeddedChannel(
                nettyServerCtx.newHandler(io.netty.buffer.ByteBufAllocator.DEFAULT));
        EmbeddedTlsPairs.shuttle(c, s);
        boolean ok = client.handshakeFuture().isSuccess();
        c.finishAndReleaseAll();
        s.finishAndReleaseAll();
        return ok;
    }
}
