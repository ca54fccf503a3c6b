package io.weir.microbench.common;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * On the executor's own thread (as an event loop's timeouts are), schedule {@code num} tasks an hour
 * ahead, then cancel them all, in scheduling order or in reverse. A heap that removes cancelled tasks
 * eagerly in O(log n) costs about the same both ways; one that scans or leaves tombstones does not.
 * Weir's DefaultEventExecutor against Netty's. Time per whole round.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ScheduleCancelBenchmark extends AbstractMicrobenchmark {

    @Param({"100", "1000", "10000", "100000"})
    public int num;

    private io.weir.util.concurrent.DefaultEventExecutor weir;
    private io.netty.util.concurrent.DefaultEventExecutor netty;
    private java.util.concurrent.ScheduledFuture<?>[] futures;
    private final Runnable noop = () -> { };

    @Setup
    public void setup() {
        weir = new io.weir.util.concurrent.DefaultEventExecutor();
        netty = new io.netty.util.concurrent.DefaultEventExecutor();
        futures = new java.util.concurrent.ScheduledFuture<?>[num];
    }

    @TearDown
    public void tearDown() throws Exception {
        weir.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
        netty.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
    }

    private int weirRound(boolean reverse) {
        java.util.concurrent.ScheduledFuture<?>[] f = futures;
        for (int i = 0; i < f.length; i++) {
            f[i] = weir.schedule(noop, 1, TimeUnit.HOURS);
        }
        return cancel(f, reverse);
    }

    private int nettyRound(boolean reverse) {
        java.util.concurrent.ScheduledFuture<?>[] f = futures;
        for (int i = 0; i < f.length; i++) {
            f[i] = netty.schedule(noop, 1, TimeUnit.HOURS);
        }
        return cancel(f, reverse);
    }

    private static int cancel(java.util.concurrent.ScheduledFuture<?>[] f, boolean reverse) {
        int cancelled = 0;
        if (reverse) {
            for (int i = f.length - 1; i >= 0; i--) {
                cancelled += f[i].cancel(false) ? 1 : 0;
                f[i] = null;
            }
        } else {
            for (int i = 0; i < f.length; i++) {
                cancelled += f[i].cancel(false) ? 1 : 0;
                f[i] = null;
            }
        }
        return cancelled;
    }

    @Benchmark
    public Integer weirInOrder() throws Exception {
        return weir.submit(() -> weirRound(false)).get();
    }

    @Benchmark
    public Integer weirReverse() throws Exception {
        return weir.submit(() -> weirRound(true)).get();
    }

    @Benchmark
    public Integer nettyInOrder() throws Exception {
        return netty.submit(() -> nettyRound(false)).get();
    }

    @Benchmark
    public Integer nettyReverse() throws Exception {
        return netty.submit(() -> nettyRound(true)).get();
    }
}
