package io.weir.handler.codec.http2.internal.hpack;

import io.weir.util.AsciiString;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Huffman-encodes string literals with the code of RFC 7541 Appendix B. Stateless; every method may be called
 * from any thread. Characters above {@code 0xFF} are encoded as {@code '?'}, as {@link AsciiString} stores them.
 *
 * <p>Bits are packed most significant first into a {@code long} and written to the array four bytes at a
 * time; the last byte is padded with the most significant bits of the EOS code, that is with ones (§5.2):
 * <pre>
 *   'a' 00011 'b' 100011 -> 0001 1100 | 011 + 11111 padding -> 0x1c 0x7f
 * </pre>
 */
final class HpackHuffmanEncoder {
    private static final int[] CODES = HpackHuffmanCode.CODES;
    private static final byte[] LENGTHS = HpackHuffmanCode.LENGTHS;
    private static final int BYTE_MASK = 0xFF;
    private static final int INT_BITS = 32;
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private HpackHuffmanEncoder() {
    }

    /** Length in bytes of {@code s} once Huffman-encoded, padding included. */
    static int encodedLength(CharSequence s) {
        long bits = 0;
        if (s instanceof AsciiString a) {
            byte[] array = a.array();
            int off = a.arrayOffset();
            int end = off + a.length();
            for (int i = off; i < end; i++) {
                bits += LENGTHS[array[i] & BYTE_MASK];
            }
        } else {
            int n = s.length();
            for (int i = 0; i < n; i++) {
                bits += LENGTHS[symbol(s.charAt(i))];
            }
        }
        return (int) ((bits + 7) >>> 3);
    }

    /**
     * Writes the Huffman code of {@code s} into {@code dst} at {@code pos}, unless it is longer than
     * {@code maxBytes}: then it stops as soon as it knows, having written no more than {@code maxBytes} bytes. One
     * pass serves both to choose Huffman coding and to do it.
     *
     * @return the position after the code, or -1 if the code needs more than {@code maxBytes} bytes
     */
    static int encode(byte[] dst, int pos, CharSequence s, int maxBytes) {
        long acc = 0;
        int n = 0;
        int p = pos;
        // Room for the last whole int the loops may write.
        int intLimit = pos + maxBytes - Integer.BYTES;
        if (s instanceof AsciiString a) {
            byte[] array = a.array();
            int off = a.arrayOffset();
            int end = off + a.length();
            for (int i = off; i < end; i++) {
                int sym = array[i] & BYTE_MASK;
                int len = LENGTHS[sym];
                // acc holds fewer than 32 pending bits before the shift, so at most 62 after it: no overflow.
                acc = (acc << len) | CODES[sym];
                n += len;
                if (n >= INT_BITS) {
                    if (p > intLimit) {
                        return -1;
                    }
                    n -= INT_BITS;
                    p = putInt(dst, p, (int) (acc >>> n));
                }
            }
        } else {
            int length = s.length();
            for (int i = 0; i < length; i++) {
                int sym = symbol(s.charAt(i));
                int len = LENGTHS[sym];
                acc = (acc << len) | CODES[sym];
                n += len;
                if (n >= INT_BITS) {
                    if (p > intLimit) {
                        return -1;
                    }
                    n -= INT_BITS;
                    p = putInt(dst, p, (int) (acc >>> n));
                }
            }
        }
        if (p - pos + ((n + 7) >>> 3) > maxBytes) {
            return -1;
        }
        while (n >= Byte.SIZE) {
            n -= Byte.SIZE;
            dst[p++] = (byte) (acc >>> n);
        }
        if (n > 0) {
            // RFC 7541 §5.2: pad with the most significant bits of EOS (all ones), fewer than 8 of them.
            dst[p++] = (byte) ((acc << (Byte.SIZE - n)) | (BYTE_MASK >>> n));
        }
        return p;
    }

    private static int putInt(byte[] dst, int p, int v) {
        INTS.set(dst, p, v);
        return p + Integer.BYTES;
    }

    private static int symbol(char c) {
        return c > BYTE_MASK ? '?' : c;
    }
}
