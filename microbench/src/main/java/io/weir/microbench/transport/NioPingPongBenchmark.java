package io.weir.microbench.transport;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Round trips over loopback TCP with the NIO transport: a client writes {@code size} bytes, the server echoes
 * them, the client counts them back and sends the next message once the whole echo has arrived. One server loop
 * and one client loop, each a single thread; the benchmark thread only starts a batch of {@value #ROUNDS}
 * round trips and waits for the client loop to report the last one, so the score is round trips per
 * microsecond of the two loops (the hand-off to the benchmark thread is paid once per batch). Weir and Netty
 * 4.2 run the same handlers, written once for each API; both copy nothing beyond what their transports do.
 *
 * <p>By default both sides' loops block at once when idle; {@code weirPingPong_idlePoll} runs Weir with its opt-in
 * idle poll ({@code io.weir.nio.maxIdlePollNanos=50000}) against Netty's default, to show what polling buys.
 */
@OperationsPerInvocation(NioPingPongBenchmark.ROUNDS)
public class NioPingPongBenchmark extends AbstractMicrobenchmark {
    static final int ROUNDS = 100;

    @Param({"64", "4096"})
    public int size;

    private WeirSide weir;
    private NettySide netty;

    @Setup
    public void setup() throws Exception {
        weir = new WeirSide(size, TransportLoops.Weir.nio(), io.weir.channel.nio.NioServerSocketChannel.class,
                io.weir.channel.nio.NioSocketChannel.class);
        netty = new NettySide(size, TransportLoops.Netty.nio(),
                io.netty.channel.socket.nio.NioServerSocketChannel.class,
                io.netty.channel.socket.nio.NioSocketChannel.class);
    }

    @TearDown
    public void tearDown() throws Exception {
        weir.close();
        netty.close();
    }

    @Benchmark
    public int weirPingPong() throws Exception {
        return weir.run(ROUNDS);
    }

    @Benchmark
    public int nettyPingPong() throws Exception {
        return netty.run(ROUNDS);
    }

    @Benchmark
    @Fork(value = AbstractMicrobenchmark.FORKS, jvmArgsAppend = {
            AbstractMicrobenchmark.HEAP_MIN, AbstractMicrobenchmark.HEAP_MAX,
            AbstractMicrobenchmark.WEIR_NO_LEAK_DETECTION, AbstractMicrobenchmark.NETTY_NO_LEAK_DETECTION,
            AbstractMicrobenchmark.WEIR_NIO_IDLE_POLL_ON})
    public int weirPingPong_idlePoll() throws Exception {
        return weir.run(ROUNDS);
    }

    /** The Weir client and server, on the transport of {@code loops} and the two channel classes. */
    static final class WeirSide {
        private final TransportLoops.Weir loops;
        private final io.weir.channel.Channel server;
        private final io.weir.channel.Channel client;
        private final WeirClientHandler handler;

        WeirSide(int size, TransportLoops.Weir loops, Class<? extends io.weir.channel.ServerChannel> serverChannel,
                 Class<? extends io.weir.channel.Channel> clientChannel) throws Exception {
            this.loops = loops;
            server = new io.weir.bootstrap.ServerBootstrap()
                    .group(loops.server)
                    .channel(serverChannel)
                    .childOption(io.weir.channel.ChannelOption.TCP_NODELAY, true)
                    .childHandler(new WeirEchoHandler())
                    .bind(TransportLoops.loopbackAnyPort()).sync().channel();
            handler = new WeirClientHandler(size);
            client = new io.weir.bootstrap.Bootstrap()
                    .group(loops.client)
                    .channel(clientChannel)
                    .option(io.weir.channel.ChannelOption.TCP_NODELAY, true)
                    .handler(handler)
                    .connect(server.localAddress()).sync().channel();
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

    /** Echoes what it reads, flushing once per read loop; shared by the TLS echo benchmark. */
    @io.weir.channel.ChannelHandler.Sharable
    public static final class WeirEchoHandler implements io.weir.channel.ChannelHandler {
        @Override
        public void channelRead(io.weir.channel.ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg);
        }

        @Override
        public void channelReadComplete(io.weir.channel.ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    /** Sends one message, waits for its whole echo, repeats; shared by the TLS echo benchmark. */
    public static final class WeirClientHandler implements io.weir.channel.ChannelHandler {
        private final byte[] payload;
        private int pending;
        private int roundsLeft;
        private int completed;
        private CompletableFuture<Integer> done;

        public WeirClientHandler(int size) {
            payload = new byte[size];
        }

        public void start(io.weir.channel.Channel ch, int rounds, CompletableFuture<Integer> done) {
            this.done = done;
            this.roundsLeft = rounds;
            this.completed = 0;
            send(ch);
        }

        private void send(io.weir.channel.Channel ch) {
            pending = payload.length;
            io.weir.buffer.ByteBuf buf = ch.alloc().directBuffer(payload.length);
            buf.writeBytes(payload);
            ch.writeAndFlush(buf, ch.voidPromise());
        }

        @Override
        public void channelRead(io.weir.channel.ChannelHandlerContext ctx, Object msg) {
            io.weir.buffer.ByteBuf buf = (io.weir.buffer.ByteBuf) msg;
            pending -= buf.readableBytes();
            buf.release();
            if (pending == 0) {
                completed++;
                if (--roundsLeft == 0) {
                    done.complete(completed);
                } else {
                    send(ctx.channel());
                }
            }
        }
    }

    /** The Netty client and server, on the transport of {@code loops} and the two channel classes. */
    static final class NettySide {
        private final TransportLoops.Netty loops;
        private final io.netty.channel.Channel server;
        private final io.netty.channel.Channel client;
        private final NettyClientHandler handler;

        NettySide(int size, TransportLoops.Netty loops,
                  Class<? extends io.netty.channel.ServerChannel> serverChannel,
                  Class<? extends io.netty.channel.Channel> clientChannel) throws Exception {
            this.loops = loops;
            server = new io.netty.bootstrap.ServerBootstrap()
                    .group(loops.server)
                    .channel(serverChannel)
                    .childOption(io.netty.channel.ChannelOption.TCP_NODELAY, true)
                    .childHandler(new NettyEchoHandler())
                    .bind(TransportLoops.loopbackAnyPort()).sync().channel();
            handler = new NettyClientHandler(size);
            client = new io.netty.bootstrap.Bootstrap()
                    .group(loops.client)
                    .channel(clientChannel)
                    .option(io.netty.channel.ChannelOption.TCP_NODELAY, true)
                    .handler(handler)
                    .connect(server.localAddress()).sync().channel();
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

    /** Netty's {@link WeirEchoHandler}. */
    @io.netty.channel.ChannelHandler.Sharable
    public static final class NettyEchoHandler extends io.netty.channel.ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(io.netty.channel.ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg);
        }

        @Override
        public void channelReadComplete(io.netty.channel.ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    /** Netty's {@link WeirClientHandler}. */
    public static final class NettyClientHandler extends io.netty.channel.ChannelInboundHandlerAdapter {
        private final byte[] payload;
        private int pending;
        private int roundsLeft;
        private int completed;
        private CompletableFuture<Integer> done;

        public NettyClientHandler(int size) {
            payload = new byte[size];
        }

        public void start(io.netty.channel.Channel ch, int rounds, CompletableFuture<Integer> done) {
            this.done = done;
            this.roundsLeft = rounds;
            this.completed = 0;
            send(ch);
        }

        private void send(io.netty.channel.Channel ch) {
            pending = payload.length;
            io.netty.buffer.ByteBuf buf = ch.alloc().directBuffer(payload.length);
            buf.writeBytes(payload);
            ch.writeAndFlush(buf, ch.voidPromise());
        }

        @Override
        public void channelRead(io.netty.channel.ChannelHandlerContext ctx, Object msg) {
            io.netty.buffer.ByteBuf buf = (io.netty.buffer.ByteBuf) msg;
            pending -= buf.readableBytes();
            buf.release();
            if (pending == 0) {
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
