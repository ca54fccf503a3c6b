package io.weir.microbench.transport;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Producers hand a burst of {@code burst} tiny tasks to an epoll event loop and wait until the loop has run
 * them all: Weir's {@code MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory())} against Netty 4.2's
 * identically built epoll group. An idle loop blocks in {@code epoll_wait}, so each burst's first task pays
 * the eventfd wake-up, and every loop iteration a non-blocking {@code epoll_wait}: the path of every write to
 * a channel from outside its loop. Scores are bursts per microsecond per producer thread. Linux only.
 *
 * <p>Single producer: one JMH thread. Multi producer: two JMH threads feed the same loop (on a 2-core machine
 * they then share the cores with the loop: the contended case). Each producer has its own preallocated
 * non-capturing task whose last run publishes a volatile sequence number, on which the producer spins, as in
 * {@link EventLoopExecuteBenchmark}.
 *
 * <p>Weir's idle loop watches its queue and polls for a while before it blocks; Netty's blocks at once. So
 * {@code netty*Producer_busyWait} runs Netty with its opt-in busy-wait select strategy (its loop never sleeps)
 * against Weir's default, and {@code weir*Producer_pollSpinOff} runs Weir with its idle poll and spin off
 * against Netty's default. Each fork starts only the loop it measures.
 * Busy waiting takes a core per loop: on a machine with fewer cores than busy loops plus the benchmark's own
 * threads (two cores here), the spinning loops starve the thread they wait for and the busy-wait rows measure
 * the scheduler's time slice, not Netty; read them from a machine with spare cores.
 *
 * <p>The fork enables native access: on JDK 24+ Weir refuses to load its JNI library without it (and the JDK
 * would warn about Netty's).
 */
@Fork(value = AbstractMicrobenchmark.FORKS, jvmArgsAppend = {
        AbstractMicrobenchmark.HEAP_MIN, AbstractMicrobenchmark.HEAP_MAX,
        AbstractMicrobenchmark.WEIR_NO_LEAK_DETECTION, AbstractMicrobenchmark.NETTY_NO_LEAK_DETECTION,
        EpollEventLoopExecuteBenchmark.NATIVE_ACCESS})
public class EpollEventLoopExecuteBenchmark extends AbstractMicrobenchmark {
    static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    @Param({"1000"})
    public int burst;

    private io.weir.channel.MultiThreadIoEventLoopGroup weirGroup;
    private io.netty.channel.MultiThreadIoEventLoopGroup nettyGroup;
    private Executor weirLoop;
    private Executor nettyLoop;

    /** One producer's task; only the loop thread runs it, so {@code ran} has a single writer. */
    static final class Counter implements Runnable {
        long ran;
        volatile long seen;

        @Override
        public void run() {
            seen = ++ran;
        }
    }

    /** Per-producer state: each JMH thread waits for its own tasks only. */
    @State(Scope.Thread)
    public static class Producer {
        final Counter counter = new Counter();
    }

    @Setup
    public void setup(BenchmarkParams params) throws Exception {
        String method = TransportLoops.methodName(params);
        if (method.startsWith("weir")) {
            io.weir.channel.epoll.Epoll.ensureAvailability();
            weirGroup = new io.weir.channel.MultiThreadIoEventLoopGroup(1,
                    io.weir.channel.epoll.EpollIoHandler.newFactory());
            weirLoop = weirGroup.next();
            // Start the loop thread outside the measurement.
            weirGroup.submit(() -> { }).get(10, TimeUnit.SECONDS);
        } else {
            io.netty.channel.epoll.Epoll.ensureAvailability();
            nettyGroup = new io.netty.channel.MultiThreadIoEventLoopGroup(1, method.endsWith("_busyWait")
                    ? io.netty.channel.epoll.EpollIoHandler.newFactory(0, TransportLoops.BusyWait.FACTORY)
                    : io.netty.channel.epoll.EpollIoHandler.newFactory());
            nettyLoop = nettyGroup.next();
            nettyGroup.submit(() -> { }).get(10, TimeUnit.SECONDS);
        }
    }

    @TearDown
    public void tearDown() throws Exception {
        if (weirGroup != null) {
            weirGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
        }
        if (nettyGroup != null) {
            nettyGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
        }
    }

    private long runBurst(Executor loop, Counter c) {
        long target = c.ran + burst; // safe: none of this producer's tasks is pending between bursts
        for (int i = 0; i < burst; i++) {
            loop.execute(c);
        }
        while (c.seen != target) {
            Thread.onSpinWait();
        }
        return target;
    }

    @Benchmark
    @Threads(1)
    public long weirSingleProducer(Producer producer) {
        return runBurst(weirLoop, producer.counter);
    }

    @Benchmark
    @Threads(1)
    public long nettySingleProducer(Producer producer) {
        return runBurst(nettyLoop, producer.counter);
    }

    @Benchmark
    @Threads(2)
    public long weirMultiProducer(Producer producer) {
        return runBurst(weirLoop, producer.counter);
    }

    @Benchmark
    @Threads(2)
    public long nettyMultiProducer(Producer producer) {
        return runBurst(nettyLoop, producer.counter);
    }

    @Benchmark
    @Threads(1)
    @Fork(value = AbstractMicrobenchmark.FORKS, jvmArgsAppend = {
            AbstractMicrobenchmark.HEAP_MIN, AbstractMicrobenchmark.HEAP_MAX,
            AbstractMicrobenchmark.WEIR_NO_LEAK_DETECTION, AbstractMicrobenchmark.NETTY_NO_LEAK_DETECTION,
            EpollEventLoopExecuteBenchmark.NATIVE_ACCESS,
            AbstractMicrobenchmark.WEIR_EPOLL_IDLE_POLL_OFF, AbstractMicrobenchmark.WEIR_IDLE_SPIN_OFF})
    public long weirSingleProducer_pollSpinOff(Producer producer) {
        return runBurst(weirLoop, producer.counter);
    }

    @Benchmark
    @Threads(1)
    public long nettySingleProducer_busyWait(Producer producer) {
        return runBurst(nettyLoop, producer.counter);
    }

    @Benchmark
    @Threads(2)
    @Fork(value = AbstractMicrobenchmark.FORKS, jvmArgsAppend = {
            AbstractMicrobenchmark.HEAP_MIN, AbstractMicrobenchmark.HEAP_MAX,
            AbstractMicrobenchmark.WEIR_NO_LEAK_DETECTION, AbstractMicrobenchmark.NETTY_NO_LEAK_DETECTION,
            EpollEventLoopExecuteBenchmark.NATIVE_ACCESS,
            AbstractMicrobenchmark.WEIR_EPOLL_IDLE_POLL_OFF, AbstractMicrobenchmark.WEIR_IDLE_SPIN_OFF})
    public long weirMultiProducer_pollSpinOff(Producer producer) {
        return runBurst(weirLoop, producer.counter);
    }

    @Benchmark
    @Threads(2)
    public long nettyMultiProducer_busyWait(Producer producer) {
        return runBurst(nettyLoop, producer.counter);
    }
}
