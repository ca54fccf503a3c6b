package io.weir.buffer;

import io.weir.util.ByteProcessor;
import io.weir.util.IllegalReferenceCountException;
import io.weir.util.ReferenceCounted;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.channels.FileChannel;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ScatteringByteChannel;
import java.nio.charset.Charset;

/**
 * A reference-counted sequence of bytes with a reader index and a writer index.
 *
 * <pre>
 *      +-------------------+------------------+------------------+
 *      | discardable bytes |  readable bytes  |  writable bytes  |
 *      +-------------------+------------------+------------------+
 *      0      &lt;=      readerIndex   &lt;=   writerIndex    &lt;=    capacity  &lt;=  maxCapacity
 * </pre>
 *
 * <h2>Access families</h2>
 * <ul>
 *   <li>{@code get…}/{@code set…} work at an absolute index and never move an index. They throw
 *       {@link IndexOutOfBoundsException} (naming the index, the length and the capacity) when
 *       {@code [index, index + length)} does not lie in {@code [0, capacity)}. With
 *       {@code -Dio.weir.buffer.checkBounds=false} this check is skipped: heap buffers still fail on the array
 *       bounds, but a direct buffer then reads or writes outside its memory, which can crash the JVM. So is the
 *       fence that keeps a slice or duplicate inside a parent that was shrunk under it. Creating a slice, and the
 *       range of an array, buffer or ByteBuffer argument, stay checked.</li>
 *   <li>{@code read…} start at {@code readerIndex} and advance it; they throw {@link IndexOutOfBoundsException}
 *       when fewer bytes are readable (this check is always on).</li>
 *   <li>{@code write…} start at {@code writerIndex} and advance it, first growing the capacity (up to
 *       {@link #maxCapacity()}, see {@link #ensureWritable(int)}) when needed; they throw
 *       {@link IndexOutOfBoundsException} when even {@code maxCapacity} is too small.</li>
 * </ul>
 * Multi-byte values are big-endian (network order); the {@code …LE} methods are little-endian. There is no
 * byte-order state. Mutating methods on a {@linkplain #isReadOnly() read-only} buffer throw
 * {@link ReadOnlyBufferException}.
 *
 * <h2>Ownership and release</h2>
 * A new buffer has a reference count of 1, owned by whoever allocated it; the last owner calls
 * {@link #release()}, after which every access throws {@link IllegalReferenceCountException}. A method that
 * takes a buffer argument never releases it and never keeps it, unless its documentation says so.
 * {@linkplain #slice() Derived buffers} (slices, duplicates, read-only views) share the content <em>and the
 * reference count</em> of the buffer they come from: {@code retain}/{@code release} on one acts on the other.
 * The {@code retained…} forms also add one reference, owned by the caller, which must release the derived
 * buffer once.
 *
 * <h2>Threads</h2>
 * A buffer is not thread-safe: one thread at a time may use it, and handing it to another thread needs a
 * happens-before edge (a queue, a lock). Only {@code retain}/{@code release}/{@code refCnt} are atomic.
 * The accessibility check before each access is a plain read of the count: it catches use after release on
 * the releasing thread, not a release racing with an access on another thread (that is a caller bug).
 */
public abstract class ByteBuf implements ReferenceCounted, Comparable<ByteBuf> {

    /** Only this package implements buffers, so every buffer honours the contracts above. */
    ByteBuf() {
    }

    // ---- capacity and indexes ----

    /** The number of bytes this buffer can hold without growing. */
    public abstract int capacity();

    /**
     * Changes the capacity to {@code newCapacity}. Content up to {@code min(capacity, newCapacity)} is kept;
     * bytes beyond the old capacity are unspecified. Indexes beyond the new capacity are lowered to it.
     *
     * @throws IllegalArgumentException if {@code newCapacity} is negative or above {@link #maxCapacity()}
     * @throws UnsupportedOperationException for a slice, whose capacity is fixed
     * @throws ReadOnlyBufferException if read-only
     */
    public abstract ByteBuf capacity(int newCapacity);

    /** The capacity this buffer may grow to. */
    public abstract int maxCapacity();

    /** The allocator that created this buffer; derived buffers answer their parent's. */
    public abstract ByteBufAllocator alloc();

    /** The buffer this one was derived from (a slice's, duplicate's or read-only view's parent), or {@code null}. */
    public abstract ByteBuf unwrap();

    /** Whether the content lives outside the Java heap. */
    public abstract boolean isDirect();

    /** Whether mutating methods throw {@link ReadOnlyBufferException}. */
    public abstract boolean isReadOnly();

    /**
     * A read-only view with this buffer's indexes, sharing its content and reference count (no retain);
     * a read-only buffer returns itself.
     */
    public abstract ByteBuf asReadOnly();

