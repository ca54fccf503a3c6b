package io.weir.microbench.util;

import io.netty.util.concurrent.FastThreadLocalThread;

/** JMH's worker pool made of Netty {@link FastThreadLocalThread}s (see {@link AbstractMicrobenchmark#NETTY_THREADS}). */
public final class NettyThreadExecutor extends HarnessExecutor {
    public NettyThreadExecutor(int maxThreads, String prefix) {
        super(maxThreads, prefix + "-netty", FastThreadLocalThread::new);
    }
}
