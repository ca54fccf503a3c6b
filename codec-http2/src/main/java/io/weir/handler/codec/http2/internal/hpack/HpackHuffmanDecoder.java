package io.weir.handler.codec.http2.internal.hpack;

import static io.weir.handler.codec.http2.Http2Exception.connectionError;

import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;

/**
 * Decodes Huffman-coded string literals (RFC 7541 §5.2, Appendix B) through lookup tables on the next bits of the
 * input, built once from {@link HpackHuffmanCode}. Stateless apart from the shared immutable tables; thread-safe.
 *
 * <p>Input bytes are shifted into a 64-bit window, refilled whenever it holds 56 bits or fewer, so a whole code
 * (at most 30 bits) is always there while input remains. The fast path looks up the next twelve bits in
 * {@code PAIRS}, which gives the one or two symbols ending within them (most text symbols are 5 to 8 bits long,
 * so a lookup often yields two). When no code ends within twelve bits, or near the end of the input, the next
 * {@value #FAST_BITS} bits index {@code FAST}:
 * <pre>
 *    31     24 23      16 15             0
 *   +---------+----------+----------------+
 *   | 0 0 0 0 |  length  |     symbol     |   a code of at most 10 bits: emit the symbol, consume length bits
 *   | 1 0 0 0 |  unused  |   tree node    |   the first 10 bits of a longer code: walk the code tree from node
 *   +---------+----------+----------------+
 * </pre>
 * The rare longer codes walk the tree bit by bit from where the table left off. At the end of the input, the bits
 * left over must be fewer than eight and all ones, a prefix of the EOS code; reaching EOS itself is an error
 * (§5.2).
 */
final class HpackHuffmanDecoder {
    /** Returned by {@link #decode} when the output would exceed the caller's bound. */
    static final int TOO_LONG = -1;

    private static final int FAST_BITS = 10;
    private static final int FAST_MASK = (1 << FAST_BITS) - 1;
    private static final int SYMBOL_MASK = 0xFFFF;
    private static final int LENGTH_SHIFT = 16;
    private static final int LENGTH_MASK = 0xFF;
    private static final int FLAG_NODE = 1 << 31;
    private static final int INTERNAL_NODES = 256;
    /** The window is refilled while it holds at most this many bits, so a byte always fits. */
    private static final int REFILL_THRESHOLD_BITS = Long.SIZE - Byte.SIZE;
    /** Padding longer than this is an error (RFC 7541 §5.2). */
    private static final int MAX_PADDING_BITS = 7;

    private static final int[] FAST = new int[1 << FAST_BITS];

    /*
     * PAIRS, indexed by the next twelve bits, for the fast path: the symbols those bits complete, at most two.
     *    31  26 25 24 23      16 15       8 7        0
     *   +------+-----+----------+----------+----------+
     *   |  0   |count|  length  | symbol 2 | symbol 1 |   count 0 (the whole entry 0): no code ends in 12 bits
     *   +------+-----+----------+----------+----------+
     */
    private static final int PAIR_BITS = 12;
    private static final int PAIR_MASK = (1 << PAIR_BITS) - 1;
    private static final int PAIR_COUNT_SHIFT = 24;
    private static final int[] PAIRS = new int[1 << PAIR_BITS];
    /** The code tree: {@code CHILDREN[node * 2 + bit]} is an internal node (>= 0) or a leaf {@code -(symbol + 1)}. */
    private static final int[] CHILDREN = new int[INTERNAL_NODES * 2];

    static {
        buildTables();
    }

    private HpackHuffmanDecoder() {
    }

