package io.weir.microbench.buffer;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.nio.ByteBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Threads;

/**
 * Allocate a buffer of {@code size} bytes and release it, on one thread: Weir's PooledByteBufAllocator
 * against Netty's PooledByteBufAllocator ({@code Allocate}) and against Netty's AdaptiveByteBufAllocator,
 * its 4.2 default ({@code AllocateVsAdaptive}; the Weir side is the same pooled allocation, measured again
 * so the ratio script pairs it). The JDK baseline allocates a fresh {@code byte[]} or
 * {@code ByteBuffer.allocateDirect} and leaves it to the GC.
 *
 * <p>Weir's thread caches hold buffers up to 64 KiB; Netty's pooled allocator caches up to 32 KiB by default
 * ({@code io.netty.allocator.maxCachedBufferCapacity}), so at 65536 bytes default against default compares a
 * cache hit with an arena allocation. The {@code nettyAllocate_cache64KiB} rows run Netty with that property at
 * 64 KiB (what a Netty user tuning for such buffers sets), paired with Weir's default.
 *
 * <p>Each framework runs on its own FastThreadLocalThreads, where both give threads a cache; the JDK
 * case runs on Weir's threads (it does not care). The {@code TwoThreads} cases run the same round on two
 * threads sharing one allocator.
 */
@Fork(value = AbstractMicrobenchmark.FORKS, jvmArgsAppend = {AbstractMicrobenchmark.HEAP_MIN,
        AbstractMicrobenchmark.HEAP_MAX, AbstractMicrobenchmark.WEIR_NO_LEAK_DETECTION,
        AbstractMicrobenchmark.NETTY_NO_LEAK_DETECTION, AbstractMicrobenchmark.CUSTOM_EXECUTOR,
        AbstractMicrobenchmark.WEIR_THREADS})
public class PooledAllocatorBenchmark extends AbstractMicrobenchmark {
    /** Netty's thread-cache limit raised to Weir's, 64 KiB (Netty's default is 32 KiB). */
    static final String NETTY_CACHE_64_KIB = "-Dio.netty.allocator.maxCachedBufferCapacity=65536";

    @Param({"0", "256", "1024", "4096", "16384", "65536"})
    public int size;

    @Param({"heap", "direct"})
    public String kind;

    private io.weir.buffer.PooledByteBufAllocator weir;
    private io.netty.buffer.PooledByteBufAllocator netty;
    private io.netty.buffer.AdaptiveByteBufAllocator nettyAdaptive;
    private boolean direct;

    @Setup
    public void setup() {
        direct = "direct".equals(kind);
        weir = new io.weir.buffer.PooledByteBufAllocator(direct);
        netty = new io.netty.buffer.PooledByteBufAllocator(direct);
        nettyAdaptive = new io.netty.buffer.AdaptiveByteBufAllocator(direct, true);
    }

    private boolean weirRound() {
        io.weir.buffer.ByteBuf b = direct ? weir.directBuffer(size) : weir.heapBuffer(size);
        return b.release();
    }

    @Benchmark
    public boolean weirAllocate() {
        return weirRound();
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, NETTY_THREADS})
    public boolean nettyAllocate() {
        io.netty.buffer.ByteBuf b = direct ? netty.directBuffer(size) : netty.heapBuffer(size);
        return b.release();
    }

    @Benchmark
    public Object jdkAllocate() {
        return direct ? ByteBuffer.allocateDirect(size) : new byte[size];
    }

    @Benchmark
    public boolean weirAllocateVsAdaptive() {
        return weirRound();
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, NETTY_THREADS})
    public boolean nettyAllocateVsAdaptive() {
        io.netty.buffer.ByteBuf b = direct ? nettyAdaptive.directBuffer(size) : nettyAdaptive.heapBuffer(size);
        return b.release();
    }

    @Benchmark
    @Threads(2)
    public boolean weirAllocateTwoThreads() {
        return weirRound();
    }

    @Benchmark
    @Threads(2)
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, NETTY_THREADS})
    public boolean nettyAllocateTwoThreads() {
        return nettyAllocate();
    }

    @Benchmark
    @Threads(2)
    public Object jdkAllocateTwoThreads() {
        return jdkAllocate();
    }

    @Benchmark
    @Threads(2)
    public boolean weirAllocateVsAdaptiveTwoThreads() {
        return weirRound();
    }

    @Benchmark
    @Threads(2)
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, NETTY_THREADS})
    public boolean nettyAllocateVsAdaptiveTwoThreads() {
        return nettyAllocateVsAdaptive();
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, NETTY_THREADS, NETTY_CACHE_64_KIB})
    public boolean nettyAllocate_cache64KiB() {
        return nettyAllocate();
    }

    @Benchmark
    @Threads(2)
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, NETTY_THREADS, NETTY_CACHE_64_KIB})
    public boolean nettyAllocateTwoThreads_cache64KiB() {
        return nettyAllocate();
    }
}
