package io.weir.microbench.ssl;

import io.weir.handler.ssl.SelfSignedCertificate;
import io.weir.microbench.util.AbstractMicrobenchmark;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * TLS through a pair of {@code SslHandler}s over embedded channels, Weir's against Netty 4.2's, both on the JDK
 * provider ({@code SSLEngine}), TLS 1.3, the same EC P-256 certificate and the same JVM:
 * <ul>
 *   <li>{@code *WrapUnwrap}: one {@code writeAndFlush} of {@code size} bytes on the client, its records handed to
 *       the server, the decrypted bytes read there (encryption, record framing, decryption and the handlers' own
 *       buffering; no socket).</li>
 *   <li>{@code *Handshake}: a new client and server handler and a full handshake between them (no resumption:
 *       the client connects without a peer host, so the JDK's session cache is not keyed).</li>
 * </ul>
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

        // Both sides on the JDK provider (Weir's default is OpenSSL where it loads; OpenSslHandshakeBenchmark
        // compares the OpenSSL providers).
        weirServerCtx = io.weir.handler.ssl.SslContextBuilder.forServer(cert.privateKey(), cert.certificate())
                .sslProvider(io.weir.handler.ssl.SslProvider.JDK).protocols("TLSv1.3").build();
        weirClientCtx = io.weir.handler.ssl.SslContextBuilder.forClient().trustManager(cert.certificate())
                .sslProvider(io.weir.handler.ssl.SslProvider.JDK).protocols("TLSv1.3")
                .endpointIdentificationAlgorithm(null).build();
        nettyServerCtx = io.netty.handler.ssl.SslContextBuilder.forServer(cert.privateKey(), cert.certificate())
                .sslProvider(io.netty.handler.ssl.SslProvider.JDK).protocols("TLSv1.3").build();
        nettyClientCtx = io.netty.handler.ssl.SslContextBuilder.forClient().trustManager(cert.certificate())
                .sslProvider(io.netty.handler.ssl.SslProvider.JDK).protocols("TLSv1.3")
                .endpointIdentificationAlgorithm(null).build();

        weirClient = new io.weir.channel.embedded.EmbeddedChannel(
                weirClientCtx.newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT));
        weirServer = new io.weir.channel.embedded.EmbeddedChannel(
                weirServerCtx.newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT));
        weirShuttle(weirClient, weirServer);
        nettyClient = new io.netty.channel.embedded.EmbeddedChannel(
                nettyClientCtx.newHandler(io.netty.buffer.ByteBufAllocator.DEFAULT));
        nettyServer = new io.netty.channel.embedded.EmbeddedChannel(
                nettyServerCtx.newHandler(io.netty.buffer.ByteBufAllocator.DEFAULT));
        nettyShuttle(nettyClient, nettyServer);
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

    static void weirShuttle(io.weir.channel.embedded.EmbeddedChannel a, io.weir.channel.embedded.EmbeddedChannel b) {
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

    static void nettyShuttle(io.netty.channel.embedded.EmbeddedChannel a,
                                     io.netty.channel.embedded.EmbeddedChannel b) {
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

    @Benchmark
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

    @Benchmark
    public boolean weirHandshake() {
        io.weir.handler.ssl.SslHandler client = weirClientCtx.newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT);
        io.weir.channel.embedded.EmbeddedChannel c = new io.weir.channel.embedded.EmbeddedChannel(client);
        io.weir.channel.embedded.EmbeddedChannel s = new io.weir.channel.embedded.EmbeddedChannel(
                weirServerCtx.newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT));
        weirShuttle(c, s);
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
        nettyShuttle(c, s);
        boolean ok = client.handshakeFuture().isSuccess();
        c.finishAndReleaseAll();
        s.finishAndReleaseAll();
        return ok;
    }
}
