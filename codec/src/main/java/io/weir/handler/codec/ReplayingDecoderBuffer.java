package io.weir.handler.codec;

import io.weir.buffer.ByteBuf;
import io.weir.util.ByteProcessor;
import java.nio.charset.Charset;

/**
 * The view of the accumulated bytes a {@link ReplayingDecoder} decodes from: it reads like a {@link ByteBuf},
 * but a read past the bytes received so far does not fail, it <em>replays</em>: the decode call is abandoned,
 * the reader index goes back to the last {@linkplain ReplayingDecoder#checkpoint() checkpoint}, and the call is
 * made again once more bytes arrived. So a decoder reads as if the whole message were there.
 *
 * <p>Weir's {@link ByteBuf} can only be implemented inside the buffer module, so this view is its own type with
 * the reading half of the {@code ByteBuf} API: relative reads, absolute gets within what was received, and the
 * searches (which replay when they do not find their byte). Buffers returned by {@link #readSlice},
 * {@link #readRetainedSlice} and {@link #readBytes(int)} are ordinary buffers.
 *
 * <p>Valid only during the {@code decode} call it is passed to, on the event loop. Multi-byte values are
 * big-endian unless the method name ends in {@code LE}. Methods throw {@link IllegalArgumentException} for a
 * negative length.
 */
public final class ReplayingDecoderBuffer {
    private ByteBuf buffer;

    ReplayingDecoderBuffer() {
    }

    void setCumulation(ByteBuf cumulation) {
        buffer = cumulation;
    }

    private void need(int length) {
        if (length < 0) {
            throw new IllegalArgumentException("length: " + length + " (expected: >= 0)");
        }
        if (buffer.readableBytes() < length) {
            throw ReplaySignal.INSTANCE;
        }
    }

    private void needAt(int index, int length) {
        if (length < 0) {
            throw new IllegalArgumentException("length: " + length + " (expected: >= 0)");
        }
        // A long sum: index + length must not wrap around and pass the check.
        if ((long) index + length > buffer.writerIndex()) {
            throw ReplaySignal.INSTANCE;
        }
    }

    /** The reader index in the accumulated bytes. */
    public int readerIndex() {
        return buffer.readerIndex();
    }

    /** The number of bytes received and not yet read; reading more than this replays. */
    public int readableBytes() {
        return buffer.readableBytes();
    }

    /** Whether at least one byte was received and not yet read. */
    public boolean isReadable() {
        return buffer.isReadable();
    }

    /** Whether at least {@code length} bytes were received and not yet read. */
    public boolean isReadable(int length) {
        return buffer.isReadable(length);
    }

    /** Reads a boolean (a non-zero byte). */
    public boolean readBoolean() {
        need(1);
        return buffer.readBoolean();
    }

    /** Reads a byte. */
    public byte readByte() {
        need(1);
        return buffer.readByte();
    }

    /** Reads an unsigned byte. */
    public short readUnsignedByte() {
        need(1);
        return buffer.readUnsignedByte();
    }

    /** Reads a 16-bit value. */
    public short readShort() {
        need(2);
        return buffer.readShort();
    }

    /** Reads a little-endian 16-bit value. */
    public short readShortLE() {
        need(2);
        return buffer.readShortLE();
    }

    /** Reads an unsigned 16-bit value. */
    public int readUnsignedShort() {
        need(2);
        return buffer.readUnsignedShort();
    }

    /** Reads an unsigned little-endian 16-bit value. */
    public int readUnsignedShortLE() {
        need(2);
        return buffer.readUnsignedShortLE();
    }

    /** Reads a signed 24-bit value. */
    public int readMedium() {
        need(3);
        return buffer.readMedium();
    }

    /** Reads an unsigned 24-bit value. */
    public int readUnsignedMedium() {
        need(3);
        return buffer.readUnsignedMedium();
    }

    /** Reads an unsigned little-endian 24-bit value. */
    public int readUnsignedMediumLE() {
        need(3);
        return buffer.readUnsignedMediumLE();
    }

    /** Reads a 32-bit value. */
    public int readInt() {
        need(4);
        return buffer.readInt();
    }

    /** Reads a little-endian 32-bit value. */
    public int readIntLE() {
        need(4);
        return buffer.readIntLE();
    }

    /** Reads an unsigned 32-bit value. */
    public long readUnsignedInt() {
        need(4);
        return buffer.readUnsignedInt();
    }

    /** Reads an unsigned little-endian 32-bit value. */
    public long readUnsignedIntLE() {
        need(4);
        return buffer.readUnsignedIntLE();
    }

    /** Reads a 64-bit value. */
    public long readLong() {
        need(8);
        return buffer.readLong();
    }

    /** Reads a little-endian 64-bit value. */
    public long readLongLE() {
        need(8);
        return buffer.readLongLE();
    }

    /** Reads a 2-byte UTF-16 char. */
    public char readChar() {
        need(2);
        return buffer.readChar();
    }

