package io.weir.handler.codec.http2.internal;

import java.util.Arrays;

/**
 * Priority signals (RFC 9218 §7.1 PRIORITY_UPDATE) received for streams the client has not opened yet, kept until
 * their HEADERS arrive. Bounded: RFC 9218 §7.1 lets prioritized idle streams plus active streams reach
 * SETTINGS_MAX_CONCURRENT_STREAMS and no more (the caller passes what is left), and never more than
 * {@link #MAX_ENTRIES} whatever that setting says. Only used from the connection's event loop.
 */
final class Http2IdleStreamPriorities {

    /** The most signals kept for idle streams whatever SETTINGS_MAX_CONCURRENT_STREAMS allows. */
    static final int MAX_ENTRIES = 1024;
    private static final int INITIAL_CAPACITY = 4;

    private int[] ids;
    private int[] priorities;
    private int size;

    /** Signals waiting for their stream. */
    int size() {
        return size;
    }

    /**
     * Records (or replaces) the signal for idle stream {@code id}.
     *
     * @param room how many idle streams may be prioritized, this one included (RFC 9218 §7.1)
     * @return false when a new entry would exceed {@code room}; nothing is recorded then
     */
    boolean put(int id, int packed, long room) {
        for (int i = 0; i < size; i++) {
            if (ids[i] == id) {
                priorities[i] = packed;
                return true;
            }
        }
        if (size >= room) {
            return false;
        }
        if (size >= MAX_ENTRIES) {
            return true; // a priority is a hint: beyond our own cap it is dropped, not an error
        }
        if (ids == null) {
            ids = new int[INITIAL_CAPACITY];
            priorities = new int[INITIAL_CAPACITY];
        } else if (size == ids.length) {
            int capacity = Math.min(MAX_ENTRIES, size * 2);
            ids = Arrays.copyOf(ids, capacity);
            priorities = Arrays.copyOf(priorities, capacity);
        }
        ids[size] = id;
        priorities[size] = packed;
        size++;
        return true;
    }

    /**
     * Stream {@code id} opened: returns its signal (-1 when none) and forgets it, together with the signals of lower
     * ids, which its opening closed (RFC 9113 §5.1.1).
     */
    int opened(int id) {
        int found = -1;
        int kept = 0;
        for (int i = 0; i < size; i++) {
            if (ids[i] == id) {
                found = priorities[i];
            } else if (ids[i] > id) {
                ids[kept] = ids[i];
                priorities[kept] = priorities[i];
                kept++;
            }
        }
        size = kept;
        return found;
    }
}
