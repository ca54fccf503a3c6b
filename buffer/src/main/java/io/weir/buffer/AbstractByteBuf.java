package io.weir.buffer;

import io.weir.util.AsciiString;
import io.weir.util.ByteProcessor;
import io.weir.util.IllegalReferenceCountException;
import io.weir.util.platform.MemoryAccess;
import io.weir.util.platform.SystemProperties;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ScatteringByteChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * Index handling, bounds checks and every relative and composite operation, written once over a small set
 * of package-private primitives ({@code _getByte}, {@code _setInt}, …, {@code _getBytes}, {@code _nioBuffer})
 * that each memory kind implements. A primitive may assume its range was checked.
 *
 * <p>Not thread-safe (see {@link ByteBuf}).
 */
abstract class AbstractByteBuf extends ByteBuf {
    /**
     * {@code io.weir.buffer.checkBounds}: whether absolute accesses are checked against the capacity
     * ({@value #DEFAULT_CHECK_BOUNDS} by default). Turning it off saves a compare and branch per access; a
     * wrong index on a direct buffer then reads or writes foreign memory. Reader/writer index checks stay on.
     */
    static final String CHECK_BOUNDS_PROPERTY = "io.weir.buffer.checkBounds";
    /** Default of {@value #CHECK_BOUNDS_PROPERTY}. */
    static final boolean DEFAULT_CHECK_BOUNDS = true;
    static final boolean CHECK_BOUNDS = SystemProperties.getBoolean(CHECK_BOUNDS_PROPERTY, DEFAULT_CHECK_BOUNDS);

    /** Chunk size, in bytes, for stream transfers of buffers without an array. */
    static final int STREAM_CHUNK_BYTES = 8192;

    private int readerIndex;
    private int writerIndex;
    /**
     * Whether the indexes may lie beyond the capacity: true for views, whose parent can shrink under them.
     * Every other buffer trims its indexes when its capacity shrinks, so its reads need no capacity check on
     * top of the reader/writer index check.
     */
    boolean indexesMayOutgrowCapacity;

    AbstractByteBuf() {
    }

    // ---- what each kind provides ----

    /**
     * Whether the buffer looks live; a plain read (see {@link ByteBuf}: it only has to catch a use after
     * release on the releasing thread, which program order makes visible without a barrier).
     */
    abstract boolean isAccessible();

    abstract byte _getByte(int index);

    abstract short _getShort(int index);

    abstract short _getShortLE(int index);

    abstract int _getInt(int index);

    abstract int _getIntLE(int index);

    abstract long _getLong(int index);

    abstract long _getLongLE(int index);

    abstract void _setByte(int index, int value);

    abstract void _setShort(int index, int value);

    abstract void _setShortLE(int index, int value);

    abstract void _setInt(int index, int value);

    abstract void _setIntLE(int index, int value);

    abstract void _setLong(int index, long value);

    abstract void _setLongLE(int index, long value);

    abstract void _getBytes(int index, byte[] dst, int dstIndex, int length);

    /** Copies {@code dst.remaining()} bytes, advancing {@code dst}'s position. */
    abstract void _getBytes(int index, ByteBuffer dst);

    abstract void _setBytes(int index, byte[] src, int srcIndex, int length);

    /** Copies {@code src.remaining()} bytes, advancing {@code src}'s position; may share memory with this buffer. */
    abstract void _setBytes(int index, ByteBuffer src);

    abstract void _setZero(int index, int length);

    /** A view of the range sharing the content: position 0, limit {@code length}, big-endian. */
    abstract ByteBuffer _nioBuffer(int index, int length);

    int _getUnsignedMedium(int index) {
        return (_getByte(index) & 0xff) << 16 | _getShort(index + 1) & 0xffff;
    }

    int _getUnsignedMediumLE(int index) {
        return _getShortLE(index) & 0xffff | (_getByte(index + 2) & 0xff) << 16;
    }

    void _setMedium(int index, int value) {
        _setByte(index, value >>> 16);
        _setShort(index + 1, value);
    }

    void _setMediumLE(int index, int value) {
        _setShortLE(index, value);
        _setByte(index + 2, value >>> 16);
    }

    // ---- checks ----

