package io.weir.microbench.transport;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Accept rate of an epoll server: one operation is a new loopback connection, from the client bootstrap's connect
 * through the server's accept (the accepted channel is created, registered and becomes active, and says so by
 * writing one byte) to the client reading that byte and closing. The client closes with {@code SO_LINGER} 0, so
 * the connection ends with a RST and leaves no TIME_WAIT entry behind (thousands of connections per second would
 * otherwise run out of ephemeral ports); the accepted channel reads the reset and closes on the server loop. One
 * server loop, one client loop. Weir's epoll channels against Netty 4.2's; Linux only, the fork enables native
 * access.
 *
 * <p>As in {@link EpollPingPongBenchmark}, {@code weirConnectAcceptClose_idlePoll} runs Weir with its opt-in idle
 * poll against Netty's default, {@code nettyConnectAcceptClose_busyWait} runs Netty with its busy-wait select
 * strategy against Weir's default, and {@code weirConnectAcceptClose_pollSpinOff} runs Weir with its task-queue
 * watch off too against Netty's default; each fork sets up only the side it measures.
 * Busy waiting takes a core per loop: on a machine with fewer cores than busy loops plus the benchmark's own
 * threads (two cores here), the spinning loops starve the thread they wait for and the busy-wait rows measure
 * the scheduler's time slice, not Netty; read them from a machine with spare cores.
 */
@Fork(value = AbstractMicrobenchmark.FORKS, jvmArgsAppend = {
        AbstractMicrobenchmark.HEAP_MIN, AbstractMicrobenchmark.HEAP_MAX,
        AbstractMicrobenchmark.WEIR_NO_LEAK_DETECTION, AbstractMicrobenchmark.NETTY_NO_LEAK_DETECTION,
        EpollEventLoopExecuteBenchmark.NATIVE_ACCESS})
