package io.weir.microbench.ssl;

import io.weir.handler.ssl.SelfSignedCertificate;
import io.weir.microbench.transport.NioPingPongBenchmark;
import io.weir.microbench.util.AbstractMicrobenchmark;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Echo over loopback TCP through TLS, NIO transport: a client writes {@code size} bytes through its
 * {@code SslHandler}, the server decrypts them and echoes them back through its own, the client counts the
 * decrypted echo and sends the next message once all of it arrived. One server loop and one client loop, each a
 * single thread; a batch of {@value #ROUNDS} round trips per invocation, so the score is round trips per millisecond
 * of the two loops (multiply by {@code size} for bytes). Weir's handlers against Netty 4.2's on its JDK provider:
 * TLS 1.3, the same EC P-256 certificate and cipher suite ({@link EmbeddedTlsPairs#CIPHERS}), the same handlers
 * as {@link NioPingPongBenchmark} (written once for each API), connected and handshaken in setup.
 */
@OperationsPerInvocation(SslHandlerEchoBenchmark.ROUNDS)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class SslHandlerEchoBenchmark extends AbstractMicrobenchmark {
    static final int ROUNDS = 20;
    private static final long TIMEOUT_SECONDS = 30;

    @Param({"1024", "65536"})
    public int size;

    private io.weir.channel.EventLoopGroup weirServerLoop;
    private io.weir.channel.EventLoopGroup weirClientLoop;
    private io.weir.channel.Channel weirServer;
    private io.weir.channel.Channel weirClient;
    private NioPingPongBenchmark.WeirClientHandler weirHandler;

    private io.netty.channel.EventLoopGroup nettyServerLoop;
    private io.netty.channel.EventLoopGroup nettyClientLoop;
    private io.netty.channel.Channel nettyServer;
    private io.netty.channel.Channel nettyClient;
    private NioPingPongBenchmark.NettyClientHandler nettyHandler;

    @Setup
    public void setup() throws Exception {
        SelfSignedCertificate cert = SelfSignedCertificate.create("localhost");
        InetSocketAddress any = new InetSocketAddress("127.0.0.1", 0);

        io.weir.handler.ssl.SslContext weirServerCtx = EmbeddedTlsPairs.weirServer(cert, "TLSv1.3");
        io.weir.handler.ssl.SslContext weirClientCtx = EmbeddedTlsPairs.weirClient(cert, "TLSv1.3");
        weirServerLoop = new io.weir.channel.MultiThreadIoEventLoopGroup(1, io.weir.channel.nio.NioIoHandler.newFactory());
        weirClientLoop = new io.weir.channel.MultiThreadIoEventLoopGroup(1, io.weir.channel.nio.NioIoHandler.newFactory());
        weirServer = new io.weir.bootstrap.ServerBootstrap().group(weirServerLoop)
                .channel(io.weir.channel.nio.NioServerSocketChannel.class)
                .childOption(io.weir.channel.ChannelOption.TCP_NODELAY, true)
                .childHandler(new io.weir.channel.ChannelInitializer<io.weir.channel.Channel>() {
                    @Override
                    protected void initChannel(io.weir.channel.Channel ch) {
                        ch.pipeline().addLast(weirServerCtx.newHandler(ch.alloc()), new NioPingPongBenchmark.WeirEchoHandler());
                    }
                }).bind(any).sync().channel();
        weirServer.eventLoop().submit(() -> { }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        weirHandler = new NioPingPongBenchmark.WeirClientHandler(size);
        io.weir.handler.ssl.SslHandler weirSsl = weirClientCtx.newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT);
        weirClient = new io.weir.bootstrap.Bootstrap().group(weirClientLoop)
                .channel(io.weir.channel.nio.NioSocketChannel.class)
                .option(io.weir.channel.ChannelOption.TCP_NODELAY, true)
                .handler(new io.weir.channel.ChannelInitializer<io.weir.channel.Channel>() {
                    @Override
                    protected void initChannel(io.weir.channel.Channel ch) {
                        ch.pipeline().addLast(weirSsl, weirHandler);
                    }
                }).connect(weirServer.localAddress()).sync().channel();
        if (!weirSsl.handshakeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS) || !weirSsl.handshakeFuture().isSuccess()) {
            throw new IllegalStateException("Weir handshake: " + weirSsl.handshakeFuture().cause());
        }

        io.netty.handler.ssl.SslContext nettyServerCtx = EmbeddedTlsPairs.nettyServer(cert, "TLSv1.3");
        io.netty.handler.ssl.SslContext nettyClientCtx = EmbeddedTlsPairs.nettyClient(cert, "TLSv1.3");
        nettyServerLoop = new io.netty.channel.MultiThreadIoEventLoopGroup(1,
                io.netty.channel.nio.NioIoHandler.newFactory());
        nettyClientLoop = new io.netty.channel.MultiThreadIoEventLoopGroup(1,
                io.netty.channel.nio.NioIoHandler.newFactory());
        nettyServer = new io.netty.bootstrap.ServerBootstrap().group(nettyServerLoop)
                .channel(io.netty.channel.socket.nio.NioServerSocketChannel.class)
                .childOption(io.netty.channel.ChannelOption.TCP_NODELAY, true)
                .childHandler(new io.netty.channel.ChannelInitializer<io.netty.channel.Channel>() {
                    @Override
                    protected void initChannel(io.netty.channel.Channel ch) {
                        ch.pipeline().addLast(nettyServerCtx.newHandler(ch.alloc()), new NioPingPongBenchmark.NettyEchoHandler());
                    }
                }).bind(any).sync().channel();
        nettyHandler = new NioPingPongBenchmark.NettyClientHandler(size);
        io.netty.handler.ssl.SslHandler nettySsl = nettyClientCtx.newHandler(io.netty.buffer.ByteBufAllocator.DEFAULT);
        nettyClient = new io.netty.bootstrap.Bootstrap().group(nettyClientLoop)
                .channel(io.netty.channel.socket.nio.NioSocketChannel.class)
                .option(io.netty.channel.ChannelOption.TCP_NODELAY, true)
                .handler(new io.netty.channel.ChannelInitializer<io.netty.channel.Channel>() {
                    @Override
                    protected void initChannel(io.netty.channel.Channel ch) {
                        ch.pipeline().addLast(nettySsl, nettyHandler);
                    }
                }).connect(nettyServer.localAddress()).sync().channel();
        if (!nettySsl.handshakeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS) || !nettySsl.handshakeFuture().isSuccess()) {
            throw new IllegalStateException("Netty handshake: " + nettySsl.handshakeFuture().cause());
        }
    }

    @TearDown
    public void tearDown() throws Exception {
        weirClient.close().sync();
        weirServer.close().sync();
        weirClientLoop.shutdownGracefully(0, TIMEOUT_SECONDS, TimeUnit.SECONDS).sync();
        weirServerLoop.shutdownGracefully(0, TIMEOUT_SECONDS, TimeUnit.SECONDS).sync();
        nettyClient.close().sync();
        nettyServer.close().sync();
        nettyClientLoop.shutdownGracefully(0, TIMEOUT_SECONDS, TimeUnit.SECONDS).sync();
        nettyServerLoop.shutdownGracefully(0, TIMEOUT_SECONDS, TimeUnit.SECONDS).sync();
    }

    @Benchmark
    public int weirEcho() throws Exception {
        CompletableFuture<Integer> done = new CompletableFuture<>();
        weirClient.eventLoop().execute(() -> weirHandler.start(weirClient, ROUNDS, done));
        return done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Benchmark
    public int nettyEcho() throws Exception {
        CompletableFuture<Integer> done = new CompletableFuture<>();
        nettyClient.eventLoop().execute(() -> nettyHandler.start(nettyClient, ROUNDS, done));
        return done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
}