    final void ensureAccessible() {
        if (!isAccessible()) {
            throw new IllegalReferenceCountException("buffer accessed after its last release (refCnt: 0): "
                    + getClass().getSimpleName());
        }
    }

    final void checkIndex(int index, int length) {
        ensureAccessible();
        if (CHECK_BOUNDS) {
            checkRange(index, length, capacity());
        }
    }

    /**
     * {@link #checkIndex} for a primitive of {@code size} bytes (a constant 1 to 8 at every call site). Written
     * as the canonical {@code 0 <= index < limit} that C2 folds into one unsigned compare and can hoist out of
     * a caller's loop; the sign-bit form of {@link #isOutOfBounds} hides that shape and kept every access in
     * a loop checked (setLong/getLong ran at 0.3x Netty).
     */
    final void checkPrimitiveIndex(int index, int size) {
        ensureAccessible();
        if (CHECK_BOUNDS) {
            int limit = capacity() - size + 1;
            if (index < 0 || index >= limit) {
                throw new IndexOutOfBoundsException("index: " + index + ", length: " + size
                        + " (expected: range(0, " + capacity() + "))");
            }
        }
    }

    static boolean isOutOfBounds(int index, int length, int capacity) {
        // One sign test covers a negative index or length, an int overflow of the end and an end past capacity.
        return (index | length | index + length | capacity - (index + length)) < 0;
    }

    static void checkRange(int index, int length, int capacity) {
        if (isOutOfBounds(index, length, capacity)) {
            throw new IndexOutOfBoundsException("index: " + index + ", length: " + length
                    + " (expected: range(0, " + capacity + "))");
        }
    }

    static void checkArgRange(String what, int index, int length, int capacity) {
        if (isOutOfBounds(index, length, capacity)) {
            throw new IndexOutOfBoundsException(what + ": " + index + ", length: " + length
                    + " (expected: range(0, " + capacity + "))");
        }
    }

    final void checkReadableBytes(int length) {
        ensureAccessible();
        if (length < 0) {
            throw new IllegalArgumentException("length: " + length + " (expected: >= 0)");
        }
        if (readerIndex > writerIndex - length) {
            throw new IndexOutOfBoundsException("readerIndex(" + readerIndex + ") + length(" + length
                    + ") exceeds writerIndex(" + writerIndex + "): " + this);
        }
    }

    /** Makes room for {@code length} bytes at the writer index, growing if needed. */
    final void prepareWrite(int length) {
        ensureAccessible();
        if (length < 0) {
            throw new IllegalArgumentException("length: " + length + " (expected: >= 0)");
        }
        if (length > capacity() - writerIndex) {
            grow(length);
        }
    }

    private void grow(int minWritableBytes) {
        int maxCapacity = maxCapacity();
        if (minWritableBytes > maxCapacity - writerIndex) {
            throw new IndexOutOfBoundsException("writerIndex(" + writerIndex + ") + minWritableBytes("
                    + minWritableBytes + ") exceeds maxCapacity(" + maxCapacity + "): " + this);
        }
        capacity(alloc().calculateNewCapacity(writerIndex + minWritableBytes, maxCapacity));
    }

    final void checkNewCapacity(int newCapacity) {
        ensureAccessible();
        if (newCapacity < 0 || newCapacity > maxCapacity()) {
            throw new IllegalArgumentException("newCapacity: " + newCapacity + " (expected: 0-" + maxCapacity() + ")");
        }
    }

    /** After a shrink: lowers indexes beyond the new capacity to it. */
    final void trimIndexesToCapacity(int newCapacity) {
        if (writerIndex > newCapacity) {
            readerIndex = Math.min(readerIndex, newCapacity);
            writerIndex = newCapacity;
        }
    }

    // ---- capacity and indexes ----

    @Override
    public final int readerIndex() {
        return readerIndex;
    }

    @Override
    public ByteBuf readerIndex(int readerIndex) {
        if (readerIndex < 0 || readerIndex > writerIndex) {
            throw new IndexOutOfBoundsException("readerIndex: " + readerIndex
                    + " (expected: 0 <= readerIndex <= writerIndex(" + writerIndex + "))");
        }
        this.readerIndex = readerIndex;
        return this;
    }

    @Override
    public final int writerIndex() {
        return writerIndex;
    }

