package io.weir.microbench.util;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * A JMH worker pool ({@code -Djmh.executor=CUSTOM}) whose threads a subclass chooses: JMH instantiates the
 * subclass named by {@code -Djmh.executor.class} through its {@code (int, String)} constructor.
 */
abstract class HarnessExecutor extends ThreadPoolExecutor {

    HarnessExecutor(int maxThreads, String prefix, BiFunction<Runnable, String, Thread> newThread) {
        super(maxThreads, maxThreads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                new NamedFactory(prefix, newThread));
    }

    private static final class NamedFactory implements ThreadFactory {
        private final AtomicInteger id = new AtomicInteger();
        private final String prefix;
        private final BiFunction<Runnable, String, Thread> newThread;

        NamedFactory(String prefix, BiFunction<Runnable, String, Thread> newThread) {
            this.prefix = prefix;
            this.newThread = newThread;
        }

        @Override
        public Thread newThread(Runnable r) {
            return newThread.apply(r, prefix + "-" + id.incrementAndGet());
        }
    }
}
