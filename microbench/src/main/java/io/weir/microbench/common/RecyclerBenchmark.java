package io.weir.microbench.common;

import io.weir.microbench.util.AbstractMicrobenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;

/**
 * get() then recycle on the same thread: Weir's Recycler against Netty's, each on its own framework's
 * FastThreadLocalThread (where a server's event loops run), and against plain {@code new} ({@code jdk}).
 * The pooled object is small, as Weir's and Netty's pooled objects (buffer wrappers, list entries) are.
 */
public class RecyclerBenchmark extends AbstractMicrobenchmark {

    static final class WeirPooled {
        final io.weir.util.Recycler.Handle<WeirPooled> handle;
        long value;

        WeirPooled(io.weir.util.Recycler.Handle<WeirPooled> handle) {
            this.handle = handle;
        }
    }

    static final class NettyPooled {
        final io.netty.util.Recycler.Handle<NettyPooled> handle;
        long value;

        NettyPooled(io.netty.util.Recycler.Handle<NettyPooled> handle) {
            this.handle = handle;
        }
    }

    static final class Plain {
        long value;
    }

    private static final io.weir.util.Recycler<WeirPooled> WEIR = new io.weir.util.Recycler<>() {
        @Override
        protected WeirPooled newObject(io.weir.util.Recycler.Handle<WeirPooled> handle) {
            return new WeirPooled(handle);
        }
    };

    private static final io.netty.util.Recycler<NettyPooled> NETTY = new io.netty.util.Recycler<>() {
        @Override
        protected NettyPooled newObject(io.netty.util.Recycler.Handle<NettyPooled> handle) {
            return new NettyPooled(handle);
        }
    };

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION, CUSTOM_EXECUTOR, WEIR_THREADS})
    public long weirGetRecycle() {
        WeirPooled o = WEIR.get();
        long v = ++o.value;
        o.handle.recycle(o);
        return v;
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION, CUSTOM_EXECUTOR, NETTY_THREADS})
    public long nettyGetRecycle() {
        NettyPooled o = NETTY.get();
        long v = ++o.value;
        o.handle.recycle(o);
        return v;
    }

    @Benchmark
    public Object jdkGetRecycle() {
        Plain o = new Plain();
        o.value++;
        return o;
    }
}
