package io.weir.microbench.http.load;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.ssl.SslContext;

/**
 * Netty 4.2's second HTTP/2 server style for {@code microbench/h2load-tls-compare}: one
 * {@code Http2ConnectionHandler} per connection with an {@code Http2FrameListener} (no child channels), the same
 * handler as {@link NettyH2cConnectionHandlerServer} behind the same TLS settings as {@link NettyTlsH2Server} (the
 * provider {@code --engine} names, the JDK's by default; ALPN h2 only, TLS 1.3 with AES-128-GCM, a new self-signed
 * EC P-256 certificate).
 *
 * <p>Usage: {@code java -cp microbenchmarks.jar io.weir.microbench.http.load.NettyTlsH2ConnectionHandlerServer
 * [--port 8443] [--transport nio|epoll|io_uring] [--threads 1] [--engine jdk|openssl]}; prints one line when it
 * listens.
 */
public final class NettyTlsH2ConnectionHandlerServer {

    private NettyTlsH2ConnectionHandlerServer() {
    }

    public static void main(String[] args) throws Exception {
        LoadServerArgs options = LoadServerArgs.parse(args);
        SslContext tls = NettyTlsH2Server.newSslContext(options.engine());
        ByteBuf body = Unpooled.directBuffer(WeirTlsH2Server.BODY.length).writeBytes(WeirTlsH2Server.BODY);
        String name = "netty h2 TLS connection-handler server (" + options.engine().label() + " provider)";
        NettyH2cMultiplexServer.run(name, options, body,
                new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(tls.newHandler(ch.alloc()),
                                NettyH2cConnectionHandlerServer.newHandler(body));
                    }
                });
    }
}