    /** The reader index. */
    public abstract int readerIndex();

    /**
     * Sets the reader index.
     *
     * @throws IndexOutOfBoundsException unless {@code 0 <= readerIndex <= writerIndex}
     */
    public abstract ByteBuf readerIndex(int readerIndex);

    /** The writer index. */
    public abstract int writerIndex();

    /**
     * Sets the writer index.
     *
     * @throws IndexOutOfBoundsException unless {@code readerIndex <= writerIndex <= capacity}
     */
    public abstract ByteBuf writerIndex(int writerIndex);

    /**
     * Sets both indexes at once, whatever their current values.
     *
     * @throws IndexOutOfBoundsException unless {@code 0 <= readerIndex <= writerIndex <= capacity}
     */
    public abstract ByteBuf setIndex(int readerIndex, int writerIndex);

    /** {@code writerIndex - readerIndex}. */
    public int readableBytes() {
        return writerIndex() - readerIndex();
    }

    /** {@code capacity - writerIndex}. */
    public int writableBytes() {
        return capacity() - writerIndex();
    }

    /** {@code maxCapacity - writerIndex}: what can be written with growing. */
    public int maxWritableBytes() {
        return maxCapacity() - writerIndex();
    }

    /** Whether at least one byte is readable. */
    public boolean isReadable() {
        return writerIndex() > readerIndex();
    }

    /** Whether at least {@code size} bytes are readable. */
    public boolean isReadable(int size) {
        return writerIndex() - readerIndex() >= size;
    }

    /** Whether at least one byte can be written without growing. */
    public boolean isWritable() {
        return capacity() > writerIndex();
    }

    /** Whether at least {@code size} bytes can be written without growing. */
    public boolean isWritable(int size) {
        return capacity() - writerIndex() >= size;
    }

    /** Sets both indexes to 0; the content is unchanged. */
    public abstract ByteBuf clear();

    /**
     * Moves the readable bytes to index 0 and lowers both indexes by the old reader index, making the
     * discarded bytes writable. Copies the readable bytes; see {@link #discardSomeReadBytes()}.
     *
     * @throws ReadOnlyBufferException if read-only
     */
    public abstract ByteBuf discardReadBytes();

    /**
     * Like {@link #discardReadBytes()}, but only when it is cheap or worthwhile: when nothing is readable
     * (no copy) or when at least half the capacity has been read.
     *
     * @throws ReadOnlyBufferException if read-only
     */
    public abstract ByteBuf discardSomeReadBytes();

    /**
     * Makes sure {@code minWritableBytes} can be written, growing the capacity to
     * {@link ByteBufAllocator#calculateNewCapacity} of {@code writerIndex + minWritableBytes} when needed.
     *
     * @throws IllegalArgumentException if {@code minWritableBytes} is negative
     * @throws IndexOutOfBoundsException if {@code writerIndex + minWritableBytes > maxCapacity}
     * @throws ReadOnlyBufferException if read-only
     */
    public abstract ByteBuf ensureWritable(int minWritableBytes);

    /**
     * Like {@link #ensureWritable(int)} but reports instead of throwing on a lack of room.
     *
     * @param force when {@code maxCapacity} is too small, grow to {@code maxCapacity} anyway
     * @return 0: there was room, nothing changed; 1: not enough room, capacity unchanged (also for a read-only
     *         buffer); 2: grown, now there is room; 3: grown to {@code maxCapacity}, still not enough room
     * @throws IllegalArgumentException if {@code minWritableBytes} is negative
     */
    public abstract int ensureWritable(int minWritableBytes, boolean force);

    // ---- absolute reads ----

    /** The byte at {@code index} is not zero. */
    public boolean getBoolean(int index) {
        return getByte(index) != 0;
    }

    /** The byte at {@code index}. */
    public abstract byte getByte(int index);

    /** The byte at {@code index} as {@code 0..255}. */
    public short getUnsignedByte(int index) {
        return (short) (getByte(index) & 0xff);
    }

    /** The big-endian 16-bit integer at {@code index}. */
    public abstract short getShort(int index);

    /** The little-endian 16-bit integer at {@code index}. */
    public abstract short getShortLE(int index);

    /** The big-endian unsigned 16-bit integer at {@code index}. */
    public int getUnsignedShort(int index) {
        return getShort(index) & 0xffff;
    }

    /** The little-endian unsigned 16-bit integer at {@code index}. */
    public int getUnsignedShortLE(int index) {
        return getShortLE(index) & 0xffff;
    }

    /** The big-endian signed 24-bit integer at {@code index}. */
    public int getMedium(int index) {
        return getUnsignedMedium(index) << 8 >> 8;
    }

