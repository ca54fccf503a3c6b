package io.weir.handler.codec;

import io.weir.util.concurrent.FastThreadLocal;
import java.util.AbstractList;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * The list a decoder or encoder fills with the messages one call produced, taken from a small per-thread pool
 * and given back with {@link #recycle()} once its messages have been passed on, so the steady-state read path
 * allocates no list.
 *
 * <p>Each thread keeps up to {@value #POOL_SIZE} lists in a {@link FastThreadLocal}; taking one when all are in
 * use (codecs nested deeper than that) creates a fresh list that recycling then drops. {@code null} elements are
 * refused, so a codec bug surfaces at the {@code add} that caused it.
 *
 * <p><b>Threads.</b> Not thread-safe: a list is taken, filled, drained and recycled on one thread, and must not
 * be used after {@link #recycle()}. Messages in the list are owned by whoever holds the list; recycling drops
 * the references without releasing anything.
 */
public final class CodecOutputList extends AbstractList<Object> implements RandomAccess {
    /** Lists kept per thread; a decoder nested in a decoder takes two, so 16 covers any real pipeline. */
    static final int POOL_SIZE = 16;
    /** The capacity of a new list; most decode calls produce one message, a burst a few. */
    static final int INITIAL_CAPACITY = 16;

    private static final FastThreadLocal<Pool> POOLS = new FastThreadLocal<>() {
        @Override
        protected Pool initialValue() {
            return new Pool();
        }
    };

    /** A stack of idle lists; LIFO so the list taken next is the one still warm in the cache. */
    private static final class Pool {
        private final CodecOutputList[] idle = new CodecOutputList[POOL_SIZE];
        private int count;

        Pool() {
            for (int i = 0; i < POOL_SIZE; i++) {
                idle[i] = new CodecOutputList(this);
            }
            count = POOL_SIZE;
        }

        CodecOutputList take() {
            int c = count;
            if (c == 0) {
                return new CodecOutputList(null);
            }
            count = --c;
            CodecOutputList list = idle[c];
            idle[c] = null;
            return list;
        }

        void giveBack(CodecOutputList list) {
            // Only lists born in this pool come back, and at most POOL_SIZE of them exist, so count stays in range.
            idle[count++] = list;
        }
    }

    private final Pool pool;
    private Object[] array;
    private int size;
    private boolean insertSinceRecycled;

    private CodecOutputList(Pool pool) {
        this.pool = pool;
        this.array = new Object[INITIAL_CAPACITY];
    }

    /** Takes an empty list from the calling thread's pool (or creates one if the pool is empty). */
    public static CodecOutputList newInstance() {
        return POOLS.get().take();
    }

    /**
     * Empties the list and gives it back to the pool of the thread that created it; the list must not be used
     * afterwards. Must be called on the thread that took the list. Elements are dropped, not released.
     */
    public void recycle() {
        clear();
        insertSinceRecycled = false;
        Pool p = pool;
        if (p != null) {
            p.giveBack(this);
        }
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean isEmpty() {
        return size == 0;
    }

    /** Whether anything was added since the list was taken, even if it has been cleared since. */
    public boolean insertSinceRecycled() {
        return insertSinceRecycled;
    }

    @Override
    public Object get(int index) {
        Objects.checkIndex(index, size);
        return array[index];
    }

    /** The element at {@code index} without a range check; for loops bounded by {@link #size()}. */
    Object getUnsafe(int index) {
        return array[index];
    }

    @Override
    public boolean add(Object element) {
        Objects.requireNonNull(element, "element");
        int s = size;
        Object[] a = array;
        if (s == a.length) {
            a = grow();
        }
        // s < a.length now, so the store needs no further check.
        a[s] = element;
        size = s + 1;
        insertSinceRecycled = true;
        return true;
    }

    @Override
    public void add(int index, Object element) {
        Objects.requireNonNull(element, "element");
        Objects.checkIndex(index, size + 1);
        if (size == array.length) {
            grow();
        }
        if (index != size) {
            System.arraycopy(array, index, array, index + 1, size - index);
        }
        array[index] = element;
        size++;
        insertSinceRecycled = true;
    }

    @Override
    public Object set(int index, Object element) {
        Objects.requireNonNull(element, "element");
        Objects.checkIndex(index, size);
        Object old = array[index];
        array[index] = element;
        insertSinceRecycled = true;
        return old;
    }

    @Override
    public Object remove(int index) {
        Objects.checkIndex(index, size);
        Object old = array[index];
        int moved = size - index - 1;
        if (moved > 0) {
            System.arraycopy(array, index + 1, array, index, moved);
        }
        array[--size] = null;
        return old;
    }

    @Override
    public void clear() {
        Object[] a = array;
        int s = size;
        // Drop the references so recycled lists pin no garbage; only the used prefix can be non-null.
        for (int i = 0; i < s; i++) {
            a[i] = null;
        }
        size = 0;
    }

    /** The current capacity; for tests. */
    int capacity() {
        return array.length;
    }

    private Object[] grow() {
        Object[] old = array;
        int newCapacity = old.length << 1;
        if (newCapacity < 0) {
            throw new OutOfMemoryError("CodecOutputList cannot hold more than " + old.length + " elements");
        }
        Object[] a = new Object[newCapacity];
        System.arraycopy(old, 0, a, 0, old.length);
        array = a;
        return a;
    }
}
