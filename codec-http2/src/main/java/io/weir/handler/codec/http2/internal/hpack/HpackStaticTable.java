package io.weir.handler.codec.http2.internal.hpack;

import io.weir.handler.codec.http2.Http2Headers;
import io.weir.util.AsciiString;

/**
 * The static table of RFC 7541 Appendix A (indices 1 to 61), typed in from the RFC, with lookups by name and by
 * name and value through a small open-addressing hash of the names. Immutable; thread-safe.
 *
 * <p>Entries sharing a name are adjacent in the RFC's table ({@code :status} 8..14 for instance), so the hash maps
 * each distinct name to its first index and a value lookup scans forward while the name stays the same.
 */
final class HpackStaticTable {
    /** Number of entries; dynamic table indices start after it (RFC 7541 §2.3.3). */
    static final int LENGTH = 61;
    /** Returned by lookups that find nothing. */
    static final int NOT_FOUND = 0;

    /** Index of {@code transfer-encoding}, the one connection-specific name in the table (RFC 9113 §8.2.2). */
    static final int TRANSFER_ENCODING_INDEX = 57;

    private static final String[][] ENTRIES = {
        {":authority", ""},
        {":method", "GET"},
        {":method", "POST"},
        {":path", "/"},
        {":path", "/index.html"},
        {":scheme", "http"},
        {":scheme", "https"},
        {":status", "200"},
        {":status", "204"},
        {":status", "206"},
        {":status", "304"},
        {":status", "400"},
        {":status", "404"},
        {":status", "500"},
        {"accept-charset", ""},
        {"accept-encoding", "gzip, deflate"},
        {"accept-language", ""},
        {"accept-ranges", ""},
        {"accept", ""},
        {"access-control-allow-origin", ""},
        {"age", ""},
        {"allow", ""},
        {"authorization", ""},
        {"cache-control", ""},
        {"content-disposition", ""},
        {"content-encoding", ""},
        {"content-language", ""},
        {"content-length", ""},
        {"content-location", ""},
        {"content-range", ""},
        {"content-type", ""},
        {"cookie", ""},
        {"date", ""},
        {"etag", ""},
        {"expect", ""},
        {"expires", ""},
        {"from", ""},
        {"host", ""},
        {"if-match", ""},
        {"if-modified-since", ""},
        {"if-none-match", ""},
        {"if-range", ""},
        {"if-unmodified-since", ""},
        {"last-modified", ""},
        {"link", ""},
        {"location", ""},
        {"max-forwards", ""},
        {"proxy-authenticate", ""},
        {"proxy-authorization", ""},
        {"range", ""},
        {"referer", ""},
        {"refresh", ""},
        {"retry-after", ""},
        {"server", ""},
        {"set-cookie", ""},
        {"strict-transport-security", ""},
        {"transfer-encoding", ""},
        {"user-agent", ""},
        {"vary", ""},
        {"via", ""},
        {"www-authenticate", ""},
    };

    // Index 0 unused so that arrays are addressed by HPACK index directly.
    private static final AsciiString[] NAMES = new AsciiString[LENGTH + 1];
    private static final AsciiString[] VALUES = new AsciiString[LENGTH + 1];
    private static final int[] NAME_HASHES = new int[LENGTH + 1];
    // Open addressing over distinct names (52 of them): power of two, load below one half.
    private static final int BUCKETS = 128;
    private static final int BUCKET_MASK = BUCKETS - 1;
    private static final byte[] FIRST_INDEX_BY_BUCKET = new byte[BUCKETS];

    static {
        for (int i = 1; i <= LENGTH; i++) {
            NAMES[i] = i > 1 && ENTRIES[i - 1][0].equals(ENTRIES[i - 2][0]) ? NAMES[i - 1]
                    : name(ENTRIES[i - 1][0]);
            VALUES[i] = AsciiString.cached(ENTRIES[i - 1][1]);
            NAME_HASHES[i] = NAMES[i].hashCode();
            if (NAMES[i] != NAMES[i - 1]) {
                int b = bucket(NAME_HASHES[i]);
                while (FIRST_INDEX_BY_BUCKET[b] != 0) {
                    b = (b + 1) & BUCKET_MASK;
                }
                FIRST_INDEX_BY_BUCKET[b] = (byte) i;
            }
        }
    }

    private HpackStaticTable() {
    }

    /** The name at {@code index} (1..{@link #LENGTH}). */
    static AsciiString name(int index) {
        return NAMES[index];
    }

    /** The value at {@code index} (1..{@link #LENGTH}). */
    static AsciiString value(int index) {
        return VALUES[index];
    }

    /** The lowest index whose name is {@code name}, or {@link #NOT_FOUND}. */
    static int indexOf(CharSequence name) {
        return firstIndex(name, AsciiString.hashCode(name));
    }

    /**
     * The lowest index whose name is {@code name}, or {@link #NOT_FOUND}.
     *
     * @param nameHash {@code AsciiString.hashCode(name)}, which the caller has at hand
     */
    static int indexOf(CharSequence name, int nameHash) {
        return firstIndex(name, nameHash);
    }

    /**
     * Looks up a value among the entries named like entry {@code first} (a result of {@link #indexOf}): the index
     * of the entry with this value as a positive number, else {@code -first}; {@link #NOT_FOUND} if {@code first}
     * is.
     */
    static int lookupValue(int first, CharSequence value) {
        if (first == NOT_FOUND) {
            return NOT_FOUND;
        }
        AsciiString n = NAMES[first];
        for (int i = first; i <= LENGTH && NAMES[i] == n; i++) {
            if (AsciiString.contentEquals(VALUES[i], value)) {
                return i;
            }
        }
        return -first;
    }

    /**
     * Looks up a field: the index of an entry with this name and value as a positive number, else the lowest index
     * with this name as a negative number, else {@link #NOT_FOUND}.
     *
     * @param nameHash {@code AsciiString.hashCode(name)}, which the caller has at hand
     */
    static int lookup(CharSequence name, int nameHash, CharSequence value) {
        return lookupValue(firstIndex(name, nameHash), value);
    }

    private static int firstIndex(CharSequence name, int hash) {
        int b = bucket(hash);
        for (;;) {
            int i = FIRST_INDEX_BY_BUCKET[b];
            if (i == 0) {
                return NOT_FOUND;
            }
            if (NAME_HASHES[i] == hash && AsciiString.contentEquals(NAMES[i], name)) {
                return i;
            }
            b = (b + 1) & BUCKET_MASK;
        }
    }

    private static int bucket(int hash) {
        return (hash ^ (hash >>> 16) ^ (hash >>> 7)) & BUCKET_MASK;
    }

    /**
     * The name of a static entry; a pseudo-header's is {@link Http2Headers}'s own constant, so that a decoded
     * request's {@code headers.method()} and the like find it by identity rather than by comparing bytes.
     */
    private static AsciiString name(String name) {
        return switch (name) {
            case ":method" -> Http2Headers.METHOD;
            case ":scheme" -> Http2Headers.SCHEME;
            case ":authority" -> Http2Headers.AUTHORITY;
            case ":path" -> Http2Headers.PATH;
            case ":status" -> Http2Headers.STATUS;
            default -> AsciiString.cached(name);
        };
    }
}
