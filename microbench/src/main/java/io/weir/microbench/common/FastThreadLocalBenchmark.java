package io.weir.microbench.common;

import io.weir.microbench.util.AbstractMicrobenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Setup;

/**
 * Reads and writes of thread-local variables: Weir's FastThreadLocal, Netty's FastThreadLocal and the JDK's
 * ThreadLocal, from each framework's own FastThreadLocalThread ({@code *Fast*}: the fast path) and from a
 * plain platform thread ({@code *Plain*}: the fallback path).
 *
 * <p>Each operation touches {@value #LOCALS} distinct variables so that the measured work is the
 * lookup, not the benchmark's call overhead. JDK ThreadLocal on a FastThreadLocalThread runs on Weir's
 * thread ({@code jdkFast*}), which is what a Weir event loop would see.
 */
public class FastThreadLocalBenchmark extends AbstractMicrobenchmark {
    private static final int LOCALS = 8;

    private io.weir.util.concurrent.FastThreadLocal<Integer>[] weir;
    private io.netty.util.concurrent.FastThreadLocal<Integer>[] netty;
    private ThreadLocal<Integer>[] jdk;
    private final Integer value = 42;

    @Setup
    @SuppressWarnings("unchecked")
    public void setup() {
        weir = new io.weir.util.concurrent.FastThreadLocal[LOCALS];
        netty = new io.netty.util.concurrent.FastThreadLocal[LOCALS];
        jdk = new ThreadLocal[LOCALS];
        for (int i = 0; i < LOCALS; i++) {
            final int v = i;
            weir[i] = new io.weir.util.concurrent.FastThreadLocal<>() {
                @Override
                protected Integer initialValue() {
                    return v;
                }
            };
            netty[i] = new io.netty.util.concurrent.FastThreadLocal<>() {
                @Override
                protected Integer initialValue() {
                    return v;
                }
            };
            jdk[i] = ThreadLocal.withInitial(() -> v);
        }
    }

    private int weirGet() {
        int sum = 0;
        for (io.weir.util.concurrent.FastThreadLocal<Integer> l : weir) {
            sum += l.get();
        }
        return sum;
    }

    private int nettyGet() {
        int sum = 0;
        for (io.netty.util.concurrent.FastThreadLocal<Integer> l : netty) {
            sum += l.get();
        }
        return sum;
    }

    private int jdkGet() {
        int sum = 0;
        for (ThreadLocal<Integer> l : jdk) {
            sum += l.get();
        }
        return sum;
    }

    private void weirSet() {
        for (io.weir.util.concurrent.FastThreadLocal<Integer> l : weir) {
            l.set(value);
        }
    }

    private void nettySet() {
        for (io.netty.util.concurrent.FastThreadLocal<Integer> l : netty) {
            l.set(value);
        }
    }

    private void jdkSet() {
        for (ThreadLocal<Integer> l : jdk) {
            l.set(value);
        }
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION, CUSTOM_EXECUTOR, WEIR_THREADS})
    public int weirFastThreadGet() {
        return weirGet();
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION, CUSTOM_EXECUTOR, NETTY_THREADS})
    public int nettyFastThreadGet() {
        return nettyGet();
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION, CUSTOM_EXECUTOR, WEIR_THREADS})
    public int jdkFastThreadGet() {
        return jdkGet();
    }

    @Benchmark
    public int weirPlainThreadGet() {
        return weirGet();
    }

    @Benchmark
    public int nettyPlainThreadGet() {
        return nettyGet();
    }

    @Benchmark
    public int jdkPlainThreadGet() {
        return jdkGet();
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION, CUSTOM_EXECUTOR, WEIR_THREADS})
    public void weirFastThreadSet() {
        weirSet();
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION, CUSTOM_EXECUTOR, NETTY_THREADS})
    public void nettyFastThreadSet() {
        nettySet();
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION, CUSTOM_EXECUTOR, WEIR_THREADS})
    public void jdkFastThreadSet() {
        jdkSet();
    }

    @Benchmark
    public void weirPlainThreadSet() {
        weirSet();
    }

    @Benchmark
    public void nettyPlainThreadSet() {
        nettySet();
    }

    @Benchmark
    public void jdkPlainThreadSet() {
        jdkSet();
    }
}