    @Override
    public ByteBuf writerIndex(int writerIndex) {
        if (writerIndex < readerIndex || writerIndex > capacity()) {
            throw new IndexOutOfBoundsException("writerIndex: " + writerIndex + " (expected: readerIndex("
                    + readerIndex + ") <= writerIndex <= capacity(" + capacity() + "))");
        }
        this.writerIndex = writerIndex;
        return this;
    }

    @Override
    public ByteBuf setIndex(int readerIndex, int writerIndex) {
        if (readerIndex < 0 || readerIndex > writerIndex || writerIndex > capacity()) {
            throw new IndexOutOfBoundsException("readerIndex: " + readerIndex + ", writerIndex: " + writerIndex
                    + " (expected: 0 <= readerIndex <= writerIndex <= capacity(" + capacity() + "))");
        }
        this.readerIndex = readerIndex;
        this.writerIndex = writerIndex;
        return this;
    }

    /** Sets both indexes without checks, for constructors and derived buffers that have checked them. */
    final void setIndex0(int readerIndex, int writerIndex) {
        this.readerIndex = readerIndex;
        this.writerIndex = writerIndex;
    }

    @Override
    public ByteBuf clear() {
        readerIndex = 0;
        writerIndex = 0;
        return this;
    }

    @Override
    public ByteBuf discardReadBytes() {
        ensureAccessible();
        if (readerIndex == 0) {
            return this;
        }
        if (readerIndex != writerIndex) {
            setBytes(0, this, readerIndex, writerIndex - readerIndex);
            writerIndex -= readerIndex;
            readerIndex = 0;
        } else {
            readerIndex = 0;
            writerIndex = 0;
        }
        return this;
    }

    @Override
    public ByteBuf discardSomeReadBytes() {
        ensureAccessible();
        if (readerIndex > 0 && (readerIndex == writerIndex || readerIndex >= capacity() >>> 1)) {
            discardReadBytes();
        }
        return this;
    }

    @Override
    public ByteBuf ensureWritable(int minWritableBytes) {
        if (minWritableBytes < 0) {
            throw new IllegalArgumentException("minWritableBytes: " + minWritableBytes + " (expected: >= 0)");
        }
        prepareWrite(minWritableBytes);
        return this;
    }

    @Override
    public int ensureWritable(int minWritableBytes, boolean force) {
        if (minWritableBytes < 0) {
            throw new IllegalArgumentException("minWritableBytes: " + minWritableBytes + " (expected: >= 0)");
        }
        ensureAccessible();
        if (minWritableBytes <= writableBytes()) {
            return 0;
        }
        int maxCapacity = maxCapacity();
        if (minWritableBytes > maxCapacity - writerIndex) {
            if (!force || capacity() == maxCapacity) {
                return 1;
            }
            capacity(maxCapacity);
            return 3;
        }
        capacity(alloc().calculateNewCapacity(writerIndex + minWritableBytes, maxCapacity));
        return 2;
    }

    // ---- absolute reads ----

    @Override
    public byte getByte(int index) {
        checkPrimitiveIndex(index, 1);
        return _getByte(index);
    }

    @Override
    public short getShort(int index) {
        checkPrimitiveIndex(index, 2);
        return _getShort(index);
    }

    @Override
    public short getShortLE(int index) {
        checkPrimitiveIndex(index, 2);
        return _getShortLE(index);
    }

    @Override
    public int getUnsignedMedium(int index) {
        checkPrimitiveIndex(index, 3);
        return _getUnsignedMedium(index);
    }

    @Override
    public int getUnsignedMediumLE(int index) {
        checkPrimitiveIndex(index, 3);
        return _getUnsignedMediumLE(index);
    }

    @Override
    public int getInt(int index) {
        checkPrimitiveIndex(index, 4);
        return _getInt(index);
    }

    @Override
    public int getIntLE(int index) {
        checkPrimitiveIndex(index, 4);
        return _getIntLE(index);
    }

    @Override
    public long getLong(int index) {
        checkPrimitiveIndex(index, 8);
        return _getLong(index);
    }

