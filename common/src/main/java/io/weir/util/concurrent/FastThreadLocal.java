package io.weir.util.concurrent;

import io.weir.util.platform.LoopLogger;
import java.util.Set;

/**
 * A thread-local variable that is faster than {@link ThreadLocal} when read from a
 * {@link FastThreadLocalThread}: the value lives at a fixed index of an array held in a field of the
 * thread, so {@link #get()} is a field load and an array load instead of a hash lookup.
 *
 * <p>From any other thread it still works, through one JDK {@code ThreadLocal} per thread that holds the
 * same kind of array; that path stays O(1) and its memory dies with the thread, so it is safe to use
 * from millions of virtual threads.
 *
 * <p>Values are removed, and {@link #onRemoval} called, by {@link #remove()}, by {@link #removeAll()}, and
 * automatically when the runnable of a {@link FastThreadLocalThread} returns. All methods act on the
 * calling thread only.
 *
 * @param <V> the type of the value
 */
public class FastThreadLocal<V> {
    private final int index;

    /** Creates a thread-local variable; each instance permanently takes one slot in every thread's map. */
    public FastThreadLocal() {
        index = InternalThreadLocalMap.nextVariableIndex();
    }

    /**
     * Removes every FastThreadLocal value of the calling thread, calling {@link #onRemoval} for each, and
     * drops the thread's map. Call it when a thread that is not a {@link FastThreadLocalThread} (or one
     * whose {@code run()} was overridden) is done with Weir.
     */
    public static void removeAll() {
        InternalThreadLocalMap map = InternalThreadLocalMap.getIfSet();
        if (map == null) {
            return;
        }
        try {
            Set<FastThreadLocal<?>> set = map.variablesToRemove(false);
            if (set != null && !set.isEmpty()) {
                // Copy: remove() edits the set while we walk it.
                FastThreadLocal<?>[] locals = set.toArray(new FastThreadLocal<?>[0]);
                for (FastThreadLocal<?> local : locals) {
                    local.remove(map);
                }
            }
        } finally {
            InternalThreadLocalMap.remove();
        }
    }

    /** Returns the calling thread's value, initialising it with {@link #initialValue()} on first use. */
    @SuppressWarnings("unchecked")
    public final V get() {
        // Kept tiny so it inlines: a FastThreadLocalThread with the value already set never leaves this block.
        if (Thread.currentThread() instanceof FastThreadLocalThread fast) {
            Object[] slots = fast.slots();
            int i = index;
            if (i < slots.length) {
                Object v = slots[i];
                if (v != InternalThreadLocalMap.UNSET) {
                    return (V) v;
                }
            }
        }
        return getSlow();
    }

    @SuppressWarnings("unchecked")
    private V getSlow() {
        InternalThreadLocalMap map = InternalThreadLocalMap.get();
        Object v = map.indexedVariable(index);
        if (v != InternalThreadLocalMap.UNSET) {
            return (V) v;
        }
        return initialize(map);
    }

    /** Returns the calling thread's value, or {@code null} if it has none (never initialises). */
    @SuppressWarnings("unchecked")
    public final V getIfExists() {
        InternalThreadLocalMap map = InternalThreadLocalMap.getIfSet();
        if (map == null) {
            return null;
        }
        Object v = map.indexedVariable(index);
        return v == InternalThreadLocalMap.UNSET ? null : (V) v;
    }

    /** Sets the calling thread's value; {@code null} is a value like any other. */
    public final void set(V value) {
        if (Thread.currentThread() instanceof FastThreadLocalThread fast) {
            Object[] slots = fast.slots();
            int i = index;
            // Overwriting a value that is already set needs no bookkeeping for removeAll().
            if (i < slots.length && slots[i] != InternalThreadLocalMap.UNSET) {
                slots[i] = value;
                return;
            }
        }
        setSlow(value);
    }

    private void setSlow(V value) {
        InternalThreadLocalMap map = InternalThreadLocalMap.get();
        if (map.setIndexedVariable(index, value)) {
            addToVariablesToRemove(map);
        }
    }

    /** Whether the calling thread has a value (set or initialised, and not removed). */
    public final boolean isSet() {
        InternalThreadLocalMap map = InternalThreadLocalMap.getIfSet();
        return map != null && map.indexedVariable(index) != InternalThreadLocalMap.UNSET;
    }

    /** Removes the calling thread's value and calls {@link #onRemoval} with it, if there was one. */
    public final void remove() {
        InternalThreadLocalMap map = InternalThreadLocalMap.getIfSet();
        if (map != null) {
            remove(map);
        }
    }

    @SuppressWarnings("unchecked")
    private void remove(InternalThreadLocalMap map) {
        Object old = map.removeIndexedVariable(index);
        if (old == InternalThreadLocalMap.UNSET) {
            return;
        }
        Set<FastThreadLocal<?>> set = map.variablesToRemove(false);
        if (set != null) {
            set.remove(this);
        }
        try {
            onRemoval((V) old);
        } catch (Exception e) {
            LoopLogger.of(FastThreadLocal.class).log(System.Logger.Level.WARNING, "FastThreadLocal.onRemoval() threw", e);
        }
    }

    private V initialize(InternalThreadLocalMap map) {
        V v;
        try {
            v = initialValue();
        } catch (Exception e) {
            throw new IllegalStateException("FastThreadLocal.initialValue() threw", e);
        }
        if (v == InternalThreadLocalMap.UNSET) {
            throw new IllegalStateException("initialValue() returned an internal sentinel");
        }
        map.setIndexedVariable(index, v);
        addToVariablesToRemove(map);
        return v;
    }

    private void addToVariablesToRemove(InternalThreadLocalMap map) {
        map.variablesToRemove(true).add(this);
    }

    /**
     * The value a thread sees on its first {@link #get()}; {@code null} by default.
     *
     * @throws Exception anything; it is wrapped in an {@link IllegalStateException} thrown from {@code get()}
     */
    protected V initialValue() throws Exception {
        return null;
    }

    /**
     * Called on the owning thread when its value is removed; the place to release what the value holds.
     *
     * @throws Exception anything; it is logged and otherwise ignored
     */
    protected void onRemoval(V value) throws Exception {
    }
}
