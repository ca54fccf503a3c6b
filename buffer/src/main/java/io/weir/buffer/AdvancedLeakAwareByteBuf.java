package io.weir.buffer;

import io.weir.util.ByteProcessor;
import io.weir.util.ResourceLeakTracker;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ScatteringByteChannel;
import java.nio.charset.Charset;

/**
 * What an allocator hands out, at {@link io.weir.util.ResourceLeakDetector.Level#ADVANCED} and
 * {@link io.weir.util.ResourceLeakDetector.Level#PARANOID}, for a buffer the leak detector sampled: as
 * {@link SimpleLeakAwareByteBuf}, and every access (reads, writes, gets and sets, searches, copies, derived
 * buffers, {@code nioBuffer(s)}, {@code retain}/{@code release}, {@code touch(hint)}) leaves an access record in
 * the tracker, so a leak report shows where the buffer was last used. Index and capacity getters and index
 * setters leave none.
 *
 * <p>One class plays two parts. The <em>owner</em> wraps the allocated buffer and closes the tracker on the
 * release that frees it. A <em>derived</em> wrapper wraps a view (a slice, duplicate or read-only view over
 * the owner, or over a leak-aware composite) and records into the same tracker; its {@code retain} and
 * {@code release} pass through the view to the owner, which records them and closes the tracker, so a derived
 * wrapper never closes anything itself. Buffers derived from a derived wrapper are wrapped again, so a whole
 * family of views keeps recording.
 */
final class AdvancedLeakAwareByteBuf extends WrappedByteBuf {
    private final ResourceLeakTracker<ByteBuf> tracker;
    /** Whether this wrapper owns the buffer the tracker watches ({@link #buf}), rather than wrapping a view. */
    private final boolean owner;

    /**
     * @param buf the allocated buffer (owner) or a view whose count is the owner's (derived)
     * @param tracker the tracker watching the allocated buffer
     * @param owner whether {@code buf} is the buffer {@code tracker} watches
     */
    AdvancedLeakAwareByteBuf(AbstractByteBuf buf, ResourceLeakTracker<ByteBuf> tracker, boolean owner) {
        super(buf);
        this.tracker = tracker;
        this.owner = owner;
    }

    private void record() {
        tracker.record();
    }

    private ByteBuf derived(AbstractByteBuf view) {
        return new AdvancedLeakAwareByteBuf(view, tracker, false);
    }

    @Override
    public ByteBuf retain() {
        if (owner) {
            record();
        }
        buf.retain();
        return this;
    }

    @Override
    public ByteBuf retain(int increment) {
        if (owner) {
            record();
        }
        buf.retain(increment);
        return this;
    }

    @Override
    public boolean release() {
        if (!owner) {
            return buf.release();
        }
        record();
        return closeIfFreed(buf.release());
    }

    @Override
    public boolean release(int decrement) {
        if (!owner) {
            return buf.release(decrement);
        }
        record();
        return closeIfFreed(buf.release(decrement));
    }

    private boolean closeIfFreed(boolean freed) {
        if (freed) {
            tracker.close(buf);
        }
        return freed;
    }

    /** For the owner, what the allocated buffer answers (no untracked handle escapes); else the view's parent. */
    @Override
    public ByteBuf unwrap() {
        return buf.unwrap();
    }

    @Override
    public ByteBuf touch() {
        record();
        return this;
    }

    @Override
    public ByteBuf touch(Object hint) {
        tracker.record(hint);
        return this;
    }

    @Override
    public ByteBuf slice(int index, int length) {
        record();
        return derived(owner ? sliceOfThis(index, length) : (AbstractByteBuf) buf.slice(index, length));
    }

    @Override
    public ByteBuf duplicate() {
        record();
        return derived(owner ? duplicateOfThis() : (AbstractByteBuf) buf.duplicate());
    }

    @Override
    public ByteBuf asReadOnly() {
        record();
        ByteBuf view = owner ? readOnlyOfThis() : buf.asReadOnly();
        return view == buf || view == this ? this : derived((AbstractByteBuf) view);
    }

    @Override
    public ByteBuf readSlice(int length) {
        record();
        if (owner) {
            return derived(sliceOfThis(skipForSlice(length), length));
        }
        ByteBuf slice = buf.readSlice(length);
        syncIndexes();
        return derived((AbstractByteBuf) slice);
    }

    @Override
    public ByteBuf readRetainedSlice(int length) {
        record();
        if (owner) {
            AbstractByteBuf slice = sliceOfThis(skipForSlice(length), length);
            buf.retain();
            return derived(slice);
        }
        ByteBuf slice = buf.readRetainedSlice(length);
        syncIndexes();
        return derived((AbstractByteBuf) slice);
    }

    // ---- recorded accesses (generated from WrappedByteBuf's delegations; keep in step with it) ----

    @Override
    public ByteBuf capacity(int newCapacity) {
        record();
        return super.capacity(newCapacity);
    }

