package io.weir.microbench.ssl;

import io.weir.handler.ssl.SelfSignedCertificate;
import io.weir.microbench.util.AbstractMicrobenchmark;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Full TLS handshakes per second on the JDK engine ({@code SSLEngine}), in memory: a new client and server
 * {@code SslHandler}, each on an embedded channel, and every record shuttled between them until the handshake is
 * done. Weir's handlers against Netty 4.2's on its JDK provider, and the bare engines driven by a minimal loop
 * ({@code jdkHandshake}, the floor both handlers add to). Same certificate, protocol and cipher suite on both sides
 * ({@link EmbeddedTlsPairs#CIPHERS}), the JVM's default groups (X25519 first), no resumption (the client has no peer
 * host, so nothing keys the session cache), delegated tasks inline. Handshakes per second; quote the ratio.
 */
@OutputTimeUnit(TimeUnit.SECONDS)
public class TlsHandshakeBenchmark extends AbstractMicrobenchmark {
    @Param({"EC_P256", "RSA_2048"})
    public SelfSignedCertificate.KeyType key;

    @Param({"TLSv1.3", "TLSv1.2"})
    public String protocol;

    private io.weir.handler.ssl.SslContext weirServerCtx;
    private io.weir.handler.ssl.SslContext weirClientCtx;
    private io.netty.handler.ssl.SslContext nettyServerCtx;
    private io.netty.handler.ssl.SslContext nettyClientCtx;
    private ByteBuffer clientToServer;
    private ByteBuffer serverToClient;
    private ByteBuffer appScratch;

    @Setup
    public void setup() throws Exception {
        SelfSignedCertificate cert = SelfSignedCertificate.create(key, "localhost",
                Instant.now().minus(Duration.ofHours(1)), Instant.now().plus(Duration.ofDays(1)));
        weirServerCtx = EmbeddedTlsPairs.weirServer(cert, protocol);
        weirClientCtx = EmbeddedTlsPairs.weirClient(cert, protocol);
        nettyServerCtx = EmbeddedTlsPairs.nettyServer(cert, protocol);
        nettyClientCtx = EmbeddedTlsPairs.nettyClient(cert, protocol);
        clientToServer = ByteBuffer.allocate(64 * 1024);
        serverToClient = ByteBuffer.allocate(64 * 1024);
        appScratch = ByteBuffer.allocate(64 * 1024);
        if (!weirHandshake() || !nettyHandshake() || !jdkHandshake()) {
            throw new IllegalStateException("a handshake did not complete");
        }
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, WEIR_THREADS})
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
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, NETTY_THREADS})
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

    /** The same engines (from Weir's contexts) driven directly: wrap into a buffer, unwrap from it, run tasks. */
    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, WEIR_THREADS})
    public boolean jdkHandshake() throws SSLException {
        SSLEngine client = weirClientCtx.newEngine(io.weir.buffer.ByteBufAllocator.DEFAULT);
        SSLEngine server = weirServerCtx.newEngine(io.weir.buffer.ByteBufAllocator.DEFAULT);
        client.beginHandshake();
        server.beginHandshake();
        clientToServer.clear();
        serverToClient.clear();
        for (int steps = 0; steps < 100; steps++) {
            boolean c = step(client, serverToClient, clientToServer);
            boolean s = step(server, clientToServer, serverToClient);
            if (c && s) {
                return true;
            }
        }
        return false;
    }

    /** One round for {@code engine}: consume what {@code in} holds, produce into {@code out}; true once done. */
    private boolean step(SSLEngine engine, ByteBuffer in, ByteBuffer out) throws SSLException {
        for (;;) {
            HandshakeStatus hs = engine.getHandshakeStatus();
            switch (hs) {
                case NEED_TASK:
                    for (Runnable task; (task = engine.getDelegatedTask()) != null; ) {
                        task.run();
                    }
                    break;
                case NEED_WRAP: {
                    SSLEngineResult r = engine.wrap(appScratch.clear().limit(0), out);
                    if (r.getHandshakeStatus() == HandshakeStatus.FINISHED) {
                        return true;
                    }
                    break;
                }
                case NEED_UNWRAP:
                case NEED_UNWRAP_AGAIN: {
                    in.flip();
                    SSLEngineResult r = engine.unwrap(in, appScratch.clear());
                    in.compact();
                    if (r.getHandshakeStatus() == HandshakeStatus.FINISHED) {
                        return true;
                    }
                    if (r.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW
                            || r.bytesConsumed() == 0 && r.getHandshakeStatus() == HandshakeStatus.NEED_UNWRAP) {
                        return false;
                    }
                    break;
                }
                default:
                    return true;
            }
        }
    }
}
