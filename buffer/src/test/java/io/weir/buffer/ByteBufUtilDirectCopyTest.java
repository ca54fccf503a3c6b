package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.util.IllegalReferenceCountException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.InvalidMarkException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Copies into direct memory, as a transport makes them before writing a heap buffer to a socket. */
class ByteBufUtilDirectCopyTest {
    private static final PooledByteBufAllocator POOLED = new PooledByteBufAllocator(true, 1, 1, 8192, 1 << 20);
    private static final ByteBufAllocator UNPOOLED = new UnpooledByteBufAllocator(true);
    private static final int LARGE_BYTES = 1 << 20;

    private static byte[] randomBytes(int length) {
        byte[] bytes = new byte[length];
        new Random(length).nextBytes(bytes);
        return bytes;
    }

    private static byte[] contentOf(ByteBuf buf) {
        return ByteBufUtil.getBytes(buf);
    }

    @Test
    void aHeapBufferIsCopiedWhileItsIndexesAndOwnershipStayAsTheyWere() {
        byte[] bytes = randomBytes(300);
        ByteBuf heap = POOLED.heapBuffer(512).writeBytes(bytes);
        heap.skipBytes(7);
        ByteBuf direct = ByteBufUtil.copyToDirect(POOLED, heap);
        try {
            assertThat(direct.isDirect()).isTrue();
            assertThat(direct.readerIndex()).isZero();
            assertThat(direct.readableBytes()).isEqualTo(293).isEqualTo(direct.capacity());
            assertThat(contentOf(direct)).isEqualTo(contentOf(heap));
            assertThat(heap.readerIndex()).isEqualTo(7);
            assertThat(heap.writerIndex()).isEqualTo(300);
            assertThat(heap.refCnt()).isOne();
            direct.setByte(0, ~direct.getByte(0));
            assertThat(heap.getByte(7)).as("a copy, not a view").isEqualTo(bytes[7]);
        } finally {
            direct.release();
            heap.release();
        }
    }

    @Test
    void aCompositeOfHeapAndDirectPartsIsCopiedAcrossItsComponents() {
        byte[] bytes = randomBytes(100);
        CompositeByteBuf composite = UNPOOLED.compositeHeapBuffer();
        composite.addComponent(true, UNPOOLED.heapBuffer(30).writeBytes(bytes, 0, 30));
        composite.addComponent(true, UNPOOLED.directBuffer(45).writeBytes(bytes, 30, 45));
        composite.addComponent(true, Unpooled.wrappedBuffer(bytes, 75, 25));
        composite.readerIndex(10).writerIndex(90);
        ByteBuf direct = ByteBufUtil.copyToDirect(POOLED, composite);
        try {
            assertThat(direct.isDirect()).isTrue();
            assertThat(contentOf(direct)).isEqualTo(java.util.Arrays.copyOfRange(bytes, 10, 90));
            assertThat(composite.readerIndex()).isEqualTo(10);
            assertThat(composite.writerIndex()).isEqualTo(90);
        } finally {
            direct.release();
            composite.release();
        }
    }

    @Test
    void anEmptyBufferGivesAnEmptyDirectBuffer() {
        ByteBuf direct = ByteBufUtil.copyToDirect(UNPOOLED, Unpooled.EMPTY_BUFFER);
        assertThat(direct.isDirect()).isTrue();
        assertThat(direct.readableBytes()).isZero();
        direct.release();
    }

    @Test
    void aReleasedSourceFailsWithoutLeakingTheCopy() {
        ByteBuf heap = UNPOOLED.heapBuffer(8).writeLong(1);
        heap.release();
        // A leaked copy would fail this class: tests run with PARANOID leak detection.
        assertThatThrownBy(() -> ByteBufUtil.copyToDirect(POOLED, heap))
                .isInstanceOf(IllegalReferenceCountException.class);
    }

