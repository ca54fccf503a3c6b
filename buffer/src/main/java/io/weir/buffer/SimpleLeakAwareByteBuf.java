package io.weir.buffer;

import io.weir.util.ResourceLeakTracker;

/**
 * What an allocator hands out, at {@link io.weir.util.ResourceLeakDetector.Level#SIMPLE}, for a buffer the
 * leak detector sampled: the buffer itself in every respect, except that the release that frees it also closes
 * its leak tracker. If the wrapper is dropped unreleased, the tracker is reported.
 *
 * <p>Derived buffers ({@code slice}, {@code duplicate}, {@code asReadOnly} and their retained and
 * {@code read…} forms) are views over this wrapper, not over the wrapped buffer, so their {@code retain} and
 * {@code release} pass through here: the release that frees the memory closes the tracker whichever handle it
 * was made on, and exactly once, because only one release can take the count to zero. {@link #unwrap()}
 * answers what the wrapped buffer answers, so code that looks beneath a buffer never gets an untracked handle.
 */
final class SimpleLeakAwareByteBuf extends WrappedByteBuf {
    private final ResourceLeakTracker<ByteBuf> tracker;

    /** @param tracker a tracker watching {@code buf}, closed when {@code buf} is freed */
    SimpleLeakAwareByteBuf(AbstractByteBuf buf, ResourceLeakTracker<ByteBuf> tracker) {
        super(buf);
        this.tracker = tracker;
    }

    @Override
    public boolean release() {
        return closeIfFreed(buf.release());
    }

    @Override
    public boolean release(int decrement) {
        return closeIfFreed(buf.release(decrement));
    }

    private boolean closeIfFreed(boolean freed) {
        if (freed) {
            tracker.close(buf);
        }
        return freed;
    }

    @Override
    public ByteBuf unwrap() {
        return buf.unwrap();
    }

    @Override
    public ByteBuf touch() {
        return this;
    }

    @Override
    public ByteBuf touch(Object hint) {
        return this;
    }

    @Override
    public ByteBuf slice(int index, int length) {
        return sliceOfThis(index, length);
    }

    @Override
    public ByteBuf duplicate() {
        return duplicateOfThis();
    }

    @Override
    public ByteBuf asReadOnly() {
        return readOnlyOfThis();
    }

    @Override
    public ByteBuf readSlice(int length) {
        return sliceOfThis(skipForSlice(length), length);
    }

    @Override
    public ByteBuf readRetainedSlice(int length) {
        ByteBuf slice = sliceOfThis(skipForSlice(length), length);
        buf.retain();
        return slice;
    }
}
