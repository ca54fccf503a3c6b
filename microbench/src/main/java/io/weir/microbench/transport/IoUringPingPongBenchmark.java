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
 * {@link NioPingPongBenchmark} over io_uring: Weir's {@code IoUringIoHandler} with its io_uring TCP channels against
 * Netty 4.2's ({@code io.netty.channel.uring}), both with their defaults. Same handlers (those of
 * {@link NioPingPongBenchmark}), same shape: one server loop, one client loop, {@value #ROUNDS} round trips of
 * {@code size} bytes per invocation; the score is round trips per microsecond. Each round trip is a send and a
 * receive completion on each side, so the rows show what each transport's submit-and-wait turn costs when every
 * turn carries one operation. Linux 5.11+ with {@code kernel.io_uring_disabled = 0}; the fork enables native access
 * (JDK 24+ refuses both libraries without it). Each method's fork sets up only the side it measures.
 *
 * <p>{@link EpollPingPongBenchmark} gives the same rows on epoll; run both in one {@code microbench/alternate} call
 * to compare the transports within a framework.
 */
@Fork(value = AbstractMicrobenchmark.FORKS, jvmArgsAppend = {
        AbstractMicrobenchmark.HEAP_MIN, AbstractMicrobenchmark.HEAP_MAX,
        AbstractMicrobenchmark.WEIR_NO_LEAK_DETECTION, AbstractMicrobenchmark.NETTY_NO_LEAK_DETECTION,
        EpollEventLoopExecuteBenchmark.NATIVE_ACCESS})
@OperationsPerInvocation(IoUringPingPongBenchmark.ROUNDS)
public class IoUringPingPongBenchmark extends AbstractMicrobenchmark {
    static final int ROUNDS = 100;

    @Param({"64", "4096"})
    public int size;

    private ForkSide side;

    @Setup
    public void setup(BenchmarkParams params) throws Exception {
        side = ForkSide.open(params, () -> IoUringEchoBenchmark.weirSide(size),
                () -> IoUringEchoBenchmark.nettySide(size));
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
}
