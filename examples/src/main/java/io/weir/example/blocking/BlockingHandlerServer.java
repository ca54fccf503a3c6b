package io.weir.example.blocking;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.handler.codec.http.DefaultFullHttpResponse;
import io.weir.handler.codec.http.FullHttpRequest;
import io.weir.handler.codec.http.FullHttpResponse;
import io.weir.handler.codec.http.HttpObjectAggregator;
import io.weir.handler.codec.http.HttpResponseStatus;
import io.weir.handler.codec.http.HttpServerCodec;
import io.weir.handler.codec.http.HttpServerKeepAliveHandler;
import io.weir.handler.codec.http.HttpUtil;
import io.weir.handler.codec.http.HttpVersion;
import io.weir.handler.offload.OffloadHandler;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Blocking handler code on virtual threads, the way to call a JDBC driver or any other blocking client from a Weir
 * server: {@link OffloadHandler} hands each request to an executor and writes the answer back on the event loop.
 * The event loop never blocks, and while a connection's request is being worked on the server reads no more from
 * that connection, so a client that pipelines faster than the work completes is held back by TCP, not by a queue
 * in the server.
 *
 * <p>Virtual threads need JDK 21+; on JDK 17 the example falls back to a bounded pool of platform threads.
 *
 * <pre>
 * examples/run io.weir.example.blocking.BlockingHandlerServer [port]      # 8080 by default
 * curl 'http://127.0.0.1:8080/?ms=200'                                    # "blocks" 200 ms, then answers
 * </pre>
 */
public final class BlockingHandlerServer {
    /** The longest simulated blocking call a request may ask for, in milliseconds. */
    public static final int MAX_BLOCK_MILLIS = 5_000;

    private BlockingHandlerServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        ExecutorService workers = newWorkers();
        try {
            Channel server = start(group, workers, args.length > 0 ? Integer.parseInt(args[0]) : 8080);
            System.out.println("Listening on " + server.localAddress() + " (work on " + describe(workers) + ")");
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
            workers.shutdown();
        }
    }

    /** Binds {@code port} (0: any free port); each request's work runs on {@code workers}. */
    public static Channel start(EventLoopGroup group, ExecutorService workers, int port) throws InterruptedException {
        return new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpServerKeepAliveHandler(),
                                new HttpObjectAggregator(64 * 1024),
                                // One request at a time per connection: answers keep their order.
                                new OffloadHandler<>(FullHttpRequest.class, workers,
                                        BlockingHandlerServer::answer, 1));
                    }
                })
                .bind(port).sync().channel();
    }

    /** Runs on a worker thread and may block: here it sleeps for the {@code ms} query parameter, as a slow call. */
    static FullHttpResponse answer(FullHttpRequest request) throws InterruptedException {
        long millis = blockMillis(request.uri());
        Thread.sleep(millis); // stands for the blocking call (a database query, a legacy client)
        String body = "worked " + millis + " ms on " + (isVirtual(Thread.currentThread()) ? "a virtual" : "a platform")
                + " thread\n";
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
        HttpUtil.setContentLength(response, response.content().readableBytes());
        return response;
    }

    /** The {@code ms=} query parameter: its first six digits, 0 without one, at most {@link #MAX_BLOCK_MILLIS}. */
    static long blockMillis(String uri) {
        int at = uri.indexOf("ms=");
        if (at < 0) {
            return 0;
        }
        int end = at + 3;
        while (end < uri.length() && end < at + 9 && Character.isDigit(uri.charAt(end))) {
            end++;
        }
        return end == at + 3 ? 0 : Math.min(MAX_BLOCK_MILLIS, Long.parseLong(uri.substring(at + 3, end)));
    }

    /**
     * Virtual threads where the JDK has them (21+), else a pool of 64 platform threads. Called through reflection
     * only because Weir also runs on JDK 17: on 21+ write {@code Executors.newVirtualThreadPerTaskExecutor()}.
     */
    public static ExecutorService newWorkers() {
        try {
            Method virtual = Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
            return (ExecutorService) virtual.invoke(null);
        } catch (ReflectiveOperationException e) {
            return Executors.newFixedThreadPool(64);
        }
    }

    private static boolean isVirtual(Thread thread) {
        try {
            return (boolean) Thread.class.getMethod("isVirtual").invoke(thread);
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }

    private static String describe(ExecutorService workers) {
        return workers.getClass().getSimpleName().contains("ThreadPerTask") ? "virtual threads" : "a thread pool";
    }
}