    @Override
    public long getLongLE(int index) {
        checkPrimitiveIndex(index, 8);
        return _getLongLE(index);
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuf dst, int dstIndex, int length) {
        Objects.requireNonNull(dst, "dst");
        checkIndex(index, length);
        checkArgRange("dstIndex", dstIndex, length, dst.capacity());
        if (dst.hasArray()) {
            _getBytes(index, dst.array(), dst.arrayOffset() + dstIndex, length);
        } else if (dst.hasMemoryAddress() && hasMemoryAddress()) {
            // Off-heap on both sides with known addresses: one copy, no NIO view to create.
            MemoryAccess.copyMemory(memoryAddress() + index, dst.memoryAddress() + dstIndex, length);
        } else if (!dst.isReadOnly() && dst.nioBufferCount() == 1) {
            _getBytes(index, dst.nioBuffer(dstIndex, length));
        } else {
            dst.setBytes(dstIndex, this, index, length);
        }
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, byte[] dst, int dstIndex, int length) {
        checkIndex(index, length);
        checkArgRange("dstIndex", dstIndex, length, dst.length);
        _getBytes(index, dst, dstIndex, length);
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuffer dst) {
        checkIndex(index, dst.remaining());
        _getBytes(index, dst);
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, OutputStream out, int length) throws IOException {
        Objects.requireNonNull(out, "out");
        checkIndex(index, length);
        if (hasArray()) {
            out.write(array(), arrayOffset() + index, length);
            return this;
        }
        byte[] chunk = new byte[Math.min(length, STREAM_CHUNK_BYTES)];
        for (int done = 0; done < length; ) {
            int n = Math.min(chunk.length, length - done);
            _getBytes(index + done, chunk, 0, n);
            out.write(chunk, 0, n);
            done += n;
        }
        return this;
    }

    @Override
    public int getBytes(int index, GatheringByteChannel out, int length) throws IOException {
        Objects.requireNonNull(out, "out");
        checkIndex(index, length);
        return out.write(_nioBuffer(index, length));
    }

    @Override
    public int getBytes(int index, FileChannel out, long position, int length) throws IOException {
        Objects.requireNonNull(out, "out");
        checkIndex(index, length);
        return length == 0 ? 0 : out.write(_nioBuffer(index, length), position);
    }

    @Override
    public CharSequence getCharSequence(int index, int length, Charset charset) {
        if (isSingleByteAscii(charset)) {
            checkIndex(index, length);
            byte[] bytes;
            if (hasArray()) {
                // One copy into an array the JIT may allocate without zeroing it first.
                int from = arrayOffset() + index;
                bytes = Arrays.copyOfRange(array(), from, from + length);
            } else {
                bytes = new byte[length];
                _getBytes(index, bytes, 0, length);
            }
            // The array is ours alone, so the string may keep it: no second copy and no char[].
            return new AsciiString(bytes, false);
        }
        return toString(index, length, charset);
    }

    /** US-ASCII or ISO-8859-1: identity first, as Charset.equals compares names. */
    private static boolean isSingleByteAscii(Charset charset) {
        return charset == StandardCharsets.US_ASCII || charset == StandardCharsets.ISO_8859_1
                || charset.equals(StandardCharsets.US_ASCII) || charset.equals(StandardCharsets.ISO_8859_1);
    }

    // ---- absolute writes ----

    @Override
    public ByteBuf setByte(int index, int value) {
        checkPrimitiveIndex(index, 1);
        _setByte(index, value);
        return this;
    }

    @Override
    public ByteBuf setShort(int index, int value) {
        checkPrimitiveIndex(index, 2);
        _setShort(index, value);
        return this;
    }

    @Override
    public ByteBuf setShortLE(int index, int value) {
        checkPrimitiveIndex(index, 2);
        _setShortLE(index, value);
        return this;
    }

    @Override
    public ByteBuf setMedium(int index, int value) {
        checkPrimitiveIndex(index, 3);
        _setMedium(index, value);
        return this;
    }

    @Override
    public ByteBuf setMediumLE(int index, int value) {
        checkPrimitiveIndex(index, 3);
        _setMediumLE(index, value);
        return this;
    }

    @Override
    public ByteBuf setInt(int index, int value) {
        checkPrimitiveIndex(index, 4);
        _setInt(index, value);
        return this;
    }

    @Override
    public ByteBuf setIntLE(int index, int value) {
        checkPrimitiveIndex(index, 4);
        _setIntLE(index, value);
        return this;
    }