    @Override
    public ByteBuf discardReadBytes() {
        record();
        return super.discardReadBytes();
    }

    @Override
    public ByteBuf discardSomeReadBytes() {
        record();
        return super.discardSomeReadBytes();
    }

    @Override
    public ByteBuf ensureWritable(int minWritableBytes) {
        record();
        return super.ensureWritable(minWritableBytes);
    }

    @Override
    public int ensureWritable(int minWritableBytes, boolean force) {
        record();
        return super.ensureWritable(minWritableBytes, force);
    }

    @Override
    public byte getByte(int index) {
        record();
        return super.getByte(index);
    }

    @Override
    public short getShort(int index) {
        record();
        return super.getShort(index);
    }

    @Override
    public short getShortLE(int index) {
        record();
        return super.getShortLE(index);
    }

    @Override
    public int getUnsignedMedium(int index) {
        record();
        return super.getUnsignedMedium(index);
    }

    @Override
    public int getUnsignedMediumLE(int index) {
        record();
        return super.getUnsignedMediumLE(index);
    }

    @Override
    public int getInt(int index) {
        record();
        return super.getInt(index);
    }

    @Override
    public int getIntLE(int index) {
        record();
        return super.getIntLE(index);
    }

    @Override
    public long getLong(int index) {
        record();
        return super.getLong(index);
    }

    @Override
    public long getLongLE(int index) {
        record();
        return super.getLongLE(index);
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuf dst, int dstIndex, int length) {
        record();
        return super.getBytes(index, dst, dstIndex, length);
    }

    @Override
    public ByteBuf getBytes(int index, byte[] dst, int dstIndex, int length) {
        record();
        return super.getBytes(index, dst, dstIndex, length);
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuffer dst) {
        record();
        return super.getBytes(index, dst);
    }

    @Override
    public ByteBuf getBytes(int index, OutputStream out, int length) throws IOException {
        record();
        return super.getBytes(index, out, length);
    }

    @Override
    public int getBytes(int index, GatheringByteChannel out, int length) throws IOException {
        record();
        return super.getBytes(index, out, length);
    }

    @Override
    public int getBytes(int index, FileChannel out, long position, int length) throws IOException {
        record();
        return super.getBytes(index, out, position, length);
    }

    @Override
    public CharSequence getCharSequence(int index, int length, Charset charset) {
        record();
        return super.getCharSequence(index, length, charset);
    }

    @Override
    public ByteBuf setByte(int index, int value) {
        record();
        return super.setByte(index, value);
    }

    @Override
    public ByteBuf setShort(int index, int value) {
        record();
        return super.setShort(index, value);
    }

    @Override
    public ByteBuf setShortLE(int index, int value) {
        record();
        return super.setShortLE(index, value);
    }

    @Override
    public ByteBuf setMedium(int index, int value) {
        record();
        return super.setMedium(index, value);
    }

    @Override
    public ByteBuf setMediumLE(int index, int value) {
        record();
        return super.setMediumLE(index, value);
    }

    @Override
    public ByteBuf setInt(int index, int value) {
        record();
        return super.setInt(index, value);
    }

    @Override
    public ByteBuf setIntLE(int index, int value) {
        record();
        return super.setIntLE(index, value);
    }

    @Override
    public ByteBuf setLong(int index, long value) {
        record();
        return super.setLong(index, value);
    }

    @Override
    public ByteBuf setLongLE(int index, long value) {
        record();
        return super.setLongLE(index, value);
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuf src, int srcIndex, int length) {
        record();
        return super.setBytes(index, src, srcIndex, length);
    }

    @Override
    public ByteBuf setBytes(int index, byte[] src, int srcIndex, int length) {
        record();
        return super.setBytes(index, src, srcIndex, length);
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuffer src) {
        record();
        return super.setBytes(index, src);
    }

    @Override
    public int setBytes(int index, InputStream in, int length) throws IOException {
        record();
        return super.setBytes(index, in, length);
    }

    @Override
    public int setBytes(int index, ScatteringByteChannel in, int length) throws IOException {
        record();
        return super.setBytes(index, in, length);
    }

    @Override
    public int setBytes(int index, FileChannel in, long position, int length) throws IOException {
        record();
        return super.setBytes(index, in, position, length);
    }

    @Override
    public ByteBuf setZero(int index, int length) {
        record();
        return super.setZero(index, length);
    }

    @Override
    public int setCharSequence(int index, CharSequence sequence, Charset charset) {
        record();
        return super.setCharSequence(index, sequence, charset);
    }

    @Override
    public byte readByte() {
        record();
        return super.readByte();
    }

    @Override
    public short readShort() {
        record();
        return super.readShort();
    }

    @Override
    public short readShortLE() {
        record();
        return super.readShortLE();
    }

    @Override
    public int readUnsignedMedium() {
        record();
        return super.readUnsignedMedium();
    }

    @Override
    public int readUnsignedMediumLE() {
        record();
        return super.readUnsignedMediumLE();
    }

    @Override
    public int readInt() {
        record();
        return super.readInt();
    }

