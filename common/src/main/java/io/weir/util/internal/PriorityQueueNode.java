package io.weir.util.internal;

/**
 * An element of a {@link DefaultPriorityQueue} that remembers its own position in the queue's heap array,
 * so that the queue can find and remove it in O(log n) without searching.
 *
 * <p>A node belongs to at most one queue at a time. Only the queue writes the index; everyone else only
 * reads it, on the thread that owns the queue.
 */
public interface PriorityQueueNode {
    /** The index of a node that is in no queue. */
    int INDEX_NOT_IN_QUEUE = -1;

    /** This node's position in its queue's heap, or {@link #INDEX_NOT_IN_QUEUE}. */
    int priorityQueueIndex();

    /** Called only by {@link DefaultPriorityQueue} when this node moves, enters or leaves the queue. */
    void priorityQueueIndex(int index);
}
