package io.weir.example.client;

import io.weir.bootstrap.Bootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioSocketChannel;
import io.weir.channel.pool.FixedChannelPool;
import io.weir.handler.codec.http2.Http2DataFrame;
import io.weir.handler.codec.http2.Http2FrameCodecBuilder;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.handler.codec.http2.Http2HeadersFrame;
import io.weir.handler.codec.http2.Http2MultiplexHandler;
import io.weir.handler.codec.http2.Http2StreamChannelBootstrap;
import io.weir.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Many requests over one HTTP/2 connection (h2c by prior knowledge), with the connection kept in a
 * {@link FixedChannelPool} of one: a request acquires the connection, opens its own stream on it and releases the
 * connection at once, so the next request (waiting in the pool meanwhile) reuses it while the first is still in
 * flight. A connection that has
 * closed (a GOAWAY, an idle timeout) fails the pool's health check and a new one is made. A request not answered
 * within {@value #TIMEOUT_SECONDS} s fails with a {@link java.util.concurrent.TimeoutException} and its stream is
 * reset, so no request waits on the server for ever.
 *
 * <pre>
 * examples/run client.Http2SharedClient 127.0.0.1 8080 /plaintext 100   # host port path requests
 * </pre>
 */
public final class Http2SharedClient implements AutoCloseable {
    /** What came back on one stream: the status and the body as text. */
    public record Response(int status, String body) {
    }

    /** Longest wait for one response. */
    public static final int TIMEOUT_SECONDS = 30;

    private final FixedChannelPool pool;
    private final String authority;
    private final AtomicInteger connectionsMade = new AtomicInteger();

    private final long timeoutMillis;

    /** A client of the h2c server at {@code server}. */
    public Http2SharedClient(EventLoopGroup group, InetSocketAddress server) {
        this(group, server, TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
    }

    /** The same, failing a request not answered within {@code timeoutMillis}. */
    public Http2SharedClient(EventLoopGroup group, InetSocketAddress server, long timeoutMillis) {
        this.timeoutMillis = timeoutMillis;
        this.authority = server.getHostString() + ":" + server.getPort();
        Bootstrap bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class).remoteAddress(server);
        this.pool = new FixedChannelPool(bootstrap, ch -> {
            connectionsMade.incrementAndGet();
            ch.pipeline().addLast(Http2FrameCodecBuilder.forClient().build(),
                    new Http2MultiplexHandler(new ChannelHandler() { }));
        }, 1);
    }

    /** How many connections were opened so far. */
    public int connectionsMade() {
        return connectionsMade.get();
    }

    /** GETs {@code path} on its own stream of the shared connection. */
    public CompletableFuture<Response> get(String path) {
        CompletableFuture<Response> result = new CompletableFuture<Response>().orTimeout(timeoutMillis,
                TimeUnit.MILLISECONDS);
        pool.acquire().addListener(acquired -> {
            if (!acquired.isSuccess()) {
                result.completeExceptionally(acquired.cause());
                return;
            }
            Channel connection = (Channel) acquired.getNow();
            new Http2StreamChannelBootstrap(connection).handler(new StreamReader(result)).open()
                    .addListener(opened -> {
                        // The stream is open: the connection is free for the next request at once.
                        pool.release(connection);
                        if (!opened.isSuccess()) {
                            result.completeExceptionally(opened.cause());
                            return;
                        }
                        Channel stream = (Channel) opened.getNow();
                        // A response that does not come in time: the stream is reset (RST_STREAM CANCEL).
                        result.whenComplete((r, failure) -> {
                            if (failure != null) {
                                stream.close();
                            }
                        });
                        stream.writeAndFlush(new Http2HeadersFrame(new Http2Headers()
                                .method("GET").scheme("http").authority(authority).path(path), true));
                    });
        });
        return result;
    }

    /** Closes the pool and its connection. */
    @Override
    public void close() {
        pool.close();
    }

    /** Gathers one stream's response. */
    private static final class StreamReader implements ChannelHandler {
        private final CompletableFuture<Response> result;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private int status;

        StreamReader(CompletableFuture<Response> result) {
            this.result = result;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                boolean end = false;
                if (msg instanceof Http2HeadersFrame headers) {
                    CharSequence s = headers.headers().status();
                    if (s != null && (status == 0 || status / 100 == 1)) {
                        status = Integer.parseInt(s.toString());
                    }
                    end = headers.endStream();
                } else if (msg instanceof Http2DataFrame data) {
                    byte[] bytes = new byte[data.content().readableBytes()];
                    data.content().readBytes(bytes);
                    body.writeBytes(bytes);
                    end = data.endStream();
                }
                if (end) {
                    result.complete(new Response(status, body.toString(StandardCharsets.UTF_8)));
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            result.completeExceptionally(new IllegalStateException("the stream closed before its response"));
            ctx.fireChannelInactive();
        }
    }

    public static void main(String[] args) throws Exception {
        String host = args.length > 0 ? args[0] : "127.0.0.1";
        int port = args.length > 1 ? Integer.parseInt(args[1]) : 8080;
        String path = args.length > 2 ? args[2] : "/plaintext";
        int requests = args.length > 3 ? Integer.parseInt(args[3]) : 100;
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try (Http2SharedClient client = new Http2SharedClient(group, new InetSocketAddress(host, port))) {
            List<CompletableFuture<Response>> all = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                all.add(client.get(path));
            }
            CompletableFuture.allOf(all.toArray(new CompletableFuture[0])).get(60, TimeUnit.SECONDS);
            System.out.println(requests + " responses over " + client.connectionsMade() + " connection(s); first: "
                    + all.get(0).join());
        } finally {
            group.shutdownGracefully();
        }
    }
}