    /**
     * Decodes {@code src[off, off + len)} into {@code dst} starting at 0.
     *
     * @param dst receives the bytes; must hold {@code min(maxOut, len * 8 / 5)} bytes
     * @param maxOut the most bytes the caller accepts
     * @return the number of bytes decoded, or {@link #TOO_LONG} if there are more than {@code maxOut}
     * @throws Http2Exception COMPRESSION_ERROR (connection) when the string holds EOS or its padding is invalid
     */
    static int decode(byte[] src, int off, int len, byte[] dst, int maxOut) throws Http2Exception {
        int[] fast = FAST;
        int[] pairs = PAIRS;
        long window = 0;
        int bits = 0;
        int i = off;
        int end = off + len;
        int out = 0;
        for (;;) {
            while (bits <= REFILL_THRESHOLD_BITS && i < end) {
                window = (window << Byte.SIZE) | (src[i++] & 0xFF);
                bits += Byte.SIZE;
            }
            // Fast path while the window holds a whole code of any length (or, once the input is exhausted, twelve
            // real bits) and the output has room for two bytes: one lookup yields the one or two symbols that end
            // within the next twelve bits.
            int floor = i < end ? HpackHuffmanCode.MAX_CODE_LENGTH_BITS : PAIR_BITS;
            while (bits >= floor && maxOut - out >= 2) {
                int entry = pairs[(int) (window >>> (bits - PAIR_BITS)) & PAIR_MASK];
                if (entry == 0) {
                    break;
                }
                dst[out] = (byte) entry;
                dst[out + 1] = (byte) (entry >>> Byte.SIZE);
                out += entry >>> PAIR_COUNT_SHIFT;
                bits -= (entry >>> LENGTH_SHIFT) & LENGTH_MASK;
            }
            if (bits < HpackHuffmanCode.MAX_CODE_LENGTH_BITS && i < end) {
                continue;
            }
            if (bits == 0) {
                break;
            }
            int peek;
            if (bits >= FAST_BITS) {
                peek = (int) (window >>> (bits - FAST_BITS)) & FAST_MASK;
            } else {
                // The input is exhausted: look past its end as if padded with ones, as the encoder pads.
                int missing = FAST_BITS - bits;
                peek = (int) ((window << missing) | ((1 << missing) - 1)) & FAST_MASK;
            }
            int entry = fast[peek];
            int consumed;
            int symbol;
            if (entry >= 0) {
                consumed = (entry >>> LENGTH_SHIFT) & LENGTH_MASK;
                if (consumed > bits) {
                    break;
                }
                symbol = entry & SYMBOL_MASK;
            } else {
                if (bits < FAST_BITS) {
                    break;
                }
                int node = entry & SYMBOL_MASK;
                consumed = FAST_BITS;
                for (;;) {
                    if (consumed == bits) {
                        // Input ended inside a long code: more than 7 bits left, rejected below.
                        return rejectPadding();
                    }
                    int child = CHILDREN[node * 2 + (int) ((window >>> (bits - consumed - 1)) & 1)];
                    consumed++;
                    if (child < 0) {
                        symbol = -child - 1;
                        break;
                    }
                    node = child;
                }
                if (symbol == HpackHuffmanCode.EOS) {
                    throw connectionError(Http2Error.COMPRESSION_ERROR,
                            "HPACK: Huffman string holds EOS (RFC 7541 §5.2)");
                }
            }
            if (out == maxOut) {
                return TOO_LONG;
            }
            dst[out++] = (byte) symbol;
            bits -= consumed;
        }
        long padMask = (1L << bits) - 1;
        if (bits > MAX_PADDING_BITS || (window & padMask) != padMask) {
            return rejectPadding();
        }
        return out;
    }

    private static int rejectPadding() throws Http2Exception {
        throw connectionError(Http2Error.COMPRESSION_ERROR,
                "HPACK: Huffman string padding is longer than 7 bits or not all ones (RFC 7541 §5.2)");
    }

    // ---- table construction (class initialisation only) ----

    private static void buildTables() {
        int nodes = 1;
        for (int sym = 0; sym < HpackHuffmanCode.SYMBOLS; sym++) {
            int code = HpackHuffmanCode.CODES[sym];
            int len = HpackHuffmanCode.LENGTHS[sym];
            int node = 0;
            for (int bit = len - 1; bit > 0; bit--) {
                int slot = node * 2 + ((code >>> bit) & 1);
                if (CHILDREN[slot] == 0) {
                    CHILDREN[slot] = nodes++;
                }
                node = CHILDREN[slot];
            }
            CHILDREN[node * 2 + (code & 1)] = -(sym + 1);
        }
        if (nodes != INTERNAL_NODES) {
            throw new IllegalStateException("Huffman tree has " + nodes + " internal nodes, expected "
                    + INTERNAL_NODES);
        }
        for (int prefix = 0; prefix < FAST.length; prefix++) {
            int node = 0;
            int entry = 0;
            for (int depth = 1; depth <= FAST_BITS; depth++) {
                int child = CHILDREN[node * 2 + ((prefix >>> (FAST_BITS - depth)) & 1)];
                if (child < 0) {
                    int sym = -child - 1;
                    // EOS is 30 bits long, so no ten-bit prefix completes it.
                    entry = sym | (depth << LENGTH_SHIFT);
                    break;
                }
                node = child;
                entry = FLAG_NODE | node;
            }
            FAST[prefix] = entry;
        }
        for (int prefix = 0; prefix < PAIRS.length; prefix++) {
            int node = 0;
            int count = 0;
            int entry = 0;
            for (int depth = 1; depth <= PAIR_BITS && count < 2; depth++) {
                int child = CHILDREN[node * 2 + ((prefix >>> (PAIR_BITS - depth)) & 1)];
                if (child < 0) {
                    // EOS is 30 bits long, so no twelve-bit prefix completes it.
                    entry = (entry & SYMBOL_MASK) | ((-child - 1) << (Byte.SIZE * count)) | (depth << LENGTH_SHIFT);
                    count++;
                    node = 0;
                } else {
                    node = child;
                }
            }
            PAIRS[prefix] = count == 0 ? 0 : entry | (count << PAIR_COUNT_SHIFT);
        }
    }
}
