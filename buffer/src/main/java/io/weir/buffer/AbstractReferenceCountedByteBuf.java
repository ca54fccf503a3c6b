package io.weir.buffer;

import io.weir.util.ReferenceCountUpdater;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * A buffer that owns its memory: the reference count lives in one {@code volatile int} field driven by
 * {@link ReferenceCountUpdater} (four bytes per buffer, no extra object), and {@link #deallocate()} runs
 * exactly once, on the thread whose release removed the last reference.
 */
abstract class AbstractReferenceCountedByteBuf extends AbstractByteBuf {
    private static final ReferenceCountUpdater<AbstractReferenceCountedByteBuf> UPDATER =
            new ReferenceCountUpdater<>(AbstractReferenceCountedByteBuf.class, "refCnt",
                    AtomicIntegerFieldUpdater.newUpdater(AbstractReferenceCountedByteBuf.class, "refCnt")) { };
    /**
     * The same field for plain reads ({@code get}), {@link #refCnt()}'s volatile read and {@link #resetRefCnt()}'s
     * release store: VarHandle {@code get} has plain semantics even on a volatile field, on every platform. (The updater's {@code isLive} is plain only when Unsafe is in use; without it, the default from
     * JDK 24 on, it reads through the field updater, which is a volatile read the JIT cannot hoist out of loops.)
     */
    private static final VarHandle REF_CNT = findRefCnt();

    // Raw encoding, see ReferenceCountUpdater: twice the count while live, odd once freed.
    @SuppressWarnings("unused")
    private volatile int refCnt = UPDATER.initialValue();

    AbstractReferenceCountedByteBuf() {
    }

    @Override
    final boolean isAccessible() {
        // A plain read is enough: a release on this thread is visible to it in program order, and a release on
        // another thread racing with this access is a caller bug no barrier here could make correct.
        // ReferenceCountUpdater's documented encoding: the raw field is even while live, odd once freed.
        return ((int) REF_CNT.get(this) & 1) == 0;
    }

    private static VarHandle findRefCnt() {
        try {
            return MethodHandles.lookup().findVarHandle(AbstractReferenceCountedByteBuf.class, "refCnt", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>A volatile read through this class's own {@code VarHandle}, a constant the JIT inlines, rather than the
     * updater: with Unsafe off the updater's read checks the instance's class on every call, and this read is on
     * the hot path of every {@link DefaultByteBufHolder#content()} (each HTTP/2 DATA frame, several times).
     */
    @Override
    public int refCnt() {
        // ReferenceCountUpdater's documented encoding: twice the count while live, odd once freed.
        int raw = (int) REF_CNT.getVolatile(this);
        return (raw & 1) != 0 || raw <= 0 ? 0 : raw >>> 1;
    }

    @Override
    public ByteBuf retain() {
        return UPDATER.retain(this);
    }

    @Override
    public ByteBuf retain(int increment) {
        return UPDATER.retain(this, increment);
    }

    @Override
    public boolean release() {
        return handleRelease(UPDATER.release(this));
    }

    @Override
    public boolean release(int decrement) {
        return handleRelease(UPDATER.release(this, decrement));
    }

    private boolean handleRelease(boolean freed) {
        if (freed) {
            deallocate();
        }
        return freed;
    }

    /** Makes a recycled buffer live again with one reference; only for the owner of a freed buffer. */
    final void resetRefCnt() {
        // A release store of the initial raw value (a count of 1) through the constant VarHandle: this runs for every
        // buffer a thread cache hands out again, where the updater's store would check the instance's class first
        // when Unsafe is off. The release store keeps UPDATER.resetRefCnt's ordering (ordered, not fenced).
        REF_CNT.setRelease(this, UPDATER.initialValue());
    }

    /** Frees the memory; called exactly once, by the release that removed the last reference. */
    abstract void deallocate();
}
