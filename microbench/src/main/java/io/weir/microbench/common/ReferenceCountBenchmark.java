package io.weir.microbench.common;

import io.weir.microbench.util.AbstractMicrobenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Threads;

/**
 * retain() then release() on one live object, from one thread ({@code Uncontended}) and from two threads
 * hammering the same object ({@code Contended}, the machine's two cores): Weir's AbstractReferenceCounted
 * against Netty's. The object never reaches zero, so no deallocation is measured.
 */
public class ReferenceCountBenchmark extends AbstractMicrobenchmark {
    /** Two 64-byte cache lines' worth of longs (covers adjacent-line prefetching too). */
    private static final int CACHE_LINE_GAP_LONGS = 16;

    static final class WeirObject extends io.weir.util.AbstractReferenceCounted {
        @Override
        protected void deallocate() {
        }

        @Override
        public WeirObject touch(Object hint) {
            return this;
        }
    }

    static final class NettyObject extends io.netty.util.AbstractReferenceCounted {
        @Override
        protected void deallocate() {
        }

        @Override
        public NettyObject touch(Object hint) {
            return this;
        }
    }

    private WeirObject weir;
    private NettyObject netty;
    // Keep each counted object off the cache lines of its neighbours (this state object, which both threads
    // read on every operation, and the other framework's object): without the gaps, whichever object lands
    // next to the state object pays false sharing under contention and the comparison measures allocation
    // order. The benchmark allocates nothing afterwards, so no GC moves them closer.
    private long[] gapBeforeWeir;
    private long[] gapBeforeNetty;
    private long[] gapAfterNetty;

    @Setup
    public void setup() {
        gapBeforeWeir = new long[CACHE_LINE_GAP_LONGS];
        weir = new WeirObject();
        gapBeforeNetty = new long[CACHE_LINE_GAP_LONGS];
        netty = new NettyObject();
        gapAfterNetty = new long[CACHE_LINE_GAP_LONGS];
    }

    @Benchmark
    public boolean weirUncontended() {
        weir.retain();
        return weir.release();
    }

    @Benchmark
    public boolean nettyUncontended() {
        netty.retain();
        return netty.release();
    }

    @Benchmark
    @Threads(2)
    public boolean weirContended() {
        weir.retain();
        return weir.release();
    }

    @Benchmark
    @Threads(2)
    public boolean nettyContended() {
        netty.retain();
        return netty.release();
    }
}
