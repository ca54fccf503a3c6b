package io.weir.buffer;

import io.weir.util.ByteProcessor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ScatteringByteChannel;
import java.nio.charset.Charset;

/**
 * A buffer that hands every operation to another one ({@link #buf}), so that a subclass can watch the
 * operations (the leak-aware buffers) while the wrapped buffer keeps all of its behaviour: its bounds, its
 * read-only refusals, its fast paths.
 *
 * <p>{@link AbstractByteBuf#readerIndex()} and {@link AbstractByteBuf#writerIndex()} are final reads of this
 * object's own fields (they must stay so for speed), so the wrapper mirrors the wrapped buffer's indexes:
 * every method that can move them copies them back afterwards ({@link #syncIndexes()}). The wrapped buffer is
 * never handed out, so nothing else moves its indexes behind the wrapper's back.
 *
 * <p>The unchecked primitives ({@code _getInt}, ...) forward too, so views made over the wrapper (slices,
 * duplicates, composite components) read the wrapped memory directly.
 *
 * <p>Subclasses decide how derived buffers are made, what {@code unwrap}, {@code retain}, {@code release}
 * and {@code touch} do.
 */
abstract class WrappedByteBuf extends AbstractByteBuf {
    final AbstractByteBuf buf;

    WrappedByteBuf(AbstractByteBuf buf) {
        this.buf = buf;
        syncIndexes();
    }

    /** Copies the wrapped buffer's indexes, after an operation that may have moved them. */
    final void syncIndexes() {
        setIndex0(buf.readerIndex(), buf.writerIndex());
    }

    @Override
    public ByteBuf retain() {
        buf.retain();
        return this;
    }

    @Override
    public ByteBuf retain(int increment) {
        buf.retain(increment);
        return this;
    }

    @Override
    public boolean release() {
        return buf.release();
    }

    @Override
    public boolean release(int decrement) {
        return buf.release(decrement);
    }

    @Override
    public int hashCode() {
        return buf.hashCode();
    }

    @Override
    public boolean equals(Object obj) {
        return this == obj || buf.equals(obj);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + '(' + buf + ')';
    }

    // ---- views over this wrapper, for wrappers that own the reference count they hand on ----

    /** A slice whose reads come here and whose retain/release reach this wrapper. */
    final AbstractByteBuf sliceOfThis(int index, int length) {
        // Checked whatever checkBounds says, as AbstractByteBuf.slice is.
        ensureAccessible();
        checkRange(index, length, capacity());
        return new SlicedByteBuf(this, index, length);
    }

    /** A duplicate with this wrapper's indexes, whose retain/release reach this wrapper. */
    final AbstractByteBuf duplicateOfThis() {
        ensureAccessible();
        return new DuplicatedByteBuf(this);
    }

    /** A read-only view whose retain/release reach this wrapper. */
    final AbstractByteBuf readOnlyOfThis() {
        return buf.isReadOnly() ? this : new ReadOnlyByteBuf(this);
    }

    /** Skips {@code length} readable bytes and returns the index they started at. */
    final int skipForSlice(int length) {
        int index = readerIndex();
        buf.skipBytes(length);
        syncIndexes();
        return index;
    }

    // ---- the unchecked primitives views over this wrapper use ----

    @Override
    final boolean isAccessible() {
        return buf.isAccessible();
    }

    @Override
    final byte _getByte(int index) {
        return buf._getByte(index);
    }

    @Override
    final short _getShort(int index) {
        return buf._getShort(index);
    }

    @Override
    final short _getShortLE(int index) {
        return buf._getShortLE(index);
    }

    @Override
    final int _getUnsignedMedium(int index) {
        return buf._getUnsignedMedium(index);
    }

    @Override
    final int _getUnsignedMediumLE(int index) {
        return buf._getUnsignedMediumLE(index);
    }

    @Override
    final int _getInt(int index) {
        return buf._getInt(index);
    }

    @Override
    final int _getIntLE(int index) {
        return buf._getIntLE(index);
    }

    @Override
    final long _getLong(int index) {
        return buf._getLong(index);
    }

    @Override
    final long _getLongLE(int index) {
        return buf._getLongLE(index);
    }

    @Override
    final void _setByte(int index, int value) {
        buf._setByte(index, value);
    }

    @Override
    final void _setShort(int index, int value) {
        buf._setShort(index, value);
    }

    @Override
    final void _setShortLE(int index, int value) {
        buf._setShortLE(index, value);
    }

    @Override
    final void _setMedium(int index, int value) {
        buf._setMedium(index, value);
    }

    @Override
    final void _setMediumLE(int index, int value) {
        buf._setMediumLE(index, value);
    }