// Per millisecond: per microsecond the scores would show one significant digit.
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class EpollAcceptBenchmark extends AbstractMicrobenchmark {
    private TransportLoops.Weir weirLoops;
    private io.weir.channel.Channel weirServer;
    private io.weir.bootstrap.Bootstrap weirClient;
    private TransportLoops.Netty nettyLoops;
    private io.netty.channel.Channel nettyServer;
    private io.netty.bootstrap.Bootstrap nettyClient;

    @Setup
    public void setup(BenchmarkParams params) throws Exception {
        String method = TransportLoops.methodName(params);
        if (method.startsWith("weir")) {
            weirLoops = TransportLoops.Weir.epoll();
            weirServer = new io.weir.bootstrap.ServerBootstrap()
                    .group(weirLoops.server)
                    .channel(io.weir.channel.epoll.EpollServerSocketChannel.class)
                    .childHandler(new WeirGreet())
                    .bind(TransportLoops.loopbackAnyPort()).sync().channel();
            weirClient = new io.weir.bootstrap.Bootstrap()
                    .group(weirLoops.client)
                    .channel(io.weir.channel.epoll.EpollSocketChannel.class)
                    .option(io.weir.channel.ChannelOption.SO_LINGER, 0)
                    .handler(new WeirCloseOnRead())
                    .remoteAddress(weirServer.localAddress());
        } else {
            nettyLoops = method.endsWith("_busyWait")
                    ? TransportLoops.Netty.epollBusyWait() : TransportLoops.Netty.epoll();
            nettyServer = new io.netty.bootstrap.ServerBootstrap()
                    .group(nettyLoops.server)
                    .channel(io.netty.channel.epoll.EpollServerSocketChannel.class)
                    .childHandler(new NettyGreet())
                    .bind(TransportLoops.loopbackAnyPort()).sync().channel();
            nettyClient = new io.netty.bootstrap.Bootstrap()
                    .group(nettyLoops.client)
                    .channel(io.netty.channel.epoll.EpollSocketChannel.class)
                    .option(io.netty.channel.ChannelOption.SO_LINGER, 0)
                    .handler(new NettyCloseOnRead())
                    .remoteAddress(nettyServer.localAddress());
        }
    }

    @TearDown
    public void tearDown() throws Exception {
        if (weirLoops != null) {
            weirLoops.close(weirServer);
        }
        if (nettyLoops != null) {
            nettyLoops.close(nettyServer);
        }
    }

    @Benchmark
    public boolean weirConnectAcceptClose() throws Exception {
        io.weir.channel.Channel ch = weirClient.connect().sync().channel();
        return ch.closeFuture().await(TransportLoops.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Benchmark
    public boolean nettyConnectAcceptClose() throws Exception {
        io.netty.channel.Channel ch = nettyClient.connect().sync().channel();
        return ch.closeFuture().await(TransportLoops.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Benchmark
    @Fork(value = AbstractMicrobenchmark.FORKS, jvmArgsAppend = {
            AbstractMicrobenchmark.HEAP_MIN, AbstractMicrobenchmark.HEAP_MAX,
            AbstractMicrobenchmark.WEIR_NO_LEAK_DETECTION, AbstractMicrobenchmark.NETTY_NO_LEAK_DETECTION,
            EpollEventLoopExecuteBenchmark.NATIVE_ACCESS,
            AbstractMicrobenchmark.WEIR_EPOLL_IDLE_POLL_OFF, AbstractMicrobenchmark.WEIR_IDLE_SPIN_OFF})
    public boolean weirConnectAcceptClose_pollSpinOff() throws Exception {
        return weirConnectAcceptClose();
    }

    @Benchmark
    @Fork(value = AbstractMicrobenchmark.FORKS, jvmArgsAppend = {
            AbstractMicrobenchmark.HEAP_MIN, AbstractMicrobenchmark.HEAP_MAX,
            AbstractMicrobenchmark.WEIR_NO_LEAK_DETECTION, AbstractMicrobenchmark.NETTY_NO_LEAK_DETECTION,
            EpollEventLoopExecuteBenchmark.NATIVE_ACCESS, AbstractMicrobenchmark.WEIR_EPOLL_IDLE_POLL_ON})
    public boolean weirConnectAcceptClose_idlePoll() throws Exception {
        return weirConnectAcceptClose();
    }

    @Benchmark
    public boolean nettyConnectAcceptClose_busyWait() throws Exception {
        return nettyConnectAcceptClose();
    }

    /** Server side: proves the accept with one byte; closes quietly on the client's reset. */
    @io.weir.channel.ChannelHandler.Sharable
    static final class WeirGreet implements io.weir.channel.ChannelHandler {
        @Override
        public void channelActive(io.weir.channel.ChannelHandlerContext ctx) {
            ctx.writeAndFlush(io.weir.buffer.Unpooled.wrappedBuffer(new byte[] {1}), ctx.voidPromise());
        }

        @Override
        public void exceptionCaught(io.weir.channel.ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /** Client side: the byte proves the server accepted; close (with a reset, SO_LINGER 0). */
    @io.weir.channel.ChannelHandler.Sharable
    static final class WeirCloseOnRead implements io.weir.channel.ChannelHandler {
        @Override
        public void channelRead(io.weir.channel.ChannelHandlerContext ctx, Object msg) {
            ((io.weir.buffer.ByteBuf) msg).release();
            ctx.close();
        }
    }

    @io.netty.channel.ChannelHandler.Sharable
    static final class NettyGreet extends io.netty.channel.ChannelInboundHandlerAdapter {
        @Override
        public void channelActive(io.netty.channel.ChannelHandlerContext ctx) {
            ctx.writeAndFlush(io.netty.buffer.Unpooled.wrappedBuffer(new byte[] {1}), ctx.voidPromise());
        }

        @Override
        public void exceptionCaught(io.netty.channel.ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    @io.netty.channel.ChannelHandler.Sharable
    static final class NettyCloseOnRead extends io.netty.channel.ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(io.netty.channel.ChannelHandlerContext ctx, Object msg) {
            ((io.netty.buffer.ByteBuf) msg).release();
            ctx.close();
        }
    }
}
