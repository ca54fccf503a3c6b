package io.weir.handler.codec.http2.internal.hpack;

import io.weir.buffer.ByteBuf;
import io.weir.handler.codec.http2.Http2HeaderSensitivity;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.util.AsciiString;
import java.util.Objects;

/**
 * Encodes {@link Http2Headers} into HPACK header blocks (RFC 7541). One instance per connection, used only from the
 * connection's event loop; it holds the encoding side's dynamic table, so the blocks it produces must be sent in the
 * order they were encoded.
 *
 * <p>Per field, in this order:
 * <ol>
 *   <li>a {@linkplain Http2HeaderSensitivity sensitive} field is a never-indexed literal (§6.2.3), naming its name
 *   by index when a table has it;</li>
 *   <li>a field found whole in the dynamic, then the static table is an indexed field (§6.1);</li>
 *   <li>a field whose entry would exceed {@link #DEFAULT_MAX_INDEXED_ENTRY_SIZE_BYTES} (or the table) is a literal
 *   without indexing (§6.2.2): a large value would evict many small, frequently reused entries;</li>
 *   <li>anything else is a literal with incremental indexing (§6.2.1) and enters the dynamic table.</li>
 * </ol>
 * Lookups hash the name (static table: open addressing; dynamic table: chains by name). String literals are
 * Huffman-coded only when that is strictly shorter, unless Huffman coding is turned off.
 *
 * <p>Table size updates (§6.3) follow the peer's SETTINGS_HEADER_TABLE_SIZE ({@link #remoteMaxHeaderTableSize}),
 * capped by our own {@link #maxHeaderTableSize(long)}; they open the next block, preceded by the smallest size in
 * between when the size went down and up again before it (§4.2).
 *
 * <pre>
 *   first byte        prefix  representation
 *   1xxxxxxx          7       indexed field (§6.1)
 *   01xxxxxx          6       literal, incremental indexing (§6.2.1); 0 = literal name follows
 *   0000xxxx          4       literal, without indexing (§6.2.2)
 *   0001xxxx          4       literal, never indexed (§6.2.3)
 *   001xxxxx          5       dynamic table size update (§6.3)
 *   H xxxxxxx         7       string length, H = Huffman-coded (§5.2)
 * </pre>
 */
public final class HpackEncoder {
    /** The most dynamic-table memory we use whatever the peer allows, in bytes. */
    public static final long DEFAULT_MAX_HEADER_TABLE_SIZE_BYTES = HpackDynamicTable.DEFAULT_CAPACITY_BYTES;
    /** Fields whose entry (name + value + 32) is larger than this many bytes are not indexed. */
    public static final int DEFAULT_MAX_INDEXED_ENTRY_SIZE_BYTES = 1024;

    private static final int INDEXED = 0x80;
    private static final int INDEXED_PREFIX_BITS = 7;
    private static final int LITERAL_INCREMENTAL = 0x40;
    private static final int LITERAL_INCREMENTAL_PREFIX_BITS = 6;
    private static final int LITERAL_WITHOUT_INDEXING = 0x00;
    private static final int LITERAL_NEVER_INDEXED = 0x10;
    private static final int LITERAL_PREFIX_BITS = 4;
    private static final int SIZE_UPDATE = 0x20;
    private static final int SIZE_UPDATE_PREFIX_BITS = 5;
    private static final int HUFFMAN = 0x80;
    private static final int STRING_LENGTH_PREFIX_BITS = 7;
    private static final int CONTINUATION = 0x80;
    private static final int CONTINUATION_VALUE_MASK = 0x7F;
    private static final int CONTINUATION_BITS = 7;
    /** Slots of the per-encoder cache from name instances to their static-table index (a power of two). */
    private static final int NAME_CACHE_SLOTS = 64;
    /** Longest integer representation: a prefix byte and five 7-bit groups hold any 32-bit value (§5.1). */
    private static final int MAX_INT_BYTES = 6;
    private static final char MAX_BYTE_CHAR = 0xFF;
    private static final int INITIAL_SCRATCH_BYTES = 256;

