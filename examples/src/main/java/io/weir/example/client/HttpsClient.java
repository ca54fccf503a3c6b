package io.weir.example.client;

import io.weir.bootstrap.Bootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioSocketChannel;
import io.weir.handler.codec.http.DefaultFullHttpRequest;
import io.weir.handler.codec.http.FullHttpRequest;
import io.weir.handler.codec.http.FullHttpResponse;
import io.weir.handler.codec.http.HttpClientCodec;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpMethod;
import io.weir.handler.codec.http.HttpObjectAggregator;
import io.weir.handler.codec.http.HttpVersion;
import io.weir.handler.codec.http2.Http2DataFrame;
import io.weir.handler.codec.http2.Http2FrameCodecBuilder;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.handler.codec.http2.Http2HeadersFrame;
import io.weir.handler.codec.http2.Http2MultiplexHandler;
import io.weir.handler.codec.http2.Http2StreamChannelBootstrap;
import io.weir.handler.ssl.ApplicationProtocolNames;
import io.weir.handler.ssl.ApplicationProtocolNegotiationHandler;
import io.weir.handler.ssl.InsecureTrustManagerFactory;
import io.weir.handler.ssl.SslContext;
import io.weir.handler.ssl.SslContextBuilder;
import io.weir.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * An HTTPS client for HTTP/2 and HTTP/1.1: one GET, over whichever protocol the server picks by ALPN.
 *
 * <pre>
 * examples/run io.weir.example.client.HttpsClient https://127.0.0.1:8443/plaintext [--insecure]
 * </pre>
 *
 * The whole exchange (connect, handshake, response) must finish within {@value #TIMEOUT_SECONDS} s, else the future
 * fails with a {@link java.util.concurrent.TimeoutException} and the connection is closed.
 *
 * <p>{@code --insecure} trusts any certificate ({@link InsecureTrustManagerFactory}: for a local server with a
 * self-signed certificate, never elsewhere); without it the JDK's trusted roots and host-name checks apply.
 */
public final class HttpsClient {
    /** What came back: the protocol ALPN chose, the status and the body as text. */
    public record Response(String protocol, int status, String body) {
    }

    /** Longest wait for the whole exchange. */
    public static final int TIMEOUT_SECONDS = 30;

    private HttpsClient() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println("usage: HttpsClient https://host[:port]/path [--insecure]");
            return;
        }
        boolean insecure = args.length > 1 && args[1].equals("--insecure");
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            Response r = get(group, URI.create(args[0]), context(insecure)).get(30, TimeUnit.SECONDS);
            System.out.println(r.protocol() + " " + r.status());
            System.out.println(r.body());
        } finally {
            group.shutdownGracefully();
        }
    }

    /** A client context offering h2 then http/1.1; {@code insecure} trusts any certificate (tests only). */
    public static SslContext context(boolean insecure, String... protocols) throws SSLException {
        SslContextBuilder b = SslContextBuilder.forClient().applicationProtocols(protocols.length > 0 ? protocols
                : new String[] {ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1});
        return (insecure ? b.trustManager(InsecureTrustManagerFactory.INSTANCE) : b).build();
    }

    /** GETs {@code uri} over TLS on {@code group}; the future completes with the response or the failure. */
    public static CompletableFuture<Response> get(EventLoopGroup group, URI uri, SslContext tls) {
        return get(group, uri, tls, TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
    }

    /** The same, with the whole exchange bounded by {@code timeoutMillis}. */
    public static CompletableFuture<Response> get(EventLoopGroup group, URI uri, SslContext tls, long timeoutMillis) {
        CompletableFuture<Response> result = new CompletableFuture<Response>().orTimeout(timeoutMillis,
                TimeUnit.MILLISECONDS);
        int port = uri.getPort() > 0 ? uri.getPort() : 443;
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        new Bootstrap().group(group).channel(NioSocketChannel.class)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(tls.newHandler(ch.alloc(), uri.getHost(), port),
                                new ApplicationProtocolNegotiationHandler(ApplicationProtocolNames.HTTP_1_1) {
                                    @Override
                                    protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
                                        if (ApplicationProtocolNames.HTTP_2.equals(protocol)) {
                                            http2(ctx.channel(), uri, path, result);
                                        } else {
                                            http1(ctx.channel(), uri, path, result);
                                        }
                                    }

                                    @Override
                                    protected void handshakeFailure(ChannelHandlerContext ctx, Throwable cause) {
                                        result.completeExceptionally(cause);
                                        ctx.close();
                                    }
                                });
                    }
                })
                .connect(uri.getHost(), port).addListener(f -> {
                    if (!f.isSuccess()) {
                        result.completeExceptionally(f.cause());
                        return;
                    }
                    // Whatever ends the exchange badly (the timeout above all) ends the connection too.
                    Channel ch = ((io.weir.channel.ChannelFuture) f).channel();
                    result.whenComplete((r, failure) -> {
                        if (failure != null) {
                            ch.close();
                        }
                    });
                });
        return result;
    }

    private static void http1(Channel ch, URI uri, String path, CompletableFuture<Response> result) {
        ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(1 << 20), new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                try {
                    if (msg instanceof FullHttpResponse res) {
                        result.complete(new Response(ApplicationProtocolNames.HTTP_1_1, res.status().code(),
                                res.content().toString(StandardCharsets.UTF_8)));
                        ctx.close();
                    }
                } finally {
                    ReferenceCountUtil.release(msg);
                }
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                result.completeExceptionally(new IllegalStateException("closed before the response"));
            }
        });
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, path);
        request.headers().set(HttpHeaderNames.HOST, uri.getAuthority());
        ch.writeAndFlush(request);
    }

    private static void http2(Channel ch, URI uri, String path, CompletableFuture<Response> result) {
        ch.pipeline().addLast(Http2FrameCodecBuilder.forClient().build(),
                new Http2MultiplexHandler(new ChannelHandler() { }));
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int[] status = {0};
        new Http2StreamChannelBootstrap(ch).handler(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                try {
                    boolean end = false;
                    if (msg instanceof Http2HeadersFrame headers) {
                        CharSequence s = headers.headers().status();
                        if (s != null && status[0] == 0 || s != null && status[0] / 100 == 1) {
                            status[0] = Integer.parseInt(s.toString());
                        }
                        end = headers.endStream();
                    } else if (msg instanceof Http2DataFrame data) {
                        byte[] bytes = new byte[data.content().readableBytes()];
                        data.content().readBytes(bytes);
                        body.writeBytes(bytes);
                        end = data.endStream();
                    }
                    if (end) {
                        result.complete(new Response(ApplicationProtocolNames.HTTP_2, status[0],
                                body.toString(StandardCharsets.UTF_8)));
                        ch.close();
                    }
                } finally {
                    ReferenceCountUtil.release(msg);
                }
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                result.completeExceptionally(new IllegalStateException("stream closed before the response"));
            }
        }).open().addListener(f -> {
            if (!f.isSuccess()) {
                result.completeExceptionally(f.cause());
                return;
            }
            Channel stream = (Channel) f.getNow();
            stream.writeAndFlush(new Http2HeadersFrame(new Http2Headers().method("GET").scheme("https")
                    .authority(uri.getAuthority()).path(path), true));
        });
    }
}
