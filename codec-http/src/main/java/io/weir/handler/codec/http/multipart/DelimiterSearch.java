package io.weir.handler.codec.http.multipart;

import java.util.Arrays;

/**
 * Finds one multipart delimiter ({@code CRLF--boundary}, RFC 2046 §5.1.1) in a byte array. Immutable and
 * thread-safe; one per boundary of a body.
 *
 * <p><b>Method.</b> Horspool's search: a window of the delimiter's length is compared only when the byte under
 * its last position is the delimiter's last byte and its first byte is CR, and either way it moves by the shift of
 * the byte under its last position, past windows that byte rules out. Each of those steps waits on the load of
 * the step before, so on top of it a faster loop rules out eight spans of windows at once with loads that do not
 * wait on each other: two adjacent bytes that never stand side by side in the delimiter end every window that holds
 * both, i.e. {@code length - 1} windows. Pairs are looked up in a hashed table of the delimiter's pairs; a
 * collision only sends that step to the slower loop. On random content (or any content unlike the delimiter) the
 * search reads about two bytes per 40 for a typical browser boundary.
 *
 * <p><b>Hostile input stays linear.</b> Both loops only skip windows proven not to match. A compare starts only
 * at a CR and the delimiter holds CR only at its start (a boundary holds no control characters), so a compare
 * stops at the latest on the next CR and no byte is compared more than twice.
 */
final class DelimiterSearch {
    private static final byte CR = '\r';
    /** Size of the pair table: 4096 entries, so a 74-byte delimiter's 73 pairs fill under 2% of it. */
    private static final int PAIR_TABLE_BITS = 12;

    private final byte[] delimiter;
    /**
     * Horspool's shift table: for each byte value, how far a window may move when the value sits under its last
     * position, i.e. the distance from the value's last occurrence in {@code delimiter[0, length - 1)} to the end,
     * or the whole length if it does not occur there. At most 74 (the longest delimiter), so it fits a byte.
     */
    private final byte[] shifts;
    /** Non-zero at {@link #pairHash} of each pair of adjacent delimiter bytes. */
    private final byte[] pairs;

    /**
     * @param delimiter {@code CRLF--boundary}: at least 5 and at most 74 bytes, CR only at index 0 (the decoder
     *                  checks the boundary before)
     */
    DelimiterSearch(byte[] delimiter) {
        int m = delimiter.length;
        if (m < 5 || m > 74 || delimiter[0] != CR) {
            throw new IllegalArgumentException("not a multipart delimiter of 5 to 74 bytes: " + m + " bytes");
        }
        this.delimiter = delimiter.clone();
        shifts = new byte[256];
        Arrays.fill(shifts, (byte) m);
        for (int j = 0; j < m - 1; j++) {
            shifts[delimiter[j] & 0xFF] = (byte) (m - 1 - j);
        }
        pairs = new byte[1 << PAIR_TABLE_BITS];
        for (int j = 1; j < m; j++) {
            pairs[pairHash(delimiter[j - 1], delimiter[j])] = 1;
        }
    }

    private static int pairHash(byte first, byte second) {
        return ((first & 0xFF) << (PAIR_TABLE_BITS - 8)) ^ (second & 0xFF);
    }

    /** Length of the delimiter in bytes. */
    int length() {
        return delimiter.length;
    }

    /** The delimiter byte at {@code index}. */
    byte byteAt(int index) {
        return delimiter[index];
    }

    /** Non-zero if the two bytes ending at {@code a[p]} may be a pair of the delimiter. */
    private byte pairAt(byte[] a, int p) {
        return pairs[pairHash(a[p - 1], a[p])];
    }

    /**
     * Finds the delimiter in {@code a[from, to)}.
     *
     * @return its index in {@code a}, or {@code -1 - safe} where {@code safe} is the index before which no
     *         delimiter can start: the start of a partial match at the end of the bytes, or {@code to}
     */
    int find(byte[] a, int from, int to) {
        byte[] delim = delimiter;
        int m = delim.length;
        int last = m - 1;
        byte lastByte = delim[last];
        int lastWindow = to - m;
        int i = from;
        while (i <= lastWindow) {
            // Pair ending at p = last byte of window i rules out windows i .. i + m - 2, so pairs m - 1 apart
            // rule out eight such spans; all sixteen bytes read lie before 'to'.
            for (int p = i + last; p + 7 * last < to; p = i + last) {
                if ((pairAt(a, p) | pairAt(a, p + last) | pairAt(a, p + 2 * last) | pairAt(a, p + 3 * last)
                        | pairAt(a, p + 4 * last) | pairAt(a, p + 5 * last) | pairAt(a, p + 6 * last)
                        | pairAt(a, p + 7 * last)) != 0) {
                    break;
                }
                i += 8 * last;
            }
            if (i > lastWindow) {
                break;
            }
            byte b = a[i + last];
            if (b == lastByte && a[i] == CR) {
                int k = 1;
                while (k < last && a[i + k] == delim[k]) {
                    k++;
                }
                if (k == last) {
                    return i;
                }
            }
            i += shifts[b & 0xFF];
        }
        // The windows left run past the bytes: the first whose available bytes start the delimiter is safe.
        for (; i < to; i++) {
            if (a[i] == CR) {
                int avail = to - i;
                int k = 1;
                while (k < avail && a[i + k] == delim[k]) {
                    k++;
                }
                if (k == avail) {
                    return -1 - i;
                }
            }
        }
        return -1 - to;
    }
}
