package io.weir.handler.codec.http2.internal.hpack;

import static io.weir.handler.codec.http2.Http2Exception.connectionError;

import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;

/**
 * Decodes Huffman-coded string literals (RFC 7541 §5.2, Appendix B) four bits at a time through a state table
 * built once from {@link HpackHuffmanCode}. Stateless apart from the shared immutable table; thread-safe.
 *
 * <p>A state is an internal node of the code tree (the tree of 257 leaves has 256 of them, the root is state 0).
 * For every state and every nibble the table holds where the nibble leads and whether a symbol was completed on
 * the way; as the shortest code is five bits long, one nibble completes at most one symbol. Each entry:
 * <pre>
 *    31        18  17  16  15         8 7          0
 *   +------------+---+---+------------+------------+
 *   |  unused    | F | S |   symbol   | next state |
 *   +------------+---+---+------------+------------+
 *   S: a symbol was emitted; F: the nibble reached EOS (a decoding error, §5.2)
 * </pre>
 * The string may end only in an accepting state: one reached from the root by at most seven one bits, so that
 * the padding is shorter than a byte and is a prefix of the EOS code (§5.2). Any other final state is an error.
 */
final class HpackHuffmanDecoder {
    /** Returned by {@link #decode} when the output would exceed the caller's bound. */
    static final int TOO_LONG = -1;
    private static final int STATES = 256;
    private static final int NIBBLE_VALUES = 16;
    private static final int NIBBLE_BITS = 4;
    private static final int NEXT_MASK = 0xFF;
    private static final int SYMBOL_SHIFT = 8;
    private static final int FLAG_SYMBOL = 1 << 16;
    private static final int FLAG_FAIL = 1 << 17;
    /** Padding longer than this is an error (RFC 7541 §5.2). */
    private static final int MAX_PADDING_BITS = 7;

    private static final int[] TABLE = new int[STATES * NIBBLE_VALUES];
    private static final boolean[] ACCEPTING = new boolean[STATES];

    static {
        buildTable();
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
    static int decode(byte[] src, int off, int len, byte[] dst, int maxOut)
            throws Http2Exception {
        int state = 0;
        int out = 0;
        int end = off + len;
        int[] table = TABLE;
        for (int i = off; i < end; i++) {
            int b = src[i];
            // Unrolled: the high nibble, then the low one.
            int t = table[(state << NIBBLE_BITS) | ((b >>> NIBBLE_BITS) & 0xF)];
            if ((t & (FLAG_SYMBOL | FLAG_FAIL)) != 0) {
                if ((t & FLAG_FAIL) != 0) {
                    throw eos();
                }
                if (out == maxOut) {
                    return TOO_LONG;
                }
                dst[out++] = (byte) (t >>> SYMBOL_SHIFT);
            }
            t = table[((t & NEXT_MASK) << NIBBLE_BITS) | (b & 0xF)];
            if ((t & (FLAG_SYMBOL | FLAG_FAIL)) != 0) {
                if ((t & FLAG_FAIL) != 0) {
                    throw eos();
                }
                if (out == maxOut) {
                    return TOO_LONG;
                }
                dst[out++] = (byte) (t >>> SYMBOL_SHIFT);
            }
            state = t & NEXT_MASK;
        }
        if (!ACCEPTING[state]) {
            throw connectionError(Http2Error.COMPRESSION_ERROR,
                    "HPACK: Huffman string padding is longer than 7 bits or not all ones (RFC 7541 §5.2)");
        }
        return out;
    }

    private static Http2Exception eos() {
        return connectionError(Http2Error.COMPRESSION_ERROR, "HPACK: Huffman string holds EOS (RFC 7541 §5.2)");
    }

    // ---- table construction (class initialisation only) ----

    private static void buildTable() {
        // The code tree: children[node * 2 + bit] is another internal node (>= 0) or a leaf -(symbol + 1).
        int[] children = new int[STATES * 2];
        int nodes = 1;
        for (int sym = 0; sym < HpackHuffmanCode.SYMBOLS; sym++) {
            int code = HpackHuffmanCode.CODES[sym];
            int len = HpackHuffmanCode.LENGTHS[sym];
            int node = 0;
            for (int bit = len - 1; bit > 0; bit--) {
                int slot = node * 2 + ((code >>> bit) & 1);
                if (children[slot] == 0) {
                    children[slot] = nodes++;
                }
                node = children[slot];
            }
            children[node * 2 + (code & 1)] = -(sym + 1);
        }
        if (nodes != STATES) {
            throw new IllegalStateException("Huffman tree has " + nodes + " internal nodes, expected " + STATES);
        }
        // Accepting states: the root and the nodes reached by one to seven one bits.
        int node = 0;
        ACCEPTING[0] = true;
        for (int depth = 1; depth <= MAX_PADDING_BITS; depth++) {
            node = children[node * 2 + 1];
            ACCEPTING[node] = true;
        }
        for (int state = 0; state < STATES; state++) {
            for (int nibble = 0; nibble < NIBBLE_VALUES; nibble++) {
                int cur = state;
                int entry = 0;
                for (int bit = NIBBLE_BITS - 1; bit >= 0; bit--) {
                    int child = children[cur * 2 + ((nibble >>> bit) & 1)];
                    if (child < 0) {
                        int sym = -child - 1;
                        if (sym == HpackHuffmanCode.EOS) {
                            entry |= FLAG_FAIL;
                            break;
                        }
                        entry |= FLAG_SYMBOL | (sym << SYMBOL_SHIFT);
                        cur = 0;
                    } else {
                        cur = child;
                    }
                }
                TABLE[state * NIBBLE_VALUES + nibble] = entry | cur;
            }
        }
    }
}
