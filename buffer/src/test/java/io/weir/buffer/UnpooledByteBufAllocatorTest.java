package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.util.platform.DirectMemory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class UnpooledByteBufAllocatorTest {

    @Test
    void growthDoublesFromSixtyFourUpToFourMebibytesThenStepsByFourMebibytes() {
        ByteBufAllocator alloc = UnpooledByteBufAllocator.DEFAULT;
        int mib = 1024 * 1024;
        assertThat(alloc.calculateNewCapacity(0, Integer.MAX_VALUE)).isEqualTo(64);
        assertThat(alloc.calculateNewCapacity(64, Integer.MAX_VALUE)).isEqualTo(64);
        assertThat(alloc.calculateNewCapacity(65, Integer.MAX_VALUE)).isEqualTo(128);
        assertThat(alloc.calculateNewCapacity(1000, Integer.MAX_VALUE)).isEqualTo(1024);
        assertThat(alloc.calculateNewCapacity(4 * mib, Integer.MAX_VALUE)).isEqualTo(4 * mib);
        assertThat(alloc.calculateNewCapacity(4 * mib + 1, Integer.MAX_VALUE)).isEqualTo(8 * mib);
        assertThat(alloc.calculateNewCapacity(9 * mib, Integer.MAX_VALUE)).isEqualTo(12 * mib);
        assertThat(alloc.calculateNewCapacity(Integer.MAX_VALUE - 1, Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
        assertThat(alloc.calculateNewCapacity(1000, 1000)).isEqualTo(1000);
        assertThat(alloc.calculateNewCapacity(65, 100)).isEqualTo(100);
        assertThatThrownBy(() -> alloc.calculateNewCapacity(101, 100)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("minNewCapacity: 101, maxCapacity: 100");
        assertThatThrownBy(() -> alloc.calculateNewCapacity(-1, 100)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void bufferFollowsThePreferenceAndDirectMemoryIsReturnedOnRelease() {
        UnpooledByteBufAllocator heapFirst = new UnpooledByteBufAllocator(false);
        ByteBuf heap = heapFirst.buffer();
        try {
            assertThat(heap.isDirect()).isFalse();
            assertThat(heap.capacity()).isEqualTo(AbstractByteBufAllocator.DEFAULT_INITIAL_CAPACITY_BYTES);
            assertThat(heap.alloc()).isSameAs(heapFirst);
        } finally {
            heap.release();
        }
        long before = DirectMemory.global().usedDirectMemory();
        ByteBuf direct = heapFirst.directBuffer(4096);
        assertThat(DirectMemory.global().usedDirectMemory()).isEqualTo(before + 4096);
        direct.writeBytes(new byte[5000]);
        assertThat(DirectMemory.global().usedDirectMemory()).isEqualTo(before + 8192);
        assertThat(direct.release()).isTrue();
        assertThat(DirectMemory.global().usedDirectMemory()).isEqualTo(before);
        ByteBuf io = heapFirst.ioBuffer(16);
        try {
            assertThat(io.isDirect()).isEqualTo(DirectMemory.isFreedImmediately());
        } finally {
            io.release();
        }
    }

    @Test
    void concurrentReleasesThroughSlicesFreeTheMemoryExactlyOnce() throws Exception {
        int threads = 4;
        int rounds = 200;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < rounds; round++) {
                long before = DirectMemory.global().usedDirectMemory();
                ByteBuf buf = UnpooledByteBufAllocator.DEFAULT.directBuffer(128);
                List<ByteBuf> owners = new ArrayList<>();
                owners.add(buf);
                for (int i = 1; i < threads; i++) {
                    owners.add(buf.retainedSlice(i, 8));
                }
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Boolean>> results = new ArrayList<>();
                for (ByteBuf owner : owners) {
                    results.add(pool.submit(() -> {
                        start.await();
                        return owner.release();
                    }));
                }
                start.countDown();
                int freed = 0;
                for (Future<Boolean> result : results) {
                    freed += result.get(10, TimeUnit.SECONDS) ? 1 : 0;
                }
                assertThat(freed).isEqualTo(1);
                assertThat(buf.refCnt()).isZero();
                assertThat(DirectMemory.global().usedDirectMemory()).isEqualTo(before);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