    /** The little-endian signed 24-bit integer at {@code index}. */
    public int getMediumLE(int index) {
        return getUnsignedMediumLE(index) << 8 >> 8;
    }

    /** The big-endian unsigned 24-bit integer at {@code index}. */
    public abstract int getUnsignedMedium(int index);

    /** The little-endian unsigned 24-bit integer at {@code index}. */
    public abstract int getUnsignedMediumLE(int index);

    /** The big-endian 32-bit integer at {@code index}. */
    public abstract int getInt(int index);

    /** The little-endian 32-bit integer at {@code index}. */
    public abstract int getIntLE(int index);

    /** The big-endian unsigned 32-bit integer at {@code index}. */
    public long getUnsignedInt(int index) {
        return getInt(index) & 0xffffffffL;
    }

    /** The little-endian unsigned 32-bit integer at {@code index}. */
    public long getUnsignedIntLE(int index) {
        return getIntLE(index) & 0xffffffffL;
    }

    /** The big-endian 64-bit integer at {@code index}. */
    public abstract long getLong(int index);

    /** The little-endian 64-bit integer at {@code index}. */
    public abstract long getLongLE(int index);

    /** The big-endian UTF-16 code unit at {@code index}. */
    public char getChar(int index) {
        return (char) getShort(index);
    }

    /** The big-endian IEEE 754 float at {@code index}. */
    public float getFloat(int index) {
        return Float.intBitsToFloat(getInt(index));
    }

    /** The little-endian IEEE 754 float at {@code index}. */
    public float getFloatLE(int index) {
        return Float.intBitsToFloat(getIntLE(index));
    }

    /** The big-endian IEEE 754 double at {@code index}. */
    public double getDouble(int index) {
        return Double.longBitsToDouble(getLong(index));
    }

    /** The little-endian IEEE 754 double at {@code index}. */
    public double getDoubleLE(int index) {
        return Double.longBitsToDouble(getLongLE(index));
    }

    /**
     * Copies bytes from {@code index} into {@code dst} until it is full, advancing {@code dst}'s writer index.
     *
     * @throws IndexOutOfBoundsException if this buffer has fewer than {@code dst.writableBytes()} bytes there
     */
    public ByteBuf getBytes(int index, ByteBuf dst) {
        return getBytes(index, dst, dst.writableBytes());
    }

    /** Copies {@code length} bytes from {@code index} into {@code dst}, advancing {@code dst}'s writer index. */
    public ByteBuf getBytes(int index, ByteBuf dst, int length) {
        if (length > dst.writableBytes()) {
            throw new IndexOutOfBoundsException("length(" + length + ") exceeds dst.writableBytes("
                    + dst.writableBytes() + ") where dst is: " + dst);
        }
        getBytes(index, dst, dst.writerIndex(), length);
        dst.writerIndex(dst.writerIndex() + length);
        return this;
    }

    /**
     * Copies {@code length} bytes from {@code index} to {@code dst} at {@code dstIndex}; no index of either
     * buffer moves. {@code dst} may be this buffer (overlapping ranges copy like {@code memmove}).
     *
     * @throws IndexOutOfBoundsException if either range does not fit its buffer's capacity
     * @throws ReadOnlyBufferException if {@code dst} is read-only
     */
    public abstract ByteBuf getBytes(int index, ByteBuf dst, int dstIndex, int length);

    /** Copies {@code dst.length} bytes from {@code index} into {@code dst}. */
    public ByteBuf getBytes(int index, byte[] dst) {
        return getBytes(index, dst, 0, dst.length);
    }

    /** Copies {@code length} bytes from {@code index} into {@code dst[dstIndex…]}. */
    public abstract ByteBuf getBytes(int index, byte[] dst, int dstIndex, int length);

    /** Copies {@code dst.remaining()} bytes from {@code index} into {@code dst}, advancing its position. */
    public abstract ByteBuf getBytes(int index, ByteBuffer dst);

    /**
     * Writes {@code length} bytes from {@code index} to {@code out}; does not close it.
     *
     * @throws IOException from {@code out}
     */
    public abstract ByteBuf getBytes(int index, OutputStream out, int length) throws IOException;

    /**
     * Writes up to {@code length} bytes from {@code index} with one {@code out.write} call.
     *
     * @return the number of bytes written
     * @throws IOException from {@code out}
     */
    public abstract int getBytes(int index, GatheringByteChannel out, int length) throws IOException;

    /**
     * Writes up to {@code length} bytes from {@code index} to {@code out} at file {@code position} with one
     * call; the channel's own position does not move.
     *
     * @return the number of bytes written
     * @throws IOException from {@code out}
     */
    public abstract int getBytes(int index, FileChannel out, long position, int length) throws IOException;

