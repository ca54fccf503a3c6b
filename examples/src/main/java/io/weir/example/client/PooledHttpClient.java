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
import io.weir.handler.codec.http.DefaultFullHttpRequest;
import io.weir.handler.codec.http.FullHttpRequest;
import io.weir.handler.codec.http.FullHttpResponse;
import io.weir.handler.codec.http.HttpClientCodec;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpMethod;
import io.weir.handler.codec.http.HttpObjectAggregator;
import io.weir.handler.codec.http.HttpUtil;
import io.weir.handler.codec.http.HttpVersion;
import io.weir.handler.timeout.ReadTimeoutHandler;
import io.weir.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP/1.1 client that keeps connections alive and shares them: a {@link FixedChannelPool} of at most
 * {@code maxConnections} connections, one request at a time on each; requests beyond that wait for a connection
 * (bounded and timed by the pool). A connection the server closes is dropped by the pool's health check, and one
 * that reads nothing for {@value #READ_TIMEOUT_SECONDS} s (a server that never answers, or an idle pooled
 * connection) is closed, failing the request in flight, so no request waits on the server for ever.
 *
 * <pre>
 * examples/run client.PooledHttpClient 127.0.0.1 8080 /plaintext 100 4   # host port path requests connections
 * </pre>
 */
public final class PooledHttpClient implements AutoCloseable {
    /** What came back: the status and the body as text. */
    public record Response(int status, String body) {
    }

    /** Longest silence from the server on a connection before it is closed. */
    public static final int READ_TIMEOUT_SECONDS = 30;

    private final FixedChannelPool pool;
    private final String host;
    private final AtomicInteger connectionsMade = new AtomicInteger();

    /** A client of {@code server} on {@code group}, with at most {@code maxConnections} connections. */
    public PooledHttpClient(EventLoopGroup group, InetSocketAddress server, int maxConnections) {
        this(group, server, maxConnections, TimeUnit.SECONDS.toMillis(READ_TIMEOUT_SECONDS));
    }

    /** The same, closing a connection whose server stays silent for {@code readTimeoutMillis}. */
    public PooledHttpClient(EventLoopGroup group, InetSocketAddress server, int maxConnections,
                            long readTimeoutMillis) {
        this.host = server.getHostString() + ":" + server.getPort();
        Bootstrap bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class).remoteAddress(server);
        this.pool = new FixedChannelPool(bootstrap, ch -> {
            connectionsMade.incrementAndGet();
            ch.pipeline().addLast(new ReadTimeoutHandler(readTimeoutMillis, TimeUnit.MILLISECONDS), new HttpClientCodec(),
                    new HttpObjectAggregator(1 << 20), new Exchange());
        }, maxConnections);
    }

    /** How many connections the pool has opened so far. */
    public int connectionsMade() {
        return connectionsMade.get();
    }

    /** GETs {@code path} on a pooled connection; the future completes with the response or the failure. */
    public CompletableFuture<Response> get(String path) {
        CompletableFuture<Response> result = new CompletableFuture<>();
        pool.acquire().addListener(acquired -> {
            if (!acquired.isSuccess()) {
                result.completeExceptionally(acquired.cause());
                return;
            }
            Channel ch = (Channel) acquired.getNow();
            ch.pipeline().get(Exchange.class).begin(result, () -> pool.release(ch));
            FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, path);
            request.headers().set(HttpHeaderNames.HOST, host);
            ch.writeAndFlush(request).addListener(written -> {
                if (!written.isSuccess()) {
                    ch.close();
                }
            });
        });
        return result;
    }

    /** Closes the pool and its idle connections. */
    @Override
    public void close() {
        pool.close();
    }

    /** The one exchange in progress on a connection: completes its future, then hands the connection back. */
    private static final class Exchange implements ChannelHandler {
        private CompletableFuture<Response> pending;
        private Runnable release;

        void begin(CompletableFuture<Response> result, Runnable releaseConnection) {
            pending = result;
            release = releaseConnection;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof FullHttpResponse res && pending != null) {
                    CompletableFuture<Response> done = pending;
                    Runnable giveBack = release;
                    pending = null;
                    release = null;
                    if (!HttpUtil.isKeepAlive(res)) {
                        ctx.close(); // the pool's health check drops it when it comes back
                    }
                    giveBack.run();
                    done.complete(new Response(res.status().code(), res.content().toString(StandardCharsets.UTF_8)));
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        /** A read timeout or a decoding failure: the request fails with it, the connection closes. */
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (pending != null) {
                pending.completeExceptionally(cause);
            }
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (pending != null) {
                pending.completeExceptionally(new IllegalStateException("the connection closed before the response"));
                Runnable giveBack = release;
                pending = null;
                release = null;
                giveBack.run();
            }
            ctx.fireChannelInactive();
        }
    }

    public static void main(String[] args) throws Exception {
        String host = args.length > 0 ? args[0] : "127.0.0.1";
        int port = args.length > 1 ? Integer.parseInt(args[1]) : 8080;
        String path = args.length > 2 ? args[2] : "/plaintext";
        int requests = args.length > 3 ? Integer.parseInt(args[3]) : 100;
        int connections = args.length > 4 ? Integer.parseInt(args[4]) : 4;
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try (PooledHttpClient client = new PooledHttpClient(group, new InetSocketAddress(host, port), connections)) {
            List<CompletableFuture<Response>> all = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                all.add(client.get(path));
            }
            CompletableFuture.allOf(all.toArray(new CompletableFuture[0])).get(60, TimeUnit.SECONDS);
            System.out.println(requests + " responses over " + client.connectionsMade() + " connections; first: "
                    + all.get(0).join());
        } finally {
            group.shutdownGracefully();
        }
    }
}
