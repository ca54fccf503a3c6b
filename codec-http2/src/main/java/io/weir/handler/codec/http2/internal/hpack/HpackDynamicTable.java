package io.weir.handler.codec.http2.internal.hpack;

import io.weir.util.AsciiString;
import java.util.Arrays;

/**
 * The dynamic table of RFC 7541 §2.3.2 and §4: a FIFO of fields, newest at index 1, sized in bytes as
 * {@code name + value + 32} per entry (§4.1), evicting the oldest entries to make room (§4.4) or when its capacity
 * shrinks (§4.3). Not thread-safe: one per connection direction, used from the connection's event loop.
 *
 * <p>Entries live in a ring of arrays addressed by an absolute insertion number {@code id}: slot {@code id & mask},
 * the oldest live id is {@code tail}, the next one to be written is {@code head}. HPACK index {@code i} (1 is the
 * newest) is id {@code head - i}. The ring grows by doubling up to {@code capacity / 32} slots, the most entries the
 * table can hold, so a large advertised size costs nothing until it is used.
 *
 * <p>An encoder's table also keeps a hash index by name: {@code buckets[hash & mask]} holds the id of the newest
 * entry with a name in that bucket, and each entry the id of the next older one ({@code chain}). Chains run from
 * newer to older ids, so an id below {@code tail} ends a chain: eviction never has to unlink anything.
 */
final class HpackDynamicTable {
    /** Bytes counted per entry on top of its name and value (RFC 7541 §4.1). */
    static final int ENTRY_OVERHEAD_BYTES = 32;
    /** Initial size of the table for both peers (RFC 7541 §4.2, RFC 9113 §6.5.2 SETTINGS_HEADER_TABLE_SIZE). */
    static final long DEFAULT_CAPACITY_BYTES = 4096;
    /** Largest capacity a peer can advertise: SETTINGS values are unsigned 32-bit (RFC 9113 §6.5.1). */
    static final long MAX_CAPACITY_BYTES = 0xFFFF_FFFFL;

    private static final int INITIAL_SLOTS = 16;
    private static final long NONE = -1;

    private final boolean indexed;
    private CharSequence[] names;
    private CharSequence[] values;
    private int[] tags;
    private int[] nameHashes;
    private long[] chain;
    private long[] buckets;
    private int mask;
    private long head;
    private long tail;
    private long size;
    private long capacity;

    /**
     * An empty table.
     *
     * @param capacity its maximum size in bytes
     * @param indexed whether to keep the name index an encoder needs for {@link #lookup}
     */
    HpackDynamicTable(long capacity, boolean indexed) {
        checkCapacity(capacity);
        this.capacity = capacity;
        this.indexed = indexed;
        allocate(INITIAL_SLOTS);
    }

    /** Number of entries. */
    int length() {
        return (int) (head - tail);
    }

    /** Sum of the entries' sizes in bytes (RFC 7541 §4.1). */
    long size() {
        return size;
    }

    /** Maximum size in bytes. */
    long capacity() {
        return capacity;
    }

    /** The name of the entry at {@code index}, 1 being the newest; the caller has checked {@link #length()}. */
    CharSequence name(int index) {
        return names[(int) ((head - index) & mask)];
    }

    /** The value of the entry at {@code index}, 1 being the newest; the caller has checked {@link #length()}. */
    CharSequence value(int index) {
        return values[(int) ((head - index) & mask)];
    }

    /** The tag the entry at {@code index} was added with, 1 being the newest. */
    int tag(int index) {
        return tags[(int) ((head - index) & mask)];
    }

    /**
     * Adds a field as the newest entry, evicting old ones to make room; an entry larger than the capacity empties
     * the table and is not added (RFC 7541 §4.4).
     *
     * @param nameHash the name's hash, used by an indexed table
     * @param tag what the owner wants to remember about the field (the decoder: how it validated)
     */
    void add(CharSequence name, int nameHash, CharSequence value, int tag) {
        long entrySize = (long) name.length() + value.length() + ENTRY_OVERHEAD_BYTES;
        if (entrySize > capacity) {
            clear();
            return;
        }
        while (size + entrySize > capacity) {
            evictOldest();
        }
        if (head - tail == names.length) {
            allocate(names.length * 2);
        }
        int slot = (int) (head & mask);
        names[slot] = name;
        values[slot] = value;
        tags[slot] = tag;
        size += entrySize;
        if (indexed) {
            nameHashes[slot] = nameHash;
            int b = bucket(nameHash);
            chain[slot] = buckets[b];
            buckets[b] = head;
        }
        head++;
    }

    /** Sets the maximum size, evicting the oldest entries until the table fits (RFC 7541 §4.3). */
    void setCapacity(long capacity) {
        checkCapacity(capacity);
        this.capacity = capacity;
        while (size > capacity) {
            evictOldest();
        }
    }

    /** Removes every entry. */
    void clear() {
        while (head != tail) {
            evictOldest();
        }
    }

    /**
     * Looks up a field in an indexed table: the index (1 is the newest) of an entry with this name and value as a
     * positive number, else of the newest entry with this name as a negative number, else 0.
     */
    int lookup(CharSequence name, int nameHash, CharSequence value) {
        int nameMatch = 0;
        long id = buckets[bucket(nameHash)];
        while (id >= tail) {
            int slot = (int) (id & mask);
            if (nameHashes[slot] == nameHash && AsciiString.contentEquals(names[slot], name)) {
                if (AsciiString.contentEquals(values[slot], value)) {
                    return (int) (head - id);
                }
                if (nameMatch == 0) {
                    nameMatch = (int) (id - head);
                }
            }
            id = chain[slot];
        }
        return nameMatch;
    }

    private void evictOldest() {
        int slot = (int) (tail & mask);
        size -= (long) names[slot].length() + values[slot].length() + ENTRY_OVERHEAD_BYTES;
        names[slot] = null;
        values[slot] = null;
        tail++;
    }

    private int bucket(int hash) {
        return (hash ^ (hash >>> 16)) & mask;
    }

    /** (Re)allocates {@code slots} slots, moving live entries and rebuilding the name index. */
    private void allocate(int slots) {
        CharSequence[] oldNames = names;
        CharSequence[] oldValues = values;
        int[] oldHashes = nameHashes;
        int[] oldTags = tags;
        int oldMask = mask;
        names = new CharSequence[slots];
        values = new CharSequence[slots];
        tags = new int[slots];
        mask = slots - 1;
        if (indexed) {
            nameHashes = new int[slots];
            chain = new long[slots];
            buckets = new long[slots];
            Arrays.fill(buckets, NONE);
        }
        if (oldNames == null) {
            return;
        }
        for (long id = tail; id < head; id++) {
            int from = (int) (id & oldMask);
            int to = (int) (id & mask);
            names[to] = oldNames[from];
            values[to] = oldValues[from];
            tags[to] = oldTags[from];
            if (indexed) {
                int hash = oldHashes[from];
                nameHashes[to] = hash;
                int b = bucket(hash);
                chain[to] = buckets[b];
                buckets[b] = id;
            }
        }
    }

    private static void checkCapacity(long capacity) {
        if (capacity < 0 || capacity > MAX_CAPACITY_BYTES) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected 0.." + MAX_CAPACITY_BYTES + ")");
        }
    }
}