    @Override
    public int readIntLE() {
        record();
        return super.readIntLE();
    }

    @Override
    public long readLong() {
        record();
        return super.readLong();
    }

    @Override
    public long readLongLE() {
        record();
        return super.readLongLE();
    }

    @Override
    public ByteBuf readBytes(int length) {
        record();
        return super.readBytes(length);
    }

    @Override
    public ByteBuf readBytes(ByteBuf dst, int dstIndex, int length) {
        record();
        return super.readBytes(dst, dstIndex, length);
    }

    @Override
    public ByteBuf readBytes(byte[] dst, int dstIndex, int length) {
        record();
        return super.readBytes(dst, dstIndex, length);
    }

    @Override
    public ByteBuf readBytes(ByteBuffer dst) {
        record();
        return super.readBytes(dst);
    }

    @Override
    public ByteBuf readBytes(OutputStream out, int length) throws IOException {
        record();
        return super.readBytes(out, length);
    }

    @Override
    public int readBytes(GatheringByteChannel out, int length) throws IOException {
        record();
        return super.readBytes(out, length);
    }

    @Override
    public int readBytes(FileChannel out, long position, int length) throws IOException {
        record();
        return super.readBytes(out, position, length);
    }

    @Override
    public CharSequence readCharSequence(int length, Charset charset) {
        record();
        return super.readCharSequence(length, charset);
    }

    @Override
    public ByteBuf skipBytes(int length) {
        record();
        return super.skipBytes(length);
    }

    @Override
    public ByteBuf writeByte(int value) {
        record();
        return super.writeByte(value);
    }

    @Override
    public ByteBuf writeShort(int value) {
        record();
        return super.writeShort(value);
    }

    @Override
    public ByteBuf writeShortLE(int value) {
        record();
        return super.writeShortLE(value);
    }

    @Override
    public ByteBuf writeMedium(int value) {
        record();
        return super.writeMedium(value);
    }

    @Override
    public ByteBuf writeMediumLE(int value) {
        record();
        return super.writeMediumLE(value);
    }

    @Override
    public ByteBuf writeInt(int value) {
        record();
        return super.writeInt(value);
    }

    @Override
    public ByteBuf writeIntLE(int value) {
        record();
        return super.writeIntLE(value);
    }

    @Override
    public ByteBuf writeLong(long value) {
        record();
        return super.writeLong(value);
    }

    @Override
    public ByteBuf writeLongLE(long value) {
        record();
        return super.writeLongLE(value);
    }

    @Override
    public ByteBuf writeBytes(ByteBuf src, int srcIndex, int length) {
        record();
        return super.writeBytes(src, srcIndex, length);
    }

    @Override
    public ByteBuf writeBytes(byte[] src, int srcIndex, int length) {
        record();
        return super.writeBytes(src, srcIndex, length);
    }

    @Override
    public ByteBuf writeBytes(ByteBuffer src) {
        record();
        return super.writeBytes(src);
    }

    @Override
    public int writeBytes(InputStream in, int length) throws IOException {
        record();
        return super.writeBytes(in, length);
    }

    @Override
    public int writeBytes(ScatteringByteChannel in, int length) throws IOException {
        record();
        return super.writeBytes(in, length);
    }

    @Override
    public int writeBytes(FileChannel in, long position, int length) throws IOException {
        record();
        return super.writeBytes(in, position, length);
    }

    @Override
    public ByteBuf writeZero(int length) {
        record();
        return super.writeZero(length);
    }

    @Override
    public int writeCharSequence(CharSequence sequence, Charset charset) {
        record();
        return super.writeCharSequence(sequence, charset);
    }

    @Override
    public int indexOf(int fromIndex, int toIndex, byte value) {
        record();
        return super.indexOf(fromIndex, toIndex, value);
    }

    @Override
    public int bytesBefore(int length, byte value) {
        record();
        return super.bytesBefore(length, value);
    }

    @Override
    public int bytesBefore(int index, int length, byte value) {
        record();
        return super.bytesBefore(index, length, value);
    }

    @Override
    public int forEachByte(int index, int length, ByteProcessor processor) {
        record();
        return super.forEachByte(index, length, processor);
    }

    @Override
    public int forEachByteDesc(int index, int length, ByteProcessor processor) {
        record();
        return super.forEachByteDesc(index, length, processor);
    }

    @Override
    public ByteBuf copy(int index, int length) {
        record();
        return super.copy(index, length);
    }

    @Override
    public ByteBuffer nioBuffer(int index, int length) {
        record();
        return super.nioBuffer(index, length);
    }

    @Override
    public ByteBuffer internalNioBuffer(int index, int length) {
        record();
        return super.internalNioBuffer(index, length);
    }

    @Override
    public ByteBuffer[] nioBuffers(int index, int length) {
        record();
        return super.nioBuffers(index, length);
    }

    @Override
    public String toString(int index, int length, Charset charset) {
        record();
        return super.toString(index, length, charset);
    }
}
