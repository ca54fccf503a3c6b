package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.util.platform.MemoryAccess;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The contract on direct buffers reached by raw address (skipped without {@link MemoryAccess#hasAddress()}). */
class UnsafeDirectByteBufTest extends AbstractByteBufTest {
    @BeforeEach
    void requireAddresses() {
        assumeTrue(MemoryAccess.hasAddress(), "raw memory addresses are not available");
    }

    @Override
    ByteBuf newBuffer(int capacity, int maxCapacity) {
        return new UnpooledUnsafeDirectByteBuf(UnpooledByteBufAllocator.DEFAULT, capacity, maxCapacity);
    }

    @Test
    void theMemoryAddressFollowsTheBufferWhenItGrows() {
        ByteBuf buf = buffer(8);
        buf.writeLong(0x1122334455667788L);
        assertThat(MemoryAccess.getLongBE(buf.memoryAddress())).isEqualTo(0x1122334455667788L);
        buf.capacity(4096);
        assertThat(MemoryAccess.getLongBE(buf.memoryAddress())).isEqualTo(0x1122334455667788L);
    }
}
