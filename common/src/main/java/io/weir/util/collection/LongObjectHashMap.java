package io.weir.util.collection;

import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;

// Twin of IntObjectHashMap: the int and long versions are kept alike line for line (specialised by hand, no
// template in the build, so neither key is boxed). A change to one belongs in the other.
/**
 * An {@link LongObjectMap} with open addressing and linear probing over two parallel arrays, for maps keyed
 * by connection ids, timestamps and the like. Not thread-safe.
 *
 * <p>The capacity is a power of two; the table doubles when the size would exceed
 * {@code capacity * loadFactor} (and never fills completely, so a probe always ends at an empty slot).
 * Removal shifts the following entries of the probe run back instead of leaving tombstones, so lookups stay
 * short however many removals happen. A {@code null} value marks an empty slot, which is why null values
 * are refused; any {@code long}, 0 included, is a valid key.
 *
 * @param <V> the type of the values
 */
public final class LongObjectHashMap<V> implements LongObjectMap<V> {
    /** Slots of a map made by the no-argument constructor. */
    public static final int DEFAULT_CAPACITY = 8;
    /** The load factor of a map made without one. */
    public static final float DEFAULT_LOAD_FACTOR = 0.5f;
    /** The largest number of slots. */
    public static final int MAX_CAPACITY = 1 << 30;

    private final float loadFactor;
    private long[] keys;
    private V[] values;
    private int mask;
    private int maxSize;
    private int size;
    private int modCount;

    /** An empty map with {@value #DEFAULT_CAPACITY} slots and load factor {@value #DEFAULT_LOAD_FACTOR}. */
    public LongObjectHashMap() {
        this(DEFAULT_CAPACITY, DEFAULT_LOAD_FACTOR);
    }

    /**
     * An empty map with room for {@code initialCapacity} slots (rounded up to a power of two).
     *
     * @throws IllegalArgumentException if {@code initialCapacity} is not in {@code [1, MAX_CAPACITY]}
     */
    public LongObjectHashMap(int initialCapacity) {
        this(initialCapacity, DEFAULT_LOAD_FACTOR);
    }

    /**
     * An empty map with {@code initialCapacity} slots (rounded up to a power of two) and the given load factor.
     *
     * @throws IllegalArgumentException if {@code initialCapacity} is not in {@code [1, MAX_CAPACITY]} or
     *         {@code loadFactor} is not in {@code (0, 1]}
     */
    public LongObjectHashMap(int initialCapacity, float loadFactor) {
        if (initialCapacity < 1 || initialCapacity > MAX_CAPACITY) {
            throw new IllegalArgumentException("initialCapacity: " + initialCapacity
                    + " (expected: 1.." + MAX_CAPACITY + ")");
        }
        if (!(loadFactor > 0 && loadFactor <= 1)) {
            throw new IllegalArgumentException("loadFactor: " + loadFactor + " (expected: 0 < loadFactor <= 1)");
        }
        this.loadFactor = loadFactor;
        allocate(Math.max(2, ceilingPowerOfTwo(initialCapacity)));
    }

    private static int ceilingPowerOfTwo(int value) {
        return value <= 1 ? 1 : Integer.highestOneBit(value - 1) << 1;
    }

    @SuppressWarnings("unchecked")
    private void allocate(int capacity) {
        keys = new long[capacity];
        values = (V[]) new Object[capacity];
        mask = capacity - 1;
        // One slot always stays empty so that every probe sequence terminates.
        maxSize = Math.min(capacity - 1, (int) (capacity * loadFactor));
    }

    /** Spreads the key's bits (Fibonacci hashing) so that sequential ids do not form one long run. */
    private int slot(long key) {
        int h = (int) (key ^ (key >>> 32)) * 0x9E3779B9;
        return (h ^ (h >>> 16)) & mask;
    }

    private int indexOf(long key) {
        long[] k = keys;
        V[] v = values;
        for (int i = slot(key);; i = (i + 1) & mask) {
            if (v[i] == null) {
                return -1;
            }
            if (k[i] == key) {
                return i;
            }
        }
    }

    @Override
    public V get(long key) {
        int index = indexOf(key);
        return index < 0 ? null : values[index];
    }

    @Override
    public boolean containsKey(long key) {
        return indexOf(key) >= 0;
    }

    @Override
    public V put(long key, V value) {
        Objects.requireNonNull(value, "value");
        long[] k = keys;
        V[] v = values;
        for (int i = slot(key);; i = (i + 1) & mask) {
            V old = v[i];
            if (old == null) {
                k[i] = key;
                v[i] = value;
                modCount++;
                if (++size > maxSize) {
                    grow();
                }
                return null;
            }
            if (k[i] == key) {
                v[i] = value;
                return old;
            }
        }
    }

