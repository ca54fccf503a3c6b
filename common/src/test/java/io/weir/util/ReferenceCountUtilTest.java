package io.weir.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.util.ReferenceCountedTest.Counted;
import org.junit.jupiter.api.Test;

class ReferenceCountUtilTest {

    @Test
    void objectsThatAreNotCountedPassThroughUntouched() {
        String msg = "hello";
        assertThat(ReferenceCountUtil.retain(msg)).isSameAs(msg);
        assertThat(ReferenceCountUtil.retain(msg, 3)).isSameAs(msg);
        assertThat(ReferenceCountUtil.touch(msg)).isSameAs(msg);
        assertThat(ReferenceCountUtil.touch(msg, "hint")).isSameAs(msg);
        assertThat(ReferenceCountUtil.release(msg)).isFalse();
        assertThat(ReferenceCountUtil.release(null)).isFalse();
        assertThat(ReferenceCountUtil.safeRelease(msg)).isFalse();
        assertThat(ReferenceCountUtil.refCnt(msg)).isEqualTo(-1);
    }

    @Test
    void countedObjectsAreRetainedAndReleased() {
        Counted c = new Counted();
        assertThat(ReferenceCountUtil.retain(c, 2)).isSameAs(c);
        assertThat(ReferenceCountUtil.refCnt(c)).isEqualTo(3);
        assertThat(ReferenceCountUtil.release(c, 2)).isFalse();
        assertThat(ReferenceCountUtil.release(c)).isTrue();
        assertThat(c.deallocations).hasValue(1);
    }

    @Test
    void releaseOfAFreedObjectThrowsButSafeReleaseOnlyLogs() {
        Counted c = new Counted();
        assertThat(ReferenceCountUtil.safeRelease(c)).isTrue();
        assertThatThrownBy(() -> ReferenceCountUtil.release(c)).isExactlyInstanceOf(IllegalReferenceCountException.class);
        assertThat(ReferenceCountUtil.safeRelease(c)).isFalse();
        assertThat(ReferenceCountUtil.safeRelease(c, 2)).isFalse();
        assertThat(c.deallocations).hasValue(1);
    }

    @Test
    void nonPositiveAmountsAreRejectedEvenForPlainObjects() {
        assertThatThrownBy(() -> ReferenceCountUtil.retain("x", 0)).isExactlyInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ReferenceCountUtil.release("x", -1)).isExactlyInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ReferenceCountUtil.safeRelease("x", 0)).isExactlyInstanceOf(IllegalArgumentException.class);
    }
}
