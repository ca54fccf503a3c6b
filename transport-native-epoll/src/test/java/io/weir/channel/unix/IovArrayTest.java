package io.weir.channel.unix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.epoll.Epoll;
import io.weir.util.platform.PlatformInfo;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class IovArrayTest {

    @BeforeAll
    static void loadNatives() {
        assumeTrue(PlatformInfo.isLinux(), "the native transport exists only on Linux");
        Epoll.ensureAvailability();
    }

    /** Entry {@code i}'s (base, length) read back from the native memory. */
    private static long[] entry(IovArray iov, int i) {
        ByteBuffer view = UnixNative.wrapMemory(iov.memoryAddress(i, 1), IovArray.IOV_SIZE_BYTES)
                .order(ByteOrder.nativeOrder());
        return new long[] {view.getLong(0), view.getLong(8)};
    }

    @Test
    void entriesHoldTheAddressAndLengthOfTheReadableBytes() {
        ByteBuf buf = Unpooled.directBuffer(32);
        try (IovArray iov = new IovArray()) {
            buf.writeBytes(new byte[20]);
            buf.readerIndex(5);
            assertThat(iov.add(buf)).isTrue();
            long[] e = entry(iov, 0);
            long base = buf.hasMemoryAddress() ? buf.memoryAddress()
                    : UnixNative.directBufferAddress(buf.nioBuffer(0, buf.capacity()))
                            + buf.nioBuffer(0, buf.capacity()).position();
            assertThat(e[0]).isEqualTo(base + 5);
            assertThat(e[1]).isEqualTo(15);
        } finally {
            buf.release();
        }
    }

    @Test
    void heapBuffersAreRefusedNotSilentlyCopied() {
        ByteBuf heap = Unpooled.buffer(8).writeBytes(new byte[8]);
        try (IovArray iov = new IovArray()) {
            assertThatThrownBy(() -> iov.add(heap)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("heap");
            assertThat(iov.count()).isZero();
        } finally {
            heap.release();
        }
    }

    @Test
    void byteLimitStopsAddingButTheFirstEntryAlwaysFits() {
        ByteBuf buf = Unpooled.directBuffer(100).writeBytes(new byte[100]);
        try (IovArray iov = new IovArray()) {
            iov.maxBytes(60);
            assertThat(iov.add(buf, 0, 100)).as("first entry, larger than the limit").isTrue();
            assertThat(iov.add(buf, 0, 1)).as("past the limit").isFalse();
            assertThat(iov.count()).isEqualTo(1);
            iov.clear();
            assertThat(iov.add(buf, 0, 40)).isTrue();
            assertThat(iov.add(buf, 40, 20)).isTrue();
            assertThat(iov.add(buf, 60, 1)).isFalse();
            assertThat(iov.size()).isEqualTo(60);
        } finally {
            buf.release();
        }
    }

    @Test
    void entryLimitIsIovMax() {
        ByteBuf buf = Unpooled.directBuffer(8).writeBytes(new byte[8]);
        try (IovArray iov = new IovArray()) {
            for (int i = 0; i < IovArray.maxCount(); i++) {
                assertThat(iov.add(buf, i % 8, 1)).isTrue();
            }
            assertThat(iov.add(buf, 0, 1)).isFalse();
            assertThat(iov.add(buf)).as("the readable-bytes path keeps the same limit").isFalse();
            assertThat(iov.count()).isEqualTo(IovArray.maxCount());
            assertThat(iov.size()).isEqualTo(IovArray.maxCount());
        } finally {
            buf.release();
        }
    }

    @Test
    void emptyRangesAddNothingAndBadRangesFailWithTheIndexes() {
        ByteBuf buf = Unpooled.directBuffer(8);
        try (IovArray iov = new IovArray()) {
            assertThat(iov.add(buf, 0, 0)).isTrue();
            assertThat(iov.count()).isZero();
            assertThatThrownBy(() -> iov.add(buf, 6, 4)).isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessageContaining("6").hasMessageContaining("4");
            assertThatThrownBy(() -> iov.memoryAddress(0, 1)).isInstanceOf(IndexOutOfBoundsException.class);
        } finally {
            buf.release();
        }
    }

    @Test
    void closedArrayRefusesUse() {
        IovArray iov = new IovArray();
        iov.close();
        iov.close();
        assertThatThrownBy(() -> iov.add(1L, 1)).isInstanceOf(IllegalStateException.class);
    }
}
