package io.weir.util;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * A {@link ReferenceCounted} base class: the count lives in one {@code int} field driven by
 * {@link ReferenceCountUpdater}, and {@link #deallocate()} runs exactly once, on the thread whose release
 * removed the last reference.
 *
 * <p>Thread-safe as far as the count goes; {@link #deallocate()} needs no synchronisation of its own, since
 * no other owner remains when it runs.
 */
public abstract class AbstractReferenceCounted implements ReferenceCounted {
    private static final ReferenceCountUpdater<AbstractReferenceCounted> UPDATER =
            new ReferenceCountUpdater<>(AbstractReferenceCounted.class, "refCnt",
                    AtomicIntegerFieldUpdater.newUpdater(AbstractReferenceCounted.class, "refCnt")) { };

    // Raw encoding, see ReferenceCountUpdater: twice the count while live, odd once freed.
    @SuppressWarnings("unused")
    private volatile int refCnt = UPDATER.initialValue();

    /** Creates an object with a reference count of 1. */
    protected AbstractReferenceCounted() {
    }

    @Override
    public int refCnt() {
        return UPDATER.refCnt(this);
    }

    /**
     * Sets the count outright; only for an object that no other thread can see (a pooled object being reused).
     *
     * @throws IllegalArgumentException if {@code refCnt} exceeds {@link ReferenceCountUpdater#MAX_REF_CNT}
     */
    protected final void setRefCnt(int refCnt) {
        UPDATER.setRefCnt(this, refCnt);
    }

    @Override
    public ReferenceCounted retain() {
        return UPDATER.retain(this);
    }

    @Override
    public ReferenceCounted retain(int increment) {
        return UPDATER.retain(this, increment);
    }

    @Override
    public ReferenceCounted touch() {
        return touch(null);
    }

    /** Does nothing by default; subclasses that are leak-tracked record the access. */
    @Override
    public ReferenceCounted touch(Object hint) {
        return this;
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

    /** Frees the resource; called exactly once, by the release that removed the last reference. */
    protected abstract void deallocate();
}
