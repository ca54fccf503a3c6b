package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PoolChunkTest {
    private static final int PAGE = 8192;
    private static final int CHUNK = 1 << 20;
    private final SizeClasses classes = new SizeClasses(PAGE, CHUNK);

    private PoolChunk<byte[]> newChunk() {
        return new PoolChunk<>(null, new byte[CHUNK], classes);
    }

    @Test
    void handlesRoundTripEveryField() {
        long handle = PoolChunk.handle(16383, 16384 - 1, true, 511);
        assertThat(PoolChunk.runOffset(handle)).isEqualTo(16383);
        assertThat(PoolChunk.runPages(handle)).isEqualTo(16383);
        assertThat(PoolChunk.isUsed(handle)).isTrue();
        assertThat(PoolChunk.isSubpage(handle)).isTrue();
        assertThat(PoolChunk.bitmapIdx(handle)).isEqualTo(511);
        long run = PoolChunk.handle(3, 128, false, 0);
        assertThat(PoolChunk.isSubpage(run)).isFalse();
        assertThat(PoolChunk.runPages(run)).isEqualTo(128);
        assertThat(run).isNotEqualTo(PoolChunk.NO_HANDLE);
    }

    @Test
    void runsOfMixedLengthsFillTheChunkAndFreeingThemInAnyOrderMergesItBackToOneRun() {
        Random random = new Random(42);
        for (int round = 0; round < 20; round++) {
            PoolChunk<byte[]> chunk = newChunk();
            List<Long> handles = new ArrayList<>();
            int pagesTaken = 0;
            while (true) {
                int pages = 1 + random.nextInt(12);
                long handle = chunk.allocateRun(pages);
                if (handle == PoolChunk.NO_HANDLE) {
                    break;
                }
                assertThat(PoolChunk.runPages(handle)).isEqualTo(pages);
                handles.add(handle);
                pagesTaken += pages;
            }
            assertThat(chunk.freeBytes()).isEqualTo(CHUNK - pagesTaken * PAGE).isLessThan(12 * PAGE);
            assertRunsDisjoint(handles);
            Collections.shuffle(handles, random);
            for (long handle : handles) {
                chunk.free(handle, false);
            }
            assertThat(chunk.isEmpty()).isTrue();
            long whole = chunk.allocateRun(CHUNK / PAGE);
            assertThat(whole).isNotEqualTo(PoolChunk.NO_HANDLE);
            assertThat(PoolChunk.runOffset(whole)).isZero();
        }
    }

    @Test
    void aRequestTakesTheBestFittingFreeRunNotTheFirst() {
        PoolChunk<byte[]> chunk = newChunk();
        long a = chunk.allocateRun(8);
        long gapOf8 = chunk.allocateRun(8);
        long b = chunk.allocateRun(1);
        long gapOf1 = chunk.allocateRun(1);
        long c = chunk.allocateRun(1);
        chunk.free(gapOf8, false);
        chunk.free(gapOf1, false);
        long one = chunk.allocateRun(1);
        assertThat(PoolChunk.runOffset(one)).isEqualTo(PoolChunk.runOffset(gapOf1));
        for (long h : new long[] {a, b, c, one}) {
            chunk.free(h, false);
        }
        assertThat(chunk.isEmpty()).isTrue();
    }

    private static void assertRunsDisjoint(List<Long> handles) {
        boolean[] taken = new boolean[CHUNK / PAGE];
        for (long handle : handles) {
            for (int p = PoolChunk.runOffset(handle); p < PoolChunk.runOffset(handle) + PoolChunk.runPages(handle); p++) {
                assertThat(taken[p]).as("page %d handed out twice", p).isFalse();
                taken[p] = true;
            }
        }
    }
}