    @Override
    final void _setInt(int index, int value) {
        buf._setInt(index, value);
    }

    @Override
    final void _setIntLE(int index, int value) {
        buf._setIntLE(index, value);
    }

    @Override
    final void _setLong(int index, long value) {
        buf._setLong(index, value);
    }

    @Override
    final void _setLongLE(int index, long value) {
        buf._setLongLE(index, value);
    }

    @Override
    final void _getBytes(int index, byte[] dst, int dstIndex, int length) {
        buf._getBytes(index, dst, dstIndex, length);
    }

    @Override
    final void _getBytes(int index, ByteBuffer dst) {
        buf._getBytes(index, dst);
    }

    @Override
    final void _setBytes(int index, byte[] src, int srcIndex, int length) {
        buf._setBytes(index, src, srcIndex, length);
    }

    @Override
    final void _setBytes(int index, ByteBuffer src) {
        buf._setBytes(index, src);
    }

    @Override
    final void _setZero(int index, int length) {
        buf._setZero(index, length);
    }

    @Override
    final ByteBuffer _nioBuffer(int index, int length) {
        return buf._nioBuffer(index, length);
    }

    // ---- everything else, handed on (generated from ByteBuf's method list; keep in step with it) ----

    @Override
    public int capacity() {
        return buf.capacity();
    }

    @Override
    public ByteBuf capacity(int newCapacity) {
        buf.capacity(newCapacity);
        syncIndexes();
        return this;
    }

    @Override
    public int maxCapacity() {
        return buf.maxCapacity();
    }

    @Override
    public ByteBufAllocator alloc() {
        return buf.alloc();
    }

    @Override
    public boolean isDirect() {
        return buf.isDirect();
    }

    @Override
    public boolean isReadOnly() {
        return buf.isReadOnly();
    }

    @Override
    public ByteBuf readerIndex(int readerIndex) {
        buf.readerIndex(readerIndex);
        syncIndexes();
        return this;
    }

    @Override
    public ByteBuf writerIndex(int writerIndex) {
        buf.writerIndex(writerIndex);
        syncIndexes();
        return this;
    }

    @Override
    public ByteBuf setIndex(int readerIndex, int writerIndex) {
        buf.setIndex(readerIndex, writerIndex);
        syncIndexes();
        return this;
    }

    @Override
    public ByteBuf clear() {
        buf.clear();
        syncIndexes();
        return this;
    }

    @Override
    public ByteBuf discardReadBytes() {
        buf.discardReadBytes();
        syncIndexes();
        return this;
    }

    @Override
    public ByteBuf discardSomeReadBytes() {
        buf.discardSomeReadBytes();
        syncIndexes();
        return this;
    }

    @Override
    public ByteBuf ensureWritable(int minWritableBytes) {
        buf.ensureWritable(minWritableBytes);
        syncIndexes();
        return this;
    }

    @Override
    public int ensureWritable(int minWritableBytes, boolean force) {
        int result = buf.ensureWritable(minWritableBytes, force);
        syncIndexes();
        return result;
    }

    @Override
    public byte getByte(int index) {
        return buf.getByte(index);
    }

    @Override
    public short getShort(int index) {
        return buf.getShort(index);
    }

    @Override
    public short getShortLE(int index) {
        return buf.getShortLE(index);
    }

    @Override
    public int getUnsignedMedium(int index) {
        return buf.getUnsignedMedium(index);
    }

    @Override
    public int getUnsignedMediumLE(int index) {
        return buf.getUnsignedMediumLE(index);
    }

    @Override
    public int getInt(int index) {
        return buf.getInt(index);
    }

    @Override
    public int getIntLE(int index) {
        return buf.getIntLE(index);
    }

    @Override
    public long getLong(int index) {
        return buf.getLong(index);
    }

    @Override
    public long getLongLE(int index) {
        return buf.getLongLE(index);
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuf dst, int dstIndex, int length) {
        buf.getBytes(index, dst, dstIndex, length);
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, byte[] dst, int dstIndex, int length) {
        buf.getBytes(index, dst, dstIndex, length);
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuffer dst) {
        buf.getBytes(index, dst);
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, OutputStream out, int length) throws IOException {
        buf.getBytes(index, out, length);
        return this;
    }

    @Override
    public int getBytes(int index, GatheringByteChannel out, int length) throws IOException {
        return buf.getBytes(index, out, length);
    }

    @Override
    public int getBytes(int index, FileChannel out, long position, int length) throws IOException {
        return buf.getBytes(index, out, position, length);
    }

