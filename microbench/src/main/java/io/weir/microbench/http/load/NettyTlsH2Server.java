package io.weir.microbench.http.load;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ReferenceCountUtil;
import io.weir.handler.ssl.SelfSignedCertificate;

/**
 * Netty 4.2's half of {@code microbench/h2load-tls-compare}: the same logic, response bytes and TLS settings as
 * {@link WeirTlsH2Server}, written with Netty's API on the provider {@code --engine} names ({@code Http2FrameCodec}
 * plus {@code Http2MultiplexHandler}, ALPN h2 only, TLS 1.3 with AES-128-GCM, a new self-signed EC P-256
 * certificate).
 *
 * <p>Usage: {@code java -cp microbenchmarks.jar io.weir.microbench.http.load.NettyTlsH2Server
 * [--port 8443] [--transport nio|epoll|io_uring] [--threads 1] [--engine jdk|openssl]}; prints one line when it
 * listens.
 */
public final class NettyTlsH2Server {
    private NettyTlsH2Server() {
    }

    public static void main(String[] args) throws Exception {
        LoadServerArgs options = LoadServerArgs.parse(args);
        SslContext tls = newSslContext(options.engine());
        ByteBuf body = Unpooled.directBuffer(WeirTlsH2Server.BODY.length).writeBytes(WeirTlsH2Server.BODY);
        StreamHandler streams = new StreamHandler(body);
        NettyH2cMultiplexServer.run("netty h2 TLS server (" + options.engine().label() + " provider)", options, body,
                new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(tls.newHandler(ch.alloc()),
                                Http2FrameCodecBuilder.forServer().build(), new Http2MultiplexHandler(streams));
                    }
                });
    }

    /**
     * The TLS settings every Netty TLS load server uses, matching {@link WeirTlsH2Server}'s: the {@code engine}, a new
     * self-signed EC P-256 certificate, TLS 1.3 with AES-128-GCM only, ALPN offering h2 alone.
     */
    static SslContext newSslContext(LoadServerArgs.Engine engine) throws Exception {
        SelfSignedCertificate cert = SelfSignedCertificate.create("localhost");
        return SslContextBuilder.forServer(cert.privateKey(), cert.certificate())
                .sslProvider(engine == LoadServerArgs.Engine.OPENSSL ? SslProvider.OPENSSL : SslProvider.JDK)
                .protocols(WeirTlsH2Server.PROTOCOL)
                .ciphers(java.util.List.of(WeirTlsH2Server.CIPHER))
                .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, "h2"))
                .build();
    }

    @ChannelHandler.Sharable
    private static final class StreamHandler extends ChannelInboundHandlerAdapter {
        private final ByteBuf body;

        StreamHandler(ByteBuf body) {
            this.body = body;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame request && request.isEndStream()) {
                Http2Headers headers = new DefaultHttp2Headers().status("200").add("content-type", "text/plain")
                        .add("server", "netty").add("content-length", Integer.toString(WeirTlsH2Server.BODY.length));
                ctx.write(new DefaultHttp2HeadersFrame(headers, false), ctx.voidPromise());
                ctx.write(new DefaultHttp2DataFrame(body.retainedDuplicate(), true), ctx.voidPromise());
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
