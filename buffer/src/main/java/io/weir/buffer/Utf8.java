package io.weir.buffer;

import io.weir.util.platform.MemoryAccess;

/**
 * UTF-8 encoding straight into buffers and strict UTF-8 validation, for {@link ByteBufUtil}.
 *
 * <p>Encoding follows {@link String#getBytes(java.nio.charset.Charset)} with UTF-8: a surrogate pair becomes one
 * four-byte sequence and an unpaired surrogate becomes {@code '?'}, so the byte count of a sequence is fixed
 * before it is written and {@link #encodedLength} can size the destination exactly.
 */
final class Utf8 {
    /** The most bytes one {@code char} can take: three (a surrogate pair is two chars for four bytes). */
    static final int MAX_BYTES_PER_CHAR = 3;
    private static final byte REPLACEMENT = '?';
    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;

    private Utf8() {
    }

    /** The exact number of bytes {@link #encode} writes for {@code seq[start, end)}. */
    static int encodedLength(CharSequence seq, int start, int end) {
        int i = start;
        // ASCII first: most text on the wire is ASCII, and this loop has no branches besides the exit.
        while (i < end && seq.charAt(i) < 0x80) {
            i++;
        }
        long bytes = i - start;
        for (; i < end; i++) {
            char c = seq.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (!Character.isSurrogate(c)) {
                bytes += 3;
            } else if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(seq.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes++;
            }
        }
        if (bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("UTF-8 encoding of " + (end - start) + " chars takes " + bytes
                    + " bytes (expected: at most " + Integer.MAX_VALUE + ")");
        }
        return (int) bytes;
    }

    /** Encodes {@code seq[start, end)} into {@code dst} from {@code offset}; returns the index after the last byte. */
    static int encode(CharSequence seq, int start, int end, byte[] dst, int offset) {
        int p = offset;
        int i = start;
        while (i < end) {
            char c = seq.charAt(i++);
            if (c < 0x80) {
                dst[p++] = (byte) c;
            } else if (c < 0x800) {
                dst[p++] = (byte) (0xC0 | c >> 6);
                dst[p++] = (byte) (0x80 | c & 0x3F);
            } else if (!Character.isSurrogate(c)) {
                dst[p++] = (byte) (0xE0 | c >> 12);
                dst[p++] = (byte) (0x80 | c >> 6 & 0x3F);
                dst[p++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c) && i < end && Character.isLowSurrogate(seq.charAt(i))) {
                int cp = Character.toCodePoint(c, seq.charAt(i++));
                dst[p++] = (byte) (0xF0 | cp >> 18);
                dst[p++] = (byte) (0x80 | cp >> 12 & 0x3F);
                dst[p++] = (byte) (0x80 | cp >> 6 & 0x3F);
                dst[p++] = (byte) (0x80 | cp & 0x3F);
            } else {
                dst[p++] = REPLACEMENT;
            }
        }
        return p;
    }

    /**
     * As {@link #encode(CharSequence, int, int, byte[], int)} through the buffer's own unchecked byte store; the
     * caller has made {@code [index, index + encodedLength)} writable and checked the buffer is not read-only.
     */
    static int encode(CharSequence seq, int start, int end, AbstractByteBuf dst, int index) {
        int p = index;
        int i = start;
        while (i < end) {
            char c = seq.charAt(i++);
            if (c < 0x80) {
                dst._setByte(p++, c);
            } else if (c < 0x800) {
                dst._setByte(p++, 0xC0 | c >> 6);
                dst._setByte(p++, 0x80 | c & 0x3F);
            } else if (!Character.isSurrogate(c)) {
                dst._setByte(p++, 0xE0 | c >> 12);
                dst._setByte(p++, 0x80 | c >> 6 & 0x3F);
                dst._setByte(p++, 0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c) && i < end && Character.isLowSurrogate(seq.charAt(i))) {
                int cp = Character.toCodePoint(c, seq.charAt(i++));
                dst._setByte(p++, 0xF0 | cp >> 18);
                dst._setByte(p++, 0x80 | cp >> 12 & 0x3F);
                dst._setByte(p++, 0x80 | cp >> 6 & 0x3F);
                dst._setByte(p++, 0x80 | cp & 0x3F);
            } else {
                dst._setByte(p++, REPLACEMENT);
            }
        }
        return p;
    }

