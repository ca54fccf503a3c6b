package io.weir.microbench.common;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One producer thread submits a burst of {@code burst} tiny tasks to a single-thread executor and waits
 * until the executor has run them all: Weir's DefaultEventExecutor, Netty's DefaultEventExecutor and a
 * one-thread {@link ThreadPoolExecutor}. The score is bursts per second.
 *
 * <p>This is the path of a stand-alone executor (the one a handler is offloaded to, say), not of a channel:
 * Netty's {@code DefaultEventExecutor} queues on a {@code LinkedBlockingQueue}, while a write to a channel from
 * outside its loop goes to the event loop's multi-producer single-consumer queue in both frameworks. That path,
 * and the one to quote, is measured by {@code EventLoopExecuteBenchmark} (NIO) and
 * {@code EpollEventLoopExecuteBenchmark}.
 *
 * <p>The tasks are one preallocated non-capturing Runnable; completion is a volatile sequence number the
 * last task publishes, on which the producer spins, so the measurement is the executors' hand-off and not
 * a latch or an allocation of the benchmark's own.
 */
public class ExecutorBurstBenchmark extends AbstractMicrobenchmark {

    @Param({"1000"})
    public int burst;

    private io.weir.util.concurrent.DefaultEventExecutor weir;
    private io.netty.util.concurrent.DefaultEventExecutor netty;
    private ExecutorService jdk;

    private final Counter counter = new Counter();

    static final class Counter implements Runnable {
        long ran;          // written only by the executor thread
        volatile long seen; // published by the executor thread, read by the producer

        @Override
        public void run() {
            seen = ++ran;
        }
    }

    @Setup
    public void setup() {
        weir = new io.weir.util.concurrent.DefaultEventExecutor();
        netty = new io.netty.util.concurrent.DefaultEventExecutor();
        jdk = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>());
    }

    @TearDown
    public void tearDown() throws Exception {
        weir.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
        netty.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
        jdk.shutdownNow();
    }

    private long runBurst(java.util.concurrent.Executor executor) {
        Counter c = counter;
        long target = c.ran + burst; // safe: the executor is idle between bursts, so ran is quiescent
        for (int i = 0; i < burst; i++) {
            executor.execute(c);
        }
        while (c.seen != target) {
            Thread.onSpinWait();
        }
        return target;
    }

    @Benchmark
    public long weirBurst() {
        return runBurst(weir);
    }

    @Benchmark
    public long nettyBurst() {
        return runBurst(netty);
    }

    @Benchmark
    public long jdkBurst() {
        return runBurst(jdk);
    }
}
