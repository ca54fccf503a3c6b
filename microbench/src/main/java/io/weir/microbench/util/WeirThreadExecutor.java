package io.weir.microbench.util;

import io.weir.util.concurrent.FastThreadLocalThread;

/** JMH's worker pool made of Weir {@link FastThreadLocalThread}s (see {@link AbstractMicrobenchmark#WEIR_THREADS}). */
public final class WeirThreadExecutor extends HarnessExecutor {
    public WeirThreadExecutor(int maxThreads, String prefix) {
        super(maxThreads, prefix + "-weir", FastThreadLocalThread::new);
    }
}
