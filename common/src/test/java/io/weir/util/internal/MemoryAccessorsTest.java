package io.weir.util.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.util.platform.PlatformInfo;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Both memory paths checked directly, whichever one MemoryAccess picked in this JVM. */
class MemoryAccessorsTest {

    @Test
    void varHandlePathMatchesByteBufferSemantics() {
        byte[] a = new byte[32];
        ByteBuffer nativeView = ByteBuffer.wrap(a).order(ByteOrder.nativeOrder());
        ByteBuffer bigEndianView = ByteBuffer.wrap(a);
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 1000; i++) {
            int index = random.nextInt(a.length - 7);
            long value = random.nextLong();
            VarHandleMemoryAccessor.putLong(a, index, value);
            assertThat(nativeView.getLong(index)).isEqualTo(value);
            assertThat(VarHandleMemoryAccessor.getLongBE(a, index)).isEqualTo(bigEndianView.getLong(index));
            VarHandleMemoryAccessor.putIntBE(a, index, (int) value);
            assertThat(bigEndianView.getInt(index)).isEqualTo((int) value);
            assertThat(VarHandleMemoryAccessor.getInt(a, index)).isEqualTo(nativeView.getInt(index));
            VarHandleMemoryAccessor.putShortBE(a, index, (short) value);
            assertThat(bigEndianView.getShort(index)).isEqualTo((short) value);
            VarHandleMemoryAccessor.putShort(a, index, (short) value);
            assertThat(VarHandleMemoryAccessor.getShort(a, index)).isEqualTo((short) value);
            assertThat(VarHandleMemoryAccessor.getShortBE(a, index)).isEqualTo(bigEndianView.getShort(index));
            VarHandleMemoryAccessor.putLongBE(a, index, value);
            assertThat(bigEndianView.getLong(index)).isEqualTo(value);
            VarHandleMemoryAccessor.putInt(a, index, (int) value);
            assertThat(nativeView.getInt(index)).isEqualTo((int) value);
        }
        assertThatThrownBy(() -> VarHandleMemoryAccessor.getLong(a, 25)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> VarHandleMemoryAccessor.putInt(a, -1, 0)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void unsafePathAgreesWithVarHandlePathAndChecksArrayBounds() {
        if (!PlatformInfo.hasUnsafe()) {
            // The no-Unsafe run must never load the Unsafe accessor; MemoryAccessTest covers what it sees.
            assertThat(PlatformInfo.unsafeUnavailabilityCause()).isNotNull();
            return;
        }
        byte[] a = new byte[24];
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 1000; i++) {
            int index = random.nextInt(a.length - 7);
            long value = random.nextLong();
            UnsafeMemoryAccessor.putLong(a, index, value);
            assertThat(VarHandleMemoryAccessor.getLong(a, index)).isEqualTo(value);
            UnsafeMemoryAccessor.putInt(a, index, (int) value);
            assertThat(VarHandleMemoryAccessor.getInt(a, index)).isEqualTo((int) value);
            UnsafeMemoryAccessor.putShort(a, index, (short) value);
            assertThat(VarHandleMemoryAccessor.getShort(a, index)).isEqualTo((short) value);
            VarHandleMemoryAccessor.putLong(a, index, ~value);
            assertThat(UnsafeMemoryAccessor.getLong(a, index)).isEqualTo(~value);
            assertThat(UnsafeMemoryAccessor.getInt(a, index)).isEqualTo(VarHandleMemoryAccessor.getInt(a, index));
            assertThat(UnsafeMemoryAccessor.getShort(a, index)).isEqualTo(VarHandleMemoryAccessor.getShort(a, index));
            assertThat(UnsafeMemoryAccessor.getByte(a, index)).isEqualTo(a[index]);
        }
        assertThatThrownBy(() -> UnsafeMemoryAccessor.getLong(a, 17)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> UnsafeMemoryAccessor.putInt(a, 21, 0)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> UnsafeMemoryAccessor.putShort(a, -1, (short) 0))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> UnsafeMemoryAccessor.getByte(a, 24)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> UnsafeMemoryAccessor.copyMemory(0L, a, 20, 5))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> UnsafeMemoryAccessor.setMemory(0L, -1, (byte) 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void unsafeBulkCopyCrossesItsSafepointSliceBoundary() {
        if (!PlatformInfo.hasUnsafe()) {
            return;
        }
        int size = (int) UnsafeMemoryAccessor.MAX_BYTES_PER_UNSAFE_CALL * 2 + 3;
        ByteBuffer direct = ByteBuffer.allocateDirect(size);
        long address = UnsafeMemoryAccessor.directBufferAddress(direct);
        byte[] source = new byte[size];
        new SplittableRandom(3).nextBytes(source);
        UnsafeMemoryAccessor.copyMemory(source, 0, address, size);
        byte[] back = new byte[size];
        UnsafeMemoryAccessor.copyMemory(address, back, 0, size);
        assertThat(back).isEqualTo(source);
        UnsafeMemoryAccessor.setMemory(address, size, (byte) 5);
        assertThat(direct.get(size - 1)).isEqualTo((byte) 5);
        assertThat(direct.get(0)).isEqualTo((byte) 5);
        java.lang.ref.Reference.reachabilityFence(direct);
    }
}
