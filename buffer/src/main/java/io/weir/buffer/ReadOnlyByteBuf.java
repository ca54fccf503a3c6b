package io.weir.buffer;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.channels.FileChannel;
import java.nio.channels.ScatteringByteChannel;
import java.nio.charset.Charset;

/**
 * A read-only view of a buffer: it shares the content and the reference count (releasing the view releases the
 * buffer), has its own indexes, and every method that would change the content or the capacity throws
 * {@link ReadOnlyBufferException} before changing anything. Index moves ({@code readerIndex}, {@code clear}, …)
 * are allowed. {@link #array()} and {@link #memoryAddress()} are withheld, since they would allow writes;
 * {@link #nioBuffer(int, int)} returns read-only ByteBuffers.
 */
final class ReadOnlyByteBuf extends DerivedByteBuf {

    ReadOnlyByteBuf(AbstractByteBuf buffer) {
        super(buffer, 0);
        setIndex0(buffer.readerIndex(), buffer.writerIndex());
    }

    private static ReadOnlyBufferException readOnly() {
        return new ReadOnlyBufferException();
    }

    @Override
    public boolean isReadOnly() {
        return true;
    }

    @Override
    public ByteBuf asReadOnly() {
        return this;
    }

    @Override
    public int capacity() {
        return parent.capacity();
    }

    @Override
    public int maxCapacity() {
        return parent.maxCapacity();
    }

    @Override
    public boolean hasArray() {
        return false;
    }

    @Override
    public byte[] array() {
        throw readOnly();
    }

    @Override
    public int arrayOffset() {
        throw readOnly();
    }

    @Override
    public boolean hasMemoryAddress() {
        return false;
    }

    @Override
    public long memoryAddress() {
        throw new UnsupportedOperationException("a read-only view has no memory address");
    }

    /** Always 1 (no room, capacity unchanged): a read-only buffer never grows. */
    @Override
    public int ensureWritable(int minWritableBytes, boolean force) {
        if (minWritableBytes < 0) {
            throw new IllegalArgumentException("minWritableBytes: " + minWritableBytes + " (expected: >= 0)");
        }
        ensureAccessible();
        return 1;
    }

    @Override
    public ByteBuf slice(int index, int length) {
        return new ReadOnlyByteBuf((AbstractByteBuf) parent.slice(index, length));
    }

    @Override
    public ByteBuf duplicate() {
        ReadOnlyByteBuf duplicate = new ReadOnlyByteBuf(parent);
        duplicate.setIndex0(readerIndex(), writerIndex());
        return duplicate;
    }

    @Override
    ByteBuffer _nioBuffer(int index, int length) {
        return parent._nioBuffer(index, length).asReadOnlyBuffer();
    }

    /** The parent's buffers for the range, each made read-only. */
    @Override
    public ByteBuffer[] nioBuffers(int index, int length) {
        ByteBuffer[] buffers = super.nioBuffers(index, length);
        for (int i = 0; i < buffers.length; i++) {
            buffers[i] = buffers[i].asReadOnlyBuffer();
        }
        return buffers;
    }

    @Override
    public ByteBuf capacity(int newCapacity) {
        throw readOnly();
    }

    @Override
    public ByteBuf discardReadBytes() {
        throw readOnly();
    }

    @Override
    public ByteBuf discardSomeReadBytes() {
        throw readOnly();
    }

    @Override
    public ByteBuf ensureWritable(int minWritableBytes) {
        throw readOnly();
    }

    @Override
    public ByteBuf setBoolean(int index, boolean value) {
        throw readOnly();
    }

    @Override
    public ByteBuf setByte(int index, int value) {
        throw readOnly();
    }

    @Override
    public ByteBuf setShort(int index, int value) {
        throw readOnly();
    }

    @Override
    public ByteBuf setShortLE(int index, int value) {
        throw readOnly();
    }

    @Override
    public ByteBuf setMedium(int index, int value) {
        throw readOnly();
    }

    @Override
    public ByteBuf setMediumLE(int index, int value) {
        throw readOnly();
    }

    @Override
    public ByteBuf setInt(int index, int value) {
        throw readOnly();
    }

    @Override
    public ByteBuf setIntLE(int index, int value) {
        throw readOnly();
    }

