package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.metrics.AllocatorMetrics;
import io.weir.util.IllegalReferenceCountException;
import io.weir.util.OutOfDirectMemoryError;
import io.weir.util.concurrent.FastThreadLocalThread;
import io.weir.util.platform.DirectMemory;
import io.weir.util.platform.MemoryAccess;
import io.weir.util.platform.PlatformInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PooledByteBufAllocatorTest {
    private static final int PAGE = 8192;
    private static final int CHUNK = 1 << 20;

    private final List<ByteBuf> live = new ArrayList<>();

    @AfterEach
    void releaseLeftovers() {
        for (ByteBuf buf : live) {
            if (buf.refCnt() > 0) {
                buf.release(buf.refCnt());
            }
        }
    }

    private ByteBuf track(ByteBuf buf) {
        live.add(buf);
        return buf;
    }

    /** The allocator's own buffer under a leak-aware wrapper (tests run at PARANOID, so every buffer has one). */
    private static ByteBuf untracked(ByteBuf buf) {
        return buf instanceof WrappedByteBuf wrapper ? wrapper.buf : buf;
    }

    private static PooledByteBuf<?> pooled(ByteBuf buf) {
        return (PooledByteBuf<?>) untracked(buf);
    }

    private static PooledByteBufAllocator heapOnly(int arenas) {
        return new PooledByteBufAllocator(false, arenas, 0, PAGE, CHUNK);
    }

    @Test
    void everySizeClassGivesTheRequestedCapacityInsideASlotOfItsClass() {
        PooledByteBufAllocator alloc = new PooledByteBufAllocator(false, 1, 1, 8192, 4 << 20);
        SizeClasses classes = alloc.sizeClasses();
        for (int idx = 0; idx < classes.nSizes(); idx++) {
            int size = classes.idxToSize(idx);
            for (int request : new int[] {size, size - 1, idx == 0 ? 0 : classes.idxToSize(idx - 1) + 1}) {
                for (boolean direct : new boolean[] {false, true}) {
                    ByteBuf buf = direct ? alloc.directBuffer(request) : alloc.heapBuffer(request);
                    try {
                        assertThat(buf.capacity()).isEqualTo(request);
                        assertThat(buf.isDirect()).isEqualTo(direct);
                        assertThat(pooled(buf).maxLength).isEqualTo(size);
                        buf.setZero(0, request);
                        buf.capacity(size);
                        assertThat(buf.capacity()).isEqualTo(size);
                        buf.setByte(size - 1, 1);
                    } finally {
                        buf.release();
                    }
                }
            }
        }
        assertThat(alloc.metric().numHeapChunks()).isLessThanOrEqualTo(1);
        assertThat(alloc.metric().numDirectChunks()).isLessThanOrEqualTo(1);
    }

    @Test
    void fillingAChunkThenFreeingEverythingLeavesOneIdleChunk() {
        // Sizes whose runs tile the chunk exactly, small (one- and two-page runs) and normal; a new arena for each,
        // as its first chunk may keep a free run of each small class it served.
        for (int size : new int[] {16, 1024, 16_384, 64 * 1024, CHUNK}) {
            PooledByteBufAllocator alloc = heapOnly(1);
            List<ByteBuf> bufs = new ArrayList<>();
            for (int i = 0; i < CHUNK / size; i++) {
                bufs.add(track(alloc.heapBuffer(size)));
            }
            PoolChunk<?> first = pooled(bufs.get(0)).chunk;
            assertThat(first.freeBytes()).as("size %d", size).isZero();
            assertThat(alloc.metric().numHeapChunks()).isEqualTo(1);
            ByteBuf overflow = track(alloc.heapBuffer(size));
            PoolChunk<?> second = pooled(overflow).chunk;
            assertThat(second).isNotSameAs(first);
            assertThat(alloc.metric().numHeapChunks()).isEqualTo(2);
            bufs.add(overflow);
            for (ByteBuf buf : bufs) {
                buf.release();
            }
            // The first chunk may keep a free run of a small class for its next buffer: idle, used by none.
            assertThat(first.isIdle()).isTrue();
            assertThat(second.isEmpty()).isTrue();
            assertThat(alloc.metric().numHeapChunks()).isEqualTo(1);
            assertThat(alloc.metric().usedHeapMemory()).isEqualTo(CHUNK);
        }
    }

    @Test
    void aThreadWithoutACacheKeepsTheOnlyRunOfASmallClassForItsNextBuffer() {
        // This test's thread is not an event loop's: it has no cache, so every release goes to the arena.
        PooledByteBufAllocator alloc = heapOnly(1);
        ByteBuf first = track(alloc.heapBuffer(100));
        PoolChunk<?> chunk = pooled(first).chunk;
        long handle = pooled(first).handle;
        first.release();
        // The run stays cut for its class (its chunk's pages are not all free), though no buffer uses it.
        assertThat(chunk.isEmpty()).isFalse();
        assertThat(chunk.isIdle()).isTrue();
        assertThat(alloc.metric().heapArenaPinnedMemory(0)).isZero();
        ByteBuf second = track(alloc.heapBuffer(100));
        assertThat(pooled(second).handle).isEqualTo(handle);
        assertThat(chunk.isIdle()).isFalse();

        // Several runs of the class (a run of this class holds 512 elements): each run that empties while another is in the
        // class's list goes back to the chunk; only the last is kept.
        List<ByteBuf> more = new ArrayList<>();
        for (int i = 0; i < 4 * PAGE / 100 * 3; i++) {
            more.add(track(alloc.heapBuffer(100)));
        }
        second.release();
        for (ByteBuf buf : more) {
            buf.release();
        }
        assertThat(chunk.isIdle()).isTrue();
        assertThat(chunk.idleSubpageBytes).isPositive()
                .isEqualTo(chunk.chunkSize - chunk.freeBytes());
        assertThat(alloc.metric().heapArenaPinnedMemory(0)).isZero();
        assertThat(alloc.metric().numHeapChunks()).isEqualTo(1);
    }

    @Test
    void pinnedMemoryFollowsTheLiveBuffersWhileUsedMemoryKeepsTheChunk() {
        PooledByteBufAllocator alloc = heapOnly(1);
        AllocatorMetrics metrics = alloc.metric();
        assertThat(metrics.numHeapArenas()).isEqualTo(1);
        assertThat(metrics.heapArenaPinnedMemory(0)).isZero();
        ByteBuf a = track(alloc.heapBuffer(64 * 1024));
        ByteBuf b = track(alloc.heapBuffer(64 * 1024));
        assertThat(metrics.heapArenaPinnedMemory(0)).isEqualTo(128 * 1024);
        assertThat(metrics.heapArenaUsedMemory(0)).isEqualTo(CHUNK);
        a.release();
        b.release();
        // Freed runs may sit in this thread's cache, which still pins them; trimmed, they are free again, while
        // the arena keeps its one chunk.
        alloc.trimCurrentThreadCache();
        assertThat(metrics.heapArenaPinnedMemory(0)).isZero();
        assertThat(metrics.heapArenaUsedMemory(0)).isEqualTo(CHUNK);
    }

    @Test
    void randomAllocationsNeverOverlapAndKeepTheirContentUntilFreed() {
        for (boolean direct : new boolean[] {false, true}) {
            PooledByteBufAllocator alloc = new PooledByteBufAllocator(false, 1, 1, PAGE, CHUNK);
            Random random = new Random(direct ? 7 : 8);
            List<ByteBuf> bufs = new ArrayList<>();
            List<Byte> patterns = new ArrayList<>();
            for (int op = 0; op < 4000; op++) {
                if (!bufs.isEmpty() && (random.nextInt(100) < 45 || bufs.size() > 300)) {
                    int victim = random.nextInt(bufs.size());
                    ByteBuf buf = bufs.remove(victim);
                    byte pattern = patterns.remove(victim);
                    assertUniform(buf, pattern);
                    buf.release();
                } else {
                    int size = randomSize(random);
                    ByteBuf buf = track(direct ? alloc.directBuffer(size) : alloc.heapBuffer(size));
                    byte pattern = (byte) op;
                    buf.setBytes(0, filled(size, pattern));
                    bufs.add(buf);
                    patterns.add(pattern);
                }
            }
            for (int i = 0; i < bufs.size(); i++) {
                assertUniform(bufs.get(i), patterns.get(i));
                bufs.get(i).release();
            }
            assertThat((direct ? alloc.metric().numDirectChunks() : alloc.metric().numHeapChunks())).isLessThanOrEqualTo(1);
        }
    }

    private static int randomSize(Random random) {
        int kind = random.nextInt(100);
        if (kind < 60) {
            return random.nextInt(2048);
        }
        if (kind < 95) {
            return random.nextInt(128 * 1024);
        }
        return kind < 99 ? random.nextInt(CHUNK + 1) : CHUNK + 1 + random.nextInt(1000);
    }

    private static byte[] filled(int size, byte pattern) {
        byte[] bytes = new byte[size];
        java.util.Arrays.fill(bytes, pattern);
        return bytes;
    }

    private static void assertUniform(ByteBuf buf, byte pattern) {
        byte[] content = new byte[buf.capacity()];
        buf.getBytes(0, content);
        assertThat(content).as("buffer of %d bytes", content.length).isEqualTo(filled(content.length, pattern));
    }

    @Test
    void aBufferReleasedOnAnotherThreadGoesBackToItsArena() throws Exception {
        PooledByteBufAllocator alloc = heapOnly(1);
        ByteBuf buf = track(alloc.heapBuffer(1000));
        PoolChunk<?> chunk = pooled(buf).chunk;
        buf.writeLong(42);
        boolean freed = CompletableFuture.supplyAsync(buf::release).get(10, TimeUnit.SECONDS);
        assertThat(freed).isTrue();
        assertThat(buf.refCnt()).isZero();
        assertThat(chunk.isIdle()).isTrue();
        ByteBuf again = track(alloc.heapBuffer(1000));
        assertThat(pooled(again).chunk).isSameAs(chunk);
        again.release();
    }

    @Test
    void hugeBuffersAreUnpooledAndGiveTheirDirectMemoryBackOnRelease() {
        DirectMemory memory = DirectMemory.withLimit(64L << 20);
        PooledByteBufAllocator alloc = new PooledByteBufAllocator(true, 0, 1, PAGE, CHUNK, false, memory);
        ByteBuf huge = track(alloc.directBuffer(CHUNK + 1));
        assertThat(huge.capacity()).isEqualTo(CHUNK + 1);
        assertThat(memory.usedDirectMemory()).isEqualTo(CHUNK + 1);
        assertThat(alloc.metric().usedDirectMemory()).isEqualTo(CHUNK + 1);
        assertThat(alloc.metric().numDirectChunks()).isZero();
        huge.setLong(CHUNK - 7, 0x0102030405060708L);
        assertThat(huge.getLong(CHUNK - 7)).isEqualTo(0x0102030405060708L);
        huge.release();
        assertThat(memory.usedDirectMemory()).isZero();
        assertThat(alloc.metric().usedDirectMemory()).isZero();
    }

    @Test
    void directMemoryHeldIsExactlyTheChunksAndDropsToOneChunkPerArenaOnceAllIsReleased() {
        DirectMemory memory = DirectMemory.withLimit(64L << 20);
        PooledByteBufAllocator alloc = new PooledByteBufAllocator(true, 0, 2, PAGE, CHUNK, false, memory);
        Random random = new Random(3);
        List<ByteBuf> bufs = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            bufs.add(track(alloc.directBuffer(random.nextInt(64 * 1024))));
        }
        assertThat(memory.usedDirectMemory()).isEqualTo(alloc.metric().usedDirectMemory())
                .isEqualTo((long) alloc.metric().numDirectChunks() * CHUNK).isGreaterThan(CHUNK);
        for (ByteBuf buf : bufs) {
            buf.release();
        }
        assertThat(memory.usedDirectMemory()).isEqualTo(alloc.metric().usedDirectMemory())
                .isLessThanOrEqualTo((long) alloc.metric().numDirectArenas() * CHUNK);
    }

    @Test
    void runningOutOfDirectMemoryFailsClearlyAndLeavesTheAllocatorUsable() {
        DirectMemory memory = DirectMemory.withLimit(CHUNK);
        PooledByteBufAllocator alloc = new PooledByteBufAllocator(true, 0, 1, PAGE, CHUNK, false, memory);
        ByteBuf whole = track(alloc.directBuffer(CHUNK));
        assertThatThrownBy(() -> alloc.directBuffer(100)).isInstanceOf(OutOfDirectMemoryError.class);
        assertThatThrownBy(() -> alloc.directBuffer(CHUNK + 1)).isInstanceOf(OutOfDirectMemoryError.class);
        whole.release();
        ByteBuf small = track(alloc.directBuffer(100));
        small.writeInt(7);
        assertThat(small.readInt()).isEqualTo(7);
        small.release();
        assertThat(memory.usedDirectMemory()).isEqualTo(CHUNK);
    }

    @Test
    void growingAndShrinkingKeepsTheContent() {
        PooledByteBufAllocator alloc = new PooledByteBufAllocator(false, 1, 1, PAGE, CHUNK);
        for (boolean direct : new boolean[] {false, true}) {
            ByteBuf buf = track(direct ? alloc.directBuffer(10) : alloc.heapBuffer(10));
            byte[] data = new byte[10];
            new Random(1).nextBytes(data);
            buf.writeBytes(data);
            for (int capacity : new int[] {16, 5000, 200_000, CHUNK + 5, 300, 12}) {
                buf.capacity(capacity);
                assertThat(buf.capacity()).isEqualTo(capacity);
                byte[] read = new byte[10];
                buf.getBytes(0, read);
                assertThat(read).isEqualTo(data);
                buf.setByte(capacity - 1, 9);
                buf.setBytes(0, data);
            }
            buf.capacity(3);
            assertThat(buf.writerIndex()).isEqualTo(3);
            assertThat(buf.getByte(2)).isEqualTo(data[2]);
            buf.writerIndex(0);
            buf.writeBytes(filled(100_000, (byte) 5));
            assertThat(buf.getByte(99_999)).isEqualTo((byte) 5);
            assertThat(buf.alloc()).isSameAs(alloc);
            buf.release();
        }
        assertThat(alloc.metric().numHeapChunks()).isLessThanOrEqualTo(1);
        assertThat(alloc.metric().usedDirectMemory()).isLessThanOrEqualTo(CHUNK);
    }

    @Test
    void fourThreadsAllocatingAndFreeingConcurrentlyNeverShareMemory() throws Exception {
        PooledByteBufAllocator alloc = new PooledByteBufAllocator(false, 2, 2, PAGE, CHUNK);
        ExecutorService pool = Executors.newFixedThreadPool(4, r -> new FastThreadLocalThread(r));
        try {
            List<Future<?>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int seed = t;
                results.add(pool.submit(() -> churn(alloc, seed)));
            }
            for (Future<?> result : results) {
                result.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdown();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(alloc.metric().numHeapChunks()).isLessThanOrEqualTo(alloc.metric().numHeapArenas());
        assertThat(alloc.metric().numDirectChunks()).isLessThanOrEqualTo(alloc.metric().numDirectArenas());
    }

    private static Void churn(PooledByteBufAllocator alloc, int seed) {
        Random random = new Random(seed);
        List<ByteBuf> mine = new ArrayList<>();
        try {
            for (int op = 0; op < 3000; op++) {
                if (!mine.isEmpty() && random.nextBoolean()) {
                    ByteBuf buf = mine.remove(random.nextInt(mine.size()));
                    byte expected = buf.getByte(0);
                    assertUniform(buf, expected);
                    buf.release();
                } else {
                    int size = random.nextInt(40_000);
                    ByteBuf buf = random.nextBoolean() ? alloc.heapBuffer(size) : alloc.directBuffer(size);
                    buf.setBytes(0, filled(size, (byte) (seed * 64 + op)));
                    mine.add(buf);
                }
            }
            return null;
        } finally {
            for (ByteBuf buf : mine) {
                buf.release();
            }
            // The pool's threads outlive the test's check; give back what this thread cached.
            alloc.trimCurrentThreadCache();
        }
    }

    @Test
    void eventLoopThreadsAreSpreadOverTheLeastUsedArenasAndUnboundWhenTheyEnd() throws Exception {
        PooledByteBufAllocator alloc = heapOnly(2);
        PoolArena<?>[] seen = new PoolArena<?>[2];
        CompletableFuture<Void> stop = new CompletableFuture<>();
        Thread[] threads = new Thread[2];
        for (int t = 0; t < 2; t++) {
            int slot = t;
            CompletableFuture<Void> done = new CompletableFuture<>();
            threads[t] = new FastThreadLocalThread(() -> {
                ByteBuf buf = alloc.heapBuffer(64);
                seen[slot] = pooled(buf).chunk.arena;
                buf.release();
                done.complete(null);
                stop.join();
            });
            threads[t].start();
            // The first thread stays alive (bound) while the second one picks its arena.
            done.get(10, TimeUnit.SECONDS);
        }
        assertThat(seen[1]).isNotSameAs(seen[0]);
        stop.complete(null);
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(10));
            assertThat(thread.isAlive()).isFalse();
        }
        for (PoolArena<?> arena : alloc.heapArenas()) {
            assertThat(arena.numThreads.get()).isZero();
        }
    }

    @Test
    void buffersUseUnsafeAccessExactlyWhenThePlatformAllowsIt() {
        PooledByteBufAllocator alloc = new PooledByteBufAllocator(false, 1, 1, PAGE, CHUNK);
        ByteBuf heap = track(alloc.heapBuffer(100));
        ByteBuf direct = track(alloc.directBuffer(100));
        track(alloc.directBuffer(40)).release();
        assertThat(untracked(heap).getClass()).isEqualTo(PlatformInfo.hasUnsafe() ? PooledUnsafeHeapByteBuf.class
                : PooledHeapByteBuf.class);
        assertThat(untracked(direct).getClass()).isEqualTo(MemoryAccess.hasAddress() ? PooledUnsafeDirectByteBuf.class
                : PooledDirectByteBuf.class);
        assertThat(direct.hasMemoryAddress()).isEqualTo(MemoryAccess.hasAddress());
        direct.setLong(8, 0x1122334455667788L);
        if (direct.hasMemoryAddress()) {
            PooledByteBuf<?> pooled = pooled(direct);
            assertThat(direct.memoryAddress()).isEqualTo(
                    MemoryAccess.directBufferAddress((java.nio.ByteBuffer) pooled.chunk.memory) + pooled.offset);
            assertThat(MemoryAccess.getLongBE(direct.memoryAddress() + 8)).isEqualTo(0x1122334455667788L);
        }
        assertThat(direct.nioBuffer(8, 8).getLong()).isEqualTo(0x1122334455667788L);
        heap.setInt(96, 0xCAFEBABE);
        assertThat(heap.array()[heap.arrayOffset() + 96]).isEqualTo((byte) 0xCA);
        heap.release();
        direct.release();
    }

    private static <V> V onEventLoopThread(Callable<V> task) throws Exception {
        CompletableFuture<V> result = new CompletableFuture<>();
        Thread thread = new FastThreadLocalThread(() -> {
            try {
                result.complete(task.call());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        thread.start();
        V value = result.get(30, TimeUnit.SECONDS);
        // Joined, the thread has also run its FastThreadLocal clean-up.
        thread.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(thread.isAlive()).isFalse();
        return value;
    }

    @Test
    void anEventLoopThreadReusesWhatItFreedUntilItTrimsItsCache() throws Exception {
        PooledByteBufAllocator alloc = heapOnly(1);
        for (int size : new int[] {256, 20_000, 32 * 1024}) {
            PoolChunk<?> chunk = onEventLoopThread(() -> {
                ByteBuf first = alloc.heapBuffer(size);
                PooledByteBuf<?> pooled = pooled(first);
                PoolChunk<?> c = pooled.chunk;
                long handle = pooled.handle;
                int offset = pooled.offset;
                first.release();
                assertThat(c.isIdle()).as("cached, so still taken in the chunk").isFalse();
                ByteBuf second = alloc.heapBuffer(size - 1);
                assertThat(pooled(second).handle).isEqualTo(handle);
                assertThat(pooled(second).offset).isEqualTo(offset);
                assertThat(second.capacity()).isEqualTo(size - 1);
                second.release();
                assertThat(alloc.trimCurrentThreadCache()).isTrue();
                assertThat(c.isIdle()).isTrue();
                ByteBuf third = alloc.heapBuffer(size);
                third.release();
                return c;
            });
            assertThat(chunk.isIdle()).as("the cache is given back when the thread ends").isTrue();
        }
        assertThat(alloc.trimCurrentThreadCache()).as("a plain thread has no cache").isFalse();
    }

    @Test
    void aBufferReleasedOnItsOwnThreadIsReusedWholeAndRefusesAccessMeanwhile() throws Exception {
        PooledByteBufAllocator alloc = new PooledByteBufAllocator(true, 1, 1, PAGE, CHUNK);
        onEventLoopThread(() -> {
            for (boolean direct : new boolean[] {false, true}) {
                ByteBuf first = direct ? alloc.directBuffer(300, 1000) : alloc.heapBuffer(300, 1000);
                first.writeLong(42);
                first.release();
                assertThatThrownBy(() -> first.getByte(0)).isInstanceOf(IllegalReferenceCountException.class);
                assertThatThrownBy(first::retain).isInstanceOf(IllegalReferenceCountException.class);
                ByteBuf second = direct ? alloc.directBuffer(310) : alloc.heapBuffer(310);
                assertThat(untracked(second)).as("the same object, memory still attached").isSameAs(untracked(first));
                assertThat(second.refCnt()).isEqualTo(1);
                assertThat(second.readerIndex()).isZero();
                assertThat(second.writerIndex()).isZero();
                assertThat(second.capacity()).isEqualTo(310);
                assertThat(second.maxCapacity()).isEqualTo(Integer.MAX_VALUE);
                second.writeBytes(new byte[310]);
                second.release();
            }
            return null;
        });
    }

    @Test
    void aBufferReleasedOnAnotherThreadGoesBackToTheArenaNotToItsOwnersCache() throws Exception {
        PooledByteBufAllocator alloc = heapOnly(1);
        ByteBuf buf = onEventLoopThread(() -> alloc.heapBuffer(20_000));
        PoolChunk<?> chunk = pooled(buf).chunk;
        // The owner has ended; its cache is closed. Released here, the memory must reach the arena at once.
        buf.release();
        assertThat(chunk.isIdle()).isTrue();

        CompletableFuture<ByteBuf> allocated = new CompletableFuture<>();
        CompletableFuture<Void> released = new CompletableFuture<>();
        CompletableFuture<Boolean> chunkEmptyAfterRelease = new CompletableFuture<>();
        FastThreadLocalThread owner = new FastThreadLocalThread(() -> {
            ByteBuf b = alloc.heapBuffer(20_000);
            allocated.complete(b);
            released.join();
            ByteBuf again = alloc.heapBuffer(20_000);
            chunkEmptyAfterRelease.complete(pooled(again).chunk.isEmpty());
            again.release();
        });
        owner.start();
        ByteBuf foreign = allocated.get(30, TimeUnit.SECONDS);
        PoolChunk<?> foreignChunk = pooled(foreign).chunk;
        foreign.release();
        assertThat(foreignChunk.isIdle()).as("freed to the arena by the releasing (plain) thread").isTrue();
        released.complete(null);
        assertThat(chunkEmptyAfterRelease.get(30, TimeUnit.SECONDS)).isFalse();
        owner.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(owner.isAlive()).isFalse();
    }

    @Test
    void thePeriodicTrimGivesBackWhatAThreadStoppedUsing() throws Exception {
        PooledByteBufAllocator alloc = heapOnly(1);
        onEventLoopThread(() -> {
            // Fill the cache of one class, then stop using that class.
            List<ByteBuf> bufs = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                bufs.add(alloc.heapBuffer(20_000));
            }
            for (ByteBuf b : bufs) {
                b.release();
            }
            assertThat(alloc.currentThreadCachedEntries()).isEqualTo(10);
            // A trim interval of traffic in another class: at the trim the ten entries, never handed out since
            // they were cached, are freed; only the one entry the traffic keeps reusing stays.
            for (int i = 0; i < PoolThreadCache.TRIM_INTERVAL_ALLOCATIONS + 1; i++) {
                alloc.heapBuffer(64).release();
            }
            assertThat(alloc.currentThreadCachedEntries()).isEqualTo(1);
            return null;
        });
    }

    @Test
    void aThreadCacheKeepsABoundedNumberOfRegions() throws Exception {
        PooledByteBufAllocator alloc = new PooledByteBufAllocator(false, 1, 0, PAGE, 4 << 20);
        int size = PoolThreadCache.MAX_CACHED_BYTES;
        long freeWhileCached = onEventLoopThread(() -> {
            List<ByteBuf> bufs = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                bufs.add(alloc.heapBuffer(size));
            }
            PoolChunk<?> chunk = pooled(bufs.get(0)).chunk;
            for (ByteBuf buf : bufs) {
                buf.release();
            }
            return (long) chunk.freeBytes();
        });
        assertThat(freeWhileCached).isEqualTo((4 << 20) - (long) PoolThreadCache.normalEntries(size) * size);
        assertThat(alloc.metric().numHeapChunks()).isEqualTo(1);
    }

    @Test
    void metricsFollowWhatIsAllocatedAndReleased() throws Exception {
        PooledByteBufAllocator alloc = new PooledByteBufAllocator(true, 2, 1, PAGE, CHUNK);
        PooledByteBufAllocatorMetric metric = alloc.metric();
        assertThat(metric.numHeapArenas()).isEqualTo(2);
        assertThat(metric.numDirectArenas()).isEqualTo(1);
        assertThat(metric.chunkSize()).isEqualTo(CHUNK);
        assertThat(metric.pageSize()).isEqualTo(PAGE);
        assertThat(metric.usedHeapMemory()).isZero();
        assertThat(metric.usedDirectMemory()).isZero();

        ByteBuf heap = track(alloc.heapBuffer(100));
        ByteBuf direct = track(alloc.directBuffer(3 * CHUNK / 4));
        ByteBuf direct2 = track(alloc.directBuffer(3 * CHUNK / 4));
        ByteBuf huge = track(alloc.directBuffer(CHUNK + 10));
        assertThat(metric.numHeapChunks()).isEqualTo(1);
        assertThat(metric.heapArenaChunks(0) + metric.heapArenaChunks(1)).isEqualTo(1);
        assertThat(metric.directArenaChunks(0)).isEqualTo(2);
        assertThat(metric.usedHeapMemory()).isEqualTo(CHUNK);
        assertThat(metric.usedDirectMemory()).isEqualTo(2L * CHUNK + CHUNK + 10);
        assertThat(metric.numHugeAllocations()).isEqualTo(1);
        assertThatThrownBy(() -> metric.heapArenaChunks(2)).isInstanceOf(IndexOutOfBoundsException.class);

        huge.release();
        direct.release();
        direct2.release();
        heap.release();
        assertThat(metric.usedDirectMemory()).isEqualTo(CHUNK);
        assertThat(metric.numDirectChunks()).isEqualTo(1);

        int cachesWhileBound = onEventLoopThread(() -> {
            alloc.heapBuffer(8).release();
            return metric.numThreadCaches();
        });
        assertThat(cachesWhileBound).isEqualTo(1);
        assertThat(metric.numThreadCaches()).isZero();
        assertThat(metric.toString()).contains("usedDirectMemory: " + CHUNK);
    }

    @Test
    void badArgumentsAreRejectedWithTheValue() {
        assertThatThrownBy(() -> new PooledByteBufAllocator(false, -1, 1, PAGE, CHUNK))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        assertThatThrownBy(() -> new PooledByteBufAllocator(false, 1, -2, PAGE, CHUNK))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-2");
        assertThatThrownBy(() -> new PooledByteBufAllocator(false, 1, 1, 5000, CHUNK))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("5000");
    }

    @Test
    void withoutArenasBuffersAreServedUnpooled() {
        PooledByteBufAllocator alloc = new PooledByteBufAllocator(false, 0, 0, PAGE, CHUNK);
        ByteBuf heap = track(alloc.heapBuffer(10));
        ByteBuf direct = track(alloc.directBuffer(10));
        assertThat(untracked(heap)).isNotInstanceOf(PooledByteBuf.class);
        assertThat(untracked(direct)).isNotInstanceOf(PooledByteBuf.class);
        assertThat(alloc.isDirectBufferPooled()).isFalse();
        heap.release();
        direct.release();
    }

    @Test
    void theSharedInstanceHandsOutPooledBuffers() {
        ByteBuf buf = track(PooledByteBufAllocator.DEFAULT.heapBuffer(300));
        assertThat(untracked(buf)).isInstanceOf(PooledHeapByteBuf.class);
        assertThat(buf.capacity()).isEqualTo(300);
        buf.release();
    }
}
