package io.weir.microbench.transport;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * UDP echo over loopback with the epoll datagram channels: a client sends {@code burst} datagrams of
 * {@value #PAYLOAD_BYTES} bytes in one flush to an echo server, which answers each to its sender and flushes once
 * per read burst; the client sends the next burst once all answers are back. One server loop and one client
 * loop, each a single thread; the benchmark thread starts {@value #ROUNDS} bursts and waits for the client loop
 * to report the last, so the score is bursts per microsecond. Burst 1 is ping-pong latency (recvfrom/sendto
 * paths); burst 16 exercises recvmmsg/sendmmsg. Weir's {@code EpollDatagramChannel} against Netty 4.2's
 * {@code EpollDatagramChannel}, same handlers written once per API. Linux only; loopback does not drop datagrams
 * this small at this rate, so no round is lost.
 *
 * <p>Weir reads up to {@value #BATCH} datagrams of up to {@value #RECEIVE_BUFFER_BYTES} bytes per {@code recvmmsg}
 * by default. Netty uses {@code recvmmsg} only when {@code MAX_DATAGRAM_PAYLOAD_SIZE} is set and its receive
 * allocator hands out a buffer of room for several such datagrams; its default allocator's buffer holds one.
 * {@code nettyDatagramEcho} is configured as a Netty user batching reads would: the payload size, and a
 * {@code FixedRecvByteBufAllocator} of {@value #BATCH} times that, so it too reads up to {@value #BATCH}
 * datagrams per call. {@code nettyDatagramEcho_onePerRead} keeps only the payload size set, with the default
 * allocator: one datagram per {@code recvmsg}, what Netty does unless the allocator is sized too.
 *
 * <p>Both sides' loops block at once when idle by default; {@code weirDatagramEcho_idlePoll} runs Weir with its
 * opt-in idle poll ({@code io.weir.epoll.maxIdlePollNanos=50000}) against Netty's default.
 *
 * <p>The fork enables native access: on JDK 24+ Weir refuses to load its JNI library without it.
 */
@Fork(value = AbstractMicrobenchmark.FORKS, jvmArgsAppend = {
        AbstractMicrobenchmark.HEAP_MIN, AbstractMicrobenchmark.HEAP_MAX,
        AbstractMicrobenchmark.WEIR_NO_LEAK_DETECTION, AbstractMicrobenchmark.NETTY_NO_LEAK_DETECTION,
        EpollEventLoopExecuteBenchmark.NATIVE_ACCESS})
@OperationsPerInvocation(EpollDatagramEchoBenchmark.ROUNDS)
public class EpollDatagramEchoBenchmark extends AbstractMicrobenchmark {
    static final int ROUNDS = 100;
    static final int PAYLOAD_BYTES = 64;
    static final int RECEIVE_BUFFER_BYTES = 2048;
    /** Datagrams per read: Weir's default {@code MAX_MESSAGES_PER_READ}, and Netty's batch when configured. */
    static final int BATCH = 16;

    @Param({"1", "16"})
    public int burst;

    private WeirSide weir;
    private NettySide netty;
    private NettySide nettyOnePerRead;

    @Setup
    public void setup() throws Exception {
        weir = new WeirSide(burst);
        netty = new NettySide(burst, true);
        nettyOnePerRead = new NettySide(burst, false);
    }

    @TearDown
    public void tearDown() throws Exception {
        weir.close();
        netty.close();
        nettyOnePerRead.close();
    }

    @Benchmark
    public int weirDatagramEcho() throws Exception {
        return weir.run(ROUNDS);
    }

    @Benchmark
    @Fork(value = AbstractMicrobenchmark.FORKS, jvmArgsAppend = {
            AbstractMicrobenchmark.HEAP_MIN, AbstractMicrobenchmark.HEAP_MAX,
            AbstractMicrobenchmark.WEIR_NO_LEAK_DETECTION, AbstractMicrobenchmark.NETTY_NO_LEAK_DETECTION,
            EpollEventLoopExecuteBenchmark.NATIVE_ACCESS, AbstractMicrobenchmark.WEIR_EPOLL_IDLE_POLL_ON})
    public int weirDatagramEcho_idlePoll() throws Exception {
        return weir.run(ROUNDS);
    }

    @Benchmark
    public int nettyDatagramEcho() throws Exception {
        return netty.run(ROUNDS);
    }

    @Benchmark
    public int nettyDatagramEcho_onePerRead() throws Exception {
        return nettyOnePerRead.run(ROUNDS);
    }

    /** The Weir client and server. */
    static final class WeirSide {
        private final TransportLoops.Weir loops = TransportLoops.Weir.epoll();
        private final io.weir.channel.Channel server;
        private final io.weir.channel.Channel client;
        private final WeirClientHandler handler;

        WeirSide(int burst) throws Exception {
            server = new io.weir.bootstrap.Bootstrap()
                    .group(loops.server)
                    .channel(io.weir.channel.epoll.EpollDatagramChannel.class)
                    .handler(new WeirEchoHandler())
                    .bind(TransportLoops.loopbackAnyPort()).sync().channel();
            handler = new WeirClientHandler((InetSocketAddress) server.localAddress(), burst);
            client = new io.weir.bootstrap.Bootstrap()
                    .group(loops.client)
                    .channel(io.weir.channel.epoll.EpollDatagramChannel.class)
                    .handler(handler)
                    .bind(TransportLoops.loopbackAnyPort()).sync().channel();
        }

        int run(int rounds) throws Exception {
            CompletableFuture<Integer> done = new CompletableFuture<>();
            client.eventLoop().execute(() -> handler.start(client, rounds, done));
            return done.get(TransportLoops.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }

        void close() throws Exception {
            loops.close(client, server);
        }
    }

    @io.weir.channel.ChannelHandler.Sharable
    static final class WeirEchoHandler implements io.weir.channel.ChannelHandler {
        @Override
        public void channelRead(io.weir.channel.ChannelHandlerContext ctx, Object msg) {
            io.weir.channel.DatagramPacket packet = (io.weir.channel.DatagramPacket) msg;
            ctx.write(new io.weir.channel.DatagramPacket(packet.content(), packet.sender()), ctx.voidPromise());
        }

        @Override
        public void channelReadComplete(io.weir.channel.ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    static final class WeirClientHandler implements io.weir.channel.ChannelHandler {
        private final InetSocketAddress server;
        private final int burst;
        private final byte[] payload = new byte[PAYLOAD_BYTES];
        private int pending;
        private int roundsLeft;
        private int completed;
        private CompletableFuture<Integer> done;

        WeirClientHandler(InetSocketAddress server, int burst) {
            this.server = server;
            this.burst = burst;
        }

        void start(io.weir.channel.Channel ch, int rounds, CompletableFuture<Integer> done) {
            this.done = done;
            this.roundsLeft = rounds;
            this.completed = 0;
            send(ch);
        }

        private void send(io.weir.channel.Channel ch) {
            pending = burst;
            for (int i = 0; i < burst; i++) {
                io.weir.buffer.ByteBuf buf = ch.alloc().directBuffer(PAYLOAD_BYTES);
                buf.writeBytes(payload);
                ch.write(new io.weir.channel.DatagramPacket(buf, server), ch.voidPromise());
            }
            ch.flush();
        }

        @Override
        public void channelRead(io.weir.channel.ChannelHandlerContext ctx, Object msg) {
            ((io.weir.channel.DatagramPacket) msg).release();
            if (--pending == 0) {
                completed++;
                if (--roundsLeft == 0) {
                    done.complete(completed);
                } else {
                    send(ctx.channel());
                }
            }
        }
    }

    /** The Netty client and server. */
    static final class NettySide {
        private final TransportLoops.Netty loops = TransportLoops.Netty.epoll();
        private final io.netty.channel.Channel server;
        private final io.netty.channel.Channel client;
        private final NettyClientHandler handler;

        /** @param batched whether the receive allocator holds {@value #BATCH} datagrams, so reads use recvmmsg */
        NettySide(int burst, boolean batched) throws Exception {
            io.netty.channel.RecvByteBufAllocator receive = new io.netty.channel.FixedRecvByteBufAllocator(
                    batched ? RECEIVE_BUFFER_BYTES * BATCH : RECEIVE_BUFFER_BYTES);
            server = new io.netty.bootstrap.Bootstrap()
                    .group(loops.server)
                    .channel(io.netty.channel.epoll.EpollDatagramChannel.class)
                    .option(io.netty.channel.epoll.EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, RECEIVE_BUFFER_BYTES)
                    .option(io.netty.channel.ChannelOption.RCVBUF_ALLOCATOR, receive)
                    .handler(new NettyEchoHandler())
                    .bind(TransportLoops.loopbackAnyPort()).sync().channel();
            handler = new NettyClientHandler((InetSocketAddress) server.localAddress(), burst);
            client = new io.netty.bootstrap.Bootstrap()
                    .group(loops.client)
                    .channel(io.netty.channel.epoll.EpollDatagramChannel.class)
                    .option(io.netty.channel.epoll.EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, RECEIVE_BUFFER_BYTES)
                    .option(io.netty.channel.ChannelOption.RCVBUF_ALLOCATOR, receive)
                    .handler(handler)
                    .bind(TransportLoops.loopbackAnyPort()).sync().channel();
        }

        int run(int rounds) throws Exception {
            CompletableFuture<Integer> done = new CompletableFuture<>();
            client.eventLoop().execute(() -> handler.start(client, rounds, done));
            return done.get(TransportLoops.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }

        void close() throws Exception {
            loops.close(client, server);
        }
    }

    @io.netty.channel.ChannelHandler.Sharable
    static final class NettyEchoHandler extends io.netty.channel.ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(io.netty.channel.ChannelHandlerContext ctx, Object msg) {
            io.netty.channel.socket.DatagramPacket packet = (io.netty.channel.socket.DatagramPacket) msg;
            ctx.write(new io.netty.channel.socket.DatagramPacket(packet.content(), packet.sender()), ctx.voidPromise());
        }

        @Override
        public void channelReadComplete(io.netty.channel.ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    static final class NettyClientHandler extends io.netty.channel.ChannelInboundHandlerAdapter {
        private final InetSocketAddress server;
        private final int burst;
        private final byte[] payload = new byte[PAYLOAD_BYTES];
        private int pending;
        private int roundsLeft;
        private int completed;
        private CompletableFuture<Integer> done;

        NettyClientHandler(InetSocketAddress server, int burst) {
            this.server = server;
            this.burst = burst;
        }

        void start(io.netty.channel.Channel ch, int rounds, CompletableFuture<Integer> done) {
            this.done = done;
            this.roundsLeft = rounds;
            this.completed = 0;
            send(ch);
        }

        private void send(io.netty.channel.Channel ch) {
            pending = burst;
            for (int i = 0; i < burst; i++) {
                io.netty.buffer.ByteBuf buf = ch.alloc().directBuffer(PAYLOAD_BYTES);
                buf.writeBytes(payload);
                ch.write(new io.netty.channel.socket.DatagramPacket(buf, server), ch.voidPromise());
            }
            ch.flush();
        }

        @Override
        public void channelRead(io.netty.channel.ChannelHandlerContext ctx, Object msg) {
            ((io.netty.channel.socket.DatagramPacket) msg).release();
            if (--pending == 0) {
                completed++;
                if (--roundsLeft == 0) {
                    done.complete(completed);
                } else {
                    send(ctx.channel());
                }
            }
        }
    }
}
