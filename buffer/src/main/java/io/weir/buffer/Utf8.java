package io.weir.buffer;

import io.weir.util.platform.ByteArrayStores;
import io.weir.util.platform.MemoryAccess;
import java.util.Objects;

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

    /**
     * Encodes {@code seq[start, end)} into {@code dst} from {@code offset}, writing nowhere at or past
     * {@code limit}; returns the index after the last byte.
     *
     * <p>Bounds are checked per chunk, not per store: a chunk is as many chars as fit below {@code limit} even at
     * three bytes each (a surrogate pair is four bytes for two chars, less), so no store inside it can pass the
     * limit whatever the chars turn out to be, and its stores go through {@link ByteArrayStores} unchecked. When
     * the room fits the worst case (the usual case) the whole text is one chunk; otherwise chunks shrink as the
     * room does and the last few chars are checked one by one.
     *
     * @throws IndexOutOfBoundsException if {@code [offset, limit)} is not inside {@code dst}, or the encoding does
     *         not fit below {@code limit} (callers size the room with {@link #encodedLength}, so only a sequence
     *         changed by another thread meanwhile gets here); the bytes before the limit may have been written
     */
    static int encode(CharSequence seq, int start, int end, byte[] dst, int offset, int limit) {
        // The one range check every unchecked store below relies on.
        Objects.checkFromToIndex(offset, limit, dst.length);
        int p = offset;
        int i = start;
        while (i < end) {
            int chunkEnd = chunkEnd(seq, i, end, limit - p);
            if (chunkEnd == i) {
                return encodeCheckedTail(seq, i, end, dst, p, limit);
            }
            p = encodeChunk(seq, i, chunkEnd, dst, p);
            i = chunkEnd;
        }
        return p;
    }

    /**
     * The end of the next chunk from {@code i}: the chars that fit in {@code roomBytes} at three bytes each, less a
     * trailing high surrogate when more text follows, so that a pair is never split between chunks.
     */
    private static int chunkEnd(CharSequence seq, int i, int end, long roomBytes) {
        int chunkEnd = i + (int) Math.min(end - i, roomBytes / MAX_BYTES_PER_CHAR);
        if (chunkEnd < end && chunkEnd > i && Character.isHighSurrogate(seq.charAt(chunkEnd - 1))) {
            chunkEnd--;
        }
        return chunkEnd;
    }

    /** {@code seq[i, chunkEnd)} from {@code dst[index]}; the caller proved 3 bytes per char fit inside {@code dst}. */
    private static int encodeChunk(CharSequence seq, int i, int chunkEnd, byte[] dst, int index) {
        long p = ByteArrayStores.offset(index);
        while (i < chunkEnd) {
            char c = seq.charAt(i++);
            if (c < 0x80) {
                ByteArrayStores.putByte(dst, p++, (byte) c);
            } else if (c < 0x800) {
                ByteArrayStores.putByte(dst, p++, (byte) (0xC0 | c >> 6));
                ByteArrayStores.putByte(dst, p++, (byte) (0x80 | c & 0x3F));
            } else if (!Character.isSurrogate(c)) {
                ByteArrayStores.putByte(dst, p++, (byte) (0xE0 | c >> 12));
                ByteArrayStores.putByte(dst, p++, (byte) (0x80 | c >> 6 & 0x3F));
                ByteArrayStores.putByte(dst, p++, (byte) (0x80 | c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i < chunkEnd && Character.isLowSurrogate(seq.charAt(i))) {
                // The low half is looked for inside the chunk only: chunkEnd never splits a pair.
                int cp = Character.toCodePoint(c, seq.charAt(i++));
                ByteArrayStores.putByte(dst, p++, (byte) (0xF0 | cp >> 18));
                ByteArrayStores.putByte(dst, p++, (byte) (0x80 | cp >> 12 & 0x3F));
                ByteArrayStores.putByte(dst, p++, (byte) (0x80 | cp >> 6 & 0x3F));
                ByteArrayStores.putByte(dst, p++, (byte) (0x80 | cp & 0x3F));
            } else {
                ByteArrayStores.putByte(dst, p++, REPLACEMENT);
            }
        }
        return ByteArrayStores.index(p);
    }

    /** The last chars, when fewer than three bytes per char are left: each checked against {@code limit}. */
    private static int encodeCheckedTail(CharSequence seq, int i, int end, byte[] dst, int p, int limit) {
        while (i < end) {
            int cp = codePointAt(seq, i, end);
            i += cp > 0xFFFF ? 2 : 1;
            int width = encodedWidth(cp);
            if (limit - p < width) {
                throw tooLong(limit);
            }
            p = put(dst, p, cp, width);
        }
        return p;
    }

    /**
     * The code point at {@code seq[i]}: the pair's code point when a high surrogate is followed by a low one
     * before {@code end}, {@code '?'} for any other surrogate, else the char.
     */
    private static int codePointAt(CharSequence seq, int i, int end) {
        char c = seq.charAt(i);
        if (!Character.isSurrogate(c)) {
            return c;
        }
        char low;
        if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(low = seq.charAt(i + 1))) {
            return Character.toCodePoint(c, low);
        }
        return REPLACEMENT;
    }

    private static int encodedWidth(int cp) {
        return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp <= 0xFFFF ? 3 : 4;
    }

    /** Writes {@code cp} (of the given encoded width) with ordinary, JVM-checked array stores. */
    private static int put(byte[] dst, int p, int cp, int width) {
        switch (width) {
            case 1 -> dst[p] = (byte) cp;
            case 2 -> {
                dst[p] = (byte) (0xC0 | cp >> 6);
                dst[p + 1] = (byte) (0x80 | cp & 0x3F);
            }
            case 3 -> {
                dst[p] = (byte) (0xE0 | cp >> 12);
                dst[p + 1] = (byte) (0x80 | cp >> 6 & 0x3F);
                dst[p + 2] = (byte) (0x80 | cp & 0x3F);
            }
            default -> {
                dst[p] = (byte) (0xF0 | cp >> 18);
                dst[p + 1] = (byte) (0x80 | cp >> 12 & 0x3F);
                dst[p + 2] = (byte) (0x80 | cp >> 6 & 0x3F);
                dst[p + 3] = (byte) (0x80 | cp & 0x3F);
            }
        }
        return p + width;
    }

    private static IndexOutOfBoundsException tooLong(long limit) {
        return new IndexOutOfBoundsException("the UTF-8 encoding no longer fits below " + limit
                + ": the text changed while it was written");
    }

    /**
     * As {@link #encode(CharSequence, int, int, byte[], int, int)} through the buffer's own unchecked byte store,
     * each char checked against {@code limit} (this path serves buffers with neither an array nor an address,
     * where a store costs more than the check); the caller has checked the buffer is live and not read-only.
     */
    static int encode(CharSequence seq, int start, int end, AbstractByteBuf dst, int index, int limit) {
        int p = index;
        int i = start;
        while (i < end) {
            int cp = codePointAt(seq, i, end);
            i += cp > 0xFFFF ? 2 : 1;
            int width = encodedWidth(cp);
            if (limit - p < width) {
                throw tooLong(limit);
            }
            switch (width) {
                case 1 -> dst._setByte(p, cp);
                case 2 -> {
                    dst._setByte(p, 0xC0 | cp >> 6);
                    dst._setByte(p + 1, 0x80 | cp & 0x3F);
                }
                case 3 -> {
                    dst._setByte(p, 0xE0 | cp >> 12);
                    dst._setByte(p + 1, 0x80 | cp >> 6 & 0x3F);
                    dst._setByte(p + 2, 0x80 | cp & 0x3F);
                }
                default -> {
                    dst._setByte(p, 0xF0 | cp >> 18);
                    dst._setByte(p + 1, 0x80 | cp >> 12 & 0x3F);
                    dst._setByte(p + 2, 0x80 | cp >> 6 & 0x3F);
                    dst._setByte(p + 3, 0x80 | cp & 0x3F);
                }
            }
            p += width;
        }
        return p;
    }

    /**
     * As {@link #encode(CharSequence, int, int, byte[], int, int)} to raw memory {@code [address, limit)} of a live
     * Unsafe direct buffer, chunk by chunk the same way, so a sequence changed meanwhile cannot write past the
     * buffer's memory.
     */
    static long encode(CharSequence seq, int start, int end, long address, long limit) {
        long p = address;
        int i = start;
        while (i < end) {
            int chunkEnd = chunkEnd(seq, i, end, limit - p);
            if (chunkEnd == i) {
                return encodeCheckedTail(seq, i, end, p, limit);
            }
            p = encodeChunk(seq, i, chunkEnd, p);
            i = chunkEnd;
        }
        return p;
    }

    private static long encodeChunk(CharSequence seq, int i, int chunkEnd, long p) {
        // Raw stores: the caller (chunkEnd) proved 3 bytes per char fit below the limit, inside the buffer's memory.
        while (i < chunkEnd) {
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
            } else if (Character.isHighSurrogate(c) && i < chunkEnd && Character.isLowSurrogate(seq.charAt(i))) {
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

    private static long encodeCheckedTail(CharSequence seq, int i, int end, long p, long limit) {
        while (i < end) {
            int cp = codePointAt(seq, i, end);
            i += cp > 0xFFFF ? 2 : 1;
            int width = encodedWidth(cp);
            if (limit - p < width) {
                throw tooLong(limit);
            }
            // Raw stores: checked against the limit just above.
            switch (width) {
                case 1 -> MemoryAccess.putByte(p, (byte) cp);
                case 2 -> {
                    MemoryAccess.putByte(p, (byte) (0xC0 | cp >> 6));
                    MemoryAccess.putByte(p + 1, (byte) (0x80 | cp & 0x3F));
                }
                case 3 -> {
                    MemoryAccess.putByte(p, (byte) (0xE0 | cp >> 12));
                    MemoryAccess.putByte(p + 1, (byte) (0x80 | cp >> 6 & 0x3F));
                    MemoryAccess.putByte(p + 2, (byte) (0x80 | cp & 0x3F));
                }
                default -> {
                    MemoryAccess.putByte(p, (byte) (0xF0 | cp >> 18));
                    MemoryAccess.putByte(p + 1, (byte) (0x80 | cp >> 12 & 0x3F));
                    MemoryAccess.putByte(p + 2, (byte) (0x80 | cp >> 6 & 0x3F));
                    MemoryAccess.putByte(p + 3, (byte) (0x80 | cp & 0x3F));
                }
            }
            p += width;
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
