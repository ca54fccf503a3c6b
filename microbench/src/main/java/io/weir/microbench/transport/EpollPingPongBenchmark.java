package io.weir.microbench.transport;

import io.weir.microbench.util.AbstractMicrobenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * {@link NioPingPongBenchmark} over the native epoll transports: Weir's {@code EpollIoHandler} with its epoll TCP
 * channels against Netty 4.2's. Same handlers (those of {@link NioPingPongBenchmark}), same shape: one server loop,
 * one client loop, {@value #ROUNDS} round trips of {@code size} bytes per invocation; the score is round trips per
 * microsecond. Linux only; the fork enables native access (JDK 24+ refuses Weir's library without it).
 *
 * <p>By default both sides' loops block at once when idle (Weir's idle poll is opt-in) and Weir's loop watches
 * its task queue for a microsecond after a sleep that a task ended. More rows show what polling buys and what it
 * costs: {@code weirPingPong_idlePoll} is Weir with its opt-in idle poll
 * ({@code io.weir.epoll.maxIdlePollNanos=50000}) against Netty's default; {@code nettyPingPong_busyWait} is
 * Netty with its opt-in busy-wait select strategy (its loops never sleep) against Weir's default; {@code
 * weirPingPong_pollSpinOff} is Weir with its task-queue watch off too (its loops block at once, exactly as
 * Netty's). Each method's fork sets up only the side it measures, so a busy-waiting loop never runs beside
 * another row.
 * Busy waiting takes a core per loop: on a machine with fewer cores than busy loops plus the benchmark's own
 * threads (two cores here), the spinning loops starve the thread they wait for and the busy-wait rows measure
 * the scheduler's time slice, not Netty; read them from a machine with spare cores.
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

    private ForkSide side;

    @Setup
    public void setup(BenchmarkParams params) throws Exception {
        boolean busyWait = TransportLoops.methodName(params).endsWith("_busyWait");
        side = ForkSide.open(params,
                () -> new NioPingPongBenchmark.WeirSide(size, TransportLoops.Weir.epoll(),
                        io.weir.channel.epoll.EpollServerSocketChannel.class,
                        io.weir.channel.epoll.EpollSocketChannel.class),
                () -> new NioPingPongBenchmark.NettySide(size,
                        busyWait ? TransportLoops.Netty.epollBusyWait() : TransportLoops.Netty.epoll(),
                        io.netty.channel.epoll.EpollServerSocketChannel.class,
                        io.netty.channel.epoll.EpollSocketChannel.class));
    }

    @TearDown
    public void tearDown() throws Exception {
        side.close();
    }

    @Benchmark
    public int weirPingPong() throws Exception {
        return side.weir().run(ROUNDS);
    }

    @Benchmark
    public int nettyPingPong() throws Exception {
        return side.netty().run(ROUNDS);
    }

    @Benchmark
    @Fork(value = AbstractMicrobenchmark.FORKS, jvmArgsAppend = {
            AbstractMicrobenchmark.HEAP_MIN, AbstractMicrobenchmark.HEAP_MAX,
            AbstractMicrobenchmark.WEIR_NO_LEAK_DETECTION, AbstractMicrobenchmark.NETTY_NO_LEAK_DETECTION,
            EpollEventLoopExecuteBenchmark.NATIVE_ACCESS,
            AbstractMicrobenchmark.WEIR_EPOLL_IDLE_POLL_OFF, AbstractMicrobenchmark.WEIR_IDLE_SPIN_OFF})
    public int weirPingPong_pollSpinOff() throws Exception {
        return side.weir().run(ROUNDS);
    }

    @Benchmark
    @Fork(value = AbstractMicrobenchmark.FORKS, jvmArgsAppend = {
            AbstractMicrobenchmark.HEAP_MIN, AbstractMicrobenchmark.HEAP_MAX,
            AbstractMicrobenchmark.WEIR_NO_LEAK_DETECTION, AbstractMicrobenchmark.NETTY_NO_LEAK_DETECTION,
            EpollEventLoopExecuteBenchmark.NATIVE_ACCESS, AbstractMicrobenchmark.WEIR_EPOLL_IDLE_POLL_ON})
    public int weirPingPong_idlePoll() throws Exception {
        return side.weir().run(ROUNDS);
    }

    @Benchmark
    public int nettyPingPong_busyWait() throws Exception {
        return side.netty().run(ROUNDS);
    }
}
