package io.weir.microbench.transport;

import io.weir.microbench.util.AbstractMicrobenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@link NioPingPongBenchmark} over the native epoll transports: Weir's {@code EpollIoHandler} with its epoll TCP
 * channels against Netty 4.2's. Same handlers (those of {@link NioPingPongBenchmark}), same shape: one server loop,
 * one client loop, {@value #ROUNDS} round trips of {@code size} bytes per invocation; the score is round trips per
 * microsecond. Linux only; the fork enables native access (JDK 24+ refuses Weir's library without it).
 */
@Fork(value = AbstractMicrobenchmark.FORKS, jvmArgsAppend = {
        AbstractMicrobenchmark.HEAP_MIN, AbstractMicrobenchmark.HEAP_MAX,
        AbstractMicrobenchmark.WEIR_NO_LEAK_DETECTION, AbstractMicrobenchmark.NETTY_NO_LEAK_DETECTION,
        EpollEventLoopExecuteBenchmark.NATIVE_ACCESS})
@OperationsPerInvocation(EpollPingPongBenchmark.ROUNDS)
public class EpollPingPongBenchmark extends AbstractMicrobenchmark {
    static final int ROUNDS = 100;

    @Param({"64", "4096"})
    public int size;

    private NioPingPongBenchmark.WeirSide weir;
    private NioPingPongBenchmark.NettySide netty;

    @Setup
    public void setup() throws Exception {
        weir = new NioPingPongBenchmark.WeirSide(size, TransportLoops.Weir.epoll(),
                io.weir.channel.epoll.EpollServerSocketChannel.class, io.weir.channel.epoll.EpollSocketChannel.class);
        netty = new NioPingPongBenchmark.NettySide(size, TransportLoops.Netty.epoll(),
                io.netty.channel.epoll.EpollServerSocketChannel.class, io.netty.channel.epoll.EpollSocketChannel.class);
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
}
