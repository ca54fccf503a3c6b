package io.weir.util.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;
import org.junit.jupiter.api.Test;

class MemoryAccessTest {
    private static final boolean LITTLE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    @Test
    void addressMethodsAreAvailableExactlyWhenUnsafeIs() {
        assertThat(MemoryAccess.hasAddress())
                .isEqualTo(PlatformInfo.hasUnsafe() && MemoryAccess.isUnalignedAccessSafe(PlatformInfo.arch()));
        if (!MemoryAccess.hasAddress()) {
            assertThatThrownBy(() -> MemoryAccess.getInt(1L)).isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("hasAddress");
            assertThatThrownBy(() -> MemoryAccess.directBufferAddress(ByteBuffer.allocateDirect(1)))
                    .isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(MemoryAccess::byteArrayBaseOffset).isInstanceOf(UnsupportedOperationException.class);
        }
    }

    @Test
    void arrayAccessUsesNativeOrderAndBigEndianHelpersUseNetworkOrder() {
        byte[] a = new byte[16];
        MemoryAccess.putIntBE(a, 1, 0x01020304);
        assertThat(a).startsWith(0, 1, 2, 3, 4);
        assertThat(MemoryAccess.getIntBE(a, 1)).isEqualTo(0x01020304);
        assertThat(MemoryAccess.getInt(a, 1)).isEqualTo(LITTLE ? 0x04030201 : 0x01020304);

        MemoryAccess.putLongBE(a, 3, 0x1122334455667788L);
        assertThat(ByteBuffer.wrap(a).getLong(3)).isEqualTo(0x1122334455667788L);
        assertThat(MemoryAccess.getLong(a, 3)).isEqualTo(ByteBuffer.wrap(a).order(ByteOrder.nativeOrder()).getLong(3));

        MemoryAccess.putShortBE(a, 15 - 1, (short) 0xCAFE);
        assertThat(a[14]).isEqualTo((byte) 0xCA);
        assertThat(a[15]).isEqualTo((byte) 0xFE);
        MemoryAccess.putShort(a, 0, (short) 0x0102);
        assertThat(MemoryAccess.getShortBE(a, 0)).isEqualTo(LITTLE ? (short) 0x0201 : (short) 0x0102);

        MemoryAccess.putByte(a, 7, (byte) -5);
        assertThat(MemoryAccess.getByte(a, 7)).isEqualTo((byte) -5);
    }