    /**
     * Decodes {@code length} bytes at {@code index}. For US-ASCII and ISO-8859-1 the result is an
     * {@link io.weir.util.AsciiString} over a fresh copy of the bytes (no {@code char[]}; bytes above
     * {@code 0x7F} read as their ISO-8859-1 characters); for other charsets a {@link String}.
     */
    public abstract CharSequence getCharSequence(int index, int length, Charset charset);

    // ---- absolute writes ----

    /** Writes 1 for {@code true}, 0 for {@code false} at {@code index}. */
    public ByteBuf setBoolean(int index, boolean value) {
        return setByte(index, value ? 1 : 0);
    }

    /** Writes the low 8 bits of {@code value} at {@code index}. */
    public abstract ByteBuf setByte(int index, int value);

    /** Writes the low 16 bits of {@code value} at {@code index}, big-endian. */
    public abstract ByteBuf setShort(int index, int value);

    /** Writes the low 16 bits of {@code value} at {@code index}, little-endian. */
    public abstract ByteBuf setShortLE(int index, int value);

    /** Writes the low 24 bits of {@code value} at {@code index}, big-endian. */
    public abstract ByteBuf setMedium(int index, int value);

    /** Writes the low 24 bits of {@code value} at {@code index}, little-endian. */
    public abstract ByteBuf setMediumLE(int index, int value);

    /** Writes {@code value} at {@code index}, big-endian. */
    public abstract ByteBuf setInt(int index, int value);

    /** Writes {@code value} at {@code index}, little-endian. */
    public abstract ByteBuf setIntLE(int index, int value);

    /** Writes {@code value} at {@code index}, big-endian. */
    public abstract ByteBuf setLong(int index, long value);

    /** Writes {@code value} at {@code index}, little-endian. */
    public abstract ByteBuf setLongLE(int index, long value);

    /** Writes the low 16 bits of {@code value} (a UTF-16 code unit) at {@code index}, big-endian. */
    public ByteBuf setChar(int index, int value) {
        return setShort(index, value);
    }

    /** Writes {@code value} at {@code index}, big-endian. */
    public ByteBuf setFloat(int index, float value) {
        return setInt(index, Float.floatToRawIntBits(value));
    }

    /** Writes {@code value} at {@code index}, little-endian. */
    public ByteBuf setFloatLE(int index, float value) {
        return setIntLE(index, Float.floatToRawIntBits(value));
    }

    /** Writes {@code value} at {@code index}, big-endian. */
    public ByteBuf setDouble(int index, double value) {
        return setLong(index, Double.doubleToRawLongBits(value));
    }

    /** Writes {@code value} at {@code index}, little-endian. */
    public ByteBuf setDoubleLE(int index, double value) {
        return setLongLE(index, Double.doubleToRawLongBits(value));
    }

    /** Copies {@code src}'s readable bytes to {@code index}, advancing {@code src}'s reader index. */
    public ByteBuf setBytes(int index, ByteBuf src) {
        return setBytes(index, src, src.readableBytes());
    }

    /** Copies {@code length} of {@code src}'s readable bytes to {@code index}, advancing its reader index. */
    public ByteBuf setBytes(int index, ByteBuf src, int length) {
        if (length > src.readableBytes()) {
            throw new IndexOutOfBoundsException("length(" + length + ") exceeds src.readableBytes("
                    + src.readableBytes() + ") where src is: " + src);
        }
        setBytes(index, src, src.readerIndex(), length);
        src.readerIndex(src.readerIndex() + length);
        return this;
    }

    /**
     * Copies {@code length} bytes of {@code src} at {@code srcIndex} to {@code index}; no index moves.
     * {@code src} may be this buffer (overlapping ranges copy like {@code memmove}).
     *
     * @throws IndexOutOfBoundsException if either range does not fit its buffer's capacity
     */
    public abstract ByteBuf setBytes(int index, ByteBuf src, int srcIndex, int length);

    /** Copies all of {@code src} to {@code index}. */
    public ByteBuf setBytes(int index, byte[] src) {
        return setBytes(index, src, 0, src.length);
    }

    /** Copies {@code src[srcIndex, srcIndex + length)} to {@code index}. */
    public abstract ByteBuf setBytes(int index, byte[] src, int srcIndex, int length);

    /** Copies {@code src}'s remaining bytes to {@code index}, advancing its position. */
    public abstract ByteBuf setBytes(int index, ByteBuffer src);

    /**
     * Reads up to {@code length} bytes from {@code in} into {@code index} with one {@code read} call.
     *
     * @return the number of bytes read, or -1 at end of stream
     * @throws IOException from {@code in}
     */
    public abstract int setBytes(int index, InputStream in, int length) throws IOException;