    @Override
    public ByteBuf setLong(int index, long value) {
        checkPrimitiveIndex(index, 8);
        _setLong(index, value);
        return this;
    }

    @Override
    public ByteBuf setLongLE(int index, long value) {
        checkPrimitiveIndex(index, 8);
        _setLongLE(index, value);
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuf src, int srcIndex, int length) {
        Objects.requireNonNull(src, "src");
        checkIndex(index, length);
        checkArgRange("srcIndex", srcIndex, length, src.capacity());
        if (src.hasArray()) {
            _setBytes(index, src.array(), src.arrayOffset() + srcIndex, length);
        } else if (src.hasMemoryAddress() && hasMemoryAddress()) {
            // Off-heap on both sides with known addresses: one copy, no NIO view to create.
            MemoryAccess.copyMemory(src.memoryAddress() + srcIndex, memoryAddress() + index, length);
        } else if (src.nioBufferCount() == 1) {
            _setBytes(index, src.nioBuffer(srcIndex, length));
        } else {
            src.getBytes(srcIndex, this, index, length);
        }
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, byte[] src, int srcIndex, int length) {
        checkIndex(index, length);
        checkArgRange("srcIndex", srcIndex, length, src.length);
        _setBytes(index, src, srcIndex, length);
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuffer src) {
        checkIndex(index, src.remaining());
        _setBytes(index, src);
        return this;
    }

    @Override
    public int setBytes(int index, InputStream in, int length) throws IOException {
        Objects.requireNonNull(in, "in");
        checkIndex(index, length);
        if (hasArray()) {
            return in.read(array(), arrayOffset() + index, length);
        }
        byte[] chunk = new byte[Math.min(length, STREAM_CHUNK_BYTES)];
        int n = in.read(chunk, 0, chunk.length);
        if (n > 0) {
            _setBytes(index, chunk, 0, n);
        }
        return n;
    }

    @Override
    public int setBytes(int index, ScatteringByteChannel in, int length) throws IOException {
        Objects.requireNonNull(in, "in");
        checkIndex(index, length);
        return in.read(_nioBuffer(index, length));
    }

    @Override
    public int setBytes(int index, FileChannel in, long position, int length) throws IOException {
        Objects.requireNonNull(in, "in");
        checkIndex(index, length);
        return in.read(_nioBuffer(index, length), position);
    }

    @Override
    public ByteBuf setZero(int index, int length) {
        checkIndex(index, length);
        _setZero(index, length);
        return this;
    }

    @Override
    public int setCharSequence(int index, CharSequence sequence, Charset charset) {
        int limit = singleByteLimit(charset);
        if (limit > 0) {
            int length = sequence.length();
            checkIndex(index, length);
            writeSingleByteChars(index, sequence, length, limit);
            return length;
        }
        byte[] bytes = sequence.toString().getBytes(charset);
        setBytes(index, bytes, 0, bytes.length);
        return bytes.length;
    }

    /** The highest code point a single-byte charset maps, or 0 for other charsets. */
    private static int singleByteLimit(Charset charset) {
        if (charset.equals(StandardCharsets.US_ASCII)) {
            return 0x7f;
        }
        return charset.equals(StandardCharsets.ISO_8859_1) ? 0xff : 0;
    }

    private void writeSingleByteChars(int index, CharSequence sequence, int length, int limit) {
        if (sequence instanceof AsciiString ascii && limit == 0xff) {
            _setBytes(index, ascii.array(), ascii.arrayOffset(), length);
            return;
        }
        for (int i = 0; i < length; i++) {
            char c = sequence.charAt(i);
            _setByte(index + i, c > limit ? '?' : c);
        }
    }

    // ---- relative reads ----

    /** Checks that {@code length} bytes are readable and advances past them, returning the old reader index. */
    private int advanceReader(int length) {
        checkReadableBytes(length);
        int index = readerIndex;
        if (CHECK_BOUNDS && indexesMayOutgrowCapacity) {
            // Normally implied by writerIndex <= capacity, but a slice or duplicate whose parent was shrunk keeps
            // its old indexes: this keeps its reads inside the parent's current memory.
            checkRange(index, length, capacity());
        }
        readerIndex = index + length;
        return index;
    }

