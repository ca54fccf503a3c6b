package io.weir.example.http2;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.SimpleChannelInboundHandler;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.handler.codec.http.DefaultFullHttpResponse;
import io.weir.handler.codec.http.FullHttpRequest;
import io.weir.handler.codec.http.FullHttpResponse;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpObjectAggregator;
import io.weir.handler.codec.http.HttpResponseStatus;
import io.weir.handler.codec.http.HttpServerPolicy;
import io.weir.handler.codec.http.HttpUtil;
import io.weir.handler.codec.http.HttpVersion;
import io.weir.handler.codec.http2.Http2StreamChannel;
import io.weir.handler.codec.http2.HttpServerInitializer;
import io.weir.handler.ssl.ApplicationProtocolNames;
import io.weir.handler.ssl.SelfSignedCertificate;
import io.weir.handler.ssl.SslContext;
import io.weir.handler.ssl.SslContextBuilder;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLException;

/**
 * "Hello, Weir!" over HTTP/2, cleartext and TLS, with HTTP/1.1 beside it, each port set up by one
 * {@link HttpServerInitializer}. Each HTTP/2 stream is a child channel whose pipeline turns frames into the HTTP/1.1
 * objects that {@link Hello} also gets on an HTTP/1.1 connection, so one handler serves both protocols.
 * <ul>
 * <li>Cleartext port: h2c by prior knowledge ({@code curl --http2-prior-knowledge}), h2c by Upgrade
 *     ({@code curl --http2}), or HTTP/1.1; the first bytes decide.</li>
 * <li>TLS port: ALPN picks {@code h2} or {@code http/1.1}. The certificate is a new self-signed one
 *     ({@code curl -k}).</li>
 * </ul>
 *
 * <pre>
 * examples/run io.weir.example.http2.Http2HelloServer [port] [tls-port]     # 8080 and 8443 by default
 * </pre>
 */
public final class Http2HelloServer {
    /**
     * What every HTTP/1.1 connection and every HTTP/2 stream gets after the protocol's own handlers (the
     * {@link HttpServerInitializer} installs those, under the default {@link HttpServerPolicy}).
     */
    private static final ChannelInitializer<Channel> HELLO = new ChannelInitializer<>() {
        @Override
        protected void initChannel(Channel ch) {
            ch.pipeline().addLast(new HttpObjectAggregator(64 * 1024), new Hello());
        }
    };

    private Http2HelloServer() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        int tlsPort = args.length > 1 ? Integer.parseInt(args[1]) : 8443;
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            Channel plain = startCleartext(group, port);
            Channel tls = startTls(group, tlsPort, selfSignedContext());
            System.out.println("h2c and HTTP/1.1 on " + plain.localAddress() + ", h2 and HTTP/1.1 over TLS on "
                    + tls.localAddress());
            plain.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }

    /** Binds the cleartext port (0: any free port): h2c or HTTP/1.1. */
    public static Channel startCleartext(EventLoopGroup group, int port) throws InterruptedException {
        return bind(group, port, new HttpServerInitializer(HttpServerPolicy.defaults(), HELLO));
    }

    /** Binds the TLS port (0: any free port) with {@code context}: h2 or HTTP/1.1 by ALPN. */
    public static Channel startTls(EventLoopGroup group, int port, SslContext context) throws InterruptedException {
        return bind(group, port, HttpServerInitializer.builder(HELLO).tls(context).build());
    }

    /** A server context with a new self-signed certificate, offering h2 then http/1.1 by ALPN. */
    public static SslContext selfSignedContext() throws SSLException {
        SelfSignedCertificate cert = SelfSignedCertificate.create("localhost");
        return SslContextBuilder.forServer(cert.privateKey(), cert.certificate())
                .applicationProtocols(ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1)
                .build();
    }

    private static Channel bind(EventLoopGroup group, int port, HttpServerInitializer http)
            throws InterruptedException {
        return http.configure(new ServerBootstrap().group(group).channel(NioServerSocketChannel.class))
                .bind(port).sync().channel();
    }

    /** Answers every request, naming the protocol it came over. */
    private static final class Hello extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void messageReceived(ChannelHandlerContext ctx, FullHttpRequest request) {
            String protocol = ctx.channel() instanceof Http2StreamChannel ? "HTTP/2" : "HTTP/1.1";
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    Unpooled.copiedBuffer("Hello, Weir! (" + protocol + ")\n", StandardCharsets.UTF_8));
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
            HttpUtil.setContentLength(response, response.content().readableBytes());
            ctx.writeAndFlush(response);
        }
    }
}
