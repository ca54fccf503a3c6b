package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.bootstrap.Bootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.nio.NioSocketChannel;
import io.weir.handler.codec.http2.Http2FrameCodecBuilder;
import io.weir.handler.codec.http2.Http2MultiplexHandler;
import io.weir.handler.ssl.ApplicationProtocolNames;
import io.weir.handler.ssl.SslContext;
import io.weir.handler.ssl.SslHandler;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/** A Weir HTTP/2 client connection for the server's tests: streams are opened on it with a stream bootstrap. */
final class Http2TestClient {
    private static final int TIMEOUT_SECONDS = 30;

    private Http2TestClient() {
    }

    /**
     * Connects to {@code address}: h2 by prior knowledge when {@code tls} is null, else by ALPN over TLS (the
     * handshake is awaited and must choose h2).
     */
    static Channel connect(EventLoopGroup group, InetSocketAddress address, SslContext tls) throws Exception {
        Channel ch = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel c) {
                        if (tls != null) {
                            c.pipeline().addLast(tls.newHandler(c.alloc(), "localhost", address.getPort()));
                        }
                        c.pipeline().addLast(Http2FrameCodecBuilder.forClient().build(),
                                new Http2MultiplexHandler(new ChannelHandler() { }));
                    }
                }).connect(address).sync().channel();
        if (tls != null) {
            SslHandler ssl = ch.pipeline().get(SslHandler.class);
            assertThat(ssl.handshakeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(ssl.applicationProtocol()).isEqualTo(ApplicationProtocolNames.HTTP_2);
        }
        return ch;
    }
}