    private final HpackDynamicTable table = new HpackDynamicTable(HpackDynamicTable.DEFAULT_CAPACITY_BYTES, true);
    private boolean huffman = true;
    private Http2HeaderSensitivity sensitivity = Http2HeaderSensitivity.DEFAULT;
    private long maxTableSize = DEFAULT_MAX_HEADER_TABLE_SIZE_BYTES;
    private long remoteSetting = HpackDynamicTable.DEFAULT_CAPACITY_BYTES;
    private int maxIndexedEntrySize = DEFAULT_MAX_INDEXED_ENTRY_SIZE_BYTES;
    private boolean sizeUpdatePending;
    private long smallestPendingSize;
    private long pendingSize;
    // Applications send the same name instances (constants) again and again: remembering the static-table index
    // of the last instance seen per slot skips the character comparison that the static lookup needs.
    private final CharSequence[] cachedNames = new CharSequence[NAME_CACHE_SLOTS];
    private final int[] cachedStaticIndex = new int[NAME_CACHE_SLOTS];
    // Where the block being encoded goes: the output buffer's array, or the scratch array for direct buffers.
    private byte[] buf;
    private int pos;
    private byte[] scratch = new byte[INITIAL_SCRATCH_BYTES];

    /** An encoder with Huffman coding on, {@link Http2HeaderSensitivity#DEFAULT} and the default sizes. */
    public HpackEncoder() {
    }

    /** Turns Huffman coding of string literals on (the default; used only when shorter) or off; returns this. */
    public HpackEncoder huffman(boolean on) {
        huffman = on;
        return this;
    }

    /** Sets which fields are never indexed; returns this. */
    public HpackEncoder sensitivity(Http2HeaderSensitivity sensitivity) {
        this.sensitivity = Objects.requireNonNull(sensitivity, "sensitivity");
        return this;
    }

