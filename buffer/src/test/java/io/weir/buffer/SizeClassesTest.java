package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SizeClassesTest {
    private final SizeClasses classes = new SizeClasses(8192, 4 * 1024 * 1024);

    @Test
    void classesStartAtTheQuantumAndEndAtTheChunk() {
        assertThat(classes.idxToSize(0)).isEqualTo(16);
        assertThat(classes.idxToSize(classes.nSizes() - 1)).isEqualTo(4 * 1024 * 1024);
        assertThat(classes.idxToSize(4)).isEqualTo(80);
        assertThat(classes.idxToSize(8)).isEqualTo(160);
    }

    @Test
    void everyGroupSpansOneDoublingInFourStepsSoRoundingWastesAtMostAQuarter() {
        for (int i = 1; i < classes.nSizes(); i++) {
            int prev = classes.idxToSize(i - 1);
            int size = classes.idxToSize(i);
            assertThat(size).isGreaterThan(prev);
            assertThat((long) (size - prev) * 4).isLessThanOrEqualTo(Math.max(64L, (long) prev));
        }
    }

    @Test
    void everySizeMapsToTheSmallestClassHoldingIt() {
        for (int size = 0; size <= 300_000; size += size < 10_000 ? 1 : 97) {
            int idx = classes.sizeToIdx(size);
            assertThat(classes.idxToSize(idx)).isGreaterThanOrEqualTo(size);
            if (idx > 0) {
                assertThat(classes.idxToSize(idx - 1)).isLessThan(size);
            }
            assertThat(classes.normalize(size)).isEqualTo(classes.idxToSize(idx));
        }
        for (int idx = 0; idx < classes.nSizes(); idx++) {
            int size = classes.idxToSize(idx);
            assertThat(classes.sizeToIdx(size)).isEqualTo(idx);
            assertThat(classes.sizeToIdx(size - 1)).isEqualTo(idx == 0 || classes.idxToSize(idx - 1) < size - 1 ? idx : idx - 1);
            if (idx + 1 < classes.nSizes()) {
                assertThat(classes.sizeToIdx(size + 1)).isEqualTo(idx + 1);
            }
        }
    }

    @Test
    void smallClassesFillTheirRunsExactlyAndNormalClassesAreWholePages() {
        for (int idx = 0; idx < classes.nSizes(); idx++) {
            int size = classes.idxToSize(idx);
            if (classes.isSmall(idx)) {
                assertThat(size).isLessThan(4 * 8192);
                assertThat((classes.smallRunPages(idx) * 8192) % size).isZero();
            } else {
                assertThat(size % 8192).isZero();
                assertThat(classes.normalPages(idx)).isEqualTo(size / 8192);
            }
        }
    }

    @Test
    void pageBinsBracketEveryRunLength() {
        for (int pages = 1; pages <= classes.chunkPages; pages++) {
            int floor = classes.pagesToPageIdxFloor(pages);
            int ceil = classes.pagesToPageIdxCeil(pages);
            assertThat(classes.pageIdxToPages(floor)).isLessThanOrEqualTo(pages);
            assertThat(classes.pageIdxToPages(ceil)).isGreaterThanOrEqualTo(pages);
            assertThat(ceil - floor).isBetween(0, 1);
        }
    }

    @Test
    void badGeometryIsRejectedWithTheValue() {
        assertThatThrownBy(() -> new SizeClasses(3000, 1 << 22)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3000");
        assertThatThrownBy(() -> new SizeClasses(8192, 3 << 20)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(String.valueOf(3 << 20));
        assertThatThrownBy(() -> new SizeClasses(8192, 8192)).isInstanceOf(IllegalArgumentException.class);
    }
}
