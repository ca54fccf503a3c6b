package io.weir.util.concurrent;

import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The per-thread array that backs every {@link FastThreadLocal}: each FastThreadLocal owns one index for
 * the life of the JVM, and a thread's value for it is the array element at that index.
 *
 * <p>Only ever touched by its own thread, so nothing here is synchronised. A {@link FastThreadLocalThread}
 * holds its map in a field, and also the map's current slot array, so that {@link FastThreadLocal#get()}
 * reaches a value in two dependent loads (thread, array) instead of three; any other thread (platform or virtual) holds it in one JDK {@link ThreadLocal},
 * so the map dies with its thread and nothing global grows with the number of threads.
 *
 * <pre>
 * slots: [ 0: Set&lt;FastThreadLocal&gt; set in this thread | 1..n: values, UNSET where never set ]
 * </pre>
 */
final class InternalThreadLocalMap {
    /** Marks a slot that holds no value; never handed to users. */
    static final Object UNSET = new Object();
    /** Slot 0 holds the set of FastThreadLocals that have a value in this thread, for {@code removeAll}. */
    static final int VARIABLES_TO_REMOVE_INDEX = 0;
    /** A FastThreadLocalThread's slots before it has a map: empty, so the fast path needs no null check. */
    static final Object[] NO_SLOTS = {};

    private static final int INITIAL_CAPACITY = 32;
    /** Largest index handed out; arrays must stay below {@code Integer.MAX_VALUE - 8} elements. */
    private static final int MAX_INDEX = Integer.MAX_VALUE - 16;

    private static final ThreadLocal<InternalThreadLocalMap> SLOW = new ThreadLocal<>();
    private static final AtomicInteger NEXT_INDEX = new AtomicInteger(VARIABLES_TO_REMOVE_INDEX + 1);

    /** The FastThreadLocalThread whose {@code slots} field mirrors ours, or {@code null} on the slow path. */
    private final FastThreadLocalThread owner;
    private Object[] slots;

    private InternalThreadLocalMap(FastThreadLocalThread owner) {
        this.owner = owner;
        slots = newSlots(INITIAL_CAPACITY);
        if (owner != null) {
            owner.setSlots(slots);
        }
    }

    /** The current thread's map, created on first use. */
    static InternalThreadLocalMap get() {
        Thread thread = Thread.currentThread();
        if (thread instanceof FastThreadLocalThread fast) {
            InternalThreadLocalMap map = fast.threadLocalMap();
            if (map == null) {
                map = new InternalThreadLocalMap(fast);
                fast.setThreadLocalMap(map);
            }
            return map;
        }
        return slowGet();
    }

    /** The current thread's map, or {@code null} if it has none yet. */
    static InternalThreadLocalMap getIfSet() {
        Thread thread = Thread.currentThread();
        if (thread instanceof FastThreadLocalThread fast) {
            return fast.threadLocalMap();
        }
        return SLOW.get();
    }

    /** Drops the current thread's map, values and all (callers run {@code onRemoval} first). */
    static void remove() {
        Thread thread = Thread.currentThread();
        if (thread instanceof FastThreadLocalThread fast) {
            fast.setThreadLocalMap(null);
            fast.setSlots(null);
        } else {
            SLOW.remove();
        }
    }

    private static InternalThreadLocalMap slowGet() {
        InternalThreadLocalMap map = SLOW.get();
        if (map == null) {
            map = new InternalThreadLocalMap(null);
            SLOW.set(map);
        }
        return map;
    }

    /** Allocates the index of a new FastThreadLocal. */
    static int nextVariableIndex() {
        int index = NEXT_INDEX.getAndIncrement();
        if (index >= MAX_INDEX || index < 0) {
            NEXT_INDEX.set(MAX_INDEX);
            throw new IllegalStateException("too many FastThreadLocal instances: " + index);
        }
        return index;
    }

    /** The value at {@code index}, or {@link #UNSET}. */
    Object indexedVariable(int index) {
        Object[] s = slots;
        return index < s.length ? s[index] : UNSET;
    }

    /** Stores {@code value}; returns {@code true} if the slot was {@link #UNSET} before. */
    boolean setIndexedVariable(int index, Object value) {
        Object[] s = slots;
        if (index < s.length) {
            Object old = s[index];
            s[index] = value;
            return old == UNSET;
        }
        grow(index);
        slots[index] = value;
        return true;
    }

    /** Clears the slot and returns what it held ({@link #UNSET} if nothing). */
    Object removeIndexedVariable(int index) {
        Object[] s = slots;
        if (index < s.length) {
            Object old = s[index];
            s[index] = UNSET;
            return old;
        }
        return UNSET;
    }

    /** The set of FastThreadLocals that hold a value in this thread, created on first use. */
    @SuppressWarnings("unchecked")
    Set<FastThreadLocal<?>> variablesToRemove(boolean create) {
        Object v = indexedVariable(VARIABLES_TO_REMOVE_INDEX);
        if (v != UNSET && v != null) {
            return (Set<FastThreadLocal<?>>) v;
        }
        if (!create) {
            return null;
        }
        Set<FastThreadLocal<?>> set = Collections.newSetFromMap(new IdentityHashMap<>());
        setIndexedVariable(VARIABLES_TO_REMOVE_INDEX, set);
        return set;
    }

    private void grow(int index) {
        Object[] old = slots;
        // Next power of two above index, so a thread touching index i allocates O(i) once.
        int newCapacity = Integer.highestOneBit(index) << 1;
        if (newCapacity <= 0 || newCapacity > MAX_INDEX) {
            newCapacity = MAX_INDEX;
        }
        Object[] grown = Arrays.copyOf(old, newCapacity);
        Arrays.fill(grown, old.length, grown.length, UNSET);
        slots = grown;
        if (owner != null) {
            owner.setSlots(grown);
        }
    }

    private static Object[] newSlots(int capacity) {
        Object[] s = new Object[capacity];
        Arrays.fill(s, UNSET);
        return s;
    }
}