    @Override
    public byte readByte() {
        return _getByte(advanceReader(1));
    }

    @Override
    public short readShort() {
        return _getShort(advanceReader(2));
    }

    @Override
    public short readShortLE() {
        return _getShortLE(advanceReader(2));
    }

    @Override
    public int readUnsignedMedium() {
        return _getUnsignedMedium(advanceReader(3));
    }

    @Override
    public int readUnsignedMediumLE() {
        return _getUnsignedMediumLE(advanceReader(3));
    }

    @Override
    public int readInt() {
        return _getInt(advanceReader(4));
    }

    @Override
    public int readIntLE() {
        return _getIntLE(advanceReader(4));
    }

    @Override
    public long readLong() {
        return _getLong(advanceReader(8));
    }

    @Override
    public long readLongLE() {
        return _getLongLE(advanceReader(8));
    }

    @Override
    public ByteBuf readBytes(int length) {
        checkReadableBytes(length);
        ByteBuf copy = copy(readerIndex, length);
        readerIndex += length;
        return copy;
    }

    @Override
    public ByteBuf readSlice(int length) {
        checkReadableBytes(length);
        ByteBuf slice = slice(readerIndex, length);
        readerIndex += length;
        return slice;
    }

    @Override
    public ByteBuf readRetainedSlice(int length) {
        checkReadableBytes(length);
        ByteBuf slice = retainedSlice(readerIndex, length);
        readerIndex += length;
        return slice;
    }

    @Override
    public ByteBuf readBytes(ByteBuf dst, int dstIndex, int length) {
        checkReadableBytes(length);
        getBytes(readerIndex, dst, dstIndex, length);
        readerIndex += length;
        return this;
    }

    @Override
    public ByteBuf readBytes(byte[] dst, int dstIndex, int length) {
        checkReadableBytes(length);
        getBytes(readerIndex, dst, dstIndex, length);
        readerIndex += length;
        return this;
    }

    @Override
    public ByteBuf readBytes(ByteBuffer dst) {
        int length = dst.remaining();
        checkReadableBytes(length);
        getBytes(readerIndex, dst);
        readerIndex += length;
        return this;
    }

    @Override
    public ByteBuf readBytes(OutputStream out, int length) throws IOException {
        checkReadableBytes(length);
        getBytes(readerIndex, out, length);
        readerIndex += length;
        return this;
    }

    @Override
    public int readBytes(GatheringByteChannel out, int length) throws IOException {
        checkReadableBytes(length);
        int written = getBytes(readerIndex, out, length);
        readerIndex += written;
        return written;
    }

    @Override
    public int readBytes(FileChannel out, long position, int length) throws IOException {
        checkReadableBytes(length);
        int written = getBytes(readerIndex, out, position, length);
        readerIndex += written;
        return written;
    }

    @Override
    public CharSequence readCharSequence(int length, Charset charset) {
        checkReadableBytes(length);
        CharSequence result = getCharSequence(readerIndex, length, charset);
        readerIndex += length;
        return result;
    }

    @Override
    public ByteBuf skipBytes(int length) {
        advanceReader(length);
        return this;
    }

    // ---- relative writes ----

    /** Makes room for {@code length} bytes and advances past them, returning the old writer index. */
    private int advanceWriter(int length) {
        prepareWrite(length);
        int index = writerIndex;
        writerIndex = index + length;
        return index;
    }

    @Override
    public ByteBuf writeByte(int value) {
        _setByte(advanceWriter(1), value);
        return this;
    }

    @Override
    public ByteBuf writeShort(int value) {
        _setShort(advanceWriter(2), value);
        return this;
    }

    @Override
    public ByteBuf writeShortLE(int value) {
        _setShortLE(advanceWriter(2), value);
        return this;
    }

    @Override
    public ByteBuf writeMedium(int value) {
        _setMedium(advanceWriter(3), value);
        return this;
    }

    @Override
    public ByteBuf writeMediumLE(int value) {
        _setMediumLE(advanceWriter(3), value);
        return this;
    }

    @Override
    public ByteBuf writeInt(int value) {
        _setInt(advanceWriter(4), value);
        return this;
    }

    @Override
    public ByteBuf writeIntLE(int value) {
        _setIntLE(advanceWriter(4), value);
        return this;
    }