    /**
     * Reads up to {@code length} bytes from {@code in} into {@code index} with one {@code read} call.
     *
     * @return the number of bytes read, or -1 at end of stream
     * @throws IOException from {@code in}
     */
    public abstract int setBytes(int index, ScatteringByteChannel in, int length) throws IOException;

    /**
     * Reads up to {@code length} bytes from {@code in} at file {@code position} into {@code index} with one
     * call; the channel's own position does not move.
     *
     * @return the number of bytes read, or -1 at end of file
     * @throws IOException from {@code in}
     */
    public abstract int setBytes(int index, FileChannel in, long position, int length) throws IOException;

    /** Writes {@code length} zero bytes at {@code index}. */
    public abstract ByteBuf setZero(int index, int length);

    /**
     * Encodes {@code sequence} at {@code index}. Characters that {@code charset} cannot encode (above
     * {@code 0x7F} for US-ASCII, above {@code 0xFF} for ISO-8859-1) become {@code '?'}.
     *
     * @return the number of bytes written
     * @throws IndexOutOfBoundsException if the encoded bytes do not fit the capacity (nothing is written)
     */
    public abstract int setCharSequence(int index, CharSequence sequence, Charset charset);

    // ---- relative reads ----

    /** Reads one byte: is it not zero? */
    public boolean readBoolean() {
        return readByte() != 0;
    }

    /** Reads one byte. */
    public abstract byte readByte();

    /** Reads one byte as {@code 0..255}. */
    public short readUnsignedByte() {
        return (short) (readByte() & 0xff);
    }

    /** Reads a big-endian 16-bit integer. */
    public abstract short readShort();

    /** Reads a little-endian 16-bit integer. */
    public abstract short readShortLE();

    /** Reads a big-endian unsigned 16-bit integer. */
    public int readUnsignedShort() {
        return readShort() & 0xffff;
    }

    /** Reads a little-endian unsigned 16-bit integer. */
    public int readUnsignedShortLE() {
        return readShortLE() & 0xffff;
    }

    /** Reads a big-endian signed 24-bit integer. */
    public int readMedium() {
        return readUnsignedMedium() << 8 >> 8;
    }

    /** Reads a little-endian signed 24-bit integer. */
    public int readMediumLE() {
        return readUnsignedMediumLE() << 8 >> 8;
    }

    /** Reads a big-endian unsigned 24-bit integer. */
    public abstract int readUnsignedMedium();

    /** Reads a little-endian unsigned 24-bit integer. */
    public abstract int readUnsignedMediumLE();

    /** Reads a big-endian 32-bit integer. */
    public abstract int readInt();

    /** Reads a little-endian 32-bit integer. */
    public abstract int readIntLE();

    /** Reads a big-endian unsigned 32-bit integer. */
    public long readUnsignedInt() {
        return readInt() & 0xffffffffL;
    }

    /** Reads a little-endian unsigned 32-bit integer. */
    public long readUnsignedIntLE() {
        return readIntLE() & 0xffffffffL;
    }

    /** Reads a big-endian 64-bit integer. */
    public abstract long readLong();

    /** Reads a little-endian 64-bit integer. */
    public abstract long readLongLE();

    /** Reads a big-endian UTF-16 code unit. */
    public char readChar() {
        return (char) readShort();
    }

    /** Reads a big-endian IEEE 754 float. */
    public float readFloat() {
        return Float.intBitsToFloat(readInt());
    }

    /** Reads a little-endian IEEE 754 float. */
    public float readFloatLE() {
        return Float.intBitsToFloat(readIntLE());
    }

    /** Reads a big-endian IEEE 754 double. */
    public double readDouble() {
        return Double.longBitsToDouble(readLong());
    }

    /** Reads a little-endian IEEE 754 double. */
    public double readDoubleLE() {
        return Double.longBitsToDouble(readLongLE());
    }

    /**
     * Reads {@code length} bytes into a new buffer from {@link #alloc()}, owned by the caller, who must
     * release it.
     */
    public abstract ByteBuf readBytes(int length);

    /** Reads {@code length} bytes as a {@link #slice(int, int)} (no retain: the caller gets no extra owner). */
    public abstract ByteBuf readSlice(int length);

    /** Reads {@code length} bytes as a {@link #retainedSlice(int, int)}, which the caller must release. */
    public abstract ByteBuf readRetainedSlice(int length);

    /** Reads until {@code dst} is full, advancing both buffers' indexes. */
    public ByteBuf readBytes(ByteBuf dst) {
        return readBytes(dst, dst.writableBytes());
    }

