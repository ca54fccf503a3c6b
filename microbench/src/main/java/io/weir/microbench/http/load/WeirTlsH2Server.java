package io.weir.microbench.http.load;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.handler.codec.http2.Http2DataFrame;
import io.weir.handler.codec.http2.Http2FrameCodecBuilder;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.handler.codec.http2.Http2HeadersFrame;
import io.weir.handler.codec.http2.Http2MultiplexHandler;
import io.weir.handler.ssl.SelfSignedCertificate;
import io.weir.handler.ssl.SslContext;
import io.weir.handler.ssl.SslContextBuilder;
import io.weir.handler.ssl.SslProvider;
import io.weir.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;

/**
 * Weir's half of {@code microbench/h2load-tls-compare}: HTTP/2 over TLS (ALPN h2 only), {@code Http2FrameCodec}
 * plus {@code Http2MultiplexHandler}, every stream answered with {@code Hello, World!} as {@code text/plain}; the
 * same logic, response bytes and TLS settings as {@link NettyTlsH2Server}: the engine {@code --engine} names (the
 * JDK's by default), a new self-signed EC P-256 certificate, TLS 1.3 with AES-128-GCM.
 *
 * <p>Usage: {@code java -cp microbenchmarks.jar io.weir.microbench.http.load.WeirTlsH2Server
 * [--port 8443] [--transport nio|epoll|io_uring] [--threads 1] [--engine jdk|openssl]}; prints one line when it
 * listens.
 */
public final class WeirTlsH2Server {
    static final byte[] BODY = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
    /** The one protocol and suite both TLS load servers use. */
    static final String PROTOCOL = "TLSv1.3";
    static final String CIPHER = "TLS_AES_128_GCM_SHA256";

    private WeirTlsH2Server() {
    }

    public static void main(String[] args) throws Exception {
        LoadServerArgs options = LoadServerArgs.parse(args);
        SelfSignedCertificate cert = SelfSignedCertificate.create("localhost");
        SslContext tls = SslContextBuilder.forServer(cert.privateKey(), cert.certificate())
                .sslProvider(options.engine() == LoadServerArgs.Engine.OPENSSL ? SslProvider.OPENSSL : SslProvider.JDK)
                .protocols(PROTOCOL).ciphers(java.util.List.of(CIPHER))
                .applicationProtocols("h2").build();
        WeirLoadTransport transport = WeirLoadTransport.of(options.transport());
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(options.threads(), transport.io());
        ByteBuf body = Unpooled.directBuffer(BODY.length).writeBytes(BODY);
        StreamHandler streams = new StreamHandler(body);
        try {
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(transport.serverChannel())
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(tls.newHandler(ch.alloc()),
                                    Http2FrameCodecBuilder.forServer().build(), new Http2MultiplexHandler(streams));
                        }
                    })
                    .bind(new java.net.InetSocketAddress(options.port())).sync().channel();
            System.out.println("weir h2 TLS server on " + server.localAddress() + " (" + options.transport().label()
                    + ", " + options.threads() + " thread(s), " + options.engine().label() + " engine)");
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
            body.release();
        }
    }

    @ChannelHandler.Sharable
    private static final class StreamHandler implements ChannelHandler {
        private final ByteBuf body;

        StreamHandler(ByteBuf body) {
            this.body = body;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame request && request.endStream()) {
                Http2Headers headers = new Http2Headers().status("200").add("content-type", "text/plain")
                        .add("server", "weir").add("content-length", Integer.toString(BODY.length));
                ctx.write(new Http2HeadersFrame(headers, false), ctx.voidPromise());
                ctx.write(new Http2DataFrame(body.retainedDuplicate(), true), ctx.voidPromise());
            }
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