    @Override
    public ByteBuf writeLong(long value) {
        _setLong(advanceWriter(8), value);
        return this;
    }

    @Override
    public ByteBuf writeLongLE(long value) {
        _setLongLE(advanceWriter(8), value);
        return this;
    }

    @Override
    public ByteBuf writeBytes(ByteBuf src, int srcIndex, int length) {
        prepareWrite(length);
        setBytes(writerIndex, src, srcIndex, length);
        writerIndex += length;
        return this;
    }

    @Override
    public ByteBuf writeBytes(byte[] src, int srcIndex, int length) {
        prepareWrite(length);
        setBytes(writerIndex, src, srcIndex, length);
        writerIndex += length;
        return this;
    }

    @Override
    public ByteBuf writeBytes(ByteBuffer src) {
        int length = src.remaining();
        prepareWrite(length);
        setBytes(writerIndex, src);
        writerIndex += length;
        return this;
    }

    @Override
    public int writeBytes(InputStream in, int length) throws IOException {
        prepareWrite(length);
        return advanceBy(setBytes(writerIndex, in, length));
    }

    @Override
    public int writeBytes(ScatteringByteChannel in, int length) throws IOException {
        prepareWrite(length);
        return advanceBy(setBytes(writerIndex, in, length));
    }

    @Override
    public int writeBytes(FileChannel in, long position, int length) throws IOException {
        prepareWrite(length);
        return advanceBy(setBytes(writerIndex, in, position, length));
    }

    private int advanceBy(int written) {
        if (written > 0) {
            writerIndex += written;
        }
        return written;
    }

    @Override
    public ByteBuf writeZero(int length) {
        prepareWrite(length);
        _setZero(writerIndex, length);
        writerIndex += length;
        return this;
    }

    @Override
    public int writeCharSequence(CharSequence sequence, Charset charset) {
        int limit = singleByteLimit(charset);
        if (limit > 0) {
            int length = sequence.length();
            prepareWrite(length);
            writeSingleByteChars(writerIndex, sequence, length, limit);
            writerIndex += length;
            return length;
        }
        byte[] bytes = sequence.toString().getBytes(charset);
        writeBytes(bytes, 0, bytes.length);
        return bytes.length;
    }

    // ---- search ----

    @Override
    public int indexOf(int fromIndex, int toIndex, byte value) {
        ensureAccessible();
        int capacity = capacity();
        if (fromIndex < 0 || fromIndex > capacity || toIndex < 0 || toIndex > capacity) {
            throw new IndexOutOfBoundsException("fromIndex: " + fromIndex + ", toIndex: " + toIndex
                    + " (expected: both in range(0, " + capacity + "))");
        }
        return fromIndex <= toIndex ? ByteSearch.firstIndexOf(this, fromIndex, toIndex, value)
                : ByteSearch.lastIndexOf(this, toIndex, fromIndex, value);
    }

    @Override
    public int bytesBefore(int length, byte value) {
        checkReadableBytes(length);
        return bytesBefore(readerIndex, length, value);
    }

    @Override
    public int bytesBefore(int index, int length, byte value) {
        checkIndex(index, length);
        int found = ByteSearch.firstIndexOf(this, index, index + length, value);
        return found < 0 ? -1 : found - index;
    }