    /** Reads {@code length} bytes into {@code dst}, advancing both buffers' indexes. */
    public ByteBuf readBytes(ByteBuf dst, int length) {
        if (length > dst.writableBytes()) {
            throw new IndexOutOfBoundsException("length(" + length + ") exceeds dst.writableBytes("
                    + dst.writableBytes() + ") where dst is: " + dst);
        }
        readBytes(dst, dst.writerIndex(), length);
        dst.writerIndex(dst.writerIndex() + length);
        return this;
    }

    /** Reads {@code length} bytes into {@code dst} at {@code dstIndex}; {@code dst}'s indexes do not move. */
    public abstract ByteBuf readBytes(ByteBuf dst, int dstIndex, int length);

    /** Reads {@code dst.length} bytes into {@code dst}. */
    public ByteBuf readBytes(byte[] dst) {
        return readBytes(dst, 0, dst.length);
    }

    /** Reads {@code length} bytes into {@code dst[dstIndex…]}. */
    public abstract ByteBuf readBytes(byte[] dst, int dstIndex, int length);

    /** Reads {@code dst.remaining()} bytes into {@code dst}, advancing its position. */
    public abstract ByteBuf readBytes(ByteBuffer dst);

    /**
     * Reads {@code length} bytes into {@code out}.
     *
     * @throws IOException from {@code out}
     */
    public abstract ByteBuf readBytes(OutputStream out, int length) throws IOException;

    /**
     * Writes up to {@code length} readable bytes to {@code out} with one call, advancing by what was written.
     *
     * @return the number of bytes written
     * @throws IOException from {@code out}
     */
    public abstract int readBytes(GatheringByteChannel out, int length) throws IOException;

    /**
     * Writes up to {@code length} readable bytes to {@code out} at {@code position} with one call, advancing
     * by what was written.
     *
     * @return the number of bytes written
     * @throws IOException from {@code out}
     */
    public abstract int readBytes(FileChannel out, long position, int length) throws IOException;

    /** Reads {@code length} bytes as in {@link #getCharSequence(int, int, Charset)}. */
    public abstract CharSequence readCharSequence(int length, Charset charset);

    /** Advances the reader index by {@code length}. */
    public abstract ByteBuf skipBytes(int length);

    // ---- relative writes ----

    /** Writes 1 for {@code true}, 0 for {@code false}. */
    public ByteBuf writeBoolean(boolean value) {
        return writeByte(value ? 1 : 0);
    }

    /** Writes the low 8 bits of {@code value}. */
    public abstract ByteBuf writeByte(int value);

    /** Writes the low 16 bits of {@code value}, big-endian. */
    public abstract ByteBuf writeShort(int value);

    /** Writes the low 16 bits of {@code value}, little-endian. */
    public abstract ByteBuf writeShortLE(int value);

    /** Writes the low 24 bits of {@code value}, big-endian. */
    public abstract ByteBuf writeMedium(int value);

    /** Writes the low 24 bits of {@code value}, little-endian. */
    public abstract ByteBuf writeMediumLE(int value);

    /** Writes {@code value}, big-endian. */
    public abstract ByteBuf writeInt(int value);

    /** Writes {@code value}, little-endian. */
    public abstract ByteBuf writeIntLE(int value);

    /** Writes {@code value}, big-endian. */
    public abstract ByteBuf writeLong(long value);

    /** Writes {@code value}, little-endian. */
    public abstract ByteBuf writeLongLE(long value);

    /** Writes the low 16 bits of {@code value} (a UTF-16 code unit), big-endian. */
    public ByteBuf writeChar(int value) {
        return writeShort(value);
    }

    /** Writes {@code value}, big-endian. */
    public ByteBuf writeFloat(float value) {
        return writeInt(Float.floatToRawIntBits(value));
    }

    /** Writes {@code value}, little-endian. */
    public ByteBuf writeFloatLE(float value) {
        return writeIntLE(Float.floatToRawIntBits(value));
    }

    /** Writes {@code value}, big-endian. */
    public ByteBuf writeDouble(double value) {
        return writeLong(Double.doubleToRawLongBits(value));
    }

    /** Writes {@code value}, little-endian. */
    public ByteBuf writeDoubleLE(double value) {
        return writeLongLE(Double.doubleToRawLongBits(value));
    }

    /** Writes all of {@code src}'s readable bytes, advancing both buffers' indexes; {@code src} is not released. */
    public ByteBuf writeBytes(ByteBuf src) {
        return writeBytes(src, src.readableBytes());
    }

    /** Writes {@code length} of {@code src}'s readable bytes, advancing both buffers' indexes. */
    public ByteBuf writeBytes(ByteBuf src, int length) {
        if (length > src.readableBytes()) {
            throw new IndexOutOfBoundsException("length(" + length + ") exceeds src.readableBytes("
                    + src.readableBytes() + ") where src is: " + src);
        }
        writeBytes(src, src.readerIndex(), length);
        src.readerIndex(src.readerIndex() + length);
        return this;
    }

