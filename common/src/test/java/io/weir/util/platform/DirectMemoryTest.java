package io.weir.util.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.util.OutOfDirectMemoryError;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class DirectMemoryTest {

    @Test
    void allocationsBeyondTheLimitAreRefusedWithSizesInTheMessage() {
        DirectMemory memory = DirectMemory.withLimit(100);
        ByteBuffer first = memory.allocate(60);
        assertThat(first.isDirect()).isTrue();
        assertThat(first.capacity()).isEqualTo(60);
        assertThat(memory.usedDirectMemory()).isEqualTo(60);

        assertThatThrownBy(() -> memory.allocate(50))
                .isInstanceOf(OutOfDirectMemoryError.class)
                .isInstanceOf(OutOfMemoryError.class)
                .hasMessageContaining("50 byte(s)")
                .hasMessageContaining("used: 60 bytes")
                .hasMessageContaining("max: 100 bytes")
                .satisfies(e -> {
                    OutOfDirectMemoryError error = (OutOfDirectMemoryError) e;
                    assertThat(error.requestedBytes()).isEqualTo(50);
                    assertThat(error.usedBytes()).isEqualTo(60);
                    assertThat(error.maxBytes()).isEqualTo(100);
                });
        assertThat(memory.usedDirectMemory()).isEqualTo(60);

        ByteBuffer second = memory.allocate(40);
        assertThat(memory.usedDirectMemory()).isEqualTo(100);
        memory.free(first);
        memory.free(second);
        assertThat(memory.usedDirectMemory()).isZero();
        memory.free(memory.allocate(100));
    }

    @Test
    void doubleFreeIsRefusedInsteadOfCrashingTheJvm() {
        DirectMemory memory = DirectMemory.withLimit(1024);
        ByteBuffer buffer = memory.allocate(16);
        memory.free(buffer);
        assertThatThrownBy(() -> memory.free(buffer)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("already freed");
        assertThatThrownBy(() -> memory.reallocate(buffer, 32)).isInstanceOf(IllegalArgumentException.class);
        assertThat(memory.usedDirectMemory()).isZero();
    }

    @Test
    void foreignSlicesAndBuffersOfOtherInstancesCannotBeFreed() {
        DirectMemory memory = DirectMemory.withLimit(1024);
        DirectMemory other = DirectMemory.withLimit(1024);
        ByteBuffer buffer = memory.allocate(16);
        assertThatThrownBy(() -> memory.free(buffer.slice())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> memory.free(buffer.duplicate())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> memory.free(ByteBuffer.allocateDirect(16))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> other.free(buffer)).isInstanceOf(IllegalArgumentException.class);
        assertThat(memory.usedDirectMemory()).isEqualTo(16);
        memory.free(buffer);
    }

    @Test
    void reallocateKeepsContentWhenGrowingAndShrinking() {
        DirectMemory memory = DirectMemory.withLimit(1 << 20);
        ByteBuffer buffer = memory.allocate(100);
        for (int i = 0; i < 100; i++) {
            buffer.put(i, (byte) (i * 3));
        }
        ByteBuffer grown = memory.reallocate(buffer, 5000);
        assertThat(grown.capacity()).isEqualTo(5000);
        assertThat(memory.usedDirectMemory()).isEqualTo(5000);
        for (int i = 0; i < 100; i++) {
            assertThat(grown.get(i)).isEqualTo((byte) (i * 3));
        }
        ByteBuffer shrunk = memory.reallocate(grown, 10);
        assertThat(shrunk.capacity()).isEqualTo(10);
        assertThat(memory.usedDirectMemory()).isEqualTo(10);
        for (int i = 0; i < 10; i++) {
            assertThat(shrunk.get(i)).isEqualTo((byte) (i * 3));
        }
        memory.free(shrunk);
        assertThat(memory.usedDirectMemory()).isZero();
    }

    @Test
    void refusedGrowthLeavesTheOldBufferOwnedAndIntact() {
        DirectMemory memory = DirectMemory.withLimit(100);
        ByteBuffer buffer = memory.allocate(80);
        buffer.put(79, (byte) 42);
        assertThatThrownBy(() -> memory.reallocate(buffer, 101)).isInstanceOf(OutOfDirectMemoryError.class)
                .hasMessageContaining("21 byte(s)");
        assertThat(buffer.get(79)).isEqualTo((byte) 42);
        assertThat(memory.usedDirectMemory()).isEqualTo(80);
        memory.free(buffer);
        assertThat(memory.usedDirectMemory()).isZero();
    }

    @Test
    void concurrentAllocationsNeverExceedTheLimit() throws Exception {
        DirectMemory memory = DirectMemory.withLimit(64 * 10);
        Thread[] threads = new Thread[4];
        java.util.concurrent.atomic.AtomicLong maxSeen = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.ConcurrentLinkedQueue<Throwable> errors = new java.util.concurrent.ConcurrentLinkedQueue<>();
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 2000; i++) {
                    try {
                        ByteBuffer b = memory.allocate(64);
                        maxSeen.accumulateAndGet(memory.usedDirectMemory(), Math::max);
                        memory.free(b);
                    } catch (OutOfDirectMemoryError expected) {
                        // Only possible when ten are held at once, which four threads cannot do.
                        errors.add(expected);
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                }
            });
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join(30_000);
            assertThat(thread.isAlive()).isFalse();
        }
        assertThat(errors).isEmpty();
        assertThat(maxSeen.get()).isLessThanOrEqualTo(64 * 4);
        assertThat(memory.usedDirectMemory()).isZero();
    }

    @Test
    void invalidArgumentsAreRejectedWithTheValue() {
        assertThatThrownBy(() -> DirectMemory.withLimit(0)).hasMessageContaining("maxBytes: 0");
        DirectMemory memory = DirectMemory.withLimit(10);
        assertThatThrownBy(() -> memory.allocate(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
        memory.free(memory.allocate(0));
    }

    @Test
    void globalLimitFollowsTheJvm() {
        assertThat(DirectMemory.jvmMaxDirectMemory()).isPositive();
        assertThat(DirectMemory.global().maxDirectMemory()).isEqualTo(DirectMemory.jvmMaxDirectMemory());
        assertThat(DirectMemory.isFreedImmediately()).isEqualTo(PlatformInfo.hasUnsafe());
        long before = DirectMemory.global().usedDirectMemory();
        ByteBuffer b = DirectMemory.global().allocate(1000);
        assertThat(DirectMemory.global().usedDirectMemory()).isGreaterThanOrEqualTo(before + 1000);
        DirectMemory.global().free(b);
    }

    @Test
    void maxDirectMemorySizeFlagIsParsedWithUnitsAndLastOneWins() {
        assertThat(DirectMemory.parseMaxDirectMemorySize(List.of("-Xmx1g"))).isEqualTo(-1);
        assertThat(DirectMemory.parseMaxDirectMemorySize(List.of("-XX:MaxDirectMemorySize=1024"))).isEqualTo(1024);
        assertThat(DirectMemory.parseMaxDirectMemorySize(List.of("-XX:MaxDirectMemorySize=64k"))).isEqualTo(65536);
        assertThat(DirectMemory.parseMaxDirectMemorySize(
                List.of("-XX:MaxDirectMemorySize=2M", "-XX:MaxDirectMemorySize=3g"))).isEqualTo(3L << 30);
        assertThat(DirectMemory.parseMaxDirectMemorySize(List.of("-XX:MaxDirectMemorySize=lots"))).isEqualTo(-1);
        assertThat(DirectMemory.parseMaxDirectMemorySize(List.of("-XX:MaxDirectMemorySize=99999999999t")))
                .isEqualTo(-1);
    }
}
