package io.weir.buffer;

/**
 * Hex encoding and decoding and the boxed 16-bytes-per-row dump, for {@link ByteBufUtil}.
 *
 * <p>A pretty dump of {@code "Hello, world!\n"} looks like this (rows are numbered from the dumped range's
 * first byte; bytes outside {@code 0x20..0x7E} show as {@code '.'} in the text column):
 * <pre>
 *          +-------------------------------------------------+
 *          |  0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f |
 * +--------+-------------------------------------------------+----------------+
 * |00000000| 48 65 6c 6c 6f 2c 20 77 6f 72 6c 64 21 0a       |Hello, world!.  |
 * +--------+-------------------------------------------------+----------------+
 * </pre>
 */
final class HexDump {
    static final int BYTES_PER_ROW = 16;
    private static final char[] DIGITS = "0123456789abcdef".toCharArray();
    private static final String HEADER =
            "         +-------------------------------------------------+\n"
            + "         |  0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f |\n"
            + "+--------+-------------------------------------------------+----------------+\n";
    private static final String FOOTER =
            "+--------+-------------------------------------------------+----------------+";
    /** One row: 10 for the offset cell, 3 per byte, 2 for " |", 16 for the text, 2 for "|\n". */
    private static final int ROW_CHARS = 10 + 3 * BYTES_PER_ROW + 2 + BYTES_PER_ROW + 2;

    private HexDump() {
    }

    static String hex(byte[] bytes, int offset, int length) {
        char[] out = new char[length << 1];
        for (int i = 0; i < length; i++) {
            int b = bytes[offset + i];
            out[i << 1] = DIGITS[b >>> 4 & 0xF];
            out[(i << 1) + 1] = DIGITS[b & 0xF];
        }
        return new String(out);
    }

    static byte[] decode(CharSequence hex, int fromIndex, int length) {
        if ((length & 1) != 0) {
            throw new IllegalArgumentException("hex dump length: " + length + " (expected: even)");
        }
        byte[] out = new byte[length >>> 1];
        for (int i = 0; i < out.length; i++) {
            int at = fromIndex + (i << 1);
            out[i] = (byte) (digit(hex, at) << 4 | digit(hex, at + 1));
        }
        return out;
    }

    private static int digit(CharSequence hex, int index) {
        int value = Character.digit(hex.charAt(index), 16);
        // Character.digit also accepts non-ASCII digits (e.g. fullwidth ones); a hex dump never holds them.
        if (value < 0 || hex.charAt(index) > 'f') {
            throw new IllegalArgumentException("not a hex digit at index " + index + ": '" + hex.charAt(index) + "'");
        }
        return value;
    }

    static void appendPretty(StringBuilder dump, byte[] bytes, int length) {
        if (length == 0) {
            return;
        }
        int rows = (length + BYTES_PER_ROW - 1) / BYTES_PER_ROW;
        dump.ensureCapacity(dump.length() + HEADER.length() + rows * ROW_CHARS + FOOTER.length());
        dump.append(HEADER);
        for (int row = 0; row < rows; row++) {
            int start = row * BYTES_PER_ROW;
            int end = Math.min(start + BYTES_PER_ROW, length);
            dump.append('|');
            appendOffset(dump, start);
            dump.append('|');
            for (int i = start; i < end; i++) {
                dump.append(' ').append(DIGITS[bytes[i] >>> 4 & 0xF]).append(DIGITS[bytes[i] & 0xF]);
            }
            for (int i = end; i < start + BYTES_PER_ROW; i++) {
                dump.append("   ");
            }
            dump.append(" |");
            for (int i = start; i < end; i++) {
                int b = bytes[i] & 0xFF;
                dump.append(b >= 0x20 && b < 0x7F ? (char) b : '.');
            }
            for (int i = end; i < start + BYTES_PER_ROW; i++) {
                dump.append(' ');
            }
            dump.append("|\n");
        }
        dump.append(FOOTER);
    }

    private static void appendOffset(StringBuilder dump, int offset) {
        for (int shift = 28; shift >= 0; shift -= 4) {
            dump.append(DIGITS[offset >>> shift & 0xF]);
        }
    }
}
