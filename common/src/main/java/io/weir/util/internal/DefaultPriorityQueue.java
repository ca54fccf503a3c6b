package io.weir.util.internal;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Objects;

/**
 * A binary min-heap of {@link PriorityQueueNode}s in which every node knows its own index, so
 * {@link #remove(PriorityQueueNode)} and {@link #priorityChanged(PriorityQueueNode)} cost O(log n) instead
 * of a linear search. Not thread-safe: confine each queue to one thread (an executor's scheduled tasks live
 * in one, touched only by the executor thread).
 *
 * <p>Ties are broken by the comparator; the heap itself gives no FIFO order among equal elements.
 *
 * @param <T> the node type
 */
public final class DefaultPriorityQueue<T extends PriorityQueueNode> {
    private static final PriorityQueueNode[] EMPTY = new PriorityQueueNode[0];
    private static final int DEFAULT_INITIAL_CAPACITY = 16;

    private final Comparator<? super T> comparator;
    private PriorityQueueNode[] heap;
    private int size;

    /**
     * An empty queue ordered by {@code comparator}.
     *
     * @throws IllegalArgumentException if {@code initialCapacity} is negative
     */
    public DefaultPriorityQueue(Comparator<? super T> comparator, int initialCapacity) {
        this.comparator = Objects.requireNonNull(comparator, "comparator");
        if (initialCapacity < 0) {
            throw new IllegalArgumentException("initialCapacity: " + initialCapacity + " (expected: >= 0)");
        }
        heap = initialCapacity == 0 ? EMPTY : new PriorityQueueNode[initialCapacity];
    }

    /** An empty queue ordered by {@code comparator} with room for a few elements. */
    public DefaultPriorityQueue(Comparator<? super T> comparator) {
        this(comparator, DEFAULT_INITIAL_CAPACITY);
    }

    /** How many nodes are in the queue. */
    public int size() {
        return size;
    }

    /** Whether the queue holds no node. */
    public boolean isEmpty() {
        return size == 0;
    }

    /** The smallest element, or {@code null} when empty. */
    @SuppressWarnings("unchecked")
    public T peek() {
        return size == 0 ? null : (T) heap[0];
    }

    /**
     * Adds {@code node}.
     *
     * @throws IllegalArgumentException if {@code node} is already in a queue (its index is set)
     */
    public void add(T node) {
        // Kept small, with the rare paths out of line: schedule() inlines it, and C2 stops inlining into
        // methods whose compiled code has grown big (then every scheduled task pays G1's full store barriers).
        int index = node.priorityQueueIndex();
        if (index != PriorityQueueNode.INDEX_NOT_IN_QUEUE) {
            throw alreadyQueued(index, node);
        }
        int s = size;
        if (s == heap.length) {
            grow();
        }
        size = s + 1;
        siftUp(s, node);
    }

    private static IllegalArgumentException alreadyQueued(int index, Object node) {
        return new IllegalArgumentException("node is already in a queue at index " + index + ": " + node);
    }

    private void grow() {
        // Grow by half, like ArrayList; double while small so the first few adds do not copy often.
        int length = heap.length;
        heap = Arrays.copyOf(heap, length < 64 ? length * 2 + 2 : length + (length >>> 1));
    }

    /** Removes and returns the smallest element, or {@code null} when empty. */
    @SuppressWarnings("unchecked")
    public T poll() {
        if (size == 0) {
            return null;
        }
        T result = (T) heap[0];
        result.priorityQueueIndex(PriorityQueueNode.INDEX_NOT_IN_QUEUE);
        T last = (T) heap[--size];
        heap[size] = null;
        if (size != 0) {
            siftDown(0, last);
        }
        return result;
    }

    /** Whether {@code node} is in this queue (O(1)). */
    public boolean contains(T node) {
        int index = node.priorityQueueIndex();
        return index >= 0 && index < size && heap[index] == node;
    }

    /** Removes {@code node} if it is in this queue, in O(log n); returns whether it was. */
    @SuppressWarnings("unchecked")
    public boolean remove(T node) {
        int index = node.priorityQueueIndex();
        // The identity check keeps a node that sits in another queue (or a stale index) from removing a stranger.
        if (index < 0 || index >= size || heap[index] != node) {
            return false;
        }
        node.priorityQueueIndex(PriorityQueueNode.INDEX_NOT_IN_QUEUE);
        T last = (T) heap[--size];
        heap[size] = null;
        if (index == size) {
            return true;
        }
        // The hole is refilled by the last element, which may belong above or below it.
        heap[index] = last;
        last.priorityQueueIndex(index);
        if (index > 0 && comparator.compare(last, (T) heap[(index - 1) >>> 1]) < 0) {
            siftUp(index, last);
        } else {
            siftDown(index, last);
        }
        return true;
    }

    /** Restores the heap order after {@code node}'s priority changed while it is in this queue. */
    @SuppressWarnings("unchecked")
    public void priorityChanged(T node) {
        if (!contains(node)) {
            return;
        }
        int index = node.priorityQueueIndex();
        if (index > 0 && comparator.compare(node, (T) heap[(index - 1) >>> 1]) < 0) {
            siftUp(index, node);
        } else {
            siftDown(index, node);
        }
    }

    /** Removes every element, resetting each one's index so it may join a queue again. */
    public void clear() {
        for (int i = 0; i < size; i++) {
            heap[i].priorityQueueIndex(PriorityQueueNode.INDEX_NOT_IN_QUEUE);
            heap[i] = null;
        }
        size = 0;
    }

    @SuppressWarnings("unchecked")
    private void siftUp(int index, T node) {
        while (index > 0) {
            int parentIndex = (index - 1) >>> 1;
            T parent = (T) heap[parentIndex];
            if (comparator.compare(node, parent) >= 0) {
                break;
            }
            heap[index] = parent;
            parent.priorityQueueIndex(index);
            index = parentIndex;
        }
        heap[index] = node;
        node.priorityQueueIndex(index);
    }

    @SuppressWarnings("unchecked")
    private void siftDown(int index, T node) {
        int half = size >>> 1;
        while (index < half) {
            int childIndex = (index << 1) + 1;
            T child = (T) heap[childIndex];
            int rightIndex = childIndex + 1;
            if (rightIndex < size && comparator.compare((T) heap[rightIndex], child) < 0) {
                childIndex = rightIndex;
                child = (T) heap[rightIndex];
            }
            if (comparator.compare(node, child) <= 0) {
                break;
            }
            heap[index] = child;
            child.priorityQueueIndex(index);
            index = childIndex;
        }
        heap[index] = node;
        node.priorityQueueIndex(index);
    }

    @Override
    public String toString() {
        return "DefaultPriorityQueue(size: " + size + ')';
    }
}
