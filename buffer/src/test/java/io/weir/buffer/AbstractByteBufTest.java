package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.util.AsciiString;
import io.weir.util.ByteProcessor;
import io.weir.util.IllegalReferenceCountException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link ByteBuf} contract, run against every buffer kind by a subclass that says how to make one.
 * Every buffer a test makes goes through {@link #track}, and {@link #releaseTracked()} releases whatever a
 * test left live, so a failing test does not also leak.
 */
abstract class AbstractByteBufTest {
    static final int CAPACITY = 64;

    private final List<ByteBuf> tracked = new ArrayList<>();
    private final Random random = new Random(0x5EED);

    /**
     * A new buffer with {@code capacity} bytes, both indexes 0, a reference count of 1 owned by the test, and,
     * if {@link #canGrow()}, the given maximum capacity.
     */
    abstract ByteBuf newBuffer(int capacity, int maxCapacity);

    /** Whether buffers of this kind can change capacity (a slice cannot). */
    boolean canGrow() {
        return true;
    }

    final ByteBuf track(ByteBuf buffer) {
        tracked.add(buffer);
        return buffer;
    }

    final ByteBuf buffer() {
        return buffer(CAPACITY);
    }

    final ByteBuf buffer(int capacity) {
        return track(newBuffer(capacity, Integer.MAX_VALUE));
    }

    @AfterEach
    final void releaseTracked() {
        for (ByteBuf buffer : tracked) {
            int refCnt = buffer.refCnt();
            if (refCnt > 0) {
                buffer.release(refCnt);
            }
        }
    }

    private byte[] randomBytes(int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private static byte[] contentOf(ByteBuf buffer) {
        byte[] bytes = new byte[buffer.capacity()];
        buffer.getBytes(0, bytes);
        return bytes;
    }

    // ---- indexes and bounds ----

    @Test
    void newBufferIsEmptyWithTheRequestedCapacityAndOneReference() {
        ByteBuf buf = buffer();
        assertThat(buf.capacity()).isEqualTo(CAPACITY);
        assertThat(buf.readerIndex()).isZero();
        assertThat(buf.writerIndex()).isZero();
        assertThat(buf.readableBytes()).isZero();
        assertThat(buf.writableBytes()).isEqualTo(CAPACITY);
        assertThat(buf.isReadable()).isFalse();
        assertThat(buf.isWritable(CAPACITY)).isTrue();
        assertThat(buf.isWritable(CAPACITY + 1)).isFalse();
        assertThat(buf.refCnt()).isEqualTo(1);
        assertThat(buf.isReadOnly()).isFalse();
    }

    @Test
    void indexesOutsideTheirInvariantAreRejectedWithTheOffendingValue() {
        ByteBuf buf = buffer();
        assertThatThrownBy(() -> buf.writerIndex(CAPACITY + 1))
                .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("writerIndex: " + (CAPACITY + 1));
        assertThatThrownBy(() -> buf.readerIndex(1))
                .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("readerIndex: 1");
        assertThatThrownBy(() -> buf.setIndex(5, 4))
                .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("readerIndex: 5, writerIndex: 4");
        assertThatThrownBy(() -> buf.setIndex(-1, 4)).isInstanceOf(IndexOutOfBoundsException.class);
        buf.setIndex(3, 10);
        assertThat(buf.readableBytes()).isEqualTo(7);
        assertThatThrownBy(() -> buf.writerIndex(2)).isInstanceOf(IndexOutOfBoundsException.class);
        buf.clear();
        assertThat(buf.readerIndex()).isZero();
        assertThat(buf.writerIndex()).isZero();
    }

    @Test
    void absoluteAccessPastTheCapacityThrowsNamingIndexLengthAndCapacity() {
        // Documented: with -Dio.weir.buffer.checkBounds=false, get/set are not checked against the capacity
        // (a direct buffer would touch foreign memory), so there is nothing to assert, and no access may be tried.
        assumeTrue(AbstractByteBuf.CHECK_BOUNDS, "get/set bounds are not checked with checkBounds=false");
        ByteBuf buf = buffer();
        assertThatThrownBy(() -> buf.getInt(CAPACITY - 3)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("index: " + (CAPACITY - 3) + ", length: 4")
                .hasMessageContaining("range(0, " + CAPACITY + ")");
        assertThatThrownBy(() -> buf.getByte(-1)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("index: -1");
        assertThatThrownBy(() -> buf.setLong(CAPACITY - 7, 1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> buf.setMediumLE(Integer.MAX_VALUE, 1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> buf.getBytes(1, new byte[CAPACITY])).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> buf.setZero(10, -1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> buf.setCharSequence(CAPACITY - 1, "ab", StandardCharsets.US_ASCII))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> buf.slice(0, 8).getByte(8)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(buf.getLong(CAPACITY - 8)).isEqualTo(buf.getLong(CAPACITY - 8));
    }

    @Test
    void theRangeOfAnArrayArgumentIsCheckedEvenWithoutBufferBoundsChecks() {
        ByteBuf buf = buffer();
        assertThatThrownBy(() -> buf.getBytes(0, new byte[4], 2, 4)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("dstIndex: 2");
        assertThatThrownBy(() -> buf.setBytes(0, new byte[4], -1, 2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(buf.readerIndex()).isZero();
        assertThat(buf.writerIndex()).isZero();
    }

    @Test
    void readingPastTheWriterIndexThrowsAndLeavesTheReaderIndexAlone() {
        ByteBuf buf = buffer();
        buf.writeMedium(0x010203);
        assertThatThrownBy(buf::readInt).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("readerIndex(0) + length(4) exceeds writerIndex(3)");
        assertThat(buf.readerIndex()).isZero();
        assertThat(buf.readUnsignedMedium()).isEqualTo(0x010203);
        assertThatThrownBy(buf::readByte).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> buf.skipBytes(1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    // ---- primitives against java.nio.ByteBuffer ----

    @Test
    void everyPrimitiveWrittenHereReadsBackThroughByteBufferInBothOrders() {
        ByteBuf buf = buffer();
        for (int round = 0; round < 200; round++) {
            int index = random.nextInt(CAPACITY - 8);
            long value = random.nextLong();
            checkWrittenHere(buf, index, value, ByteOrder.BIG_ENDIAN);
            checkWrittenHere(buf, index, value, ByteOrder.LITTLE_ENDIAN);
        }
    }

    private static void checkWrittenHere(ByteBuf buf, int index, long value, ByteOrder order) {
        boolean be = order == ByteOrder.BIG_ENDIAN;
        if (be) {
            buf.setShort(index, (int) value);
        } else {
            buf.setShortLE(index, (int) value);
        }
        assertThat(reference(buf, order).getShort(index)).isEqualTo((short) value);
        if (be) {
            buf.setInt(index, (int) value);
        } else {
            buf.setIntLE(index, (int) value);
        }
        assertThat(reference(buf, order).getInt(index)).isEqualTo((int) value);
        if (be) {
            buf.setLong(index, value);
        } else {
            buf.setLongLE(index, value);
        }
        assertThat(reference(buf, order).getLong(index)).isEqualTo(value);
        float f = Float.intBitsToFloat((int) value);
        if (be) {
            buf.setFloat(index, f);
        } else {
            buf.setFloatLE(index, f);
        }
        assertThat(Float.floatToRawIntBits(reference(buf, order).getFloat(index))).isEqualTo((int) value);
        double d = Double.longBitsToDouble(value);
        if (be) {
            buf.setDouble(index, d);
        } else {
            buf.setDoubleLE(index, d);
        }
        assertThat(Double.doubleToRawLongBits(reference(buf, order).getDouble(index)))
                .isEqualTo(Double.doubleToRawLongBits(d));
        if (be) {
            buf.setMedium(index, (int) value);
        } else {
            buf.setMediumLE(index, (int) value);
        }
        ByteBuffer ref = reference(buf, order);
        int medium = be ? (ref.get(index) & 0xff) << 16 | (ref.get(index + 1) & 0xff) << 8 | ref.get(index + 2) & 0xff
                : ref.get(index) & 0xff | (ref.get(index + 1) & 0xff) << 8 | (ref.get(index + 2) & 0xff) << 16;
        assertThat(medium).isEqualTo((int) value & 0xffffff);
        if (be) {
            buf.setChar(index, (char) value);
            assertThat(reference(buf, order).getChar(index)).isEqualTo((char) value);
        }
    }

    private static ByteBuffer reference(ByteBuf buf, ByteOrder order) {
        return ByteBuffer.wrap(contentOf(buf)).order(order);
    }

    @Test
    void everyPrimitiveWrittenByByteBufferReadsBackHereInBothOrders() {
        ByteBuf buf = buffer();
        for (int round = 0; round < 200; round++) {
            int index = random.nextInt(CAPACITY - 8);
            long value = random.nextLong();
            for (ByteOrder order : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
                boolean be = order == ByteOrder.BIG_ENDIAN;
                ByteBuffer ref = ByteBuffer.allocate(CAPACITY).order(order);
                ref.putLong(index, value);
                buf.setBytes(0, ref.array());
                assertThat(be ? buf.getLong(index) : buf.getLongLE(index)).isEqualTo(ref.getLong(index));
                assertThat(be ? buf.getInt(index) : buf.getIntLE(index)).isEqualTo(ref.getInt(index));
                assertThat(be ? buf.getUnsignedInt(index) : buf.getUnsignedIntLE(index))
                        .isEqualTo(ref.getInt(index) & 0xffffffffL);
                assertThat(be ? buf.getShort(index) : buf.getShortLE(index)).isEqualTo(ref.getShort(index));
                assertThat(be ? buf.getUnsignedShort(index) : buf.getUnsignedShortLE(index))
                        .isEqualTo(ref.getShort(index) & 0xffff);
                assertThat(Float.floatToRawIntBits(be ? buf.getFloat(index) : buf.getFloatLE(index)))
                        .isEqualTo(Float.floatToRawIntBits(ref.getFloat(index)));
                assertThat(Double.doubleToRawLongBits(be ? buf.getDouble(index) : buf.getDoubleLE(index)))
                        .isEqualTo(Double.doubleToRawLongBits(ref.getDouble(index)));
                int b0 = ref.get(index) & 0xff;
                int b1 = ref.get(index + 1) & 0xff;
                int b2 = ref.get(index + 2) & 0xff;
                int unsignedMedium = be ? b0 << 16 | b1 << 8 | b2 : b2 << 16 | b1 << 8 | b0;
                assertThat(be ? buf.getUnsignedMedium(index) : buf.getUnsignedMediumLE(index)).isEqualTo(unsignedMedium);
                assertThat(be ? buf.getMedium(index) : buf.getMediumLE(index)).isEqualTo(unsignedMedium << 8 >> 8);
                assertThat(buf.getByte(index)).isEqualTo(ref.get(index));
                assertThat(buf.getUnsignedByte(index)).isEqualTo((short) b0);
                assertThat(buf.getBoolean(index)).isEqualTo(b0 != 0);
                if (be) {
                    assertThat(buf.getChar(index)).isEqualTo(ref.getChar(index));
                }
            }
        }
    }

    @Test
    void relativeWritesAndReadsRoundTripEveryTypeAndMoveTheIndexes() {
        ByteBuf buf = buffer(128);
        buf.writeBoolean(true).writeByte(-2).writeShort(-3).writeShortLE(0xBEEF).writeMedium(-4)
                .writeMediumLE(0x123456).writeInt(-5).writeIntLE(0xCAFEBABE).writeLong(-6L)
                .writeLongLE(0x0102030405060708L).writeChar('\u20AC').writeFloat(1.5f).writeFloatLE(-2.25f)
                .writeDouble(Math.PI).writeDoubleLE(-Math.E);
        assertThat(buf.writerIndex()).isEqualTo(1 + 1 + 2 + 2 + 3 + 3 + 4 + 4 + 8 + 8 + 2 + 4 + 4 + 8 + 8);
        assertThat(buf.readBoolean()).isTrue();
        assertThat(buf.readUnsignedByte()).isEqualTo((short) 0xFE);
        assertThat(buf.readShort()).isEqualTo((short) -3);
        assertThat(buf.readUnsignedShortLE()).isEqualTo(0xBEEF);
        assertThat(buf.readMedium()).isEqualTo(-4);
        assertThat(buf.readUnsignedMediumLE()).isEqualTo(0x123456);
        assertThat(buf.readInt()).isEqualTo(-5);
        assertThat(buf.readUnsignedIntLE()).isEqualTo(0xCAFEBABEL);
        assertThat(buf.readLong()).isEqualTo(-6L);
        assertThat(buf.readLongLE()).isEqualTo(0x0102030405060708L);
        assertThat(buf.readChar()).isEqualTo('\u20AC');
        assertThat(buf.readFloat()).isEqualTo(1.5f);
        assertThat(buf.readFloatLE()).isEqualTo(-2.25f);
        assertThat(buf.readDouble()).isEqualTo(Math.PI);
        assertThat(buf.readDoubleLE()).isEqualTo(-Math.E);
        assertThat(buf.isReadable()).isFalse();
        assertThat(buf.readerIndex()).isEqualTo(buf.writerIndex());
    }

    @Test
    void signedReadsSignExtendAndUnsignedReadsDoNot() {
        ByteBuf buf = buffer();
        buf.writeByte(0x80).writeShort(0x8000).writeMedium(0x800000).writeInt(0x80000000);
        buf.writeByte(0x80).writeShortLE(0x8000).writeMediumLE(0x800000).writeIntLE(0x80000000);
        assertThat(buf.getByte(0)).isEqualTo((byte) -128);
        assertThat(buf.readUnsignedByte()).isEqualTo((short) 0x80);
        assertThat(buf.readUnsignedShort()).isEqualTo(0x8000);
        assertThat(buf.getMedium(3)).isEqualTo(-0x800000);
        assertThat(buf.readUnsignedMedium()).isEqualTo(0x800000);
        assertThat(buf.readUnsignedInt()).isEqualTo(0x80000000L);
        assertThat(buf.readByte()).isEqualTo((byte) -128);
        assertThat(buf.readShortLE()).isEqualTo((short) -0x8000);
        assertThat(buf.readMediumLE()).isEqualTo(-0x800000);
        assertThat(buf.readIntLE()).isEqualTo(Integer.MIN_VALUE);
    }

    // ---- bulk transfers ----

    @Test
    void byteArraysCopyInAndOutWithOffsets() {
        ByteBuf buf = buffer();
        byte[] src = randomBytes(20);
        buf.setBytes(5, src, 2, 16);
        byte[] dst = new byte[20];
        buf.getBytes(5, dst, 4, 16);
        for (int i = 0; i < 16; i++) {
            assertThat(dst[4 + i]).isEqualTo(src[2 + i]);
        }
        buf.writeBytes(src);
        byte[] read = new byte[20];
        buf.readBytes(read);
        assertThat(read).isEqualTo(src);
        assertThatThrownBy(() -> buf.setBytes(0, src, 10, 11)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("srcIndex: 10");
    }

    @Test
    void buffersCopyIntoHeapAndDirectBuffersAndIntoThemselves() {
        ByteBuf buf = buffer();
        byte[] content = randomBytes(CAPACITY);
        buf.writeBytes(content);
        for (ByteBuf other : new ByteBuf[] {track(Unpooled.buffer(CAPACITY)), track(Unpooled.directBuffer(CAPACITY))}) {
            buf.getBytes(8, other, 4, 16);
            assertThat(other.getByte(4)).isEqualTo(content[8]);
            assertThat(other.getByte(19)).isEqualTo(content[23]);
            other.setIndex(0, 0);
            buf.readerIndex(0);
            other.writeBytes(buf, 10);
            assertThat(buf.readerIndex()).isEqualTo(10);
            assertThat(other.writerIndex()).isEqualTo(10);
            byte[] copy = new byte[10];
            other.getBytes(0, copy);
            assertThat(copy).containsExactly(java.util.Arrays.copyOf(content, 10));
            buf.setBytes(30, other, 0, 10);
            assertThat(buf.getByte(39)).isEqualTo(content[9]);
            buf.setBytes(0, content);
        }
        // Overlapping copy within the buffer behaves like memmove.
        buf.setBytes(1, buf, 0, 32);
        assertThat(buf.getByte(1)).isEqualTo(content[0]);
        assertThat(buf.getByte(32)).isEqualTo(content[31]);
    }

    @Test
    void byteBuffersCopyInAndOutAndTheirPositionsAdvance() {
        ByteBuf buf = buffer();
        byte[] content = randomBytes(16);
        for (ByteBuffer nio : new ByteBuffer[] {ByteBuffer.allocate(24), ByteBuffer.allocateDirect(24)}) {
            nio.position(4);
            nio.put(content);
            nio.position(4).limit(20);
            buf.clear().writeBytes(nio);
            assertThat(nio.position()).isEqualTo(20);
            assertThat(buf.writerIndex()).isEqualTo(16);
            ByteBuffer out = nio.isDirect() ? ByteBuffer.allocateDirect(16) : ByteBuffer.allocate(16);
            buf.readBytes(out);
            assertThat(out.position()).isEqualTo(16);
            out.flip();
            byte[] check = new byte[16];
            out.get(check);
            assertThat(check).isEqualTo(content);
        }
    }

    @Test
    void streamsTransferExactlyTheRequestedBytesAndReportEndOfStream() throws IOException {
        ByteBuf buf = buffer();
        byte[] content = randomBytes(40);
        assertThat(buf.writeBytes(new ByteArrayInputStream(content), 40)).isEqualTo(40);
        assertThat(buf.writerIndex()).isEqualTo(40);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        buf.readBytes(out, 30);
        buf.getBytes(30, out, 10);
        assertThat(out.toByteArray()).isEqualTo(content);
        assertThat(buf.writeBytes(InputStream.nullInputStream(), 8)).isEqualTo(-1);
        assertThat(buf.writerIndex()).isEqualTo(40);
    }

    @Test
    void fileChannelsTransferAtAPositionWithoutMovingTheChannel(@TempDir Path dir) throws IOException {
        ByteBuf buf = buffer();
        byte[] content = randomBytes(32);
        buf.writeBytes(content);
        try (FileChannel file = FileChannel.open(dir.resolve("data"), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            assertThat(buf.readBytes(file, 100, 32)).isEqualTo(32);
            assertThat(file.position()).isZero();
            assertThat(buf.getBytes(0, file, 8)).isEqualTo(8);
            assertThat(file.position()).isEqualTo(8);
            buf.clear();
            assertThat(buf.writeBytes(file, 100, 32)).isEqualTo(32);
            assertThat(contentOf(buf.slice())).isEqualTo(content);
            file.position(0);
            buf.clear();
            assertThat(buf.writeBytes(file, 8)).isEqualTo(8);
            assertThat(buf.getLong(0)).isEqualTo(ByteBuffer.wrap(content).getLong(0));
            assertThat(buf.writeBytes(file, 1000, 8)).isEqualTo(-1);
        }
    }

    @Test
    void setZeroAndWriteZeroClearExactlyTheirRange() {
        ByteBuf buf = buffer();
        buf.setBytes(0, new byte[] {1, 1, 1, 1, 1, 1, 1, 1});
        buf.setZero(2, 4);
        assertThat(buf.getLong(0)).isEqualTo(0x0101000000000101L);
        buf.writerIndex(1).writeZero(2);
        assertThat(buf.writerIndex()).isEqualTo(3);
        assertThat(buf.getByte(1)).isZero();
        assertThat(buf.getByte(0)).isEqualTo((byte) 1);
    }

    // ---- growth ----

    @Test
    void writesGrowTheCapacityByTheAllocatorPolicyUpToTheMaximum() {
        assumeTrue(canGrow());
        ByteBuf buf = track(newBuffer(8, 300));
        buf.writeBytes(new byte[9]);
        assertThat(buf.capacity()).isEqualTo(64);
        buf.writeBytes(new byte[100]);
        assertThat(buf.capacity()).isEqualTo(128);
        buf.setIndex(0, 128);
        assertThat(buf.ensureWritable(100, false)).isEqualTo(2);
        assertThat(buf.capacity()).isEqualTo(256);
        assertThat(buf.ensureWritable(1, false)).isZero();
        assertThatThrownBy(() -> buf.ensureWritable(173)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("minWritableBytes(173) exceeds maxCapacity(300)");
        assertThat(buf.ensureWritable(173, false)).isEqualTo(1);
        assertThat(buf.capacity()).isEqualTo(256);
        assertThat(buf.ensureWritable(173, true)).isEqualTo(3);
        assertThat(buf.capacity()).isEqualTo(300);
        assertThatThrownBy(() -> buf.writeBytes(new byte[173])).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(buf.writerIndex()).isEqualTo(128);
        assertThatThrownBy(() -> buf.ensureWritable(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void growingKeepsTheContentAndShrinkingLowersTheIndexes() {
        assumeTrue(canGrow());
        ByteBuf buf = buffer(16);
        byte[] content = randomBytes(16);
        buf.writeBytes(content);
        buf.capacity(1000);
        assertThat(buf.capacity()).isEqualTo(1000);
        byte[] kept = new byte[16];
        buf.getBytes(0, kept);
        assertThat(kept).isEqualTo(content);
        buf.readerIndex(12);
        buf.capacity(10);
        assertThat(buf.writerIndex()).isEqualTo(10);
        assertThat(buf.readerIndex()).isEqualTo(10);
        assertThat(buf.getByte(9)).isEqualTo(content[9]);
        assertThatThrownBy(() -> buf.capacity(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("newCapacity: -1");
    }

    @Test
    void aBufferThatCannotGrowRefusesWritesPastItsCapacity() {
        ByteBuf buf = track(newBuffer(16, 16));
        buf.writeBytes(new byte[16]);
        assertThatThrownBy(() -> buf.writeByte(1)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("exceeds maxCapacity(16)");
        assertThat(buf.maxWritableBytes()).isZero();
    }

    @Test
    void discardReadBytesMovesTheReadableBytesToTheFront() {
        ByteBuf buf = buffer();
        for (int i = 0; i < 10; i++) {
            buf.writeByte(i);
        }
        buf.skipBytes(4);
        buf.discardSomeReadBytes();
        assertThat(buf.readerIndex()).isEqualTo(4);
        buf.discardReadBytes();
        assertThat(buf.readerIndex()).isZero();
        assertThat(buf.writerIndex()).isEqualTo(6);
        for (int i = 0; i < 6; i++) {
            assertThat(buf.getByte(i)).isEqualTo((byte) (i + 4));
        }
        buf.skipBytes(6);
        buf.discardSomeReadBytes();
        assertThat(buf.readerIndex()).isZero();
        assertThat(buf.writerIndex()).isZero();
        buf.writerIndex(CAPACITY).readerIndex(CAPACITY / 2);
        buf.discardSomeReadBytes();
        assertThat(buf.readerIndex()).isZero();
        assertThat(buf.writerIndex()).isEqualTo(CAPACITY / 2);
    }

    // ---- search ----

    @Test
    void indexOfSearchesForwardOrBackwardWithinTheRange() {
        ByteBuf buf = buffer();
        buf.writeBytes("abcabc\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(buf.indexOf(0, 8, (byte) 'b')).isEqualTo(1);
        assertThat(buf.indexOf(2, 8, (byte) 'b')).isEqualTo(4);
        assertThat(buf.indexOf(8, 0, (byte) 'b')).isEqualTo(4);
        assertThat(buf.indexOf(4, 0, (byte) 'b')).isEqualTo(1);
        assertThat(buf.indexOf(0, 1, (byte) 'b')).isEqualTo(-1);
        assertThat(buf.indexOf(3, 3, (byte) 'a')).isEqualTo(-1);
        assertThatThrownBy(() -> buf.indexOf(0, CAPACITY + 1, (byte) 'a'))
                .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("toIndex: " + (CAPACITY + 1));
    }

    @Test
    void bytesBeforeAndForEachByteFindBytesAmongTheReadableOnes() {
        ByteBuf buf = buffer();
        buf.writeBytes("GET /x HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
        buf.skipBytes(4);
        assertThat(buf.bytesBefore((byte) ' ')).isEqualTo(2);
        assertThat(buf.bytesBefore(2, (byte) ' ')).isEqualTo(-1);
        assertThat(buf.bytesBefore(0, 4, (byte) ' ')).isEqualTo(3);
        assertThatThrownBy(() -> buf.bytesBefore(100, (byte) ' ')).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(buf.forEachByte(ByteProcessor.FIND_CRLF)).isEqualTo(15);
        assertThat(buf.forEachByte(0, 4, ByteProcessor.FIND_CRLF)).isEqualTo(-1);
        assertThat(buf.forEachByteDesc(ByteProcessor.FIND_LINEAR_WHITESPACE)).isEqualTo(6);
        assertThat(buf.forEachByteDesc(4, 2, ByteProcessor.FIND_NUL)).isEqualTo(-1);
        List<Byte> seen = new ArrayList<>();
        buf.forEachByte(4, 3, b -> seen.add(b));
        assertThat(seen).containsExactly((byte) '/', (byte) 'x', (byte) ' ');
    }

    // ---- derived buffers ----

    @Test
    void aSliceSharesContentAndReferenceCountButNotIndexes() {
        ByteBuf buf = buffer();
        buf.writeBytes(randomBytes(20));
        buf.skipBytes(5);
        ByteBuf slice = buf.slice();
        assertThat(slice.capacity()).isEqualTo(15);
        assertThat(slice.readerIndex()).isZero();
        assertThat(slice.writerIndex()).isEqualTo(15);
        assertThat(slice.getByte(0)).isEqualTo(buf.getByte(5));
        slice.setByte(1, 42);
        assertThat(buf.getByte(6)).isEqualTo((byte) 42);
        buf.setInt(10, 0x11223344);
        assertThat(slice.getInt(5)).isEqualTo(0x11223344);
        slice.readByte();
        assertThat(buf.readerIndex()).isEqualTo(5);
        assertThatThrownBy(() -> buf.slice(CAPACITY - 1, 2)).isInstanceOf(IndexOutOfBoundsException.class);
        ByteBuf nested = slice.slice(2, 4);
        nested.setByte(0, 7);
        assertThat(buf.getByte(7)).isEqualTo((byte) 7);
        assertThat(slice.refCnt()).isEqualTo(1);
        slice.retain();
        assertThat(buf.refCnt()).isEqualTo(2);
        assertThat(nested.release()).isFalse();
        assertThat(buf.refCnt()).isEqualTo(1);
    }

    @Test
    void retainedSlicesAndDuplicatesAddAReferenceTheirHolderReleases() {
        ByteBuf buf = buffer();
        buf.writeBytes(randomBytes(16));
        ByteBuf retainedSlice = buf.retainedSlice(2, 4);
        ByteBuf retainedDuplicate = buf.retainedDuplicate();
        ByteBuf readSlice = buf.readRetainedSlice(8);
        assertThat(buf.refCnt()).isEqualTo(4);
        assertThat(buf.readerIndex()).isEqualTo(8);
        assertThat(readSlice.readableBytes()).isEqualTo(8);
        assertThat(readSlice.getByte(3)).isEqualTo(buf.getByte(3));
        assertThat(retainedDuplicate.readerIndex()).isZero();
        assertThat(retainedDuplicate.writerIndex()).isEqualTo(16);
        assertThat(retainedSlice.release()).isFalse();
        assertThat(retainedDuplicate.release()).isFalse();
        assertThat(readSlice.release()).isFalse();
        assertThat(buf.refCnt()).isEqualTo(1);
        assertThat(buf.readSlice(4).refCnt()).isEqualTo(1);
    }

    @Test
    void aDuplicateSharesContentWithItsOwnIndexes() {
        ByteBuf buf = buffer();
        buf.writeLong(0x0102030405060708L);
        ByteBuf duplicate = buf.duplicate();
        assertThat(duplicate.writerIndex()).isEqualTo(8);
        assertThat(duplicate.readLong()).isEqualTo(0x0102030405060708L);
        assertThat(buf.readerIndex()).isZero();
        duplicate.setByte(0, 9);
        assertThat(buf.getByte(0)).isEqualTo((byte) 9);
        assertThat(duplicate.capacity()).isEqualTo(buf.capacity());
        assertThat(duplicate.duplicate().readerIndex()).isEqualTo(8);
    }

    @Test
    void copyIsIndependentAndOwnedByTheCaller() {
        ByteBuf buf = buffer();
        buf.writeBytes(randomBytes(12)).skipBytes(2);
        ByteBuf copy = track(buf.copy());
        assertThat(copy).isEqualTo(buf);
        assertThat(copy.isDirect()).isEqualTo(buf.isDirect());
        copy.setByte(0, ~copy.getByte(0));
        assertThat(copy).isNotEqualTo(buf);
        ByteBuf read = track(buf.readBytes(4));
        assertThat(read.readableBytes()).isEqualTo(4);
        assertThat(buf.readerIndex()).isEqualTo(6);
        assertThat(copy.release()).isTrue();
        assertThat(buf.refCnt()).isEqualTo(1);
    }

    @Test
    void nioBufferSharesTheContentWithoutMovingIndexes() {
        ByteBuf buf = buffer();
        buf.writeInt(0x01020304).writeInt(0x05060708).skipBytes(2);
        assertThat(buf.nioBufferCount()).isEqualTo(1);
        ByteBuffer nio = buf.nioBuffer();
        assertThat(nio.position()).isZero();
        assertThat(nio.remaining()).isEqualTo(6);
        assertThat(nio.order()).isEqualTo(ByteOrder.BIG_ENDIAN);
        assertThat(nio.getShort(0)).isEqualTo((short) 0x0304);
        nio.put(0, (byte) 99);
        assertThat(buf.getByte(2)).isEqualTo((byte) 99);
        assertThat(buf.nioBuffers(4, 4)).hasSize(1);
        assertThat(buf.nioBuffers(4, 4)[0].getInt(0)).isEqualTo(0x05060708);
        assertThat(buf.readerIndex()).isEqualTo(2);
    }

    @Test
    void internalNioBufferCoversExactlyTheRangeAndSharesTheContent() {
        ByteBuf buf = buffer();
        buf.writeInt(0x01020304).writeInt(0x05060708);
        ByteBuffer nio = buf.internalNioBuffer(2, 5);
        assertThat(nio.remaining()).isEqualTo(5);
        assertThat(nio.get(nio.position())).isEqualTo((byte) 0x03);
        assertThat(nio.get(nio.position() + 4)).isEqualTo((byte) 0x07);
        // A second range re-points the (possibly reused) view; the first one may no longer be relied on.
        ByteBuffer again = buf.internalNioBuffer(4, 4);
        assertThat(again.remaining()).isEqualTo(4);
        assertThat(again.getInt(again.position())).isEqualTo(0x05060708);
        assertThat(buf.internalNioBuffer(0, 0).remaining()).isZero();
        assertThat(buf.readerIndex()).isZero();
        assertThat(buf.writerIndex()).isEqualTo(8);
        assertThatThrownBy(() -> buf.internalNioBuffer(buf.capacity() - 1, 2))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> buf.internalNioBuffer(-1, 1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void arrayAndMemoryAddressAreOfferedOnlyWhenAdvertised() {
        ByteBuf buf = buffer();
        buf.setByte(3, 77);
        if (buf.hasArray()) {
            assertThat(buf.array()[buf.arrayOffset() + 3]).isEqualTo((byte) 77);
        } else {
            assertThatThrownBy(buf::array).isInstanceOf(UnsupportedOperationException.class);
        }
        if (!buf.hasMemoryAddress()) {
            assertThatThrownBy(buf::memoryAddress).isInstanceOf(UnsupportedOperationException.class);
        }
    }

    @Test
    void aReadOnlyViewSeesWritesButRefusesThem() {
        ByteBuf buf = buffer();
        buf.writeInt(1);
        ByteBuf view = buf.asReadOnly();
        assertThat(view.isReadOnly()).isTrue();
        assertThat(view.asReadOnly()).isSameAs(view);
        buf.setInt(0, 2);
        assertThat(view.readInt()).isEqualTo(2);
        assertThatThrownBy(() -> view.setInt(0, 3)).isInstanceOf(ReadOnlyBufferException.class);
        assertThatThrownBy(() -> view.writeByte(3)).isInstanceOf(ReadOnlyBufferException.class);
        assertThat(buf.getInt(0)).isEqualTo(2);
        assertThat(view.refCnt()).isEqualTo(1);
        assertThat(view.release()).isTrue();
        assertThat(buf.refCnt()).isZero();
    }

    // ---- content equality, text ----

    @Test
    void equalityHashAndOrderDependOnlyOnTheReadableBytes() {
        ByteBuf buf = buffer();
        buf.writeBytes(new byte[] {9, 1, 2, 3}).skipBytes(1);
        ByteBuf same = track(Unpooled.copiedBuffer(new byte[] {1, 2, 3}));
        ByteBuf greater = track(Unpooled.copiedBuffer(new byte[] {1, 2, (byte) 0xFF}));
        ByteBuf prefix = track(Unpooled.copiedBuffer(new byte[] {1, 2}));
        assertThat(buf).isEqualTo(same);
        assertThat(buf.hashCode()).isEqualTo(same.hashCode());
        assertThat(buf.compareTo(same)).isZero();
        assertThat(buf.compareTo(greater)).isNegative();
        assertThat(greater.compareTo(buf)).isPositive();
        assertThat(prefix.compareTo(buf)).isNegative();
        assertThat(buf).isNotEqualTo(prefix);
        assertThat(buf.toString()).contains("ridx: 1").contains("widx: 4");
    }

    @Test
    void asciiAndLatin1TextDecodesToAnAsciiStringOtherCharsetsToAString() {
        ByteBuf buf = buffer();
        assertThat(buf.writeCharSequence("hello", StandardCharsets.US_ASCII)).isEqualTo(5);
        assertThat(buf.writeCharSequence("\u00e9\u20ac", StandardCharsets.UTF_8)).isEqualTo(5);
        CharSequence ascii = buf.getCharSequence(0, 5, StandardCharsets.US_ASCII);
        assertThat(ascii).isInstanceOf(AsciiString.class);
        assertThat(ascii.toString()).isEqualTo("hello");
        assertThat(buf.readCharSequence(5, StandardCharsets.ISO_8859_1)).isInstanceOf(AsciiString.class);
        CharSequence utf8 = buf.readCharSequence(5, StandardCharsets.UTF_8);
        assertThat(utf8).isInstanceOf(String.class).hasToString("\u00e9\u20ac");
        buf.clear();
        assertThat(buf.writeCharSequence("a\u00e9\u20ac", StandardCharsets.US_ASCII)).isEqualTo(3);
        assertThat(buf.writeCharSequence("\u00e9\u20ac", StandardCharsets.ISO_8859_1)).isEqualTo(2);
        assertThat(buf.toString(StandardCharsets.ISO_8859_1)).isEqualTo("a??\u00e9?");
        assertThat(buf.setCharSequence(0, new AsciiString("xy"), StandardCharsets.ISO_8859_1)).isEqualTo(2);
        assertThat(buf.toString(0, 3, StandardCharsets.US_ASCII)).isEqualTo("xy?");
    }

    // ---- release ----

    @Test
    void accessAfterTheLastReleaseThrowsIllegalReferenceCount() {
        ByteBuf buf = buffer();
        buf.writeInt(1);
        ByteBuf slice = buf.slice();
        assertThat(buf.release()).isTrue();
        assertThat(buf.refCnt()).isZero();
        assertThat(slice.refCnt()).isZero();
        assertThatThrownBy(() -> buf.getInt(0)).isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(buf::readInt).isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(() -> buf.writeByte(1)).isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(() -> buf.setBytes(0, new byte[1])).isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(() -> buf.getBytes(0, new byte[1])).isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(buf::nioBuffer).isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(buf::copy).isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(() -> slice.getInt(0)).isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(() -> buf.ensureWritable(1000)).isInstanceOf(IllegalReferenceCountException.class);
        assertThat(buf.toString()).contains("freed");
    }

    @Test
    void releasingTwiceOrRetainingAfterReleaseThrows() {
        ByteBuf buf = buffer();
        buf.retain(2);
        assertThat(buf.release(2)).isFalse();
        assertThatThrownBy(() -> buf.release(2)).isInstanceOf(IllegalReferenceCountException.class);
        assertThat(buf.refCnt()).isEqualTo(1);
        assertThat(buf.release()).isTrue();
        assertThatThrownBy(buf::release).isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(buf::retain).isInstanceOf(IllegalReferenceCountException.class);
        assertThat(buf.refCnt()).isZero();
    }
}
