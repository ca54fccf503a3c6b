package io.weir.buffer;

import io.weir.util.AsciiString;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Static helpers over {@link ByteBuf}s: hex dumps, UTF-8 and single-byte text encoding straight into a buffer,
 * charset encoding and decoding, content comparison and search, byte-array extraction and text validation.
 *
 * <p>Every method is thread-safe in itself and touches only the buffers it is given, under their usual
 * single-owner rule. None takes over a buffer it is given: the caller still owns and releases each one. A
 * method that returns a new buffer hands it to the caller, who must release it. Index arguments are absolute
 * (like {@link ByteBuf#getByte(int)}) and no reader or writer index moves unless the method says so.
 */
public final class ByteBufUtil {
    private ByteBufUtil() {
    }

    // ---- hex ----

    /** The readable bytes as lowercase hex, two digits per byte, e.g. {@code "0aff"}. */
    public static String hexDump(ByteBuf buf) {
        return hexDump(buf, buf.readerIndex(), buf.readableBytes());
    }

    /**
     * {@code buf[fromIndex, fromIndex + length)} as lowercase hex, two digits per byte.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code [0, capacity)}
     */
    public static String hexDump(ByteBuf buf, int fromIndex, int length) {
        AbstractByteBuf.checkArgRange("fromIndex", fromIndex, length, buf.capacity());
        if (buf.hasArray()) {
            return HexDump.hex(buf.array(), buf.arrayOffset() + fromIndex, length);
        }
        return HexDump.hex(getBytes(buf, fromIndex, length, true), 0, length);
    }

    /** {@code array} as lowercase hex, two digits per byte. */
    public static String hexDump(byte[] array) {
        return HexDump.hex(array, 0, array.length);
    }

    /**
     * {@code array[fromIndex, fromIndex + length)} as lowercase hex, two digits per byte.
     *
     * @throws IndexOutOfBoundsException if the range is not inside the array
     */
    public static String hexDump(byte[] array, int fromIndex, int length) {
        AbstractByteBuf.checkArgRange("fromIndex", fromIndex, length, array.length);
        return HexDump.hex(array, fromIndex, length);
    }

    /**
     * The bytes a hex string stands for; upper- and lowercase digits are accepted, nothing else (no spaces,
     * no {@code 0x} prefix).
     *
     * @throws IllegalArgumentException if the length is odd or a character is not a hex digit
     */
    public static byte[] decodeHexDump(CharSequence hexDump) {
        return HexDump.decode(hexDump, 0, hexDump.length());
    }

    /**
     * As {@link #decodeHexDump(CharSequence)} for {@code hexDump[fromIndex, fromIndex + length)}.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code hexDump}
     */
    public static byte[] decodeHexDump(CharSequence hexDump, int fromIndex, int length) {
        AbstractByteBuf.checkArgRange("fromIndex", fromIndex, length, hexDump.length());
        return HexDump.decode(hexDump, fromIndex, length);
    }

    /**
     * The readable bytes as a boxed table, 16 bytes per row, with row offsets counted from the reader index and
     * a text column; lines end with {@code '\n'}, the last one without. Empty for no readable bytes.
     */
    public static String prettyHexDump(ByteBuf buf) {
        return prettyHexDump(buf, buf.readerIndex(), buf.readableBytes());
    }

    /**
     * As {@link #prettyHexDump(ByteBuf)} for {@code buf[fromIndex, fromIndex + length)}.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code [0, capacity)}
     */
    public static String prettyHexDump(ByteBuf buf, int fromIndex, int length) {
        StringBuilder dump = new StringBuilder();
        appendPrettyHexDump(dump, buf, fromIndex, length);
        return dump.toString();
    }

    /** Appends {@link #prettyHexDump(ByteBuf)} of the readable bytes to {@code dump}. */
    public static void appendPrettyHexDump(StringBuilder dump, ByteBuf buf) {
        appendPrettyHexDump(dump, buf, buf.readerIndex(), buf.readableBytes());
    }

    /**
     * Appends {@link #prettyHexDump(ByteBuf, int, int)} to {@code dump}.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code [0, capacity)}
     */
    public static void appendPrettyHexDump(StringBuilder dump, ByteBuf buf, int fromIndex, int length) {
        Objects.requireNonNull(dump, "dump");
        HexDump.appendPretty(dump, getBytes(buf, fromIndex, length, true), length);
    }

    // ---- text into buffers ----

    /**
     * An upper bound of the UTF-8 length of any {@code charCount} chars: three bytes per char, saturating at
     * {@link Integer#MAX_VALUE} (more than any buffer holds).
     *
     * @throws IllegalArgumentException if {@code charCount} is negative
     */
    public static int utf8MaxBytes(int charCount) {
        if (charCount < 0) {
            throw new IllegalArgumentException("charCount: " + charCount + " (expected: >= 0)");
        }
        return (int) Math.min(Integer.MAX_VALUE, (long) charCount * Utf8.MAX_BYTES_PER_CHAR);
    }

    /**
     * The exact number of bytes {@link #writeUtf8} writes for {@code seq}, counted without encoding (an unpaired
     * surrogate counts as its one-byte {@code '?'}).
     *
     * @throws IllegalArgumentException if the count exceeds {@link Integer#MAX_VALUE}
     */
    public static int utf8Bytes(CharSequence seq) {
        if (seq instanceof AsciiString ascii) {
            return ascii.length();
        }
        return Utf8.encodedLength(seq, 0, seq.length());
    }

    /**
     * Writes {@code seq} as UTF-8 at the writer index and advances it, growing {@code buf} by exactly what is
     * missing if needed. A surrogate pair becomes one 4-byte sequence; an unpaired surrogate becomes {@code '?'}
     * (as {@link String#getBytes(Charset)} does). An {@link AsciiString} is copied as its bytes.
     *
     * @return the number of bytes written
     * @throws ReadOnlyBufferException if {@code buf} is read-only
     * @throws IndexOutOfBoundsException if the bytes would not fit within {@code buf}'s maximum capacity, or if
     *         another thread changes {@code seq} while it is written so that it no longer fits (then the writer
     *         index stays put; the writable bytes may have been overwritten)
     */
    public static int writeUtf8(ByteBuf buf, CharSequence seq) {
        return reserveAndWriteUtf8(buf, seq, 0);
    }

    /**
     * As {@link #writeUtf8(ByteBuf, CharSequence)}, first making at least {@code reserveBytes} writable, for a
     * caller that knows a good bound (and will write more after {@code seq}). Too small a reservation is
     * still correct: the buffer grows by what is missing.
     *
     * @return the number of bytes written
     * @throws IllegalArgumentException if {@code reserveBytes} is negative
     */
    public static int reserveAndWriteUtf8(ByteBuf buf, CharSequence seq, int reserveBytes) {
        Objects.requireNonNull(seq, "seq");
        if (reserveBytes < 0) {
            throw new IllegalArgumentException("reserveBytes: " + reserveBytes + " (expected: >= 0)");
        }
        if (buf.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
        if (seq instanceof AsciiString ascii) {
            buf.ensureWritable(Math.max(reserveBytes, ascii.length()));
            buf.writeBytes(ascii.array(), ascii.arrayOffset(), ascii.length());
            return ascii.length();
        }
        int length = seq.length();
        buf.ensureWritable(reserveBytes);
        // When the worst case fits, skip the counting pass; otherwise count so the buffer grows exactly.
        int bytes = utf8MaxBytes(length) <= buf.writableBytes() ? -1 : Utf8.encodedLength(seq, 0, length);
        if (bytes >= 0) {
            buf.ensureWritable(bytes);
        }
        int start = buf.writerIndex();
        // The encoders never write at or past the capacity (checked once per chunk of text, not per byte), so a
        // sequence changed by another thread between the count and the copy fails instead of overrunning.
        int capacity = buf.capacity();
        int end;
        if (buf.hasArray()) {
            int base = buf.arrayOffset();
            end = Utf8.encode(seq, 0, length, buf.array(), base + start, base + capacity) - base;
        } else if (buf.hasMemoryAddress()) {
            long base = buf.memoryAddress();
            end = (int) (Utf8.encode(seq, 0, length, base + start, base + capacity) - base);
        } else if (buf instanceof AbstractByteBuf abstractBuf) {
            // The writable range was made sure above, on a live, writable buffer: the unchecked stores stay
            // inside it.
            end = Utf8.encode(seq, 0, length, abstractBuf, start, capacity);
        } else {
            byte[] encoded = new byte[bytes >= 0 ? bytes : Utf8.encodedLength(seq, 0, length)];
            Utf8.encode(seq, 0, length, encoded, 0, encoded.length);
            buf.setBytes(start, encoded);
            end = start + encoded.length;
        }
        buf.writerIndex(end);
        return end - start;
    }

    /**
     * Writes {@code seq} one byte per char at the writer index and advances it: chars up to {@code 0xFF} as that
     * byte (ISO-8859-1; ASCII text is unchanged), anything above as {@code '?'}. An {@link AsciiString} is copied
     * as its bytes.
     *
     * @return the number of bytes written, {@code seq.length()}
     * @throws ReadOnlyBufferException if {@code buf} is read-only
     */
    public static int writeAscii(ByteBuf buf, CharSequence seq) {
        Objects.requireNonNull(seq, "seq");
        if (buf.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
        int length = seq.length();
        if (seq instanceof AsciiString ascii) {
            buf.writeBytes(ascii.array(), ascii.arrayOffset(), length);
            return length;
        }
        buf.ensureWritable(length);
        if (buf.hasArray()) {
            byte[] array = buf.array();
            int p = buf.arrayOffset() + buf.writerIndex();
            for (int i = 0; i < length; i++) {
                char c = seq.charAt(i);
                array[p + i] = (byte) (c > 0xFF ? '?' : c);
            }
            buf.writerIndex(buf.writerIndex() + length);
            return length;
        }
        return buf.writeCharSequence(seq, StandardCharsets.ISO_8859_1);
    }

    /**
     * A new buffer from {@code alloc} holding {@code src}'s remaining chars in {@code charset}; unmappable or
     * malformed input becomes the charset's replacement. {@code src}'s position does not move. The caller owns
     * the returned buffer.
     */
    public static ByteBuf encodeString(ByteBufAllocator alloc, CharBuffer src, Charset charset) {
        return encodeString(alloc, src, charset, 0);
    }

    /**
     * As {@link #encodeString(ByteBufAllocator, CharBuffer, Charset)} with {@code extraCapacity} more writable
     * bytes after the text, for a caller that appends to it.
     *
     * @throws IllegalArgumentException if {@code extraCapacity} is negative
     */
    public static ByteBuf encodeString(ByteBufAllocator alloc, CharBuffer src, Charset charset, int extraCapacity) {
        Objects.requireNonNull(alloc, "alloc");
        Objects.requireNonNull(src, "src");
        Objects.requireNonNull(charset, "charset");
        if (extraCapacity < 0) {
            throw new IllegalArgumentException("extraCapacity: " + extraCapacity + " (expected: >= 0)");
        }
        if (charset.equals(StandardCharsets.UTF_8)) {
            int bytes = Utf8.encodedLength(src, 0, src.remaining());
            ByteBuf dst = alloc.buffer(capacityFor(bytes, extraCapacity));
            try {
                reserveAndWriteUtf8(dst, src, bytes);
            } catch (Throwable t) {
                dst.release();
                throw t;
            }
            return dst;
        }
        CharsetEncoder encoder = charset.newEncoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        long worst = (long) Math.ceil(src.remaining() * (double) encoder.maxBytesPerChar());
        if (worst > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(src.remaining() + " chars may take " + worst + " bytes in " + charset
                    + " (expected: at most " + Integer.MAX_VALUE + ")");
        }
        int maxBytes = (int) worst;
        ByteBuf dst = alloc.buffer(capacityFor(maxBytes, extraCapacity));
        try {
            ByteBuffer out = dst.nioBuffer(0, maxBytes);
            CoderResult result = encoder.encode(src.duplicate(), out, true);
            if (!result.isUnderflow()) {
                result.throwException();
            }
            result = encoder.flush(out);
            if (!result.isUnderflow()) {
                result.throwException();
            }
            dst.writerIndex(out.position());
            return dst;
        } catch (CharacterCodingException e) {
            dst.release();
            // With REPLACE for both error kinds only an overflow is left, which the worst-case size rules out.
            throw new IllegalStateException("encoding to " + charset + " overflowed its worst-case size", e);
        } catch (Throwable t) {
            dst.release();
            throw t;
        }
    }

    private static int capacityFor(int bytes, int extraCapacity) {
        long capacity = (long) bytes + extraCapacity;
        if (capacity > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("bytes: " + bytes + " + extraCapacity: " + extraCapacity
                    + " (expected: at most " + Integer.MAX_VALUE + ")");
        }
        return (int) capacity;
    }

    /**
     * {@code src[index, index + length)} decoded with {@code charset}; malformed input becomes the replacement
     * character. No index moves.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code [0, capacity)}
     */
    public static String decodeString(ByteBuf src, int index, int length, Charset charset) {
        return src.toString(index, length, charset);
    }

    // ---- comparison and search ----

    /**
     * Whether {@code a[aStartIndex, aStartIndex + length)} and {@code b[bStartIndex, bStartIndex + length)} hold
     * the same bytes; {@code false} if either range reaches past its buffer's writer index.
     *
     * @throws IllegalArgumentException if an index or the length is negative
     */
    public static boolean equals(ByteBuf a, int aStartIndex, ByteBuf b, int bStartIndex, int length) {
        if (aStartIndex < 0 || bStartIndex < 0 || length < 0) {
            throw new IllegalArgumentException("aStartIndex: " + aStartIndex + ", bStartIndex: " + bStartIndex
                    + ", length: " + length + " (expected: all >= 0)");
        }
        if (a.writerIndex() - length < aStartIndex || b.writerIndex() - length < bStartIndex) {
            return false;
        }
        return mismatch(a, aStartIndex, b, bStartIndex, length) < 0;
    }

    /** Whether {@code a} and {@code b} have the same readable bytes, as {@link ByteBuf#equals(Object)}. */
    public static boolean equals(ByteBuf a, ByteBuf b) {
        if (a == b) {
            return true;
        }
        int length = a.readableBytes();
        return length == b.readableBytes() && mismatch(a, a.readerIndex(), b, b.readerIndex(), length) < 0;
    }

    /**
     * Compares the readable bytes as unsigned values, lexicographically, a proper prefix first: the same
     * result as {@link ByteBuf#compareTo(ByteBuf)} (the difference of the first differing bytes, else of the
     * lengths).
     */
    public static int compare(ByteBuf a, ByteBuf b) {
        int aLength = a.readableBytes();
        int bLength = b.readableBytes();
        int aIndex = a.readerIndex();
        int bIndex = b.readerIndex();
        int at = mismatch(a, aIndex, b, bIndex, Math.min(aLength, bLength));
        if (at < 0) {
            return aLength - bLength;
        }
        return a.getUnsignedByte(aIndex + at) - b.getUnsignedByte(bIndex + at);
    }

    /** The offset of the first differing byte of the two ranges, or -1; both ranges were checked. */
    private static int mismatch(ByteBuf a, int aIndex, ByteBuf b, int bIndex, int length) {
        int i = 0;
        for (; i <= length - Long.BYTES; i += Long.BYTES) {
            long diff = a.getLong(aIndex + i) ^ b.getLong(bIndex + i);
            if (diff != 0) {
                // Big-endian reads: the first differing byte holds the highest differing bit.
                return i + (Long.numberOfLeadingZeros(diff) >>> 3);
            }
        }
        for (; i < length; i++) {
            if (a.getByte(aIndex + i) != b.getByte(bIndex + i)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The absolute index in {@code haystack} where {@code needle}'s readable bytes first occur among
     * {@code haystack}'s readable bytes, or -1; an empty needle occurs at the reader index.
     *
     * <p>Finds candidates with the word-at-a-time scan for the needle's first byte and rejects most of them on
     * its last byte before comparing the rest eight bytes at a time, so ordinary text and binary data cost
     * about one pass. The worst case is O(n·m) for a haystack of n and a needle of m bytes, reached when
     * nearly every position matches both ends but not the middle (needle {@code "a…aba…a"} in {@code
     * "a…a"}); callers searching untrusted input with untrusted needles should bound both lengths.
     */
    public static int indexOf(ByteBuf needle, ByteBuf haystack) {
        int needleLength = needle.readableBytes();
        int start = haystack.readerIndex();
        if (needleLength == 0) {
            return start;
        }
        int lastStart = haystack.writerIndex() - needleLength;
        if (lastStart < start) {
            return -1;
        }
        int needleIndex = needle.readerIndex();
        byte first = needle.getByte(needleIndex);
        byte last = needle.getByte(needleIndex + needleLength - 1);
        int from = start;
        while (from <= lastStart) {
            int candidate = haystack.indexOf(from, lastStart + 1, first);
            if (candidate < 0) {
                return -1;
            }
            if (haystack.getByte(candidate + needleLength - 1) == last
                    && mismatch(needle, needleIndex, haystack, candidate, needleLength) < 0) {
                return candidate;
            }
            from = candidate + 1;
        }
        return -1;
    }

    // ---- copies into direct memory, for transports ----

    /**
     * A new direct buffer from {@code alloc} holding a copy of {@code src}'s readable bytes: for a heap (or
     * composite) buffer about to be written to a socket, which needs its bytes in native memory. The bytes are
     * copied once, straight from each backing array or memory region of {@code src} into the new buffer (no
     * temporary array), and {@code src} is left as it was: same indexes, same reference count, still owned by the
     * caller, who releases it when done.
     *
     * @return a direct buffer with capacity and readable bytes {@code src.readableBytes()}, owned by the caller
     * @throws io.weir.util.IllegalReferenceCountException if {@code src} was released
     * @throws io.weir.util.OutOfDirectMemoryError if the direct-memory limit is reached
     */
    public static ByteBuf copyToDirect(ByteBufAllocator alloc, ByteBuf src) {
        Objects.requireNonNull(alloc, "alloc");
        // Before allocating: a released buffer may already report a capacity of 0 and fail on that instead.
        // Every ByteBuf is an AbstractByteBuf: ByteBuf's constructor is package-private.
        ((AbstractByteBuf) src).ensureAccessible();
        int length = src.readableBytes();
        ByteBuf copy = alloc.directBuffer(length);
        try {
            copy.writeBytes(src, src.readerIndex(), length);
        } catch (Throwable t) {
            copy.release();
            throw t;
        }
        return copy;
    }

    /**
     * A new direct buffer from {@code alloc} holding a copy of {@code src}'s remaining bytes. Works for every
     * kind of ByteBuffer, including a read-only heap one, whose array is not accessible: the bytes go from its
     * memory straight into the new buffer's memory in one bulk copy, without a temporary array. {@code src} is
     * read through a duplicate, so its position, limit and mark are never touched, not even for a moment: a
     * read-only constant shared by many threads may be passed as is.
     *
     * @return a direct buffer with capacity and readable bytes {@code src.remaining()}, owned by the caller
     * @throws io.weir.util.OutOfDirectMemoryError if the direct-memory limit is reached
     */
    public static ByteBuf copyToDirect(ByteBufAllocator alloc, ByteBuffer src) {
        Objects.requireNonNull(alloc, "alloc");
        // The duplicate shares the bytes (no copy) and carries position and limit; writing from it advances its
        // position, not the caller's.
        ByteBuffer view = src.duplicate();
        ByteBuf copy = alloc.directBuffer(view.remaining());
        try {
            copy.writeBytes(view);
        } catch (Throwable t) {
            copy.release();
            throw t;
        }
        return copy;
    }

    // ---- byte arrays ----

    /**
     * Writes {@code src}'s bytes at {@code dst}'s writer index and advances it, growing {@code dst} if needed.
     *
     * @throws IndexOutOfBoundsException if they would not fit within {@code dst}'s maximum capacity
     */
    public static void copy(AsciiString src, ByteBuf dst) {
        dst.writeBytes(src.array(), src.arrayOffset(), src.length());
    }

    /**
     * Copies {@code src[srcIndex, srcIndex + length)} to {@code dst[dstIndex, dstIndex + length)}; no index moves.
     *
     * @throws IndexOutOfBoundsException if either range is out of bounds
     */
    public static void copy(AsciiString src, int srcIndex, ByteBuf dst, int dstIndex, int length) {
        AbstractByteBuf.checkArgRange("srcIndex", srcIndex, length, src.length());
        dst.setBytes(dstIndex, src.array(), src.arrayOffset() + srcIndex, length);
    }

    /** A new array holding the readable bytes. */
    public static byte[] getBytes(ByteBuf buf) {
        return getBytes(buf, buf.readerIndex(), buf.readableBytes(), true);
    }

    /**
     * A new array holding {@code buf[start, start + length)}.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code [0, capacity)}
     */
    public static byte[] getBytes(ByteBuf buf, int start, int length) {
        return getBytes(buf, start, length, true);
    }

    /**
     * {@code buf[start, start + length)} as an array. With {@code copy} false and a heap buffer whose backing
     * array is exactly that range, the backing array itself is returned (shared: writes go both ways, and it is
     * valid only while {@code buf} is live and its capacity unchanged); otherwise a new array.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code [0, capacity)}
     */
    public static byte[] getBytes(ByteBuf buf, int start, int length, boolean copy) {
        AbstractByteBuf.checkArgRange("start", start, length, buf.capacity());
        if (!copy && buf.hasArray()) {
            byte[] array = buf.array();
            if (buf.arrayOffset() + start == 0 && array.length == length) {
                return array;
            }
        }
        byte[] bytes = new byte[length];
        buf.getBytes(start, bytes, 0, length);
        return bytes;
    }

    // ---- text validation ----

    /** {@link #isText(ByteBuf, int, int, Charset)} of the readable bytes. */
    public static boolean isText(ByteBuf buf, Charset charset) {
        return isText(buf, buf.readerIndex(), buf.readableBytes(), charset);
    }

    /**
     * Whether {@code buf[index, index + length)} is valid text in {@code charset}. UTF-8 is checked strictly
     * (RFC 3629: no overlong forms, no encoded surrogates, nothing above U+10FFFF, no truncated sequence),
     * US-ASCII as bytes below 0x80; every byte sequence is ISO-8859-1; other charsets are tried with a
     * reporting decoder.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code [0, capacity)}
     */
    public static boolean isText(ByteBuf buf, int index, int length, Charset charset) {
        Objects.requireNonNull(buf, "buf");
        Objects.requireNonNull(charset, "charset");
        AbstractByteBuf.checkArgRange("index", index, length, buf.capacity());
        if (charset.equals(StandardCharsets.UTF_8)) {
            return Utf8.isValid(buf, index, length);
        }
        if (charset.equals(StandardCharsets.US_ASCII)) {
            return Utf8.isAscii(buf, index, length);
        }
        if (charset.equals(StandardCharsets.ISO_8859_1)) {
            return true;
        }
        CharsetDecoder decoder = charset.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            decoder.decode(ByteBuffer.wrap(getBytes(buf, index, length, true)));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
