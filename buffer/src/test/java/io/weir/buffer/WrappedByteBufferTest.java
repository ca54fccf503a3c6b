package io.weir.buffer;

import java.nio.ByteBuffer;

/** The contract on a caller's direct ByteBuffer wrapped by {@link Unpooled#wrappedBuffer(ByteBuffer)}. */
class WrappedByteBufferTest extends AbstractByteBufTest {
    @Override
    ByteBuf newBuffer(int capacity, int maxCapacity) {
        ByteBuffer nio = ByteBuffer.allocateDirect(capacity + 4);
        nio.position(4);
        ByteBuf wrapped = capacity == 0 ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(nio);
        return wrapped.clear();
    }

    @Override
    boolean canGrow() {
        return false;
    }
}