    /** Writes {@code length} bytes of {@code src} at {@code srcIndex}; {@code src}'s indexes do not move. */
    public abstract ByteBuf writeBytes(ByteBuf src, int srcIndex, int length);

    /** Writes all of {@code src}. */
    public ByteBuf writeBytes(byte[] src) {
        return writeBytes(src, 0, src.length);
    }

    /** Writes {@code src[srcIndex, srcIndex + length)}. */
    public abstract ByteBuf writeBytes(byte[] src, int srcIndex, int length);

    /** Writes {@code src}'s remaining bytes, advancing its position. */
    public abstract ByteBuf writeBytes(ByteBuffer src);

    /**
     * Makes room for {@code length} bytes and fills what one {@code in.read} call delivers.
     *
     * @return the number of bytes written, or -1 at end of stream
     * @throws IOException from {@code in}
     */
    public abstract int writeBytes(InputStream in, int length) throws IOException;

    /**
     * Makes room for {@code length} bytes and fills what one {@code in.read} call delivers.
     *
     * @return the number of bytes written, or -1 at end of stream
     * @throws IOException from {@code in}
     */
    public abstract int writeBytes(ScatteringByteChannel in, int length) throws IOException;

    /**
     * Makes room for {@code length} bytes and fills what one read of {@code in} at {@code position} delivers.
     *
     * @return the number of bytes written, or -1 at end of file
     * @throws IOException from {@code in}
     */
    public abstract int writeBytes(FileChannel in, long position, int length) throws IOException;

    /** Writes {@code length} zero bytes. */
    public abstract ByteBuf writeZero(int length);

    /**
     * Encodes {@code sequence} as in {@link #setCharSequence(int, CharSequence, Charset)} at the writer index.
     *
     * @return the number of bytes written
     */
    public abstract int writeCharSequence(CharSequence sequence, Charset charset);

    // ---- search ----

    /**
     * The first index of {@code value} in {@code [fromIndex, toIndex)}; when {@code fromIndex > toIndex}, the
     * last index in {@code [toIndex, fromIndex)} (a backwards search). -1 if absent.
     *
     * @throws IndexOutOfBoundsException if either index is outside {@code [0, capacity]}
     */
    public abstract int indexOf(int fromIndex, int toIndex, byte value);

    /** The number of readable bytes before the first {@code value}, or -1 if no readable byte is {@code value}. */
    public int bytesBefore(byte value) {
        return bytesBefore(readerIndex(), readableBytes(), value);
    }

    /** Like {@link #bytesBefore(byte)} within the first {@code length} readable bytes. */
    public abstract int bytesBefore(int length, byte value);

    /** The number of bytes from {@code index} before the first {@code value} in {@code [index, index + length)}, or -1. */
    public abstract int bytesBefore(int index, int length, byte value);

    /** Visits the readable bytes in order; returns the index where {@code processor} stopped, or -1. */
    public int forEachByte(ByteProcessor processor) {
        return forEachByte(readerIndex(), readableBytes(), processor);
    }

    /** Visits {@code [index, index + length)} in order; returns the index where {@code processor} stopped, or -1. */
    public abstract int forEachByte(int index, int length, ByteProcessor processor);

    /** Visits the readable bytes last to first; returns the index where {@code processor} stopped, or -1. */
    public int forEachByteDesc(ByteProcessor processor) {
        return forEachByteDesc(readerIndex(), readableBytes(), processor);
    }

    /** Visits {@code [index, index + length)} last to first; returns the index where it stopped, or -1. */
    public abstract int forEachByteDesc(int index, int length, ByteProcessor processor);

    // ---- copies, derived buffers and views ----

    /** A new buffer holding a copy of the readable bytes, owned by the caller (who must release it). */
    public ByteBuf copy() {
        return copy(readerIndex(), readableBytes());
    }

    /** A new buffer holding a copy of {@code [index, index + length)}, owned by the caller. */
    public abstract ByteBuf copy(int index, int length);

    /**
     * A view of the readable bytes with its own indexes (reader 0, writer = length) and a fixed capacity,
     * sharing the content and reference count (no retain: releasing the slice releases this buffer).
     */
    public ByteBuf slice() {
        return slice(readerIndex(), readableBytes());
    }

    /** A view of {@code [index, index + length)}, as {@link #slice()}. */
    public abstract ByteBuf slice(int index, int length);

    /** {@link #slice()} plus one reference, owned by the caller, who must release the slice. */
    public ByteBuf retainedSlice() {
        return retainedSlice(readerIndex(), readableBytes());
    }

