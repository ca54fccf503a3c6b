package io.weir.util.collection;

// Twin of LongObjectMap: the int and long versions are kept alike line for line (specialised by hand, no
// template in the build, so neither key is boxed). A change to one belongs in the other.
/**
 * A map from primitive {@code int} keys to non-null values, with no boxing on its API.
 *
 * <p>Implementations are not thread-safe unless they say so.
 *
 * @param <V> the type of the values
 */
public interface IntObjectMap<V> {

    /** The value for {@code key}, or {@code null} when absent. */
    V get(int key);

    /**
     * Maps {@code key} to {@code value}.
     *
     * @return the previous value, or {@code null}
     * @throws NullPointerException if {@code value} is null
     */
    V put(int key, V value);

    /** Removes {@code key}; returns its value, or {@code null} when absent. */
    V remove(int key);

    /** Whether {@code key} is mapped. */
    boolean containsKey(int key);

    /** Whether some key maps to a value equal to {@code value}; linear in the capacity. */
    boolean containsValue(Object value);

    /** The number of mappings. */
    int size();

    /** Whether there are no mappings. */
    boolean isEmpty();

    /** Removes every mapping. */
    void clear();

    /** A new array of the keys, in iteration order. */
    int[] keys();

    /**
     * The mappings, for an indexed-free walk. The iterator may return the same {@link PrimitiveEntry}
     * object each time, valid only until the next call to {@code next()}; its {@code remove()} removes the
     * current mapping. Changing the map other than through the iterator during iteration throws
     * {@link java.util.ConcurrentModificationException} (best effort).
     */
    Iterable<PrimitiveEntry<V>> entries();

    /**
     * One mapping seen during iteration.
     *
     * @param <V> the type of the value
     */
    interface PrimitiveEntry<V> {
        /** The key. */
        int key();

        /** The value. */
        V value();

        /**
         * Replaces the value in the map.
         *
         * @throws NullPointerException if {@code value} is null
         */
        void setValue(V value);
    }
}