    @Override
    public int forEachByte(int index, int length, ByteProcessor processor) {
        Objects.requireNonNull(processor, "processor");
        checkIndex(index, length);
        int end = index + length;
        int sought = ByteSearch.soughtByte(processor);
        if (sought >= 0) {
            return ByteSearch.firstIndexOf(this, index, end, (byte) sought);
        }
        for (int i = index; i < end; i++) {
            if (!processor.process(_getByte(i))) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public int forEachByteDesc(int index, int length, ByteProcessor processor) {
        Objects.requireNonNull(processor, "processor");
        checkIndex(index, length);
        int sought = ByteSearch.soughtByte(processor);
        if (sought >= 0) {
            return ByteSearch.lastIndexOf(this, index, index + length, (byte) sought);
        }
        for (int i = index + length - 1; i >= index; i--) {
            if (!processor.process(_getByte(i))) {
                return i;
            }
        }
        return -1;
    }

    // ---- copies, derived buffers and views ----

    @Override
    public ByteBuf copy(int index, int length) {
        checkIndex(index, length);
        ByteBuf copy = isDirect() ? alloc().directBuffer(length, maxCapacity())
                : alloc().heapBuffer(length, maxCapacity());
        try {
            copy.writeBytes(this, index, length);
        } catch (Throwable t) {
            copy.release();
            throw t;
        }
        return copy;
    }

    @Override
    public ByteBuf slice(int index, int length) {
        // Checked even with checkBounds=false: a slice past the memory would defeat the always-on reader and
        // writer index checks of every access made through it, and a slice is made once, not per access.
        ensureAccessible();
        checkRange(index, length, capacity());
        return new SlicedByteBuf(this, index, length);
    }

    @Override
    public ByteBuf duplicate() {
        ensureAccessible();
        return new DuplicatedByteBuf(this);
    }

    @Override
    public ByteBuf asReadOnly() {
        return isReadOnly() ? this : new ReadOnlyByteBuf(this);
    }

    @Override
    public boolean isReadOnly() {
        return false;
    }

    @Override
    public int nioBufferCount() {
        return 1;
    }

    @Override
    public ByteBuffer nioBuffer(int index, int length) {
        checkIndex(index, length);
        return _nioBuffer(index, length);
    }

    @Override
    public ByteBuffer[] nioBuffers(int index, int length) {
        return new ByteBuffer[] {nioBuffer(index, length)};
    }

    @Override
    public ByteBuffer internalNioBuffer(int index, int length) {
        // Checked whatever checkBounds says: once per system call, and a view past the range would reach a
        // neighbour's memory in the same chunk.
        ensureAccessible();
        checkRange(index, length, capacity());
        return _internalNioBuffer(index, length);
    }

    /** {@link #internalNioBuffer} after the range check: a fresh view unless the kind reuses one. */
    ByteBuffer _internalNioBuffer(int index, int length) {
        return _nioBuffer(index, length);
    }

    /**
     * Points {@code view} (a duplicate of a whole memory region) at {@code [from, from + length)} of that region,
     * for {@link #internalNioBuffer}.
     */
    static ByteBuffer rangeOf(ByteBuffer view, int from, int length) {
        view.clear();
        view.limit(from + length);
        view.position(from);
        return view;
    }

    @Override
    public String toString(int index, int length, Charset charset) {
        Objects.requireNonNull(charset, "charset");
        checkIndex(index, length);
        if (length == 0) {
            return "";
        }
        if (hasArray()) {
            return new String(array(), arrayOffset() + index, length, charset);
        }
        byte[] bytes = new byte[length];
        _getBytes(index, bytes, 0, length);
        return new String(bytes, charset);
    }

    // ---- content equality ----

    @Override
    public int hashCode() {
        ensureAccessible();
        int hash = 1;
        for (int i = readerIndex; i < writerIndex; i++) {
            hash = 31 * hash + _getByte(i);
        }
        return hash;
    }

    @Override
    public boolean equals(Object obj) {
        if (this == obj) {
            return true;
        }
        if (!(obj instanceof ByteBuf other)) {
            return false;
        }
        int length = readableBytes();
        if (length != other.readableBytes()) {
            return false;
        }
        int otherIndex = other.readerIndex();
        for (int i = 0; i < length; i++) {
            if (getByte(readerIndex + i) != other.getByte(otherIndex + i)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int compareTo(ByteBuf buffer) {
        int length = Math.min(readableBytes(), buffer.readableBytes());
        int otherIndex = buffer.readerIndex();
        for (int i = 0; i < length; i++) {
            int diff = getUnsignedByte(readerIndex + i) - buffer.getUnsignedByte(otherIndex + i);
            if (diff != 0) {
                return diff;
            }
        }
        return readableBytes() - buffer.readableBytes();
    }

    @Override
    public String toString() {
        if (refCnt() == 0) {
            return getClass().getSimpleName() + "(freed)";
        }
        return getClass().getSimpleName() + "(ridx: " + readerIndex + ", widx: " + writerIndex + ", cap: "
                + capacity() + "/" + maxCapacity() + ")";
    }

    @Override
    public ByteBuf touch() {
        return this;
    }

    @Override
    public ByteBuf touch(Object hint) {
        return this;
    }
}
