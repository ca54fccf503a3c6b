package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Slices, duplicates and read-only views of a composite expose the composite's components as separate NIO buffers
 * (sharing their memory), so that a gathering write of a view never needs {@link ByteBuf#nioBuffer()}'s copy.
 */
class DerivedByteBufNioBuffersTest {
    private static final ByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;

    private CompositeByteBuf composite;

    /** A composite of two direct components: bytes 0..4 (a 5-byte prefix) then 5..14. */
    private CompositeByteBuf twoDirectComponents() {
        ByteBuf prefix = ALLOC.directBuffer(5);
        ByteBuf payload = ALLOC.directBuffer(10);
        for (int i = 0; i < 5; i++) {
            prefix.writeByte(i);
        }
        for (int i = 5; i < 15; i++) {
            payload.writeByte(i);
        }
        composite = ALLOC.compositeDirectBuffer(4);
        composite.addComponent(true, prefix).addComponent(true, payload);
        return composite;
    }

    @AfterEach
    void release() {
        if (composite != null && composite.refCnt() > 0) {
            composite.release(composite.refCnt());
        }
    }

    private static byte[] concat(ByteBuffer[] buffers) {
        int total = 0;
        for (ByteBuffer b : buffers) {
            total += b.remaining();
        }
        byte[] out = new byte[total];
        int at = 0;
        for (ByteBuffer b : buffers) {
            int n = b.remaining();
            b.duplicate().get(out, at, n);
            at += n;
        }
        return out;
    }

    private static byte[] range(int from, int to) {
        byte[] out = new byte[to - from];
        for (int i = from; i < to; i++) {
            out[i - from] = (byte) i;
        }
        return out;
    }

    private static void assertDirectSpanning(ByteBuf view, int from, int to) {
        assertThat(view.nioBufferCount()).isEqualTo(2);
        ByteBuffer[] buffers = view.nioBuffers();
        assertThat(buffers).hasSize(2);
        assertThat(buffers).allMatch(ByteBuffer::isDirect);
        assertThat(concat(buffers)).containsExactly(range(from, to));
    }

    @Test
    void aSliceSpanningTwoComponentsReportsTwoDirectNioBuffers() {
        assertDirectSpanning(twoDirectComponents().slice(3, 8), 3, 11);
    }

    @Test
    void aRetainedSliceSpanningTwoComponentsReportsTwoDirectNioBuffers() {
        ByteBuf slice = twoDirectComponents().retainedSlice(0, 15);
        try {
            assertDirectSpanning(slice, 0, 15);
        } finally {
            slice.release();
        }
    }

    @Test
    void aDuplicateOfAReadCompositeReportsTwoDirectNioBuffersOfItsReadableBytes() {
        CompositeByteBuf buf = twoDirectComponents();
        buf.readerIndex(2);
        assertDirectSpanning(buf.duplicate(), 2, 15);
        ByteBuf retained = buf.retainedDuplicate();
        try {
            assertDirectSpanning(retained, 2, 15);
        } finally {
            retained.release();
        }
    }

    @Test
    void aSliceOfASliceSpanningTwoComponentsKeepsTheOffset() {
        ByteBuf outer = twoDirectComponents().slice(1, 13);
        assertDirectSpanning(outer.slice(2, 9), 3, 12);
        assertThat(concat(outer.nioBuffers(2, 9))).containsExactly(range(3, 12));
    }

    @Test
    void aReadOnlyViewOfACompositeGivesReadOnlyNioBuffersPerComponent() {
        ByteBuf readOnly = twoDirectComponents().asReadOnly().slice(4, 3);
        assertDirectSpanning(readOnly, 4, 7);
        assertThat(readOnly.nioBuffers()).allMatch(ByteBuffer::isReadOnly);
    }

    @Test
    void aSliceInsideOneComponentStillGivesItsBytesOnce() {
        ByteBuf slice = twoDirectComponents().slice(6, 4);
        ByteBuffer[] buffers = slice.nioBuffers();
        assertThat(concat(buffers)).containsExactly(range(6, 10));
        assertThat(slice.nioBufferCount()).isGreaterThanOrEqualTo(buffers.length);
    }

    @Test
    void aCompositeHoldingASliceOfACompositeGivesEveryComponentDirect() {
        CompositeByteBuf inner = twoDirectComponents();
        ByteBuf outerPrefix = ALLOC.directBuffer(1).writeByte(100);
        CompositeByteBuf outer = ALLOC.compositeDirectBuffer(4);
        try {
            outer.addComponent(true, outerPrefix).addComponent(true, inner.retainedSlice(2, 10));
            assertThat(outer.nioBufferCount()).isEqualTo(3);
            ByteBuffer[] buffers = outer.nioBuffers();
            assertThat(buffers).allMatch(ByteBuffer::isDirect);
            byte[] expected = new byte[11];
            expected[0] = 100;
            System.arraycopy(range(2, 12), 0, expected, 1, 10);
            assertThat(concat(buffers)).containsExactly(expected);
        } finally {
            outer.release();
        }
    }
}