    /**
     * Sets the largest entry, in bytes (name + value + 32), that is indexed; larger fields are sent as literals
     * without indexing. Returns this.
     *
     * @throws IllegalArgumentException if {@code bytes < 0}
     */
    public HpackEncoder maxIndexedEntrySize(int bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("maxIndexedEntrySize: " + bytes + " (expected >= 0)");
        }
        maxIndexedEntrySize = bytes;
        return this;
    }

    /**
     * Caps the dynamic table we keep, in bytes, whatever the peer allows; the table in use is the smaller of this
     * and the peer's SETTINGS_HEADER_TABLE_SIZE. A change is announced at the start of the next block. Returns this.
     *
     * @throws IllegalArgumentException unless {@code 0 <= bytes <= 2^32 - 1}
     */
    public HpackEncoder maxHeaderTableSize(long bytes) {
        checkTableSize(bytes);
        maxTableSize = bytes;
        scheduleCapacity(Math.min(maxTableSize, remoteSetting));
        return this;
    }

    /**
     * Applies the SETTINGS_HEADER_TABLE_SIZE the peer sent, in bytes: the next block opens with the size updates
     * this requires (RFC 7541 §4.2). Call it when the SETTINGS frame is received, before encoding anything after it.
     *
     * @throws IllegalArgumentException unless {@code 0 <= bytes <= 2^32 - 1}
     */
    public void remoteMaxHeaderTableSize(long bytes) {
        checkTableSize(bytes);
        remoteSetting = bytes;
        scheduleCapacity(Math.min(maxTableSize, remoteSetting));
    }

    /**
     * Encodes one header block: every field of {@code headers}, in order, appended at {@code out}'s writer index.
     * Names are written as they are (HTTP/2 requires lower case; a validating {@link Http2Headers} ensures it).
     *
     * @param out the buffer to append to; the caller owns it
     */
    public void encode(Http2Headers headers, ByteBuf out) {
        encode(headers, out, maxEncodedLength(headers));
    }

    /**
     * {@link #encode(Http2Headers, ByteBuf)} for a caller that already took {@code bound}, the value of
     * {@link #maxEncodedLength(Http2Headers)} for {@code headers} (to choose where the block goes).
     */
    public void encode(Http2Headers headers, ByteBuf out, long bound) {
        int n = headers.size();
        // The block is written into an array in one go (the buffer's own, or a scratch array copied once into a
        // direct buffer), sized for the worst case.
        if (bound > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("header block too large to encode: up to " + bound + " bytes");
        }
        boolean heap = out.hasArray();
        int start;
        if (heap) {
            out.ensureWritable((int) bound);
            buf = out.array();
            start = out.arrayOffset() + out.writerIndex();
        } else {
            if (scratch.length < bound) {
                scratch = new byte[(int) Math.max(bound, scratch.length * 2L)];
            }
            buf = scratch;
            start = 0;
        }
        pos = start;
        try {
            if (sizeUpdatePending) {
                writeSizeUpdates();
            }
            for (int i = 0; i < n; i++) {
                encodeField(headers.name(i), headers.value(i));
            }
            if (heap) {
                out.writerIndex(out.writerIndex() + pos - start);
            } else {
                out.writeBytes(scratch, 0, pos);
            }
        } finally {
            buf = null;
        }
    }

    /**
     * The most octets {@link #encode} can write for {@code headers}, whatever the dynamic table holds: per field
     * three integers and both strings raw (Huffman coding is used only when it is shorter), plus two table size
     * updates.
     */
    public static long maxEncodedLength(Http2Headers headers) {
        int n = headers.size();
        long bound = 2L * MAX_INT_BYTES;
        for (int i = 0; i < n; i++) {
            bound += 3L * MAX_INT_BYTES + headers.name(i).length() + headers.value(i).length();
        }
        return bound;
    }

    // Package-private views for tests.
    HpackDynamicTable table() {
        return table;
    }

    private void encodeField(CharSequence name, CharSequence value) {
        int nameHash = AsciiString.hashCode(name);
        if (sensitivity.isSensitive(name, value)) {
            // RFC 7541 §6.2.3, §7.1.3
            int nameIndex = staticNameIndex(name, nameHash);
            if (nameIndex == HpackStaticTable.NOT_FOUND && table.length() != 0) {
                int d = table.lookup(name, nameHash, value);
                nameIndex = d == 0 ? 0 : HpackStaticTable.LENGTH + Math.abs(d);
            }
            literal(LITERAL_NEVER_INDEXED, LITERAL_PREFIX_BITS, nameIndex, name, value);
            return;
        }
        // The dynamic table first: on a connection that repeats its fields, that is where they are found.
        int d = table.length() == 0 ? 0 : table.lookup(name, nameHash, value);
        if (d > 0) {
            writeInt(INDEXED, INDEXED_PREFIX_BITS, HpackStaticTable.LENGTH + d);
            return;
        }
        int s = HpackStaticTable.lookupValue(staticNameIndex(name, nameHash), value);
        if (s > 0) {
            writeInt(INDEXED, INDEXED_PREFIX_BITS, s);
            return;
        }
        int nameIndex = s < 0 ? -s : d < 0 ? HpackStaticTable.LENGTH - d : 0;
        long entrySize = (long) name.length() + value.length() + HpackDynamicTable.ENTRY_OVERHEAD_BYTES;
        if (entrySize > maxIndexedEntrySize || entrySize > table.capacity()) {
            literal(LITERAL_WITHOUT_INDEXING, LITERAL_PREFIX_BITS, nameIndex, name, value);
            return;
        }
        literal(LITERAL_INCREMENTAL, LITERAL_INCREMENTAL_PREFIX_BITS, nameIndex, name, value);
        table.add(name, nameHash, value, 0);
    }

    private int staticNameIndex(CharSequence name, int nameHash) {
        int slot = (nameHash ^ (nameHash >>> 16)) & (NAME_CACHE_SLOTS - 1);
        // Identity, not equality: the same immutable instance has the same characters.
        if (cachedNames[slot] == name) {
            return cachedStaticIndex[slot];
        }
        int index = HpackStaticTable.indexOf(name, nameHash);
        cachedNames[slot] = name;
        cachedStaticIndex[slot] = index;
        return index;
    }

    private void literal(int pattern, int prefixBits, int nameIndex, CharSequence name, CharSequence value) {
        writeInt(pattern, prefixBits, nameIndex);
        if (nameIndex == 0) {
            writeString(name);
        }
        writeString(value);
    }

    private void writeString(CharSequence s) {
        int length = s.length();
        if (huffman && length > 1) {
            // Code straight after room for the raw length's prefix; keep it only if strictly shorter (§5.2).
            int prefix = intLength(STRING_LENGTH_PREFIX_BITS, length);
            int start = pos + prefix;
            int end = HpackHuffmanEncoder.encode(buf, start, s, length - 1);
            if (end >= 0) {
                int coded = end - start;
                int codedPrefix = intLength(STRING_LENGTH_PREFIX_BITS, coded);
                if (codedPrefix != prefix) {
                    System.arraycopy(buf, start, buf, pos + codedPrefix, coded);
                }
                writeInt(HUFFMAN, STRING_LENGTH_PREFIX_BITS, coded);
                pos += coded;
                return;
            }
        }
        writeInt(0, STRING_LENGTH_PREFIX_BITS, length);
        byte[] b = buf;
        if (s instanceof AsciiString a) {
            System.arraycopy(a.array(), a.arrayOffset(), b, pos, length);
        } else {
            for (int i = 0; i < length; i++) {
                char c = s.charAt(i);
                b[pos + i] = (byte) (c > MAX_BYTE_CHAR ? '?' : c);
            }
        }
        pos += length;
    }

    /** Writes {@code value} with an N-bit prefix after the representation's pattern bits (RFC 7541 §5.1). */
    private void writeInt(int pattern, int prefixBits, long value) {
        byte[] b = buf;
        int mask = (1 << prefixBits) - 1;
        if (value < mask) {
            b[pos++] = (byte) (pattern | (int) value);
            return;
        }
        b[pos++] = (byte) (pattern | mask);
        long rest = value - mask;
        while (rest > CONTINUATION_VALUE_MASK) {
            b[pos++] = (byte) ((rest & CONTINUATION_VALUE_MASK) | CONTINUATION);
            rest >>>= CONTINUATION_BITS;
        }
        b[pos++] = (byte) rest;
    }

    /** Bytes {@link #writeInt} takes for {@code value} after an N-bit prefix. */
    private static int intLength(int prefixBits, int value) {
        int mask = (1 << prefixBits) - 1;
        if (value < mask) {
            return 1;
        }
        int bytes = 2;
        for (int rest = value - mask; rest > CONTINUATION_VALUE_MASK; rest >>>= CONTINUATION_BITS) {
            bytes++;
        }
        return bytes;
    }

    private void scheduleCapacity(long capacity) {
        long current = sizeUpdatePending ? pendingSize : table.capacity();
        if (capacity == current) {
            return;
        }
        smallestPendingSize = sizeUpdatePending ? Math.min(smallestPendingSize, capacity) : capacity;
        pendingSize = capacity;
        sizeUpdatePending = true;
    }

    private void writeSizeUpdates() {
        // RFC 7541 §4.2: signal the smallest size of the interval first when the size went back up since.
        if (smallestPendingSize < pendingSize) {
            table.setCapacity(smallestPendingSize);
            writeInt(SIZE_UPDATE, SIZE_UPDATE_PREFIX_BITS, smallestPendingSize);
        }
        table.setCapacity(pendingSize);
        writeInt(SIZE_UPDATE, SIZE_UPDATE_PREFIX_BITS, pendingSize);
        sizeUpdatePending = false;
    }

    private static void checkTableSize(long bytes) {
        if (bytes < 0 || bytes > HpackDynamicTable.MAX_CAPACITY_BYTES) {
            throw new IllegalArgumentException("header table size: " + bytes + " (expected 0.."
                    + HpackDynamicTable.MAX_CAPACITY_BYTES + ")");
        }
    }
}