    /** Reads a 32-bit float. */
    public float readFloat() {
        need(4);
        return buffer.readFloat();
    }

    /** Reads a 64-bit double. */
    public double readDouble() {
        need(8);
        return buffer.readDouble();
    }

    /** Reads {@code length} bytes into a new buffer owned by the caller (who must release it). */
    public ByteBuf readBytes(int length) {
        need(length);
        return buffer.readBytes(length);
    }

    /** Reads {@code dst.length} bytes into {@code dst}. */
    public ReplayingDecoderBuffer readBytes(byte[] dst) {
        need(dst.length);
        buffer.readBytes(dst);
        return this;
    }

    /** Reads {@code length} bytes into {@code dst} from {@code dstIndex}. */
    public ReplayingDecoderBuffer readBytes(byte[] dst, int dstIndex, int length) {
        need(length);
        buffer.readBytes(dst, dstIndex, length);
        return this;
    }

    /** Reads {@code length} bytes, writing them to {@code dst}. */
    public ReplayingDecoderBuffer readBytes(ByteBuf dst, int length) {
        need(length);
        buffer.readBytes(dst, length);
        return this;
    }

    /**
     * Reads {@code length} bytes as a slice of the accumulated bytes, not retained: valid only during this call,
     * since the accumulated bytes may be discarded or moved afterwards. Use {@link #readRetainedSlice} to keep it.
     */
    public ByteBuf readSlice(int length) {
        need(length);
        return buffer.readSlice(length);
    }

    /**
     * Reads {@code length} bytes as a retained slice of the accumulated bytes, owned by the caller; the
     * accumulated bytes are then copied rather than modified while the slice lives.
     */
    public ByteBuf readRetainedSlice(int length) {
        need(length);
        return buffer.readRetainedSlice(length);
    }

    /** Reads {@code length} bytes as text in {@code charset}. */
    public CharSequence readCharSequence(int length, Charset charset) {
        need(length);
        return buffer.readCharSequence(length, charset);
    }

    /** Skips {@code length} bytes. */
    public ReplayingDecoderBuffer skipBytes(int length) {
        need(length);
        buffer.skipBytes(length);
        return this;
    }

    /** The byte at {@code index}. */
    public byte getByte(int index) {
        needAt(index, 1);
        return buffer.getByte(index);
    }

    /** The unsigned byte at {@code index}. */
    public short getUnsignedByte(int index) {
        needAt(index, 1);
        return buffer.getUnsignedByte(index);
    }

    /** The 16-bit value at {@code index}. */
    public short getShort(int index) {
        needAt(index, 2);
        return buffer.getShort(index);
    }

    /** The unsigned 16-bit value at {@code index}. */
    public int getUnsignedShort(int index) {
        needAt(index, 2);
        return buffer.getUnsignedShort(index);
    }

    /** The unsigned 24-bit value at {@code index}. */
    public int getUnsignedMedium(int index) {
        needAt(index, 3);
        return buffer.getUnsignedMedium(index);
    }

    /** The 32-bit value at {@code index}. */
    public int getInt(int index) {
        needAt(index, 4);
        return buffer.getInt(index);
    }

    /** The little-endian 32-bit value at {@code index}. */
    public int getIntLE(int index) {
        needAt(index, 4);
        return buffer.getIntLE(index);
    }

    /** The unsigned 32-bit value at {@code index}. */
    public long getUnsignedInt(int index) {
        needAt(index, 4);
        return buffer.getUnsignedInt(index);
    }

    /** The 64-bit value at {@code index}. */
    public long getLong(int index) {
        needAt(index, 8);
        return buffer.getLong(index);
    }

    /**
     * The first index of {@code value} in {@code [fromIndex, toIndex)} (or the last, searching backwards when
     * {@code fromIndex > toIndex}); replays when the range reaches past the bytes received, -1 if absent.
     */
    public int indexOf(int fromIndex, int toIndex, byte value) {
        if (fromIndex == toIndex) {
            return -1;
        }
        if (Math.max(fromIndex, toIndex) > buffer.writerIndex()) {
            throw ReplaySignal.INSTANCE;
        }
        return buffer.indexOf(fromIndex, toIndex, value);
    }

    /** The number of readable bytes before the first {@code value}; replays if it has not arrived yet. */
    public int bytesBefore(byte value) {
        int n = buffer.bytesBefore(value);
        if (n < 0) {
            throw ReplaySignal.INSTANCE;
        }
        return n;
    }

    /** Visits the readable bytes in order; returns where {@code processor} stopped, replaying if it did not. */
    public int forEachByte(ByteProcessor processor) {
        int i = buffer.forEachByte(processor);
        if (i < 0) {
            throw ReplaySignal.INSTANCE;
        }
        return i;
    }

    @Override
    public String toString() {
        return "ReplayingDecoderBuffer(" + buffer + ')';
    }
}