    @Test
    void arrayAccessOutsideTheArrayThrowsInsteadOfCorruptingTheHeap() {
        byte[] a = new byte[8];
        assertThatThrownBy(() -> MemoryAccess.getInt(a, 5)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> MemoryAccess.putLong(a, 1, 1L)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> MemoryAccess.putShort(a, -1, (short) 1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> MemoryAccess.getByte(a, 8)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> MemoryAccess.setMemory(a, 4, 5, (byte) 1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(a).containsOnly(0);
    }

    @Test
    void byteBufferAccessWorksOnHeapAndDirectBuffersAndIgnoresPosition() {
        for (ByteBuffer b : new ByteBuffer[] {ByteBuffer.allocate(32), ByteBuffer.allocateDirect(32)}) {
            b.position(20);
            MemoryAccess.putLongBE(b, 0, 0x0102030405060708L);
            MemoryAccess.putInt(b, 8, 42);
            MemoryAccess.putShortBE(b, 12, (short) 0xBEEF);
            MemoryAccess.putByte(b, 31, (byte) 9);
            assertThat(b.position()).isEqualTo(20);
            assertThat(b.getLong(0)).isEqualTo(0x0102030405060708L);
            assertThat(MemoryAccess.getLong(b, 0)).isEqualTo(LITTLE ? 0x0807060504030201L : 0x0102030405060708L);
            assertThat(MemoryAccess.getInt(b, 8)).isEqualTo(42);
            assertThat(MemoryAccess.getIntBE(b, 8)).isEqualTo(LITTLE ? Integer.reverseBytes(42) : 42);
            assertThat(MemoryAccess.getShortBE(b, 12)).isEqualTo((short) 0xBEEF);
            assertThat(MemoryAccess.getShort(b, 12)).isEqualTo(b.duplicate().order(ByteOrder.nativeOrder()).getShort(12));
            assertThat(MemoryAccess.getByte(b, 31)).isEqualTo((byte) 9);
            assertThatThrownBy(() -> MemoryAccess.getInt(b, 29)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> MemoryAccess.putInt(b.asReadOnlyBuffer(), 0, 1))
                    .isInstanceOf(ReadOnlyBufferException.class);
        }
    }

    @Test
    void byteBufferCopyAndFillCoverOverlapsAndTails() {
        for (ByteBuffer b : new ByteBuffer[] {ByteBuffer.allocate(64), ByteBuffer.allocateDirect(64)}) {
            for (int i = 0; i < 64; i++) {
                b.put(i, (byte) i);
            }
            MemoryAccess.copyMemory(b, 0, b, 4, 20);
            for (int i = 0; i < 20; i++) {
                assertThat(b.get(4 + i)).isEqualTo((byte) i);
            }
            MemoryAccess.setMemory(b, 30, 13, (byte) 0x7F);
            assertThat(b.get(29)).isEqualTo((byte) 29);
            for (int i = 30; i < 43; i++) {
                assertThat(b.get(i)).isEqualTo((byte) 0x7F);
            }
            assertThat(b.get(43)).isEqualTo((byte) 43);

            byte[] out = new byte[10];
            MemoryAccess.copyMemory(b, 30, out, 0, 10);
            assertThat(out).containsOnly(0x7F);
            MemoryAccess.copyMemory(new byte[] {1, 2, 3}, 0, b, 61, 3);
            assertThat(b.get(63)).isEqualTo((byte) 3);
            assertThatThrownBy(() -> MemoryAccess.copyMemory(new byte[4], 0, b, 62, 4))
                    .isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> MemoryAccess.setMemory(b, 60, 5, (byte) 0))
                    .isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> MemoryAccess.setMemory(b.asReadOnlyBuffer(), 0, 1, (byte) 0))
                    .isInstanceOf(ReadOnlyBufferException.class);
        }
    }

    @Test
    void rawAddressAccessRoundTripsThroughDirectMemory() {
        if (!MemoryAccess.hasAddress()) {
            assertThatThrownBy(() -> MemoryAccess.copyMemory(1L, 2L, 3L))
                    .isInstanceOf(UnsupportedOperationException.class);
            return;
        }
        DirectMemory memory = DirectMemory.withLimit(1 << 20);
        ByteBuffer buffer = memory.allocate(64);
        try {
            long address = MemoryAccess.directBufferAddress(buffer);
            MemoryAccess.setMemory(address, 64, (byte) 0);
            MemoryAccess.putLongBE(address + 1, 0x0102030405060708L);
            assertThat(buffer.getLong(1)).isEqualTo(0x0102030405060708L);
            assertThat(MemoryAccess.getLong(address + 1)).isEqualTo(MemoryAccess.getLong(buffer, 1));
            MemoryAccess.putIntBE(address + 20, 0xA0B0C0D0);
            assertThat(MemoryAccess.getIntBE(address + 20)).isEqualTo(0xA0B0C0D0);
            assertThat(buffer.getInt(20)).isEqualTo(0xA0B0C0D0);
            MemoryAccess.putShortBE(address + 30, (short) 0x1234);
            assertThat(MemoryAccess.getShort(address + 30)).isEqualTo(MemoryAccess.getShort(buffer, 30));
            MemoryAccess.putByte(address + 63, (byte) 1);
            assertThat(MemoryAccess.getByte(address + 63)).isEqualTo((byte) 1);

            byte[] source = {9, 8, 7, 6, 5};
            MemoryAccess.copyMemory(source, 1, address + 40, 4);
            assertThat(buffer.get(40)).isEqualTo((byte) 8);
            assertThat(buffer.get(43)).isEqualTo((byte) 5);
            MemoryAccess.copyMemory(address + 40, address + 50, 4);
            byte[] back = new byte[6];
            MemoryAccess.copyMemory(address + 50, back, 2, 4);
            assertThat(back).containsExactly(0, 0, 8, 7, 6, 5);
            assertThatThrownBy(() -> MemoryAccess.copyMemory(address, back, 3, 4))
                    .isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> MemoryAccess.copyMemory(source, 2, address, 4))
                    .isInstanceOf(IndexOutOfBoundsException.class);
            assertThat(MemoryAccess.byteArrayBaseOffset()).isPositive();
        } finally {
            memory.free(buffer);
        }
    }
}
