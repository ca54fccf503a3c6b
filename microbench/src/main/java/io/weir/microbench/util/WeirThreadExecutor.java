package io.weir.microbench.util;

import io.weir.util.concurrent.FastThreadLocalThread;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** JMH's worker pool ({@code -Djmh.executor=CUSTOM}) made of Weir {@link FastThreadLocalThread}s. */
public final class WeirThreadExecutor extends ThreadPoolExecutor {
    public WeirThreadExecutor(int maxThreads, String prefix) {
        super(maxThreads, maxThreads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), new Factory(prefix));
    }

    private static final class Factory implements java.util.concurrent.ThreadFactory {
        private final AtomicInteger id = new AtomicInteger();
        private final String prefix;

        Factory(String prefix) {
            this.prefix = prefix;
        }

        @Override
        public Thread newThread(Runnable r) {
            return new FastThreadLocalThread(r, prefix + "-weir-" + id.incrementAndGet());
        }
    }
}