    private void grow() {
        int capacity = keys.length;
        if (capacity >= MAX_CAPACITY) {
            if (size == capacity) {
                throw new IllegalStateException("map is full: " + size + " entries");
            }
            // At the largest table the load factor gives way; one empty slot is all probing needs.
            maxSize = capacity - 1;
            if (size > maxSize) {
                throw new IllegalStateException("map is full: " + size + " entries");
            }
            return;
        }
        long[] oldKeys = keys;
        V[] oldValues = values;
        allocate(capacity << 1);
        for (int j = 0; j < oldValues.length; j++) {
            V value = oldValues[j];
            if (value != null) {
                long key = oldKeys[j];
                int i = slot(key);
                while (values[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = key;
                values[i] = value;
            }
        }
    }

    @Override
    public V remove(long key) {
        int index = indexOf(key);
        if (index < 0) {
            return null;
        }
        V old = values[index];
        removeAt(index);
        return old;
    }

    /**
     * Empties slot {@code hole} and shifts later entries of its probe run back into it (backward-shift
     * deletion). An entry at slot {@code j} whose home slot is {@code h} may move to the hole only if the
     * hole lies cyclically within {@code [h, j)}, otherwise a lookup starting at {@code h} would stop at an
     * empty slot before reaching it. Entries only ever move backwards within their run.
     */
    private void removeAt(int hole) {
        long[] k = keys;
        V[] v = values;
        int m = mask;
        for (int j = (hole + 1) & m; v[j] != null; j = (j + 1) & m) {
            int home = slot(k[j]);
            // Cyclic distance from home to j versus from home to the hole: movable if the hole is closer.
            if (((j - home) & m) >= ((hole - home) & m)) {
                k[hole] = k[j];
                v[hole] = v[j];
                hole = j;
            }
        }
        k[hole] = 0;
        v[hole] = null;
        size--;
        modCount++;
    }

    @Override
    public boolean containsValue(Object value) {
        if (value == null) {
            return false;
        }
        for (V v : values) {
            if (v != null && v.equals(value)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean isEmpty() {
        return size == 0;
    }

    @Override
    public void clear() {
        java.util.Arrays.fill(keys, 0);
        java.util.Arrays.fill(values, null);
        size = 0;
        modCount++;
    }

    @Override
    public long[] keys() {
        long[] result = new long[size];
        int n = 0;
        for (int i = 0; i < values.length; i++) {
            if (values[i] != null) {
                result[n++] = keys[i];
            }
        }
        return result;
    }

    @Override
    public Iterable<PrimitiveEntry<V>> entries() {
        return EntryIterator::new;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(size * 8 + 2).append('{');
        for (int i = 0; i < values.length; i++) {
            if (values[i] != null) {
                if (sb.length() > 1) {
                    sb.append(", ");
                }
                sb.append(keys[i]).append('=').append(values[i] == this ? "(this map)" : values[i]);
            }
        }
        return sb.append('}').toString();
    }

    /**
     * Walks the slots cyclically starting just after an empty slot. That slot stays empty while only the
     * iterator removes, so no probe run crosses the starting point and backward shifts only move entries
     * from slots not yet visited to slots not yet visited or to the current one, which is then revisited:
     * every entry is seen exactly once even when removals shift entries around the end of the array.
     */
    private final class EntryIterator implements Iterator<PrimitiveEntry<V>>, PrimitiveEntry<V> {
        private final int start;
        private int expectedModCount = modCount;
        /** Slots visited so far, counted from {@code start}. */
        private int visited;
        private int current = -1;
        private int next = -1;

        EntryIterator() {
            int s = 0;
            while (values[s] != null) {
                s++;
            }
            start = s;
        }

        @Override
        public boolean hasNext() {
            checkModCount();
            if (next >= 0) {
                return true;
            }
            V[] v = values;
            int m = mask;
            while (visited < v.length) {
                int i = (start + 1 + visited) & m;
                visited++;
                if (v[i] != null) {
                    next = i;
                    return true;
                }
            }
            return false;
        }

        @Override
        public PrimitiveEntry<V> next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            current = next;
            next = -1;
            return this;
        }

        @Override
        public void remove() {
            if (current < 0) {
                throw new IllegalStateException("next() not called, or remove() already called");
            }
            checkModCount();
            removeAt(current);
            expectedModCount = modCount;
            // Resume the scan right after the current slot: a hasNext() since next() may have looked ahead at a
            // slot that the shift has just changed.
            next = -1;
            visited = ((current - start - 1) & mask) + 1;
            if (values[current] != null) {
                // An entry from further on was shifted into the current slot: it has not been seen yet.
                visited--;
            }
            current = -1;
        }

        @Override
        public long key() {
            checkCurrent();
            return keys[current];
        }

        @Override
        public V value() {
            checkCurrent();
            return values[current];
        }

        @Override
        public void setValue(V value) {
            Objects.requireNonNull(value, "value");
            checkCurrent();
            values[current] = value;
        }

        private void checkCurrent() {
            if (current < 0) {
                throw new IllegalStateException("no current entry");
            }
            checkModCount();
        }

        private void checkModCount() {
            if (modCount != expectedModCount) {
                throw new ConcurrentModificationException();
            }
        }
    }
}
