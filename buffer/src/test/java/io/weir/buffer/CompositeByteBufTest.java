package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.util.ByteProcessor;
import io.weir.util.IllegalReferenceCountException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What is particular to composites: component bookkeeping, ownership, views and values across boundaries. */
class CompositeByteBufTest {
    private static final ByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;

    /** Every buffer a test creates; whatever is still live afterwards is released so a failure does not leak. */
    private final List<ByteBuf> created = new ArrayList<>();

    @AfterEach
    void releaseLeftovers() {
        // Composites first: they own the buffers added to them, which only then show what is really left over.
        for (ByteBuf b : created) {
            if (b instanceof CompositeByteBuf && b.refCnt() > 0) {
                b.release(b.refCnt());
            }
        }
        for (ByteBuf b : created) {
            if (b.refCnt() > 0) {
                b.release(b.refCnt());
            }
        }
    }

    private <T extends ByteBuf> T track(T buffer) {
        created.add(buffer);
        return buffer;
    }

    private ByteBuf heap(int... bytes) {
        ByteBuf b = track(ALLOC.heapBuffer(bytes.length));
        for (int v : bytes) {
            b.writeByte(v);
        }
        return b;
    }

    private ByteBuf direct(int... bytes) {
        ByteBuf b = track(ALLOC.directBuffer(bytes.length));
        for (int v : bytes) {
            b.writeByte(v);
        }
        return b;
    }

    private CompositeByteBuf composite() {
        return track(ALLOC.compositeHeapBuffer());
    }

