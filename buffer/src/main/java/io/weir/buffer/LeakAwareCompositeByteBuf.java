package io.weir.buffer;

import io.weir.util.ByteProcessor;
import io.weir.util.ResourceLeakDetector;
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
 * The composite an allocator hands out when the leak detector sampled it. Unlike the other leak-aware buffers
 * it is not a wrapper but the composite itself, tracked from birth: {@link ByteBufAllocator#compositeBuffer()}
 * promises a {@link CompositeByteBuf}, and a wrapper would have to re-implement every composite operation. Its
 * deallocation (the release that frees it, exactly once) closes the tracker after releasing the components.
 *
 * <p>Every access leaves an access record (a tracker created at SIMPLE ignores them). At ADVANCED and PARANOID
 * the derived buffers are {@link AdvancedLeakAwareByteBuf derived leak-aware wrappers} recording into the same
 * tracker; at SIMPLE they are plain views, whose release still reaches this composite.
 */
final class LeakAwareCompositeByteBuf extends CompositeByteBuf {
    private final ResourceLeakTracker<ByteBuf> tracker;
    private final boolean recordDerived;

    /**
     * @param detector the detector that tracks this composite; the caller has already sampled, so it should
     *        track every object it is given (if the level dropped to DISABLED meanwhile, nothing is tracked)
     * @param recordDerived whether derived buffers are wrapped to record their accesses too
     */
    LeakAwareCompositeByteBuf(ByteBufAllocator alloc, boolean direct, int maxNumComponents,
            ResourceLeakDetector<ByteBuf> detector, boolean recordDerived) {
        super(alloc, direct, maxNumComponents, AbstractByteBufAllocator.DEFAULT_MAX_CAPACITY_BYTES);
        ResourceLeakTracker<ByteBuf> t = detector.track(this);
        this.tracker = t != null ? t : UntrackedRecords.INSTANCE;
        this.recordDerived = recordDerived;
    }

    private void record() {
        tracker.record();
    }

    private ByteBuf derived(AbstractByteBuf view) {
        return recordDerived ? new AdvancedLeakAwareByteBuf(view, tracker, false) : view;
    }

    @Override
    void deallocate() {
        super.deallocate();
        tracker.close(this);
    }

    @Override
    public ByteBuf slice(int index, int length) {
        record();
        return derived((AbstractByteBuf) super.slice(index, length));
    }

    @Override
    public ByteBuf duplicate() {
        record();
        return derived((AbstractByteBuf) super.duplicate());
    }

    @Override
    public ByteBuf asReadOnly() {
        record();
        return derived((AbstractByteBuf) super.asReadOnly());
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

    /** Stands in when the level fell to DISABLED between sampling and tracking: nothing to record or close. */
    private enum UntrackedRecords implements ResourceLeakTracker<ByteBuf> {
        INSTANCE;

        @Override
        public void record() {
        }

        @Override
        public void record(Object hint) {
        }

        @Override
        public boolean close(ByteBuf trackedObject) {
            return false;
        }
    }

    // ---- recorded accesses (generated from ByteBuf's and CompositeByteBuf's method lists; keep in step) ----

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
    public ByteBuf readSlice(int length) {
        record();
        return super.readSlice(length);
    }

    @Override
    public ByteBuf readRetainedSlice(int length) {
        record();
        return super.readRetainedSlice(length);
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
    public ByteBuffer[] nioBuffers(int index, int length) {
        record();
        return super.nioBuffers(index, length);
    }

    @Override
    public String toString(int index, int length, Charset charset) {
        record();
        return super.toString(index, length, charset);
    }

    @Override
    public ByteBuf retain() {
        record();
        return super.retain();
    }

    @Override
    public ByteBuf retain(int increment) {
        record();
        return super.retain(increment);
    }

    @Override
    public boolean release() {
        record();
        return super.release();
    }

    @Override
    public boolean release(int decrement) {
        record();
        return super.release(decrement);
    }

    @Override
    public CompositeByteBuf addComponent(ByteBuf buffer) {
        record();
        return super.addComponent(buffer);
    }

    @Override
    public CompositeByteBuf addComponent(boolean increaseWriterIndex, ByteBuf buffer) {
        record();
        return super.addComponent(increaseWriterIndex, buffer);
    }

    @Override
    public CompositeByteBuf addComponent(int cIndex, ByteBuf buffer) {
        record();
        return super.addComponent(cIndex, buffer);
    }

    @Override
    public CompositeByteBuf addComponent(boolean increaseWriterIndex, int cIndex, ByteBuf buffer) {
        record();
        return super.addComponent(increaseWriterIndex, cIndex, buffer);
    }

    @Override
    public CompositeByteBuf addComponents(ByteBuf... buffers) {
        record();
        return super.addComponents(buffers);
    }

    @Override
    public CompositeByteBuf addComponents(boolean increaseWriterIndex, ByteBuf... buffers) {
        record();
        return super.addComponents(increaseWriterIndex, buffers);
    }

    @Override
    public CompositeByteBuf addComponents(boolean increaseWriterIndex, Iterable<ByteBuf> buffers) {
        record();
        return super.addComponents(increaseWriterIndex, buffers);
    }

    @Override
    public CompositeByteBuf addComponents(int cIndex, ByteBuf... buffers) {
        record();
        return super.addComponents(cIndex, buffers);
    }

    @Override
    public CompositeByteBuf addComponents(int cIndex, Iterable<ByteBuf> buffers) {
        record();
        return super.addComponents(cIndex, buffers);
    }

    @Override
    public CompositeByteBuf addFlattenedComponents(boolean increaseWriterIndex, ByteBuf buffer) {
        record();
        return super.addFlattenedComponents(increaseWriterIndex, buffer);
    }

    @Override
    public ByteBuf component(int cIndex) {
        record();
        return super.component(cIndex);
    }

    @Override
    public ByteBuf componentAtOffset(int offset) {
        record();
        return super.componentAtOffset(offset);
    }

    @Override
    public CompositeByteBuf removeComponent(int cIndex) {
        record();
        return super.removeComponent(cIndex);
    }

    @Override
    public CompositeByteBuf removeComponents(int cIndex, int numComponents) {
        record();
        return super.removeComponents(cIndex, numComponents);
    }

    @Override
    public CompositeByteBuf consolidate() {
        record();
        return super.consolidate();
    }

    @Override
    public CompositeByteBuf consolidate(int cIndex, int numComponents) {
        record();
        return super.consolidate(cIndex, numComponents);
    }

    @Override
    public CompositeByteBuf discardReadComponents() {
        record();
        return super.discardReadComponents();
    }
}