    @Override
    public CharSequence getCharSequence(int index, int length, Charset charset) {
        return buf.getCharSequence(index, length, charset);
    }

    @Override
    public ByteBuf setByte(int index, int value) {
        buf.setByte(index, value);
        return this;
    }

    @Override
    public ByteBuf setShort(int index, int value) {
        buf.setShort(index, value);
        return this;
    }

    @Override
    public ByteBuf setShortLE(int index, int value) {
        buf.setShortLE(index, value);
        return this;
    }

    @Override
    public ByteBuf setMedium(int index, int value) {
        buf.setMedium(index, value);
        return this;
    }

    @Override
    public ByteBuf setMediumLE(int index, int value) {
        buf.setMediumLE(index, value);
        return this;
    }

    @Override
    public ByteBuf setInt(int index, int value) {
        buf.setInt(index, value);
        return this;
    }

    @Override
    public ByteBuf setIntLE(int index, int value) {
        buf.setIntLE(index, value);
        return this;
    }

    @Override
    public ByteBuf setLong(int index, long value) {
        buf.setLong(index, value);
        return this;
    }

    @Override
    public ByteBuf setLongLE(int index, long value) {
        buf.setLongLE(index, value);
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuf src, int srcIndex, int length) {
        buf.setBytes(index, src, srcIndex, length);
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, byte[] src, int srcIndex, int length) {
        buf.setBytes(index, src, srcIndex, length);
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuffer src) {
        buf.setBytes(index, src);
        return this;
    }

    @Override
    public int setBytes(int index, InputStream in, int length) throws IOException {
        return buf.setBytes(index, in, length);
    }

    @Override
    public int setBytes(int index, ScatteringByteChannel in, int length) throws IOException {
        return buf.setBytes(index, in, length);
    }

    @Override
    public int setBytes(int index, FileChannel in, long position, int length) throws IOException {
        return buf.setBytes(index, in, position, length);
    }

    @Override
    public ByteBuf setZero(int index, int length) {
        buf.setZero(index, length);
        return this;
    }

    @Override
    public int setCharSequence(int index, CharSequence sequence, Charset charset) {
        return buf.setCharSequence(index, sequence, charset);
    }

    @Override
    public byte readByte() {
        byte result = buf.readByte();
        syncIndexes();
        return result;
    }

    @Override
    public short readShort() {
        short result = buf.readShort();
        syncIndexes();
        return result;
    }

    @Override
    public short readShortLE() {
        short result = buf.readShortLE();
        syncIndexes();
        return result;
    }

    @Override
    public int readUnsignedMedium() {
        int result = buf.readUnsignedMedium();
        syncIndexes();
        return result;
    }

    @Override
    public int readUnsignedMediumLE() {
        int result = buf.readUnsignedMediumLE();
        syncIndexes();
        return result;
    }

    @Override
    public int readInt() {
        int result = buf.readInt();
        syncIndexes();
        return result;
    }

    @Override
    public int readIntLE() {
        int result = buf.readIntLE();
        syncIndexes();
        return result;
    }

    @Override
    public long readLong() {
        long result = buf.readLong();
        syncIndexes();
        return result;
    }

    @Override
    public long readLongLE() {
        long result = buf.readLongLE();
        syncIndexes();
        return result;
    }

    @Override
    public ByteBuf readBytes(int length) {
        ByteBuf result = buf.readBytes(length);
        syncIndexes();
        return result;
    }

    @Override
    public ByteBuf readBytes(ByteBuf dst, int dstIndex, int length) {
        buf.readBytes(dst, dstIndex, length);
        syncIndexes();
        return this;
    }

    @Override
    public ByteBuf readBytes(byte[] dst, int dstIndex, int length) {
        buf.readBytes(dst, dstIndex, length);
        syncIndexes();
        return this;
    }

    @Override
    public ByteBuf readBytes(ByteBuffer dst) {
        buf.readBytes(dst);
        syncIndexes();
        return this;
    }

    @Override
    public ByteBuf readBytes(OutputStream out, int length) throws IOException {
        buf.readBytes(out, length);
        syncIndexes();
        return this;
    }

    @Override
    public int readBytes(GatheringByteChannel out, int length) throws IOException {
        int result = buf.readBytes(out, length);
        syncIndexes();
        return result;
    }

    @Override
    public int readBytes(FileChannel out, long position, int length) throws IOException {
        int result = buf.readBytes(out, position, length);
        syncIndexes();
        return result;
    }

    @Override
    public CharSequence readCharSequence(int length, Charset charset) {
        CharSequence result = buf.readCharSequence(length, charset);
        syncIndexes();
        return result;
    }

