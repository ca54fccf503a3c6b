package io.weir.microbench.buffer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Not a timed benchmark: how much direct memory each allocator holds at the stages of one documented
 * allocate/release pattern, Weir's {@code PooledByteBufAllocator} beside Netty 4.2's {@code PooledByteBufAllocator}
 * and {@code AdaptiveByteBufAllocator} (its default), each a fresh instance with its shipped defaults. Run it with
 * {@code java -cp microbench/target/microbenchmarks.jar io.weir.microbench.buffer.AllocatorMemoryReport}.
 *
 * <h2>The pattern</h2>
 * The same for every allocator, from one fixed seed:
 * <ol>
 *   <li>{@value #THREADS} worker threads, each the framework's own {@code FastThreadLocalThread}, so that each
 *       allocator gives them thread caches as it would give its event loops.</li>
 *   <li>Each thread runs {@value #ROUNDS} rounds. A round allocates {@value #WORKING_SET_BUFFERS} direct buffers
 *       whose sizes are drawn log-uniformly from {@value #MIN_SIZE_BYTES} B to {@value #MAX_SIZE_BYTES} B (so
 *       many sizes are not powers of two), writes each buffer's last byte, holds them all, then releases them in
 *       a shuffled order.</li>
 *   <li>Stages measured, all threads waiting at a barrier meanwhile: <b>held</b> (the last round's buffers all
 *       allocated), <b>released</b> (all released, threads alive and idle: caches as full as they get),
 *       <b>trimmed</b> (each thread trimmed its own cache; the adaptive allocator has no such call) and
 *       <b>ended</b> (the threads exited, which frees their caches).</li>
 * </ol>
 * Memory is what each allocator's metric reports as its direct memory: chunks held from the system, used or
 * not, plus live unpooled buffers ({@code usedDirectMemory()} of Weir's and Netty's metrics). The
 * <em>requested</em> column is what the held buffers asked for, for scale. Leak detection is switched off in
 * both frameworks, so no leak-aware wrappers are counted.
 */
public final class AllocatorMemoryReport {
    static final int THREADS = 4;
    static final int ROUNDS = 8;
    static final int WORKING_SET_BUFFERS = 1000;
    static final int MIN_SIZE_BYTES = 256;
    static final int MAX_SIZE_BYTES = 64 * 1024;
    private static final long SEED = 0x5EEDL;
    private static final long STAGE_TIMEOUT_SECONDS = 120;
    private static final double MIB = 1024.0 * 1024.0;

    private AllocatorMemoryReport() {
    }

    /** One allocator under test, seen through the few operations the pattern needs. */
    private interface Subject {
        String name();

        Thread newThread(Runnable task, String name);

        Object allocate(int size);

        void release(Object buffer);

        /** Whether the allocator can trim a thread's cache. */
        boolean trims();

        /** Trims the calling thread's cache, where {@link #trims()}. */
        void trimCurrentThreadCache();

        long usedDirectMemory();
    }

    private static final class WeirPooled implements Subject {
        private final io.weir.buffer.PooledByteBufAllocator alloc = new io.weir.buffer.PooledByteBufAllocator(true);

        @Override
        public String name() {
            return "weir PooledByteBufAllocator";
        }

        @Override
        public Thread newThread(Runnable task, String name) {
            return new io.weir.util.concurrent.FastThreadLocalThread(task, name);
        }

        @Override
        public Object allocate(int size) {
            io.weir.buffer.ByteBuf buf = alloc.directBuffer(size);
            buf.setByte(size - 1, 1);
            return buf;
        }

        @Override
        public void release(Object buffer) {
            ((io.weir.buffer.ByteBuf) buffer).release();
        }

        @Override
        public boolean trims() {
            return true;
        }

        @Override
        public void trimCurrentThreadCache() {
            alloc.trimCurrentThreadCache();
        }

        @Override
        public long usedDirectMemory() {
            return alloc.metric().usedDirectMemory();
        }
    }

    private static final class NettyPooled implements Subject {
        private final io.netty.buffer.PooledByteBufAllocator alloc = new io.netty.buffer.PooledByteBufAllocator(true);

        @Override
        public String name() {
            return "netty PooledByteBufAllocator";
        }

        @Override
        public Thread newThread(Runnable task, String name) {
            return new io.netty.util.concurrent.FastThreadLocalThread(task, name);
        }

        @Override
        public Object allocate(int size) {
            io.netty.buffer.ByteBuf buf = alloc.directBuffer(size);
            buf.setByte(size - 1, 1);
            return buf;
        }

        @Override
        public void release(Object buffer) {
            ((io.netty.buffer.ByteBuf) buffer).release();
        }

        @Override
        public boolean trims() {
            return true;
        }

        @Override
        public void trimCurrentThreadCache() {
            alloc.trimCurrentThreadCache();
        }

        @Override
        public long usedDirectMemory() {
            return alloc.metric().usedDirectMemory();
        }
    }

    private static final class NettyAdaptive implements Subject {
        private final io.netty.buffer.AdaptiveByteBufAllocator alloc = new io.netty.buffer.AdaptiveByteBufAllocator(true);

        @Override
        public String name() {
            return "netty AdaptiveByteBufAllocator";
        }

        @Override
        public Thread newThread(Runnable task, String name) {
            return new io.netty.util.concurrent.FastThreadLocalThread(task, name);
        }

        @Override
        public Object allocate(int size) {
            io.netty.buffer.ByteBuf buf = alloc.directBuffer(size);
            buf.setByte(size - 1, 1);
            return buf;
        }

        @Override
        public void release(Object buffer) {
            ((io.netty.buffer.ByteBuf) buffer).release();
        }

        @Override
        public boolean trims() {
            return false;
        }

        @Override
        public void trimCurrentThreadCache() {
        }

        @Override
        public long usedDirectMemory() {
            return alloc.metric().usedDirectMemory();
        }
    }

    /** What one run of the pattern measured, in bytes; {@code trimmed} is -1 where there is no trim. */
    private record Stages(String name, long requested, long held, long released, long trimmed, long ended) {
    }

    /**
     * Runs the pattern against each allocator in turn and prints the table.
     *
     * @throws Exception if a worker fails or a stage does not complete within {@value #STAGE_TIMEOUT_SECONDS} s
     */
    public static void main(String[] args) throws Exception {
        io.weir.util.ResourceLeakDetector.setLevel(io.weir.util.ResourceLeakDetector.Level.DISABLED);
        io.netty.util.ResourceLeakDetector.setLevel(io.netty.util.ResourceLeakDetector.Level.DISABLED);
        List<Stages> results = new ArrayList<>();
        results.add(run(new WeirPooled()));
        results.add(run(new NettyPooled()));
        results.add(run(new NettyAdaptive()));
        print(results);
    }

    private static Stages run(Subject subject) throws Exception {
        CyclicBarrier barrier = new CyclicBarrier(THREADS + 1);
        long[] requested = new long[THREADS];
        Throwable[] failure = new Throwable[1];
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int index = t;
            Thread thread = subject.newThread(() -> {
                try {
                    requested[index] = work(subject, new Random(SEED + index), barrier);
                } catch (Throwable e) {
                    synchronized (failure) {
                        failure[0] = e;
                    }
                    barrier.reset();
                }
            }, "memory-report-" + t);
            threads.add(thread);
            thread.start();
        }
        long held;
        long released;
        long trimmed;
        try {
            awaitStage(barrier); // every thread holds its last working set
            held = subject.usedDirectMemory();
            awaitStage(barrier); // go: release
            awaitStage(barrier); // every thread released everything
            released = subject.usedDirectMemory();
            awaitStage(barrier); // go: trim
            awaitStage(barrier); // every thread trimmed
            trimmed = subject.trims() ? subject.usedDirectMemory() : -1;
            awaitStage(barrier); // go: end
        } catch (BrokenBarrierException e) {
            synchronized (failure) {
                throw new IllegalStateException(subject.name() + " failed", failure[0] != null ? failure[0] : e);
            }
        }
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(STAGE_TIMEOUT_SECONDS));
        }
        synchronized (failure) {
            if (failure[0] != null) {
                throw new IllegalStateException(subject.name() + " failed", failure[0]);
            }
        }
        long ended = subject.usedDirectMemory();
        long totalRequested = 0;
        for (long r : requested) {
            totalRequested += r;
        }
        return new Stages(subject.name(), totalRequested, held, released, trimmed, ended);
    }

    /** One worker's share of the pattern; returns the bytes its last working set requested. */
    private static long work(Subject subject, Random random, CyclicBarrier barrier) throws Exception {
        Object[] held = new Object[WORKING_SET_BUFFERS];
        long requested = 0;
        for (int round = 0; round < ROUNDS; round++) {
            requested = 0;
            for (int i = 0; i < held.length; i++) {
                int size = randomSize(random);
                held[i] = subject.allocate(size);
                requested += size;
            }
            boolean last = round == ROUNDS - 1;
            if (last) {
                awaitStage(barrier); // held
                awaitStage(barrier); // go: release
            }
            shuffle(held, random);
            for (int i = 0; i < held.length; i++) {
                subject.release(held[i]);
                held[i] = null;
            }
        }
        awaitStage(barrier); // released
        awaitStage(barrier); // go: trim
        subject.trimCurrentThreadCache();
        awaitStage(barrier); // trimmed
        awaitStage(barrier); // go: end
        return requested;
    }

    /** Log-uniform in [MIN_SIZE_BYTES, MAX_SIZE_BYTES]: as many buffers around 1 KiB as around 32 KiB. */
    private static int randomSize(Random random) {
        double logMin = Math.log(MIN_SIZE_BYTES);
        double logMax = Math.log(MAX_SIZE_BYTES);
        int size = (int) Math.round(Math.exp(logMin + random.nextDouble() * (logMax - logMin)));
        return Math.max(MIN_SIZE_BYTES, Math.min(MAX_SIZE_BYTES, size));
    }

    private static void shuffle(Object[] array, Random random) {
        for (int i = array.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            Object tmp = array[i];
            array[i] = array[j];
            array[j] = tmp;
        }
    }

    private static void awaitStage(CyclicBarrier barrier)
            throws InterruptedException, BrokenBarrierException, TimeoutException {
        barrier.await(STAGE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private static void print(List<Stages> results) {
        System.out.printf(Locale.ROOT, "Direct memory held (MiB); %d threads x %d rounds x %d buffers of %d B-%d KiB"
                        + " (log-uniform), seed %d%n", THREADS, ROUNDS, WORKING_SET_BUFFERS, MIN_SIZE_BYTES,
                MAX_SIZE_BYTES / 1024, SEED);
        System.out.printf(Locale.ROOT, "%-32s %10s %8s %10s %9s %7s%n",
                "allocator", "requested", "held", "released", "trimmed", "ended");
        for (Stages s : results) {
            System.out.printf(Locale.ROOT, "%-32s %10.1f %8.1f %10.1f %9s %7.1f%n", s.name(), s.requested() / MIB,
                    s.held() / MIB, s.released() / MIB,
                    s.trimmed() < 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", s.trimmed() / MIB),
                    s.ended() / MIB);
        }
    }
}