    /** {@link #slice(int, int)} plus one reference, owned by the caller, who must release the slice. */
    public ByteBuf retainedSlice(int index, int length) {
        // Slice first: a bounds failure must not leave an extra reference behind.
        ByteBuf slice = slice(index, length);
        retain();
        return slice;
    }

    /** A view of the whole buffer with its own copy of the indexes, sharing content and reference count. */
    public abstract ByteBuf duplicate();

    /** {@link #duplicate()} plus one reference, owned by the caller, who must release the duplicate. */
    public ByteBuf retainedDuplicate() {
        ByteBuf duplicate = duplicate();
        retain();
        return duplicate;
    }

    /**
     * How many {@link ByteBuffer}s {@link #nioBuffers()} may return: 1 for a buffer over one piece of memory; for a
     * composite, and for a slice, duplicate or read-only view of one, the composite's count (an upper bound for any
     * sub-range). When it is not 1, {@link #nioBuffer(int, int)} may copy, so gathering writers use
     * {@link #nioBuffers(int, int)}.
     */
    public abstract int nioBufferCount();

    /** {@link #nioBuffer(int, int)} of the readable bytes. */
    public ByteBuffer nioBuffer() {
        return nioBuffer(readerIndex(), readableBytes());
    }

    /**
     * A {@link ByteBuffer} view of {@code [index, index + length)} (position 0, limit {@code length},
     * big-endian) sharing the content; valid only while this buffer is live and its capacity unchanged.
     * Read-only if this buffer is. Moving its position or limit does not move this buffer's indexes.
     */
    public abstract ByteBuffer nioBuffer(int index, int length);

    /**
     * A {@link ByteBuffer} over {@code [index, index + length)} for a transport that hands it to the operating
     * system at once: its position is where the range starts and its remaining bytes are the range (the position
     * is not necessarily 0). Buffers with a single memory region return one view object that they reuse for
     * every call, so the result is valid only until the next call of this method on this buffer, and must not
     * be kept, shared, or used after this buffer is released or its capacity changes. Everything else gets a
     * fresh {@link #nioBuffer(int, int)}.
     *
     * @throws IndexOutOfBoundsException if the range is outside the capacity
     * @throws io.weir.util.IllegalReferenceCountException if this buffer was released
     */
    public ByteBuffer internalNioBuffer(int index, int length) {
        return nioBuffer(index, length);
    }

    /** {@link #nioBuffers(int, int)} of the readable bytes. */
    public ByteBuffer[] nioBuffers() {
        return nioBuffers(readerIndex(), readableBytes());
    }

    /** The {@link ByteBuffer} views covering {@code [index, index + length)}, as {@link #nioBuffer(int, int)}. */
    public abstract ByteBuffer[] nioBuffers(int index, int length);

    /** Whether {@link #array()} is available: a writable heap buffer. */
    public abstract boolean hasArray();

    /**
     * The backing array (byte {@code i} of this buffer is {@code array()[arrayOffset() + i]}), valid while this
     * buffer is live and its capacity unchanged.
     *
     * @throws UnsupportedOperationException unless {@link #hasArray()}
     * @throws ReadOnlyBufferException if read-only
     */
    public abstract byte[] array();

    /**
     * Where this buffer's byte 0 lies in {@link #array()}.
     *
     * @throws UnsupportedOperationException unless {@link #hasArray()}
     */
    public abstract int arrayOffset();

    /** Whether {@link #memoryAddress()} is available (Unsafe direct buffers). */
    public abstract boolean hasMemoryAddress();

    /**
     * The native address of byte 0, valid only while this buffer is live and its capacity unchanged.
     *
     * @throws UnsupportedOperationException unless {@link #hasMemoryAddress()}
     */
    public abstract long memoryAddress();

    /** The readable bytes decoded with {@code charset}. */
    public String toString(Charset charset) {
        return toString(readerIndex(), readableBytes(), charset);
    }

    /** {@code [index, index + length)} decoded with {@code charset}. */
    public abstract String toString(int index, int length, Charset charset);

    /** A hash of the readable bytes, consistent with {@link #equals(Object)}. */
    @Override
    public abstract int hashCode();

    /** Whether {@code obj} is a {@code ByteBuf} with the same readable bytes (kind and indexes do not matter). */
    @Override
    public abstract boolean equals(Object obj);

    /** Compares the readable bytes lexicographically as unsigned values; a proper prefix is smaller. */
    @Override
    public abstract int compareTo(ByteBuf buffer);

    /** The buffer's kind, indexes and capacities; never its content. */
    @Override
    public abstract String toString();

    @Override
    public abstract ByteBuf retain();

    @Override
    public abstract ByteBuf retain(int increment);

    @Override
    public abstract ByteBuf touch();

    @Override
    public abstract ByteBuf touch(Object hint);
}