    @Test
    void aReadOnlyHeapByteBufferIsCopiedWithItsPositionLimitAndMarkUntouched() {
        byte[] bytes = randomBytes(200);
        ByteBuffer readOnly = ByteBuffer.wrap(bytes).asReadOnlyBuffer();
        assertThat(readOnly.hasArray()).as("the array is not accessible").isFalse();
        readOnly.position(20).mark().position(50).limit(170);
        ByteBuf direct = ByteBufUtil.copyToDirect(POOLED, readOnly);
        try {
            assertThat(direct.isDirect()).isTrue();
            assertThat(direct.readableBytes()).isEqualTo(120);
            assertThat(contentOf(direct)).isEqualTo(java.util.Arrays.copyOfRange(bytes, 50, 170));
            assertThat(readOnly.position()).isEqualTo(50);
            assertThat(readOnly.limit()).isEqualTo(170);
            assertThat(readOnly.reset().position()).as("the mark survives").isEqualTo(20);
        } finally {
            direct.release();
        }
    }

    @Test
    void everyOtherKindOfByteBufferIsCopiedToo() {
        byte[] bytes = randomBytes(64);
        ByteBuffer directSource = ByteBuffer.allocateDirect(64).put(bytes).flip();
        ByteBuffer readOnlyDirect = directSource.asReadOnlyBuffer();
        ByteBuffer heap = ByteBuffer.wrap(bytes, 8, 40);
        for (ByteBuffer src : new ByteBuffer[] {directSource, readOnlyDirect, heap}) {
            int position = src.position();
            ByteBuf direct = ByteBufUtil.copyToDirect(UNPOOLED, src);
            try {
                byte[] expected = new byte[src.remaining()];
                src.duplicate().get(expected);
                assertThat(contentOf(direct)).isEqualTo(expected);
                assertThat(src.position()).isEqualTo(position);
                assertThatThrownBy(src::reset).as("no mark was set").isInstanceOf(InvalidMarkException.class);
            } finally {
                direct.release();
            }
        }
    }

    @Test
    void aLargeReadOnlyHeapByteBufferIsCopiedWithoutATemporaryArray() throws Exception {
        AllocationCounter counter = AllocationCounter.forCurrentThread();
        assumeTrue(counter != null, "per-thread allocation counting is needed to see a temporary array");
        ByteBuffer readOnly = ByteBuffer.wrap(randomBytes(LARGE_BYTES)).asReadOnlyBuffer();
        // The first copy loads classes and warms caches, which allocates on its own.
        ByteBufUtil.copyToDirect(UNPOOLED, readOnly).release();
        counter.allocatedBytes();
        long before = counter.allocatedBytes();
        ByteBuf direct = ByteBufUtil.copyToDirect(UNPOOLED, readOnly);
        long allocated = counter.allocatedBytes() - before;
        try {
            assertThat(direct.readableBytes()).isEqualTo(LARGE_BYTES);
            assertThat(direct.getByte(LARGE_BYTES - 1)).isEqualTo(readOnly.get(LARGE_BYTES - 1));
            assertThat(allocated).as("heap bytes allocated while copying %d bytes", LARGE_BYTES)
                    .isLessThan(LARGE_BYTES / 4);
        } finally {
            direct.release();
        }
    }

    /**
     * The JVM's count of heap bytes this thread allocated ({@code com.sun.management.ThreadMXBean}), reached by
     * reflection: this module's tests compile against the module graph, which does not read java.management.
     */
    private record AllocationCounter(Object bean, Method allocated) {
        static AllocationCounter forCurrentThread() throws ReflectiveOperationException {
            Object bean = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean")
                    .invoke(null);
            Class<?> extended;
            try {
                extended = Class.forName("com.sun.management.ThreadMXBean");
            } catch (ClassNotFoundException e) {
                return null;
            }
            if (!extended.isInstance(bean)
                    || !(Boolean) extended.getMethod("isThreadAllocatedMemoryEnabled").invoke(bean)) {
                return null;
            }
            return new AllocationCounter(bean, extended.getMethod("getCurrentThreadAllocatedBytes"));
        }

        long allocatedBytes() throws ReflectiveOperationException {
            return (Long) allocated.invoke(bean);
        }
    }
}
