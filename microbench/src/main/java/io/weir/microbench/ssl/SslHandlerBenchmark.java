package io.weir.microbench.ssl;

import io.weir.handler.ssl.SelfSignedCertificate;
import io.weir.microbench.util.AbstractMicrobenchmark;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * TLS through a pair of {@code SslHandler}s over embedded channels, Weir's against Netty 4.2's, both on the JDK
 * provider ({@code SSLEngine}), TLS 1.3 with the same cipher suite ({@link EmbeddedTlsPairs#CIPHERS}), the same EC
 * P-256 certificate and the same JVM: one {@code writeAndFlush} of {@code size} bytes on the client, its records
 * handed to the server, the decrypted bytes read there (encryption, record framing, decryption and the handlers' own
 * buffering; no socket). Each side runs on its framework's FastThreadLocalThread, as on an event loop, so that its
 * pooled allocator uses a thread cache (on a plain JMH thread Weir's takes the arena lock for every buffer).
 * Handshakes are measured in {@link TlsHandshakeBenchmark}.
 * Results are operations per millisecond; the ratio is what matters (the machine running it is shared).
 */
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class SslHandlerBenchmark extends AbstractMicrobenchmark {
    @Param({"1024", "16384"})
    public int size;

    private byte[] payload;
    private SelfSignedCertificate cert;

    private io.weir.handler.ssl.SslContext weirServerCtx;
    private io.weir.handler.ssl.SslContext weirClientCtx;
    private io.weir.channel.embedded.EmbeddedChannel weirClient;
    private io.weir.channel.embedded.EmbeddedChannel weirServer;

    private io.netty.handler.ssl.SslContext nettyServerCtx;
    private io.netty.handler.ssl.SslContext nettyClientCtx;
    private io.netty.channel.embedded.EmbeddedChannel nettyClient;
    private io.netty.channel.embedded.EmbeddedChannel nettyServer;

    @Setup
    public void setup() throws Exception {
        payload = new byte[size];
        ThreadLocalRandom.current().nextBytes(payload);
        cert = SelfSignedCertificate.create("localhost");

        weirServerCtx = EmbeddedTlsPairs.weirServer(cert, "TLSv1.3");
        weirClientCtx = EmbeddedTlsPairs.weirClient(cert, "TLSv1.3");
        nettyServerCtx = EmbeddedTlsPairs.nettyServer(cert, "TLSv1.3");
        nettyClientCtx = EmbeddedTlsPairs.nettyClient(cert, "TLSv1.3");

        weirClient = new io.weir.channel.embedded.EmbeddedChannel(
                weirClientCtx.newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT));
        weirServer = new io.weir.channel.embedded.EmbeddedChannel(
                weirServerCtx.newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT));
        EmbeddedTlsPairs.shuttle(weirClient, weirServer);
        nettyClient = new io.netty.channel.embedded.EmbeddedChannel(
                nettyClientCtx.newHandler(io.netty.buffer.ByteBufAllocator.DEFAULT));
        nettyServer = new io.netty.channel.embedded.EmbeddedChannel(
                nettyServerCtx.newHandler(io.netty.buffer.ByteBufAllocator.DEFAULT));
        EmbeddedTlsPairs.shuttle(nettyClient, nettyServer);
        if (!weirClient.pipeline().get(io.weir.handler.ssl.SslHandler.class).handshakeFuture().isSuccess()
                || !nettyClient.pipeline().get(io.netty.handler.ssl.SslHandler.class).handshakeFuture().isSuccess()) {
            throw new IllegalStateException("a handshake did not complete");
        }
    }

    @TearDown
    public void tearDown() {
        weirClient.finishAndReleaseAll();
        weirServer.finishAndReleaseAll();
        nettyClient.finishAndReleaseAll();
        nettyServer.finishAndReleaseAll();
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, WEIR_THREADS})
    public int weirWrapUnwrap() {
        io.weir.buffer.ByteBuf buf = weirClient.alloc().directBuffer(size).writeBytes(payload);
        weirClient.writeAndFlush(buf);
        for (Object o; (o = weirClient.readOutbound()) != null; ) {
            weirServer.writeInbound(o);
        }
        int n = 0;
        for (io.weir.buffer.ByteBuf b; (b = weirServer.readInbound()) != null; ) {
            n += b.readableBytes();
            b.release();
        }
        return n;
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, NETTY_THREADS})
    public int nettyWrapUnwrap() {
        io.netty.buffer.ByteBuf buf = nettyClient.alloc().directBuffer(size).writeBytes(payload);
        nettyClient.writeAndFlush(buf);
        for (Object o; (o = nettyClient.readOutbound()) != null; ) {
            nettyServer.writeInbound(o);
        }
        int n = 0;
        for (io.netty.buffer.ByteBuf b; (b = nettyServer.readInbound()) != null; ) {
            n += b.readableBytes();
            b.release();
        }
        return n;
    }
}
