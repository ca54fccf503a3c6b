package io.weir.channel.nio;

import java.nio.channels.SelectionKey;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The selected-key set a {@link NioIoHandler} puts into the JDK's selector in place of its {@code HashSet}:
 * the selector appends ready keys to an array, which the handler walks by index and then clears, with no
 * hashing, no iterator and no node allocation.
 *
 * <p>Only the selector (during a select) and the handler touch it, both on the event loop. It is a set only
 * as far as the selector needs: {@link #contains} answers {@code false}, so a key selected twice before the
 * set is cleared appears twice. The handler clears the set after every processing pass and before any other
 * select, so that never happens.
 */
final class SelectedKeyArraySet extends AbstractSet<SelectionKey> {
    private static final int INITIAL_CAPACITY = 1024;

    SelectionKey[] keys = new SelectionKey[INITIAL_CAPACITY];
    int size;

    @Override
    public boolean add(SelectionKey key) {
        if (key == null) {
            return false;
        }
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size << 1);
        }
        keys[size++] = key;
        return true;
    }

    @Override
    public boolean remove(Object o) {
        return false;
    }

    @Override
    public boolean contains(Object o) {
        return false;
    }

    @Override
    public int size() {
        return size;
    }

    /** Empties the set, dropping the references so closed channels can be collected. */
    @Override
    public void clear() {
        Arrays.fill(keys, 0, size, null);
        size = 0;
    }

    @Override
    public Iterator<SelectionKey> iterator() {
        return new Iterator<>() {
            private int index;

            @Override
            public boolean hasNext() {
                return index < size;
            }

            @Override
            public SelectionKey next() {
                if (index >= size) {
                    throw new NoSuchElementException();
                }
                return keys[index++];
            }
        };
    }
}