    /**
     * As {@link #encode(CharSequence, int, int, byte[], int)} to raw memory from {@code address}; the caller has
     * made {@code encodedLength} bytes from there writable in a live Unsafe direct buffer.
     */
    static long encode(CharSequence seq, int start, int end, long address) {
        long p = address;
        int i = start;
        // Raw stores: the caller ensured [address, address + encodedLength) lies inside the buffer's memory.
        while (i < end) {
            char c = seq.charAt(i++);
            if (c < 0x80) {
                MemoryAccess.putByte(p++, (byte) c);
            } else if (c < 0x800) {
                MemoryAccess.putByte(p++, (byte) (0xC0 | c >> 6));
                MemoryAccess.putByte(p++, (byte) (0x80 | c & 0x3F));
            } else if (!Character.isSurrogate(c)) {
                MemoryAccess.putByte(p++, (byte) (0xE0 | c >> 12));
                MemoryAccess.putByte(p++, (byte) (0x80 | c >> 6 & 0x3F));
                MemoryAccess.putByte(p++, (byte) (0x80 | c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i < end && Character.isLowSurrogate(seq.charAt(i))) {
                int cp = Character.toCodePoint(c, seq.charAt(i++));
                MemoryAccess.putByte(p++, (byte) (0xF0 | cp >> 18));
                MemoryAccess.putByte(p++, (byte) (0x80 | cp >> 12 & 0x3F));
                MemoryAccess.putByte(p++, (byte) (0x80 | cp >> 6 & 0x3F));
                MemoryAccess.putByte(p++, (byte) (0x80 | cp & 0x3F));
            } else {
                MemoryAccess.putByte(p++, REPLACEMENT);
            }
        }
        return p;
    }

    /** Whether every byte of {@code buf[index, index + length)} is below 0x80; the range was checked. */
    static boolean isAscii(ByteBuf buf, int index, int length) {
        int end = index + length;
        int i = index;
        for (; i <= end - Long.BYTES; i += Long.BYTES) {
            if ((buf.getLong(i) & HIGH_BITS) != 0) {
                return false;
            }
        }
        for (; i < end; i++) {
            if (buf.getByte(i) < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code buf[index, index + length)} is well-formed UTF-8 as RFC 3629 §4 defines it: no overlong
     * forms, no encoded surrogates (U+D800..U+DFFF), nothing above U+10FFFF, no stray continuation bytes and
     * no sequence cut off by the end of the range. The range was checked.
     */
    static boolean isValid(ByteBuf buf, int index, int length) {
        int end = index + length;
        int i = index;
        while (i < end) {
            // Skip ASCII a word at a time; multi-byte text still pays only a single extra read per step.
            if (i <= end - Long.BYTES && (buf.getLong(i) & HIGH_BITS) == 0) {
                i += Long.BYTES;
                continue;
            }
            int b0 = buf.getByte(i) & 0xFF;
            if (b0 < 0x80) {
                i++;
                continue;
            }
            // RFC 3629 §4, UTF8-2 / UTF8-3 / UTF8-4: the lead byte fixes the length and the allowed range of
            // the first continuation byte; the other continuation bytes are always 80..BF.
            int need;
            int secondLow = 0x80;
            int secondHigh = 0xBF;
            if (b0 >= 0xC2 && b0 <= 0xDF) {
                need = 1;
            } else if (b0 >= 0xE0 && b0 <= 0xEF) {
                need = 2;
                if (b0 == 0xE0) {
                    secondLow = 0xA0; // below: overlong
                } else if (b0 == 0xED) {
                    secondHigh = 0x9F; // above: a surrogate
                }
            } else if (b0 >= 0xF0 && b0 <= 0xF4) {
                need = 3;
                if (b0 == 0xF0) {
                    secondLow = 0x90; // below: overlong
                } else if (b0 == 0xF4) {
                    secondHigh = 0x8F; // above: beyond U+10FFFF
                }
            } else {
                return false; // 80..BF stray continuation, C0/C1 overlong, F5..FF beyond U+10FFFF
            }
            if (need > end - i - 1) {
                return false;
            }
            int b1 = buf.getByte(i + 1) & 0xFF;
            if (b1 < secondLow || b1 > secondHigh) {
                return false;
            }
            for (int k = 2; k <= need; k++) {
                if ((buf.getByte(i + k) & 0xC0) != 0x80) {
                    return false;
                }
            }
            i += need + 1;
        }
        return true;
    }
}
