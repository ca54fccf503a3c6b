package io.weir.util.concurrent;

/**
 * A thread whose {@link FastThreadLocal} values live in a field, for the fast path. Weir's event loops
 * run on these (see {@link DefaultThreadFactory}).
 *
 * <p>When it was given a {@link Runnable}, the thread removes all of its FastThreadLocal values (calling
 * {@code onRemoval}) once that runnable returns or throws. A subclass that overrides {@link #run()} gets
 * no such clean-up and should call {@link FastThreadLocal#removeAll()} itself; {@link #willCleanupFastThreadLocals()}
 * tells which case applies.
 */
public class FastThreadLocalThread extends Thread {
    private final boolean cleanupFastThreadLocals;
    // Only read and written by this thread itself (InternalThreadLocalMap is thread-confined).
    private InternalThreadLocalMap threadLocalMap;
    // The map's current slot array (see InternalThreadLocalMap), read by FastThreadLocal's fast path.
    private Object[] slots = InternalThreadLocalMap.NO_SLOTS;

    /** A thread with no runnable; override {@link #run()}. */
    public FastThreadLocalThread() {
        cleanupFastThreadLocals = false;
    }

    /** A thread running {@code target}, cleaning up its FastThreadLocals afterwards. */
    public FastThreadLocalThread(Runnable target) {
        super(wrap(target));
        cleanupFastThreadLocals = true;
    }

    /** A named thread running {@code target}, cleaning up its FastThreadLocals afterwards. */
    public FastThreadLocalThread(Runnable target, String name) {
        super(wrap(target), name);
        cleanupFastThreadLocals = true;
    }

    /** A named thread in {@code group} running {@code target}, cleaning up its FastThreadLocals afterwards. */
    public FastThreadLocalThread(ThreadGroup group, Runnable target, String name) {
        super(group, wrap(target), name);
        cleanupFastThreadLocals = true;
    }

    /** A named thread with a stack size hint, cleaning up its FastThreadLocals afterwards. */
    public FastThreadLocalThread(ThreadGroup group, Runnable target, String name, long stackSize) {
        super(group, wrap(target), name, stackSize);
        cleanupFastThreadLocals = true;
    }

    /** Whether this thread removes its FastThreadLocal values when its runnable ends. */
    public boolean willCleanupFastThreadLocals() {
        return cleanupFastThreadLocals;
    }

    final InternalThreadLocalMap threadLocalMap() {
        return threadLocalMap;
    }

    final void setThreadLocalMap(InternalThreadLocalMap map) {
        threadLocalMap = map;
    }

    final Object[] slots() {
        return slots;
    }

    final void setSlots(Object[] slots) {
        this.slots = slots == null ? InternalThreadLocalMap.NO_SLOTS : slots;
    }

    private static Runnable wrap(Runnable target) {
        if (target == null) {
            throw new NullPointerException("target");
        }
        return () -> {
            try {
                target.run();
            } finally {
                FastThreadLocal.removeAll();
            }
        };
    }
}
