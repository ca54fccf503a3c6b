package io.weir.testsuite.http;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.ChannelOption;
import io.weir.channel.ChannelPromise;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.IoHandlerFactory;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.WriteBufferWaterMark;
import io.weir.channel.epoll.Epoll;
import io.weir.channel.epoll.EpollIoHandler;
import io.weir.channel.nio.NioIoHandler;
import io.weir.server.Transports;
import io.weir.server.HttpServer;
import io.weir.server.HttpServerHandler;
import io.weir.handler.codec.http.HttpObjectAggregator;
import io.weir.handler.codec.http.HttpRequest;
import io.weir.handler.codec.http.HttpServerCodec;
import io.weir.handler.codec.http.HttpServerKeepAliveHandler;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The example server's HTTP pipeline ({@link HttpServerCodec}, keep-alive, the aggregator at
 * {@link HttpServer#MAX_CONTENT_LENGTH_BYTES} and {@link HttpServerHandler}) on a real listening socket, with a
 * probe at the head of each connection's pipeline that records what a test asserts on: the largest number of bytes
 * ever queued for one connection, the requests decoded, and the live connections. Small socket buffers make a
 * client that stops reading fill the kernel's queues within a few hundred kilobytes.
 */
final class ExampleServerFixture implements AutoCloseable {
    /** The server's socket buffers: small, so backpressure shows within a few hundred KiB. */
    static final int SOCKET_BUFFER_BYTES = 32 * 1024;

    final EventLoopGroup group;
    final Channel server;
    final InetSocketAddress address;
    /** The largest {@code ChannelOutboundBuffer} total seen on any connection just after a write. */
    final AtomicLong maxQueuedBytes = new AtomicLong();
    /**
     * The most response bytes seen waiting for the socket on any connection just after a write: bytes written
     * through the pipeline less those handed to the transport, without the outbound buffer's per-entry estimate.
     */
    final AtomicLong maxQueuedResponseBytes = new AtomicLong();
    /** Requests that reached the handlers, all connections together. */
    final AtomicLong requestsDecoded = new AtomicLong();
    final ConcurrentLinkedQueue<Channel> connections = new ConcurrentLinkedQueue<>();

    static List<String> transports() {
        List<String> transports = new ArrayList<>();
        transports.add("nio");
        if (Epoll.isAvailable()) {
            transports.add("epoll");
        }
        return transports;
    }

    ExampleServerFixture(String transport) throws InterruptedException {
        IoHandlerFactory io = transport.equals("epoll") ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        group = new MultiThreadIoEventLoopGroup(2, io);
        HttpServerHandler handler = new HttpServerHandler();
        server = new ServerBootstrap()
                .group(group)
                .channel(Transports.serverChannel(group))
                .childOption(ChannelOption.SO_SNDBUF, SOCKET_BUFFER_BYTES)
                .childOption(ChannelOption.SO_RCVBUF, SOCKET_BUFFER_BYTES)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        connections.add(ch);
                        ch.closeFuture().addListener(f -> connections.remove(ch));
                        ch.pipeline().addLast(new Probe(), new HttpServerCodec(), new Counter(),
                                new HttpServerKeepAliveHandler(),
                                new HttpObjectAggregator(HttpServer.MAX_CONTENT_LENGTH_BYTES), handler);
                    }
                })
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        address = (InetSocketAddress) server.localAddress();
    }

    /** Bytes queued in {@code ch}'s outbound buffer, derived from its writability counters. */
    static long queuedBytes(Channel ch) {
        WriteBufferWaterMark marks = ch.config().getWriteBufferWaterMark();
        return ch.isWritable() ? marks.high() + 1 - ch.bytesBeforeUnwritable()
                : ch.bytesBeforeWritable() + marks.low() - 1;
    }

    /** Whether {@code ch} reads, asked on its loop. */
    static boolean isReading(Channel ch) throws Exception {
        return ch.eventLoop().submit(() -> ch.config().isAutoRead()).get(10, TimeUnit.SECONDS);
    }

    /**
     * Whether {@code ch} reads again within ten seconds: asked on its loop again and again, each question queued
     * behind whatever the loop still has to do (a resume follows a writability change by a task or two).
     */
    static boolean readsAgain(Channel ch) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!isReading(ch)) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
        }
        return true;
    }

    /** This process's open file descriptors (Linux), to show that faults leave none behind. */
    static long openFileDescriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    @Override
    public void close() throws Exception {
        server.close().sync();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
    }

    /** Records the bytes queued after each write; first in the pipeline, so it sees every write. */
    private final class Probe implements ChannelHandler {
        /** Bytes of the response buffers written through this connection's pipeline. */
        private long written;

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof ByteBuf buf) {
                written += buf.readableBytes();
            }
            ctx.write(msg, promise);
            long queued = queuedBytes(ctx.channel());
            maxQueuedBytes.accumulateAndGet(queued, Math::max);
            if (ctx.channel().isActive()) {
                // Closed, a channel reports nothing written (nothing can be owed then).
                long responseBytes = written - ctx.channel().writtenBytes();
                maxQueuedResponseBytes.accumulateAndGet(responseBytes, Math::max);
            }
        }
    }

    private final class Counter implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest) {
                requestsDecoded.incrementAndGet();
            }
            ctx.fireChannelRead(msg);
        }
    }
}
