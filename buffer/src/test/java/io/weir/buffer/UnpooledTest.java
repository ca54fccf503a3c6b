package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class UnpooledTest {

    @Test
    void theEmptyBufferSurvivesAnyNumberOfReleasesAndHoldsNothing() {
        ByteBuf empty = Unpooled.EMPTY_BUFFER;
        assertThat(empty.capacity()).isZero();
        assertThat(empty.maxCapacity()).isZero();
        assertThat(empty.release()).isFalse();
        assertThat(empty.release(5)).isFalse();
        assertThat(empty.refCnt()).isEqualTo(1);
        assertThat(empty.retain()).isSameAs(empty);
        assertThat(empty.slice().release()).isFalse();
        assertThat(empty.readableBytes()).isZero();
        assertThatThrownBy(() -> empty.writeByte(1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> empty.getByte(0)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(empty.refCnt()).isEqualTo(1);
        assertThat(empty).isEqualTo(Unpooled.wrappedBuffer(new byte[0]));
    }

    @Test
    void aWrappedArrayIsSharedNotCopiedAndReadableInFull() {
        byte[] array = {1, 2, 3, 4, 5};
        ByteBuf whole = Unpooled.wrappedBuffer(array);
        ByteBuf part = Unpooled.wrappedBuffer(array, 1, 3);
        try {
            assertThat(whole.readableBytes()).isEqualTo(5);
            assertThat(whole.maxCapacity()).isEqualTo(5);
            assertThat(whole.array()).isSameAs(array);
            whole.setByte(2, 30);
            assertThat(array[2]).isEqualTo((byte) 30);
            assertThat(part.readableBytes()).isEqualTo(3);
            assertThat(part.getByte(1)).isEqualTo((byte) 30);
            assertThat(part.arrayOffset()).isEqualTo(1);
            assertThatThrownBy(() -> Unpooled.wrappedBuffer(array, 3, 3)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThat(Unpooled.wrappedBuffer(array, 2, 0)).isSameAs(Unpooled.EMPTY_BUFFER);
        } finally {
            whole.release();
            part.release();
        }
    }

    @Test
    void aWrappedByteBufferCoversItsRemainingBytesAndIsNeverFreedByUs() {
        for (ByteBuffer nio : new ByteBuffer[] {ByteBuffer.allocate(16), ByteBuffer.allocateDirect(16)}) {
            nio.putLong(4, 0x0102030405060708L);
            nio.position(4).limit(12);
            ByteBuf buf = Unpooled.wrappedBuffer(nio);
            assertThat(buf.readableBytes()).isEqualTo(8);
            assertThat(buf.isDirect()).isEqualTo(nio.isDirect());
            assertThat(buf.readLong()).isEqualTo(0x0102030405060708L);
            buf.setByte(0, 0x7f);
            assertThat(nio.get(4)).isEqualTo((byte) 0x7f);
            assertThat(nio.position()).isEqualTo(4);
            assertThat(buf.release()).isTrue();
            // Still the caller's: readable after our buffer is gone.
            assertThat(nio.get(5)).isEqualTo((byte) 2);
        }
        assertThat(Unpooled.wrappedBuffer(ByteBuffer.allocate(0))).isSameAs(Unpooled.EMPTY_BUFFER);
    }

    @Test
    void wrappingAByteBufTakesOverTheCallersReference() {
        ByteBuf buf = Unpooled.buffer(8).writeInt(7);
        ByteBuf wrapped = Unpooled.wrappedBuffer(buf);
        assertThat(wrapped.readInt()).isEqualTo(7);
        assertThat(wrapped.release()).isTrue();
        assertThat(buf.refCnt()).isZero();
        ByteBuf unreadable = Unpooled.buffer(8);
        assertThat(Unpooled.wrappedBuffer(unreadable)).isSameAs(Unpooled.EMPTY_BUFFER);
        assertThat(unreadable.refCnt()).isZero();
    }

    @Test
    void copiedBuffersAreIndependentOfTheirSource() {
        byte[] array = {1, 2, 3};
        ByteBuf fromArray = Unpooled.copiedBuffer(array);
        ByteBuffer nio = ByteBuffer.wrap(new byte[] {1, 2, 3});
        ByteBuf fromNio = Unpooled.copiedBuffer(nio);
        ByteBuf source = Unpooled.directBuffer(4).writeBytes(array);
        ByteBuf fromBuf = Unpooled.copiedBuffer(source);
        ByteBuf fromText = Unpooled.copiedBuffer("h\u00e9", StandardCharsets.UTF_8);
        try {
            array[0] = 9;
            nio.put(0, (byte) 9);
            source.setByte(0, 9);
            assertThat(fromArray.getByte(0)).isEqualTo((byte) 1);
            assertThat(fromNio.getByte(0)).isEqualTo((byte) 1);
            assertThat(nio.position()).isZero();
            assertThat(fromBuf.getByte(0)).isEqualTo((byte) 1);
            assertThat(source.readerIndex()).isZero();
            assertThat(fromArray).isEqualTo(fromNio).isEqualTo(fromBuf);
            assertThat(fromText.readableBytes()).isEqualTo(3);
            assertThat(fromText.toString(StandardCharsets.UTF_8)).isEqualTo("h\u00e9");
            assertThat(Unpooled.copiedBuffer("", StandardCharsets.UTF_8)).isSameAs(Unpooled.EMPTY_BUFFER);
        } finally {
            fromArray.release();
            fromNio.release();
            source.release();
            fromBuf.release();
            fromText.release();
        }
    }

    @Test
    void newBuffersHaveTheRequestedKindAndCapacities() {
        ByteBuf heap = Unpooled.buffer(10, 20);
        ByteBuf direct = Unpooled.directBuffer(10);
        try {
            assertThat(heap.isDirect()).isFalse();
            assertThat(heap.hasArray()).isTrue();
            assertThat(heap.maxCapacity()).isEqualTo(20);
            assertThat(direct.isDirect()).isTrue();
            assertThat(direct.capacity()).isEqualTo(10);
            assertThatThrownBy(() -> Unpooled.buffer(21, 20)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("initialCapacity: 21, maxCapacity: 20");
            assertThatThrownBy(() -> Unpooled.directBuffer(-1)).isInstanceOf(IllegalArgumentException.class);
        } finally {
            heap.release();
            direct.release();
        }
    }
}
