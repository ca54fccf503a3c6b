package io.weir.testsuite.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.SslProvider;
import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.channel.nio.NioSocketChannel;
import io.weir.example.echo.EchoServerHandler;
import io.weir.handler.ssl.SelfSignedCertificate;
import io.weir.handler.ssl.SslContextBuilder;
import io.weir.handler.ssl.SslHandler;
import io.weir.handler.ssl.SslHandshakeCompletionEvent;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Weir's TLS against Netty 4.2's (both on the JDK engine): a Weir client on a Netty server and a Netty client on a
 * Weir server, TLS 1.2 and 1.3, ALPN choosing h2 or http/1.1. The client sends 1 MiB that the server echoes (SHA-256
 * compared), then closes with close_notify, which the other side answers.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TlsNettyInteropTest {
    private static final long TIMEOUT_SECONDS = 30;
    private static final int PAYLOAD_BYTES = 1024 * 1024;
    private static final int CHUNK_BYTES = 16 * 1024;
    /** EC P-256 for localhost, shared by both sides' contexts. */
    private static final SelfSignedCertificate CERT = SelfSignedCertificate.create("localhost");

    private io.netty.channel.EventLoopGroup nettyGroup;
    private EventLoopGroup weirGroup;

    static Stream<Arguments> protocolsAndAlpn() {
        return Stream.of("TLSv1.2", "TLSv1.3").flatMap(p -> Stream.of(
                Arguments.of(p, new String[] {"h2", "http/1.1"}, "h2"),
                Arguments.of(p, new String[] {"http/1.1"}, "http/1.1")));
    }

    @BeforeEach
    void setUp() {
        nettyGroup = new io.netty.channel.MultiThreadIoEventLoopGroup(1, io.netty.channel.nio.NioIoHandler.newFactory());
        weirGroup = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    }

    @AfterEach
    void tearDown() throws Exception {
        nettyGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
        weirGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** The payload's chunks: the same seeded stream on each side. */
    private static byte[] payload() {
        byte[] bytes = new byte[PAYLOAD_BYTES];
        new SplittableRandom(17).nextBytes(bytes);
        return bytes;
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    private static ApplicationProtocolConfig nettyAlpn(String... protocols) {
        return new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, protocols);
    }

    /** Collects echoed bytes until the whole payload is back. */
    private static final class Collector {
        final byte[] received = new byte[PAYLOAD_BYTES];
        final CompletableFuture<String> digest = new CompletableFuture<>();
        int length;

        void add(int n, java.util.function.IntConsumer copyAt) {
            if (length + n > PAYLOAD_BYTES) {
                digest.completeExceptionally(new AssertionError((length + n) + " bytes echoed, more than sent"));
                return;
            }
            copyAt.accept(length);
            length += n;
            if (length == PAYLOAD_BYTES) {
                try {
                    digest.complete(sha256(received));
                } catch (Exception e) {
                    digest.completeExceptionally(e);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} client offers {1}")
    @MethodSource("protocolsAndAlpn")
    void weirClientAgainstNettyServer(String protocol, String[] clientAlpn, String expected) throws Exception {
        io.netty.handler.ssl.SslContext serverCtx = io.netty.handler.ssl.SslContextBuilder
                .forServer(CERT.privateKey(), CERT.certificate()).sslProvider(SslProvider.JDK)
                .protocols("TLSv1.3", "TLSv1.2").applicationProtocolConfig(nettyAlpn("h2", "http/1.1")).build();
        CompletableFuture<io.netty.handler.ssl.SslHandler> serverSsl = new CompletableFuture<>();
        io.netty.channel.Channel server = new io.netty.bootstrap.ServerBootstrap().group(nettyGroup)
                .channel(io.netty.channel.socket.nio.NioServerSocketChannel.class)
                .childHandler(new io.netty.channel.ChannelInitializer<io.netty.channel.Channel>() {
                    @Override
                    protected void initChannel(io.netty.channel.Channel ch) {
                        io.netty.handler.ssl.SslHandler ssl = serverCtx.newHandler(ch.alloc());
                        serverSsl.complete(ssl);
                        ch.pipeline().addLast(ssl, new io.netty.channel.ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(io.netty.channel.ChannelHandlerContext ctx, Object msg) {
                                ctx.write(msg);
                            }

                            @Override
                            public void channelReadComplete(io.netty.channel.ChannelHandlerContext ctx) {
                                ctx.flush();
                            }
                        });
                    }
                }).bind(InetAddress.getLoopbackAddress(), 0).sync().channel();
        try {
            int port = ((InetSocketAddress) server.localAddress()).getPort();
            byte[] payload = payload();
            Collector collector = new Collector();
            SslHandler ssl = SslContextBuilder.forClient().trustManager(CERT.certificate()).protocols(protocol)
                    .applicationProtocols(clientAlpn).build()
                    .newHandler(io.weir.buffer.ByteBufAllocator.DEFAULT, "localhost", port);
            Channel client = new Bootstrap().group(weirGroup).channel(NioSocketChannel.class)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(ssl, new ChannelHandler() {
                                @Override
                                public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                                    if (evt == SslHandshakeCompletionEvent.SUCCESS) {
                                        for (int i = 0; i < PAYLOAD_BYTES; i += CHUNK_BYTES) {
                                            ctx.write(ctx.alloc().directBuffer(CHUNK_BYTES)
                                                    .writeBytes(payload, i, CHUNK_BYTES));
                                        }
                                        ctx.flush();
                                    }
                                    ctx.fireUserEventTriggered(evt);
                                }

                                @Override
                                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                    ByteBuf b = (ByteBuf) msg;
                                    collector.add(b.readableBytes(), at -> b.readBytes(collector.received, at,
                                            b.readableBytes()));
                                    b.release();
                                }
                            });
                        }
                    }).connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port)).sync().channel();

            assertThat(collector.digest.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(sha256(payload));
            assertThat(ssl.session().getProtocol()).isEqualTo(protocol);
            assertThat(ssl.applicationProtocol()).isEqualTo(expected);
            io.netty.handler.ssl.SslHandler nettySide = serverSsl.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(nettySide.applicationProtocol()).isEqualTo(expected);

            client.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(nettySide.sslCloseFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(nettySide.sslCloseFuture().isSuccess()).as("Netty received Weir's close_notify: %s",
                    nettySide.sslCloseFuture().cause()).isTrue();
            assertThat(client.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(ssl.sslCloseFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            if (protocol.equals("TLSv1.2")) {
                assertThat(ssl.sslCloseFuture().isSuccess()).as("Netty answered with its close_notify: %s",
                        ssl.sslCloseFuture().cause()).isTrue();
            } else {
                // Netty on the JDK engine closes a TLS 1.3 connection without answering close_notify (the JDK
                // engine treats it as a half-close); Weir's close still completes, as asserted above.
                assertThat(ssl.sslCloseFuture().cause()).isInstanceOf(java.nio.channels.ClosedChannelException.class);
            }
        } finally {
            server.close().sync();
        }
    }

    @ParameterizedTest(name = "{0} client offers {1}")
    @MethodSource("protocolsAndAlpn")
    void nettyClientAgainstWeirServer(String protocol, String[] clientAlpn, String expected) throws Exception {
        io.weir.handler.ssl.SslContext serverCtx = SslContextBuilder.forServer(CERT.privateKey(), CERT.certificate())
                .applicationProtocols("h2", "http/1.1").build();
        CompletableFuture<SslHandler> serverSsl = new CompletableFuture<>();
        Channel server = new ServerBootstrap().group(weirGroup).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        SslHandler ssl = serverCtx.newHandler(ch.alloc());
                        serverSsl.complete(ssl);
                        ch.pipeline().addLast(ssl, new EchoServerHandler());
                    }
                }).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        server.eventLoop().submit(() -> { }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        try {
            int port = ((InetSocketAddress) server.localAddress()).getPort();
            byte[] payload = payload();
            Collector collector = new Collector();
            io.netty.handler.ssl.SslContext clientCtx = io.netty.handler.ssl.SslContextBuilder.forClient()
                    .sslProvider(SslProvider.JDK).trustManager(CERT.certificate()).protocols(protocol)
                    .applicationProtocolConfig(nettyAlpn(clientAlpn)).build();
            io.netty.handler.ssl.SslHandler ssl = clientCtx.newHandler(io.netty.buffer.ByteBufAllocator.DEFAULT,
                    "localhost", port);
            // Netty closes right after sending close_notify by default; wait for Weir's answer to see it.
            ssl.setCloseNotifyReadTimeout(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            io.netty.channel.Channel client = new io.netty.bootstrap.Bootstrap().group(nettyGroup)
                    .channel(io.netty.channel.socket.nio.NioSocketChannel.class)
                    .handler(new io.netty.channel.ChannelInitializer<io.netty.channel.Channel>() {
                        @Override
                        protected void initChannel(io.netty.channel.Channel ch) {
                            ch.pipeline().addLast(ssl, new io.netty.channel.ChannelInboundHandlerAdapter() {
                                @Override
                                public void userEventTriggered(io.netty.channel.ChannelHandlerContext ctx,
                                                               Object evt) {
                                    if (evt == io.netty.handler.ssl.SslHandshakeCompletionEvent.SUCCESS) {
                                        for (int i = 0; i < PAYLOAD_BYTES; i += CHUNK_BYTES) {
                                            ctx.write(ctx.alloc().directBuffer(CHUNK_BYTES)
                                                    .writeBytes(payload, i, CHUNK_BYTES));
                                        }
                                        ctx.flush();
                                    }
                                    ctx.fireUserEventTriggered(evt);
                                }

                                @Override
                                public void channelRead(io.netty.channel.ChannelHandlerContext ctx, Object msg) {
                                    io.netty.buffer.ByteBuf b = (io.netty.buffer.ByteBuf) msg;
                                    collector.add(b.readableBytes(), at -> b.readBytes(collector.received, at,
                                            b.readableBytes()));
                                    b.release();
                                }
                            });
                        }
                    }).connect(InetAddress.getLoopbackAddress(), port).sync().channel();

            assertThat(collector.digest.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(sha256(payload));
            assertThat(ssl.engine().getSession().getProtocol()).isEqualTo(protocol);
            assertThat(ssl.applicationProtocol()).isEqualTo(expected);
            SslHandler weirSide = serverSsl.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(weirSide.applicationProtocol()).isEqualTo(expected);

            client.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(weirSide.sslCloseFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(weirSide.sslCloseFuture().isSuccess()).as("Weir received Netty's close_notify: %s",
                    weirSide.sslCloseFuture().cause()).isTrue();
            assertThat(ssl.sslCloseFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(ssl.sslCloseFuture().isSuccess()).as("Weir answered with its close_notify: %s",
                    ssl.sslCloseFuture().cause()).isTrue();
        } finally {
            server.close().sync();
        }
    }
}
