package io.weir.microbench.transport;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Producers hand a burst of {@code burst} tiny tasks to an NIO event loop and wait until the loop has run
 * them all: Weir's {@code MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory())} against Netty 4.2's
 * identically built group. Unlike a plain executor, the loop blocks in a selector when idle, so the burst's
 * first task pays the selector wake-up and every loop iteration a non-blocking select; this is the path of
 * every write to a channel from outside its loop. Scores are bursts per microsecond per producer thread.
 *
 * <p>Single producer: one JMH thread. Multi producer: two JMH threads feed the same loop (on a 2-core machine
 * the loop and its producers then share the cores, which is the contended case worth seeing). Each producer
 * has its own preallocated non-capturing task whose last run publishes a volatile sequence number, on which
 * the producer spins, so neither a latch nor an allocation of the benchmark's own is measured.
 */
public class EventLoopExecuteBenchmark extends AbstractMicrobenchmark {

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
    public void setup() throws Exception {
        weirGroup = new io.weir.channel.MultiThreadIoEventLoopGroup(1, io.weir.channel.nio.NioIoHandler.newFactory());
        nettyGroup = new io.netty.channel.MultiThreadIoEventLoopGroup(1,
                io.netty.channel.nio.NioIoHandler.newFactory());
        weirLoop = weirGroup.next();
        nettyLoop = nettyGroup.next();
        // Start both loop threads outside the measurement.
        weirGroup.submit(() -> { }).get(10, TimeUnit.SECONDS);
        nettyGroup.submit(() -> { }).get(10, TimeUnit.SECONDS);
    }

    @TearDown
    public void tearDown() throws Exception {
        weirGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
        nettyGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
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
}
