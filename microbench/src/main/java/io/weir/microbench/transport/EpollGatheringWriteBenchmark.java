package io.weir.microbench.transport;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Gathering writes over a loopback epoll connection: one operation is {@value #BUFFERS_PER_FLUSH} direct buffers of
 * {@code size} bytes each (from the channel's pooled allocator) written and then flushed at once, which the
 * transports turn into {@code writev(2)} calls. An invocation runs {@value #FLUSHES} such flushes on the client's
 * loop and ends when the last one's promise completes (its bytes are in the kernel); the server loop reads and
 * releases everything. The score is flushes per microsecond; bytes per flush are
 * {@code BUFFERS_PER_FLUSH * size}, which each method also returns. Weir's epoll channels against Netty 4.2's;
 * Linux only, the fork enables native access.
 */
@Fork(value = AbstractMicrobenchmark.FORKS, jvmArgsAppend = {
        AbstractMicrobenchmark.HEAP_MIN, AbstractMicrobenchmark.HEAP_MAX,
        AbstractMicrobenchmark.WEIR_NO_LEAK_DETECTION, AbstractMicrobenchmark.NETTY_NO_LEAK_DETECTION,
        EpollEventLoopExecuteBenchmark.NATIVE_ACCESS})
// Per millisecond: per microsecond the scores would show one significant digit.
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@OperationsPerInvocation(EpollGatheringWriteBenchmark.FLUSHES)
public class EpollGatheringWriteBenchmark extends AbstractMicrobenchmark {
    static final int BUFFERS_PER_FLUSH = 64;
    static final int FLUSHES = 100;

    @Param({"32", "512"})
    public int size;

    private TransportLoops.Weir weirLoops;
    private io.weir.channel.Channel weirServer;
    private io.weir.channel.Channel weirClient;
    private WeirWriter weirWriter;
    private TransportLoops.Netty nettyLoops;
    private io.netty.channel.Channel nettyServer;
    private io.netty.channel.Channel nettyClient;
    private NettyWriter nettyWriter;

    @Setup
    public void setup() throws Exception {
        byte[] payload = new byte[size];

        weirLoops = TransportLoops.Weir.epoll();
        weirServer = new io.weir.bootstrap.ServerBootstrap()
                .group(weirLoops.server)
                .channel(io.weir.channel.epoll.EpollServerSocketChannel.class)
                .childHandler(new WeirDiscard())
                .bind(TransportLoops.loopbackAnyPort()).sync().channel();
        weirClient = new io.weir.bootstrap.Bootstrap()
                .group(weirLoops.client)
                .channel(io.weir.channel.epoll.EpollSocketChannel.class)
                .handler(new io.weir.channel.ChannelHandler() { })
                .connect(weirServer.localAddress()).sync().channel();
        weirWriter = new WeirWriter(weirClient, payload);

        nettyLoops = TransportLoops.Netty.epoll();
        nettyServer = new io.netty.bootstrap.ServerBootstrap()
                .group(nettyLoops.server)
                .channel(io.netty.channel.epoll.EpollServerSocketChannel.class)
                .childHandler(new NettyDiscard())
                .bind(TransportLoops.loopbackAnyPort()).sync().channel();
        nettyClient = new io.netty.bootstrap.Bootstrap()
                .group(nettyLoops.client)
                .channel(io.netty.channel.epoll.EpollSocketChannel.class)
                .handler(new io.netty.channel.ChannelInboundHandlerAdapter())
                .connect(nettyServer.localAddress()).sync().channel();
        nettyWriter = new NettyWriter(nettyClient, payload);
    }

    @TearDown
    public void tearDown() throws Exception {
        weirLoops.close(weirClient, weirServer);
        nettyLoops.close(nettyClient, nettyServer);
    }

    @Benchmark
    public long weirGatheringWrite() throws Exception {
        CompletableFuture<Long> done = new CompletableFuture<>();
        weirClient.eventLoop().execute(() -> weirWriter.run(done));
        return done.get(TransportLoops.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Benchmark
    public long nettyGatheringWrite() throws Exception {
        CompletableFuture<Long> done = new CompletableFuture<>();
        nettyClient.eventLoop().execute(() -> nettyWriter.run(done));
        return done.get(TransportLoops.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** Writes {@link #FLUSHES} batches on the client loop; the last batch's promise reports the bytes written. */
    static final class WeirWriter {
        private final io.weir.channel.Channel ch;
        private final byte[] payload;

        WeirWriter(io.weir.channel.Channel ch, byte[] payload) {
            this.ch = ch;
            this.payload = payload;
        }

        void run(CompletableFuture<Long> done) {
            io.weir.buffer.ByteBufAllocator alloc = ch.alloc();
            for (int f = 0; f < FLUSHES; f++) {
                for (int i = 0; i < BUFFERS_PER_FLUSH; i++) {
                    ch.write(alloc.directBuffer(payload.length).writeBytes(payload), ch.voidPromise());
                }
                if (f == FLUSHES - 1) {
                    io.weir.channel.ChannelPromise last = ch.newPromise();
                    last.addListener(future -> done.complete((long) FLUSHES * BUFFERS_PER_FLUSH * payload.length));
                    ch.writeAndFlush(io.weir.buffer.Unpooled.EMPTY_BUFFER, last);
                } else {
                    ch.flush();
                }
            }
        }
    }

    static final class NettyWriter {
        private final io.netty.channel.Channel ch;
        private final byte[] payload;

        NettyWriter(io.netty.channel.Channel ch, byte[] payload) {
            this.ch = ch;
            this.payload = payload;
        }

        void run(CompletableFuture<Long> done) {
            io.netty.buffer.ByteBufAllocator alloc = ch.alloc();
            for (int f = 0; f < FLUSHES; f++) {
                for (int i = 0; i < BUFFERS_PER_FLUSH; i++) {
                    ch.write(alloc.directBuffer(payload.length).writeBytes(payload), ch.voidPromise());
                }
                if (f == FLUSHES - 1) {
                    io.netty.channel.ChannelPromise last = ch.newPromise();
                    last.addListener(future -> done.complete((long) FLUSHES * BUFFERS_PER_FLUSH * payload.length));
                    ch.writeAndFlush(io.netty.buffer.Unpooled.EMPTY_BUFFER, last);
                } else {
                    ch.flush();
                }
            }
        }
    }

    @io.weir.channel.ChannelHandler.Sharable
    static final class WeirDiscard implements io.weir.channel.ChannelHandler {
        @Override
        public void channelRead(io.weir.channel.ChannelHandlerContext ctx, Object msg) {
            ((io.weir.buffer.ByteBuf) msg).release();
        }
    }

    @io.netty.channel.ChannelHandler.Sharable
    static final class NettyDiscard extends io.netty.channel.ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(io.netty.channel.ChannelHandlerContext ctx, Object msg) {
            ((io.netty.buffer.ByteBuf) msg).release();
        }
    }
}
