package io.weir.microbench.util;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The one place that fixes forks, warm-up, measurement and JVM flags for every Weir benchmark.
 *
 * <p>Each benchmark class measures Weir beside Netty 4.2 (and the JDK where it has an equivalent) in the
 * same class. Methods are named {@code weir<Case>}, {@code netty<Case>} and {@code jdk<Case>}, so
 * {@code microbench/ratios.py} can pair them and print Weir/Netty and Weir/JDK ratios from one JSON result.
 * A configuration other than the default is a suffix after an underscore ({@code nettyPingPong_busyWait},
 * {@code weirPingPong_pollSpinOff}); {@code ratios.py} pairs such a row with the other framework's default.
 *
 * <p>Two forks because a single fork's JIT decisions can differ run to run; five one-second iterations
 * each for warm-up and measurement keep a full run of all benchmarks within minutes on 2 cores. Leak
 * detection is off in both frameworks except where a benchmark measures it.
 */
@State(Scope.Benchmark)
@Fork(value = AbstractMicrobenchmark.FORKS, jvmArgsAppend = {
        AbstractMicrobenchmark.HEAP_MIN, AbstractMicrobenchmark.HEAP_MAX,
        AbstractMicrobenchmark.WEIR_NO_LEAK_DETECTION, AbstractMicrobenchmark.NETTY_NO_LEAK_DETECTION})
@Warmup(iterations = AbstractMicrobenchmark.WARMUP_ITERATIONS, time = 1)
@Measurement(iterations = AbstractMicrobenchmark.MEASUREMENT_ITERATIONS, time = 1)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public abstract class AbstractMicrobenchmark {
    public static final int FORKS = 2;
    public static final int WARMUP_ITERATIONS = 5;
    public static final int MEASUREMENT_ITERATIONS = 5;
    public static final String HEAP_MIN = "-Xms1g";
    public static final String HEAP_MAX = "-Xmx1g";
    public static final String WEIR_NO_LEAK_DETECTION = "-Dio.weir.leakDetection.level=DISABLED";
    public static final String NETTY_NO_LEAK_DETECTION = "-Dio.netty.leakDetection.level=disabled";

    /** Turns Weir's idle epoll poll off (its default; add to a method's {@code @Fork} to say so). */
    public static final String WEIR_EPOLL_IDLE_POLL_OFF = "-Dio.weir.epoll.maxIdlePollNanos=0";
    /** Turns Weir's idle NIO poll off (its default). */
    public static final String WEIR_NIO_IDLE_POLL_OFF = "-Dio.weir.nio.maxIdlePollNanos=0";
    /** Turns Weir's opt-in idle epoll poll on, at {@code EpollIoHandler.CONVERSATION_IDLE_POLL_NANOS} (50 µs). */
    public static final String WEIR_EPOLL_IDLE_POLL_ON = "-Dio.weir.epoll.maxIdlePollNanos=50000";
    /** Turns Weir's opt-in idle NIO poll on, at {@code NioIoHandler.CONVERSATION_IDLE_POLL_NANOS} (50 µs). */
    public static final String WEIR_NIO_IDLE_POLL_ON = "-Dio.weir.nio.maxIdlePollNanos=50000";
    /** Turns Weir's idle task-queue spin off: with the poll off too, an idle Weir loop blocks at once, as Netty's. */
    public static final String WEIR_IDLE_SPIN_OFF = "-Dio.weir.eventLoop.idleSpinNanos=0";

    /** Runs the benchmark's worker threads as Weir FastThreadLocalThreads (add to a method's {@code @Fork}). */
    public static final String WEIR_THREADS = "-Djmh.executor.class=io.weir.microbench.util.WeirThreadExecutor";
    /** Runs the benchmark's worker threads as Netty FastThreadLocalThreads (add to a method's {@code @Fork}). */
    public static final String NETTY_THREADS = "-Djmh.executor.class=io.weir.microbench.util.NettyThreadExecutor";
    /** Makes JMH use the executor named by {@link #WEIR_THREADS} or {@link #NETTY_THREADS}. */
    public static final String CUSTOM_EXECUTOR = "-Djmh.executor=CUSTOM";
}