    private static byte[] readable(ByteBuf b) {
        byte[] bytes = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), bytes);
        return bytes;
    }

    private static byte[] bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }

    @Test
    void componentsKeepInsertionOrderAndBulkInsertGoesBetweenExistingOnes() {
        CompositeByteBuf c = composite();
        c.addComponent(true, heap(1, 2));
        c.addComponent(true, direct(7, 8));
        c.addComponents(1, heap(3), direct(4, 5), heap(6));
        c.writerIndex(c.capacity());
        assertThat(c.numComponents()).isEqualTo(5);
        assertThat(readable(c)).containsExactly(bytes(1, 2, 3, 4, 5, 6, 7, 8));
        assertThat(c.toComponentIndex(6)).isEqualTo(4);
        assertThat(readable(c.componentAtOffset(3))).containsExactly(bytes(4, 5));
        c.addComponents(0, List.of(heap(0)));
        assertThat(c.getByte(0)).isZero();
        assertThat(c.capacity()).isEqualTo(9);
    }

    @Test
    void addComponentWithoutIncreasingTheWriterIndexLeavesTheBytesUnreadable() {
        CompositeByteBuf c = composite();
        c.addComponent(heap(1, 2, 3));
        assertThat(c.capacity()).isEqualTo(3);
        assertThat(c.writerIndex()).isZero();
        c.addComponents(true, heap(4), heap(5));
        assertThat(c.writerIndex()).isEqualTo(2);
    }

    @Test
    void onlyTheReadableBytesOfAnAddedBufferBecomeTheComponent() {
        CompositeByteBuf c = composite();
        ByteBuf b = heap(9, 9, 1, 2, 3);
        b.skipBytes(2);
        c.addComponent(true, b);
        assertThat(readable(c)).containsExactly(bytes(1, 2, 3));
    }

    @Test
    void addedSlicesAndDuplicatesAreStoredAsTheBufferUnderneath() {
        ByteBuf parent = direct(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        parent.retain(2); // one reference for each view handed to the composite
        CompositeByteBuf c = composite();
        c.addComponent(true, parent.slice(2, 5).slice(1, 3));
        ByteBuf dup = parent.duplicate();
        dup.setIndex(8, 10);
        c.addComponent(true, dup);
        assertThat(readable(c)).containsExactly(bytes(3, 4, 5, 8, 9));
        assertThat(c.component(0).unwrap()).isSameAs(parent);
        assertThat(c.component(1).unwrap()).isSameAs(parent);
        c.setByte(0, 33);
        assertThat(parent.getByte(3)).isEqualTo((byte) 33);
        assertThat(parent.refCnt()).isEqualTo(3);
        c.release();
        assertThat(parent.refCnt()).isEqualTo(1);
    }

    @Test
    void randomAccessReadsAndWritesThroughTheLastAccessedCacheAgreeWithAFlatCopy() {
        Random random = new Random(42);
        CompositeByteBuf c = composite();
        List<ByteBuf> parts = new ArrayList<>();
        int total = 0;
        for (int i = 0; i < 12; i++) {
            int size = 1 + random.nextInt(9);
            ByteBuf part = track(i % 2 == 0 ? ALLOC.heapBuffer(size) : ALLOC.directBuffer(size));
            for (int j = 0; j < size; j++) {
                part.writeByte(random.nextInt());
            }
            parts.add(part);
            total += size;
        }
        byte[] flat = new byte[total];
        int at = 0;
        for (ByteBuf part : parts) {
            part.getBytes(0, flat, at, part.readableBytes());
            at += part.readableBytes();
        }
        c.addComponents(true, parts);
        ByteBuffer reference = ByteBuffer.wrap(flat);
        for (int i = 0; i < 2000; i++) {
            int index = random.nextInt(total - 7);
            int length = random.nextInt(total - index + 1);
            switch (random.nextInt(6)) {
                case 0 -> assertThat(c.getByte(index)).isEqualTo(reference.get(index));
                case 1 -> assertThat(c.getInt(index)).isEqualTo(reference.getInt(index));
                case 2 -> assertThat(c.getLong(index)).isEqualTo(reference.getLong(index));
                case 3 -> {
                    byte[] out = new byte[length];
                    c.getBytes(index, out);
                    assertThat(out).containsExactly(Arrays.copyOfRange(flat, index, index + length));
                }
                case 4 -> {
                    byte[] in = new byte[length];
                    random.nextBytes(in);
                    c.setBytes(index, in);
                    System.arraycopy(in, 0, flat, index, length);
                }
                default -> {
                    byte value = (byte) random.nextInt();
                    c.setByte(index, value);
                    reference.put(index, value);
                }
            }
        }
        assertThat(readable(c)).containsExactly(flat);
    }

    @Test
    void valuesStraddlingComponentsReadAndWriteInBothByteOrders() {
        CompositeByteBuf c = composite();
        for (int size = 1; size <= 5; size++) {
            c.addComponent(true, size % 2 == 0 ? track(ALLOC.directBuffer(size)).writeZero(size)
                    : track(ALLOC.heapBuffer(size)).writeZero(size));
        }
        int capacity = c.capacity();
        ByteBuffer be = ByteBuffer.allocate(capacity);
        ByteBuffer le = ByteBuffer.allocate(capacity).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i + 8 <= capacity; i++) {
            long v = 0x0102030405060708L * (i + 1);
            c.setLong(i, v);
            be.putLong(i, v);
            assertThat(readable(c)).containsExactly(be.array());
            assertThat(c.getLong(i)).isEqualTo(v);
            assertThat(c.getInt(i)).isEqualTo(be.getInt(i));
            assertThat(c.getShort(i)).isEqualTo(be.getShort(i));
            assertThat(c.getUnsignedMedium(i)).isEqualTo(be.getInt(i) >>> 8);
            c.setLongLE(i, v);
            le.putLong(i, v);
            assertThat(readable(c)).containsExactly(le.array());
            assertThat(c.getLongLE(i)).isEqualTo(v);
            assertThat(c.getIntLE(i)).isEqualTo(le.getInt(i));
            assertThat(c.getShortLE(i)).isEqualTo(le.getShort(i));
            c.setIntLE(i, (int) v);
            le.putInt(i, (int) v);
            c.setShort(i + 4, (short) v);
            le.order(ByteOrder.BIG_ENDIAN).putShort(i + 4, (short) v).order(ByteOrder.LITTLE_ENDIAN);
            assertThat(readable(c)).containsExactly(le.array());
            be.put(0, le.array());
        }
    }

    @Test
    void consolidateMergesComponentsIntoOneAndReleasesThem() {
        CompositeByteBuf c = composite();
        ByteBuf a = heap(1, 2);
        ByteBuf b = direct(3);
        ByteBuf d = heap(4, 5);
        ByteBuf e = direct(6);
        c.addComponents(true, a, b, d, e);
        c.readerIndex(1);
        c.consolidate(1, 2);
        assertThat(c.numComponents()).isEqualTo(3);
        assertThat(b.refCnt()).isZero();
        assertThat(d.refCnt()).isZero();
        assertThat(readable(c)).containsExactly(bytes(2, 3, 4, 5, 6));
        assertThat(c.getShort(2)).isEqualTo((short) 0x0304);
        c.consolidate();
        assertThat(c.numComponents()).isEqualTo(1);
        assertThat(a.refCnt()).isZero();
        assertThat(e.refCnt()).isZero();
        assertThat(c.readerIndex()).isEqualTo(1);
        assertThat(readable(c)).containsExactly(bytes(2, 3, 4, 5, 6));
        assertThat(c.hasArray()).isTrue();
        assertThat(c.array()[c.arrayOffset() + 5]).isEqualTo((byte) 6);
    }

    @Test
    void exceedingMaxNumComponentsConsolidatesEverything() {
        CompositeByteBuf c = track(ALLOC.compositeBuffer(3));
        ByteBuf[] parts = {heap(1), direct(2), heap(3), direct(4)};
        c.addComponents(true, parts[0], parts[1], parts[2]);
        assertThat(c.numComponents()).isEqualTo(3);
        c.addComponent(true, parts[3]);
        assertThat(c.maxNumComponents()).isEqualTo(3);
        assertThat(c.numComponents()).isEqualTo(1);
        assertThat(readable(c)).containsExactly(bytes(1, 2, 3, 4));
        for (ByteBuf part : parts) {
            assertThat(part.refCnt()).isZero();
        }
        assertThatThrownBy(() -> ALLOC.compositeBuffer(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxNumComponents: 0");
    }

    @Test
    void discardReadComponentsDropsOnlyWhollyReadComponents() {
        CompositeByteBuf c = composite();
        ByteBuf a = heap(1, 2);
        ByteBuf b = direct(3, 4);
        ByteBuf d = heap(5, 6);
        c.addComponents(true, a, b, d);
        c.readerIndex(3);
        c.discardReadComponents();
        assertThat(a.refCnt()).isZero();
        assertThat(b.refCnt()).isEqualTo(1);
        assertThat(c.numComponents()).isEqualTo(2);
        assertThat(c.readerIndex()).isEqualTo(1);
        assertThat(c.writerIndex()).isEqualTo(4);
        assertThat(c.capacity()).isEqualTo(4);
        assertThat(readable(c)).containsExactly(bytes(4, 5, 6));
        c.readerIndex(4);
        c.discardReadComponents();
        assertThat(c.numComponents()).isZero();
        assertThat(b.refCnt()).isZero();
        assertThat(d.refCnt()).isZero();
        assertThat(c.capacity()).isZero();
    }

    @Test
    void discardReadBytesKeepsTheCapacityAndCopiesNoReadableComponent() {
        CompositeByteBuf c = composite();
        ByteBuf a = heap(1, 2);
        ByteBuf b = direct(3, 4, 5);
        c.addComponents(true, a, b);
        c.readerIndex(3);
        c.discardReadBytes();
        assertThat(a.refCnt()).isZero();
        assertThat(c.capacity()).isEqualTo(5);
        assertThat(c.readerIndex()).isZero();
        assertThat(readable(c)).containsExactly(bytes(4, 5));
        assertThat(c.component(0).unwrap()).isSameAs(b);
        c.setByte(0, 40);
        assertThat(b.getByte(1)).isEqualTo((byte) 40);
    }

    @Test
    void removeComponentReleasesItAndMovesTheLaterOnesDown() {
        CompositeByteBuf c = composite();
        ByteBuf a = heap(1);
        ByteBuf b = direct(2, 3);
        ByteBuf d = heap(4);
        c.addComponents(true, a, b, d);
        c.removeComponent(1);
        assertThat(b.refCnt()).isZero();
        assertThat(c.capacity()).isEqualTo(2);
        assertThat(c.writerIndex()).isEqualTo(2);
        assertThat(readable(c)).containsExactly(bytes(1, 4));
        c.removeComponents(0, 2);
        assertThat(a.refCnt()).isZero();
        assertThat(d.refCnt()).isZero();
        assertThat(c.numComponents()).isZero();
        assertThatThrownBy(() -> c.removeComponent(0)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("cIndex: 0");
    }

    @Test
    void releasingTheCompositeReleasesEveryComponentExactlyOnce() {
        ByteBuf a = heap(1, 2);
        ByteBuf b = direct(3);
        ByteBuf shared = heap(4, 5, 6);
        shared.retain();
        CompositeByteBuf c = composite();
        c.addComponents(true, a, b, shared.slice(1, 2));
        c.retain();
        assertThat(c.release()).isFalse();
        assertThat(a.refCnt()).isEqualTo(1);
        assertThat(c.release()).isTrue();
        assertThat(a.refCnt()).isZero();
        assertThat(b.refCnt()).isZero();
        assertThat(shared.refCnt()).isEqualTo(1);
        assertThatThrownBy(() -> c.getByte(0)).isInstanceOf(IllegalReferenceCountException.class);
    }

    @Test
    void aFailedAddStillTakesOwnershipAndReleasesTheBuffer() {
        CompositeByteBuf bounded = track(new CompositeByteBuf(ALLOC, false, 4, 2));
        ByteBuf tooBig = heap(1, 2, 3);
        assertThatThrownBy(() -> bounded.addComponent(tooBig)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxCapacity(2)");
        assertThat(tooBig.refCnt()).isZero();
        ByteBuf misplaced = heap(1);
        assertThatThrownBy(() -> bounded.addComponent(5, misplaced)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("cIndex: 5");
        assertThat(misplaced.refCnt()).isZero();
        ByteBuf withNull = heap(1);
        assertThatThrownBy(() -> bounded.addComponents(withNull, null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("buffers[1]");
        assertThat(withNull.refCnt()).isZero();
        bounded.release();
        ByteBuf late = heap(1);
        assertThatThrownBy(() -> bounded.addComponent(late)).isInstanceOf(IllegalReferenceCountException.class);
        assertThat(late.refCnt()).isZero();
    }

    @Test
    void addFlattenedComponentsTakesTheInnerComponentsAndReleasesTheInnerComposite() {
        CompositeByteBuf inner = composite();
        ByteBuf a = heap(1, 2);
        ByteBuf b = direct(3, 4);
        ByteBuf d = heap(5, 6);
        inner.addComponents(true, a, b, d);
        inner.readerIndex(1);
        inner.writerIndex(5);
        CompositeByteBuf outer = composite();
        outer.addComponent(true, heap(0));
        outer.addFlattenedComponents(true, inner);
        assertThat(inner.refCnt()).isZero();
        assertThat(outer.numComponents()).isEqualTo(4);
        assertThat(readable(outer)).containsExactly(bytes(0, 2, 3, 4, 5));
        assertThat(outer.component(2).unwrap()).isSameAs(b);
        assertThat(a.refCnt()).isEqualTo(1);
        outer.release();
        assertThat(a.refCnt()).isZero();
        assertThat(b.refCnt()).isZero();
        assertThat(d.refCnt()).isZero();
    }

    @Test
    void addFlattenedComponentsOfAPlainBufferAddsIt() {
        CompositeByteBuf c = composite();
        c.addFlattenedComponents(true, heap(1, 2));
        assertThat(c.numComponents()).isEqualTo(1);
        assertThat(readable(c)).containsExactly(bytes(1, 2));
    }

    @Test
    void nioBuffersGiveOneSharedBufferPerComponentTouched() {
        CompositeByteBuf c = composite();
        c.addComponents(true, heap(1, 2), direct(3, 4, 5), heap(6));
        assertThat(c.nioBufferCount()).isEqualTo(3);
        ByteBuffer[] all = c.nioBuffers();
        assertThat(all).hasSize(3);
        assertThat(all[1].isDirect()).isTrue();
        assertThat(all[1].remaining()).isEqualTo(3);
        ByteBuffer[] middle = c.nioBuffers(1, 3);
        assertThat(middle).hasSize(2);
        assertThat(middle[0].get(0)).isEqualTo((byte) 2);
        assertThat(middle[1].remaining()).isEqualTo(2);
        middle[1].put(1, (byte) 44);
        assertThat(c.getByte(3)).isEqualTo((byte) 44);
        ByteBuffer copy = c.nioBuffer(0, 6);
        assertThat(copy.remaining()).isEqualTo(6);
        assertThat(copy.get(3)).isEqualTo((byte) 44);
    }

    @Test
    void arrayAndMemoryAddressAreOfferedOnlyForASingleComponent() {
        CompositeByteBuf c = composite();
        assertThat(c.hasArray()).isTrue();
        assertThat(c.isDirect()).isFalse();
        assertThat(c.array()).isEmpty();
        ByteBuf parent = heap(1, 2, 3, 4);
        c.addComponent(true, parent.slice(1, 3));
        assertThat(c.hasArray()).isTrue();
        assertThat(c.array()[c.arrayOffset()]).isEqualTo((byte) 2);
        c.addComponent(true, direct(5));
        assertThat(c.hasArray()).isFalse();
        assertThat(c.hasMemoryAddress()).isFalse();
        assertThatThrownBy(c::array).isInstanceOf(UnsupportedOperationException.class);
        assertThat(c.isDirect()).isFalse();
        CompositeByteBuf allDirect = composite();
        allDirect.addComponents(true, direct(1), direct(2));
        assertThat(allDirect.isDirect()).isTrue();
    }

    @Test
    void forEachByteWalksAcrossComponentsAndReportsCompositeIndexes() {
        CompositeByteBuf c = composite();
        c.addComponents(true, heap('a', 'b'), direct('c', '\r'), heap('\n', 'd'));
        assertThat(c.forEachByte(ByteProcessor.FIND_CRLF)).isEqualTo(3);
        assertThat(c.forEachByte(4, 2, ByteProcessor.FIND_CRLF)).isEqualTo(4);
        assertThat(c.forEachByteDesc(ByteProcessor.FIND_CRLF)).isEqualTo(4);
        assertThat(c.forEachByteDesc(0, 3, ByteProcessor.FIND_CRLF)).isEqualTo(-1);
        assertThat(c.indexOf(0, 6, (byte) 'd')).isEqualTo(5);
    }

    @Test
    void growingAddsAComponentAndShrinkingReleasesTheCutOnes() {
        CompositeByteBuf c = track(ALLOC.compositeDirectBuffer());
        ByteBuf a = direct(1, 2);
        ByteBuf b = direct(3, 4);
        c.addComponents(true, a, b);
        c.writeInt(0x05060708);
        assertThat(c.numComponents()).isEqualTo(3);
        assertThat(c.isDirect()).isTrue();
        assertThat(c.getInt(3)).isEqualTo(0x04050607);
        c.capacity(3);
        assertThat(c.numComponents()).isEqualTo(2);
        assertThat(c.writerIndex()).isEqualTo(3);
        assertThat(b.refCnt()).isEqualTo(1);
        c.capacity(1);
        assertThat(b.refCnt()).isZero();
        assertThat(readable(c)).containsExactly(bytes(1));
        c.capacity(0);
        assertThat(a.refCnt()).isZero();
        assertThat(c.numComponents()).isZero();
    }

    @Test
    void unpooledWrapsSeveralInputsInAComposite() {
        ByteBuf arrays = track(Unpooled.wrappedBuffer(new byte[] {1, 2}, new byte[0], new byte[] {3}));
        assertThat(arrays).isInstanceOf(CompositeByteBuf.class);
        assertThat(readable(arrays)).containsExactly(bytes(1, 2, 3));
        ByteBuf empty = heap();
        ByteBuf buffers = track(Unpooled.wrappedBuffer(heap(4), empty, direct(5, 6)));
        CompositeByteBuf preferred = track(ALLOC.compositeBuffer());
        preferred.writeByte(1);
        assertThat(preferred.isDirect()).isEqualTo(((AbstractByteBufAllocator) ALLOC).prefersDirect());
        assertThat(empty.refCnt()).isZero();
        assertThat(((CompositeByteBuf) buffers).numComponents()).isEqualTo(2);
        assertThat(readable(buffers)).containsExactly(bytes(4, 5, 6));
        ByteBuf single = track(Unpooled.wrappedBuffer(heap(), heap(7)));
        assertThat(single).isNotInstanceOf(CompositeByteBuf.class);
        assertThat(readable(single)).containsExactly(bytes(7));
        assertThat(Unpooled.wrappedBuffer(new byte[0], new byte[0])).isSameAs(Unpooled.EMPTY_BUFFER);
        CompositeByteBuf fresh = track(Unpooled.compositeBuffer());
        assertThat(fresh.capacity()).isZero();
        assertThat(fresh.maxNumComponents()).isEqualTo(CompositeByteBuf.DEFAULT_MAX_NUM_COMPONENTS);
    }

    @Test
    void bulkCopiesBetweenTwoCompositesCrossEveryBoundary() {
        CompositeByteBuf src = composite();
        src.addComponents(true, heap(1, 2, 3), direct(4), heap(5, 6));
        CompositeByteBuf dst = composite();
        dst.addComponents(true, direct(0, 0), heap(0, 0, 0), direct(0, 0, 0));
        dst.setBytes(1, src, 0, 6);
        assertThat(readable(dst)).containsExactly(bytes(0, 1, 2, 3, 4, 5, 6, 0));
        byte[] out = new byte[4];
        dst.getBytes(2, out);
        assertThat(out).containsExactly(bytes(2, 3, 4, 5));
        ByteBuffer nio = ByteBuffer.allocateDirect(5);
        dst.getBytes(1, nio);
        assertThat(nio.flip().get(4)).isEqualTo((byte) 5);
    }

    @Test
    void channelReadsLandInPlaceAcrossComponentsAndWritesGatherThem(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("data");
        Files.write(file, bytes(1, 2, 3, 4, 5, 6, 7));
        CompositeByteBuf c = composite();
        ByteBuf a = heap(0, 0);
        ByteBuf b = direct(0, 0, 0);
        c.addComponents(false, a, b, heap(0, 0));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            assertThat(c.writeBytes(channel, 4)).isEqualTo(4);
            assertThat(c.writeBytes(channel, 1L, 3)).isEqualTo(3);
            assertThat(readable(c)).containsExactly(bytes(1, 2, 3, 4, 2, 3, 4));
            assertThat(b.getByte(0)).isEqualTo((byte) 3);
            channel.position(0);
            assertThat(c.readBytes(channel, 7)).isEqualTo(7);
            assertThat(c.getBytes(0, channel, 7L, 3)).isEqualTo(3);
        }
        assertThat(Files.readAllBytes(file)).containsExactly(bytes(1, 2, 3, 4, 2, 3, 4, 1, 2, 3));
    }

    @Test
    void aCompositeCannotContainItself() {
        CompositeByteBuf c = composite();
        c.addComponent(true, heap(1, 2));
        c.retain();
        assertThatThrownBy(() -> c.addComponent(c.slice(0, 1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("itself");
        assertThat(c.refCnt()).isEqualTo(1);
        assertThat(c.numComponents()).isEqualTo(1);
    }
}