    @Override
    public ByteBuf setLong(int index, long value) {
        throw readOnly();
    }

    @Override
    public ByteBuf setLongLE(int index, long value) {
        throw readOnly();
    }

    @Override
    public ByteBuf setChar(int index, int value) {
        throw readOnly();
    }

    @Override
    public ByteBuf setFloat(int index, float value) {
        throw readOnly();
    }

    @Override
    public ByteBuf setFloatLE(int index, float value) {
        throw readOnly();
    }

    @Override
    public ByteBuf setDouble(int index, double value) {
        throw readOnly();
    }

    @Override
    public ByteBuf setDoubleLE(int index, double value) {
        throw readOnly();
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuf src) {
        throw readOnly();
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuf src, int length) {
        throw readOnly();
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuf src, int srcIndex, int length) {
        throw readOnly();
    }

    @Override
    public ByteBuf setBytes(int index, byte[] src) {
        throw readOnly();
    }

    @Override
    public ByteBuf setBytes(int index, byte[] src, int srcIndex, int length) {
        throw readOnly();
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuffer src) {
        throw readOnly();
    }

    @Override
    public int setBytes(int index, InputStream in, int length) {
        throw readOnly();
    }

    @Override
    public int setBytes(int index, ScatteringByteChannel in, int length) {
        throw readOnly();
    }

    @Override
    public int setBytes(int index, FileChannel in, long position, int length) {
        throw readOnly();
    }

    @Override
    public ByteBuf setZero(int index, int length) {
        throw readOnly();
    }

    @Override
    public int setCharSequence(int index, CharSequence sequence, Charset charset) {
        throw readOnly();
    }

    @Override
    public ByteBuf writeBoolean(boolean value) {
        throw readOnly();
    }

    @Override
    public ByteBuf writeByte(int value) {
        throw readOnly();
    }

    @Override
    public ByteBuf writeShort(int value) {
        throw readOnly();
    }

    @Override
    public ByteBuf writeShortLE(int value) {
        throw readOnly();
    }

    @Override
    public ByteBuf writeMedium(int value) {
        throw readOnly();
    }

    @Override
    public ByteBuf writeMediumLE(int value) {
        throw readOnly();
    }

    @Override
    public ByteBuf writeInt(int value) {
        throw readOnly();
    }

    @Override
    public ByteBuf writeIntLE(int value) {
        throw readOnly();
    }

    @Override
    public ByteBuf writeLong(long value) {
        throw readOnly();
    }

    @Override
    public ByteBuf writeLongLE(long value) {
        throw readOnly();
    }

    @Override
    public ByteBuf writeChar(int value) {
        throw readOnly();
    }

    @Override
    public ByteBuf writeFloat(float value) {
        throw readOnly();
    }

    @Override
    public ByteBuf writeFloatLE(float value) {
        throw readOnly();
    }

    @Override
    public ByteBuf writeDouble(double value) {
        throw readOnly();
    }

    @Override
    public ByteBuf writeDoubleLE(double value) {
        throw readOnly();
    }

    @Override
    public ByteBuf writeBytes(ByteBuf src) {
        throw readOnly();
    }

    @Override
    public ByteBuf writeBytes(ByteBuf src, int length) {
        throw readOnly();
    }

    @Override
    public ByteBuf writeBytes(ByteBuf src, int srcIndex, int length) {
        throw readOnly();
    }

    @Override
    public ByteBuf writeBytes(byte[] src) {
        throw readOnly();
    }

    @Override
    public ByteBuf writeBytes(byte[] src, int srcIndex, int length) {
        throw readOnly();
    }

    @Override
    public ByteBuf writeBytes(ByteBuffer src) {
        throw readOnly();
    }

    @Override
    public int writeBytes(InputStream in, int length) {
        throw readOnly();
    }

    @Override
    public int writeBytes(ScatteringByteChannel in, int length) {
        throw readOnly();
    }

    @Override
    public int writeBytes(FileChannel in, long position, int length) {
        throw readOnly();
    }

    @Override
    public ByteBuf writeZero(int length) {
        throw readOnly();
    }

    @Override
    public int writeCharSequence(CharSequence sequence, Charset charset) {
        throw readOnly();
    }
}