    @Override
    public ByteBuf skipBytes(int length) {
        buf.skipBytes(length);
        syncIndexes();
        return this;
    }

    @Override
    public ByteBuf writeByte(int value) {
        buf.writeByte(value);
        syncIndexes();
        return this;
    }

    @Override
    public ByteBuf writeShort(int value) {
        buf.writeShort(value);
        syncIndexes();
        return this;
    }

    @Override
    public ByteBuf writeShortLE(int value) {
        buf.writeShortLE(value);
        syncIndexes();
        return this;
    }

    @Override
    public ByteBuf writeMedium(int value) {
        buf.writeMedium(value);
        syncIndexes();
        return this;
    }

    @Override
    public ByteBuf writeMediumLE(int value) {
        buf.writeMediumLE(value);
        syncIndexes();
        return this;
    }

    @Override
    public ByteBuf writeInt(int value) {
        buf.writeInt(value);
        syncIndexes();
        return this;
    }

    @Override
    public ByteBuf writeIntLE(int value) {
        buf.writeIntLE(value);
        syncIndexes();
        return this;
    }

    @Override
    public ByteBuf writeLong(long value) {
        buf.writeLong(value);
        syncIndexes();
        return this;
    }

    @Override
    public ByteBuf writeLongLE(long value) {
        buf.writeLongLE(value);
        syncIndexes();
        return this;
    }

    @Override
    public ByteBuf writeBytes(ByteBuf src, int srcIndex, int length) {
        buf.writeBytes(src, srcIndex, length);
        syncIndexes();
        return this;
    }

    @Override
    public ByteBuf writeBytes(byte[] src, int srcIndex, int length) {
        buf.writeBytes(src, srcIndex, length);
        syncIndexes();
        return this;
    }

    @Override
    public ByteBuf writeBytes(ByteBuffer src) {
        buf.writeBytes(src);
        syncIndexes();
        return this;
    }

    @Override
    public int writeBytes(InputStream in, int length) throws IOException {
        int result = buf.writeBytes(in, length);
        syncIndexes();
        return result;
    }

    @Override
    public int writeBytes(ScatteringByteChannel in, int length) throws IOException {
        int result = buf.writeBytes(in, length);
        syncIndexes();
        return result;
    }

    @Override
    public int writeBytes(FileChannel in, long position, int length) throws IOException {
        int result = buf.writeBytes(in, position, length);
        syncIndexes();
        return result;
    }

    @Override
    public ByteBuf writeZero(int length) {
        buf.writeZero(length);
        syncIndexes();
        return this;
    }

    @Override
    public int writeCharSequence(CharSequence sequence, Charset charset) {
        int result = buf.writeCharSequence(sequence, charset);
        syncIndexes();
        return result;
    }

    @Override
    public int indexOf(int fromIndex, int toIndex, byte value) {
        return buf.indexOf(fromIndex, toIndex, value);
    }

    @Override
    public int bytesBefore(int length, byte value) {
        return buf.bytesBefore(length, value);
    }

    @Override
    public int bytesBefore(int index, int length, byte value) {
        return buf.bytesBefore(index, length, value);
    }

    @Override
    public int forEachByte(int index, int length, ByteProcessor processor) {
        return buf.forEachByte(index, length, processor);
    }

    @Override
    public int forEachByteDesc(int index, int length, ByteProcessor processor) {
        return buf.forEachByteDesc(index, length, processor);
    }

    @Override
    public ByteBuf copy(int index, int length) {
        return buf.copy(index, length);
    }

    @Override
    public int nioBufferCount() {
        return buf.nioBufferCount();
    }

    @Override
    public ByteBuffer nioBuffer(int index, int length) {
        return buf.nioBuffer(index, length);
    }

    @Override
    public ByteBuffer internalNioBuffer(int index, int length) {
        return buf.internalNioBuffer(index, length);
    }

    @Override
    public ByteBuffer[] nioBuffers(int index, int length) {
        return buf.nioBuffers(index, length);
    }

    @Override
    public boolean hasArray() {
        return buf.hasArray();
    }

    @Override
    public byte[] array() {
        return buf.array();
    }

    @Override
    public int arrayOffset() {
        return buf.arrayOffset();
    }

    @Override
    public boolean hasMemoryAddress() {
        return buf.hasMemoryAddress();
    }

    @Override
    public long memoryAddress() {
        return buf.memoryAddress();
    }

    @Override
    public String toString(int index, int length, Charset charset) {
        return buf.toString(index, length, charset);
    }

    @Override
    public int compareTo(ByteBuf buffer) {
        return buf.compareTo(buffer);
    }

    @Override
    public int refCnt() {
        return buf.refCnt();
    }
}
