package io.weir.util;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * An immutable string of single-byte characters (US-ASCII / ISO-8859-1) backed by a {@code byte[]} range,
 * for protocol tokens such as header names and methods: it is written to the network without encoding,
 * compared with vectorised array comparisons and hashed once.
 *
 * <p>Each {@code char} is one byte: {@link #charAt} returns the byte as an unsigned value 0–255. Built from a
 * {@link CharSequence}, characters above {@code 0xFF} become {@code '?'}. Case-insensitive operations
 * ({@link #contentEqualsIgnoreCase}, {@link #hashCodeIgnoreCase()}, {@link #toLowerCase()}, …) fold only
 * the ASCII letters {@code A–Z}/{@code a–z}, as HTTP requires.
 *
 * <p><b>Sharing.</b> {@link #subSequence}, {@link #trim} and {@link #split} share this string's array; the
 * constructors that take a {@code byte[]} copy it unless told otherwise. An AsciiString made over an array
 * the caller keeps writing to is not immutable: only pass {@code copy = false} for arrays nobody changes.
 *
 * <p>{@link #equals} is true only for another AsciiString with the same bytes; use
 * {@link #contentEquals(CharSequence)} to compare with a {@link String}. {@link #hashCode()} equals
 * {@link String#hashCode()} of the same characters, so {@link #hashCode(CharSequence)} agrees across types.
 * Instances are thread-safe (hashes and the string form are cached with benign races).
 */
public final class AsciiString implements CharSequence, Comparable<CharSequence> {
    /** The empty string. */
    public static final AsciiString EMPTY_STRING = cached("");
    /** Returned by the search methods when nothing was found. */
    public static final int INDEX_NOT_FOUND = -1;

    private static final byte REPLACEMENT = '?';
    private static final int MAX_CHAR_VALUE = 0xFF;
    private static final int HASH_MULTIPLIER = 31;

    private final byte[] value;
    private final int offset;
    private final int length;
    // Benign races, as in java.lang.String: a reader sees either 0/false (and recomputes) or the final value.
    private int hash;
    private boolean hashIsZero;
    private int hashIgnoreCase;
    private boolean hashIgnoreCaseIsZero;
    private String string;

    /** A string over a copy of {@code value}. */
    public AsciiString(byte[] value) {
        this(value, 0, value.length, true);
    }

    /** A string over {@code value}, copied when {@code copy}, shared (see the class notes) otherwise. */
    public AsciiString(byte[] value, boolean copy) {
        this(value, 0, value.length, copy);
    }

    /**
     * A string over {@code value[start, start + length)}, copied when {@code copy}.
     *
     * @throws IndexOutOfBoundsException if the range does not fit {@code value}
     */
    public AsciiString(byte[] value, int start, int length, boolean copy) {
        Objects.checkFromIndexSize(start, length, value.length);
        if (copy) {
            this.value = Arrays.copyOfRange(value, start, start + length);
            this.offset = 0;
        } else {
            this.value = value;
            this.offset = start;
        }
        this.length = length;
    }

    /** A string holding {@code value}'s characters, those above {@code 0xFF} replaced by {@code '?'}. */
    public AsciiString(CharSequence value) {
        this(value, 0, value.length());
    }

    /**
     * A string holding {@code value}'s characters {@code [start, start + length)}, those above {@code 0xFF}
     * replaced by {@code '?'}.
     *
     * @throws IndexOutOfBoundsException if the range does not fit {@code value}
     */
    public AsciiString(CharSequence value, int start, int length) {
        Objects.checkFromIndexSize(start, length, value.length());
        if (value instanceof String s) {
            // ISO-8859-1 encoding maps 0x00-0xFF one to one and replaces everything else with '?'.
            this.value = s.substring(start, start + length).getBytes(StandardCharsets.ISO_8859_1);
        } else if (value instanceof AsciiString a) {
            this.value = Arrays.copyOfRange(a.value, a.offset + start, a.offset + start + length);
        } else {
            byte[] bytes = new byte[length];
            for (int i = 0; i < length; i++) {
                bytes[i] = c2b(value.charAt(start + i));
            }
            this.value = bytes;
        }
        this.offset = 0;
        this.length = length;
    }

    private AsciiString(byte[] value, String string) {
        this.value = value;
        this.offset = 0;
        this.length = value.length;
        this.string = string;
    }

    /** {@code value} itself if it is an AsciiString, else a new one holding its characters. */
    public static AsciiString of(CharSequence value) {
        return value instanceof AsciiString a ? a : new AsciiString(value);
    }

    /**
     * An AsciiString that keeps {@code value} as its {@link #toString()}, for constants that are also logged
     * or put in Java maps. Characters above {@code 0xFF} become {@code '?'} in the bytes only.
     */
    public static AsciiString cached(String value) {
        return new AsciiString(value.getBytes(StandardCharsets.ISO_8859_1), value);
    }

    // ---- CharSequence ----

    @Override
    public int length() {
        return length;
    }

    @Override
    public boolean isEmpty() {
        return length == 0;
    }

    /**
     * The byte at {@code index} as an unsigned character (0–255).
     *
     * @throws IndexOutOfBoundsException if {@code index} is outside {@code [0, length())}
     */
    @Override
    public char charAt(int index) {
        return b2c(byteAt(index));
    }

    /**
     * The byte at {@code index}.
     *
     * @throws IndexOutOfBoundsException if {@code index} is outside {@code [0, length())}
     */
    public byte byteAt(int index) {
        Objects.checkIndex(index, length);
        return value[offset + index];
    }

    /** Characters {@code [start, end)}, sharing this string's array. */
    @Override
    public AsciiString subSequence(int start, int end) {
        return subSequence(start, end, false);
    }

    /** Characters {@code [start, length())}, sharing this string's array. */
    public AsciiString subSequence(int start) {
        return subSequence(start, length, false);
    }

    /**
     * Characters {@code [start, end)}, in a new array when {@code copy}, else sharing this one's.
     *
     * @throws IndexOutOfBoundsException if {@code [start, end)} is not within {@code [0, length())}
     */
    public AsciiString subSequence(int start, int end, boolean copy) {
        Objects.checkFromToIndex(start, end, length);
        if (start == 0 && end == length && !copy) {
            return this;
        }
        if (start == end) {
            return EMPTY_STRING;
        }
        return new AsciiString(value, offset + start, end - start, copy);
    }

    /** The characters as a String (cached). */
    @Override
    public String toString() {
        String s = string;
        if (s == null) {
            s = new String(value, offset, length, StandardCharsets.ISO_8859_1);
            string = s;
        }
        return s;
    }

    /** Characters {@code [start, end)} as a String. */
    public String toString(int start, int end) {
        Objects.checkFromToIndex(start, end, length);
        return new String(value, offset + start, end - start, StandardCharsets.ISO_8859_1);
    }

    // ---- the backing array ----

    /** The backing array itself, not a copy: read-only by contract; see {@link #arrayOffset()}. */
    public byte[] array() {
        return value;
    }

    /** Where this string's first byte is in {@link #array()}. */
    public int arrayOffset() {
        return offset;
    }

    /** Whether this string spans its whole backing array. */
    public boolean isEntireArrayUsed() {
        return offset == 0 && length == value.length;
    }

    /** A new array holding this string's bytes. */
    public byte[] toByteArray() {
        return toByteArray(0, length);
    }

    /**
     * A new array holding bytes {@code [start, end)}.
     *
     * @throws IndexOutOfBoundsException if the range is not within {@code [0, length())}
     */
    public byte[] toByteArray(int start, int end) {
        Objects.checkFromToIndex(start, end, length);
        return Arrays.copyOfRange(value, offset + start, offset + end);
    }

    /**
     * Copies bytes {@code [srcIndex, srcIndex + length)} into {@code dst} at {@code dstIndex}.
     *
     * @throws IndexOutOfBoundsException if a range does not fit
     */
    public void copy(int srcIndex, byte[] dst, int dstIndex, int length) {
        Objects.checkFromIndexSize(srcIndex, length, this.length);
        System.arraycopy(value, offset + srcIndex, dst, dstIndex, length);
    }

    /** This string with its own array of exactly {@link #length()} bytes (this one if already so). */
    public AsciiString copy() {
        return isEntireArrayUsed() ? this : new AsciiString(value, offset, length, true);
    }

    /**
     * Calls {@code processor} for each byte in order until it returns {@code false}.
     *
     * @return the index of the byte that stopped the scan, or {@value #INDEX_NOT_FOUND}
     */
    public int forEachByte(ByteProcessor processor) {
        return forEachByte(0, length, processor);
    }

    /**
     * {@link #forEachByte(ByteProcessor)} over {@code [index, index + length)}.
     *
     * @throws IndexOutOfBoundsException if the range does not fit
     */
    public int forEachByte(int index, int length, ByteProcessor processor) {
        Objects.checkFromIndexSize(index, length, this.length);
        int end = offset + index + length;
        for (int i = offset + index; i < end; i++) {
            if (!processor.process(value[i])) {
                return i - offset;
            }
        }
        return INDEX_NOT_FOUND;
    }

    /**
     * Like {@link #forEachByte(int, int, ByteProcessor)} but from the last byte of the range backwards.
     *
     * @throws IndexOutOfBoundsException if the range does not fit
     */
    public int forEachByteDesc(int index, int length, ByteProcessor processor) {
        Objects.checkFromIndexSize(index, length, this.length);
        int start = offset + index;
        for (int i = start + length - 1; i >= start; i--) {
            if (!processor.process(value[i])) {
                return i - offset;
            }
        }
        return INDEX_NOT_FOUND;
    }

    // ---- comparison and hashing ----

    /**
     * Java's string hash ({@code s[0]*31^(n-1) + … + s[n-1]}) of the unsigned bytes: equal to
     * {@link String#hashCode()} of {@link #toString()}. Computed once.
     */
    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0 && !hashIsZero) {
            h = 0;
            byte[] v = value;
            for (int i = offset, end = offset + length; i < end; i++) {
                h = HASH_MULTIPLIER * h + (v[i] & 0xFF);
            }
            if (h == 0) {
                hashIsZero = true;
            } else {
                hash = h;
            }
        }
        return h;
    }

    /** A hash equal for strings that are {@link #contentEqualsIgnoreCase equal ignoring ASCII case}. Computed once. */
    public int hashCodeIgnoreCase() {
        int h = hashIgnoreCase;
        if (h == 0 && !hashIgnoreCaseIsZero) {
            h = 0;
            byte[] v = value;
            for (int i = offset, end = offset + length; i < end; i++) {
                h = HASH_MULTIPLIER * h + (toLowerCase(v[i]) & 0xFF);
            }
            if (h == 0) {
                hashIgnoreCaseIsZero = true;
            } else {
                hashIgnoreCase = h;
            }
        }
        return h;
    }

    /**
     * The hash of {@code value}'s characters, agreeing with {@link #contentEquals(CharSequence, CharSequence)}:
     * the same for a String, an AsciiString or any CharSequence with the same characters. {@code null}: 0.
     */
    public static int hashCode(CharSequence value) {
        if (value == null) {
            return 0;
        }
        if (value instanceof AsciiString || value instanceof String) {
            return value.hashCode();
        }
        int h = 0;
        for (int i = 0, n = value.length(); i < n; i++) {
            h = HASH_MULTIPLIER * h + value.charAt(i);
        }
        return h;
    }

    /**
     * A hash agreeing with {@link #contentEqualsIgnoreCase(CharSequence, CharSequence)} for any CharSequence.
     * {@code null}: 0.
     */
    public static int hashCodeIgnoreCase(CharSequence value) {
        if (value == null) {
            return 0;
        }
        if (value instanceof AsciiString a) {
            return a.hashCodeIgnoreCase();
        }
        int h = 0;
        for (int i = 0, n = value.length(); i < n; i++) {
            h = HASH_MULTIPLIER * h + toLowerCase(value.charAt(i));
        }
        return h;
    }

    /** True only for an AsciiString with the same bytes; see {@link #contentEquals(CharSequence)}. */
    @Override
    public boolean equals(Object obj) {
        if (this == obj) {
            return true;
        }
        if (!(obj instanceof AsciiString other)) {
            return false;
        }
        // Hashes are compared only when both are cached already: computing them costs more than comparing.
        int h = hash;
        int otherHash = other.hash;
        return length == other.length
                && (h == 0 || otherHash == 0 || h == otherHash)
                && Arrays.equals(value, offset, offset + length, other.value, other.offset, other.offset + length);
    }

    /** Whether {@code other} has exactly these characters; fastest when it is an AsciiString. */
    public boolean contentEquals(CharSequence other) {
        if (other == this) {
            return true;
        }
        if (other == null || other.length() != length) {
            return false;
        }
        if (other instanceof AsciiString a) {
            return Arrays.equals(value, offset, offset + length, a.value, a.offset, a.offset + length);
        }
        for (int i = 0; i < length; i++) {
            if (b2c(value[offset + i]) != other.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code other} has these characters, ignoring the case of ASCII letters. */
    public boolean contentEqualsIgnoreCase(CharSequence other) {
        if (other == this) {
            return true;
        }
        if (other == null || other.length() != length) {
            return false;
        }
        if (other instanceof AsciiString a) {
            byte[] v = value;
            byte[] w = a.value;
            for (int i = offset, j = a.offset, end = offset + length; i < end; i++, j++) {
                byte x = v[i];
                byte y = w[j];
                if (x != y && toLowerCase(x) != toLowerCase(y)) {
                    return false;
                }
            }
            return true;
        }
        for (int i = 0; i < length; i++) {
            char x = b2c(value[offset + i]);
            char y = other.charAt(i);
            if (x != y && toLowerCase(x) != toLowerCase(y)) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code a} and {@code b} have the same characters ({@code null} equals only {@code null}). */
    public static boolean contentEquals(CharSequence a, CharSequence b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null) {
            return false;
        }
        if (a instanceof AsciiString s) {
            return s.contentEquals(b);
        }
        if (b instanceof AsciiString s) {
            return s.contentEquals(a);
        }
        if (a instanceof String s) {
            return s.contentEquals(b);
        }
        if (b instanceof String s) {
            return s.contentEquals(a);
        }
        int n = a.length();
        if (n != b.length()) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (a.charAt(i) != b.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code a} and {@code b} have the same characters ignoring ASCII case ({@code null} equals only
     * {@code null}).
     */
    public static boolean contentEqualsIgnoreCase(CharSequence a, CharSequence b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null) {
            return false;
        }
        if (a instanceof AsciiString s) {
            return s.contentEqualsIgnoreCase(b);
        }
        if (b instanceof AsciiString s) {
            return s.contentEqualsIgnoreCase(a);
        }
        int n = a.length();
        if (n != b.length()) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y && toLowerCase(x) != toLowerCase(y)) {
                return false;
            }
        }
        return true;
    }

    /** Compares character by character, like {@link String#compareTo}. */
    @Override
    public int compareTo(CharSequence other) {
        if (this == other) {
            return 0;
        }
        int otherLength = other.length();
        int n = Math.min(length, otherLength);
        if (other instanceof AsciiString a) {
            int mismatch = Arrays.mismatch(value, offset, offset + n, a.value, a.offset, a.offset + n);
            if (mismatch >= 0) {
                return (value[offset + mismatch] & 0xFF) - (a.value[a.offset + mismatch] & 0xFF);
            }
            return length - otherLength;
        }
        for (int i = 0; i < n; i++) {
            int d = b2c(value[offset + i]) - other.charAt(i);
            if (d != 0) {
                return d;
            }
        }
        return length - otherLength;
    }

    /**
     * Whether {@code [thisStart, thisStart + length)} of this string equals {@code [start, start + length)} of
     * {@code other} (ignoring ASCII case when asked). Out-of-range regions give {@code false}, as in String.
     */
    public boolean regionMatches(boolean ignoreCase, int thisStart, CharSequence other, int start, int length) {
        Objects.requireNonNull(other, "other");
        if (thisStart < 0 || start < 0 || length < 0
                || thisStart > this.length - length || start > other.length() - length) {
            return false;
        }
        if (!ignoreCase && other instanceof AsciiString a) {
            return Arrays.equals(value, offset + thisStart, offset + thisStart + length,
                    a.value, a.offset + start, a.offset + start + length);
        }
        for (int i = 0; i < length; i++) {
            char x = b2c(value[offset + thisStart + i]);
            char y = other.charAt(start + i);
            if (x != y && (!ignoreCase || toLowerCase(x) != toLowerCase(y))) {
                return false;
            }
        }
        return true;
    }

    // ---- searching ----

    /** Whether this string starts with {@code prefix}. */
    public boolean startsWith(CharSequence prefix) {
        return regionMatches(false, 0, prefix, 0, prefix.length());
    }

    /** Whether this string ends with {@code suffix}. */
    public boolean endsWith(CharSequence suffix) {
        int n = suffix.length();
        return regionMatches(false, length - n, suffix, 0, n);
    }

    /** Whether {@code sub} occurs in this string. */
    public boolean contains(CharSequence sub) {
        return indexOf(sub, 0) >= 0;
    }

    /** The first index of {@code ch} at or after {@code start}, or {@value #INDEX_NOT_FOUND}. */
    public int indexOf(char ch, int start) {
        if (ch > MAX_CHAR_VALUE) {
            return INDEX_NOT_FOUND;
        }
        byte b = (byte) ch;
        byte[] v = value;
        for (int i = offset + Math.max(start, 0), end = offset + length; i < end; i++) {
            if (v[i] == b) {
                return i - offset;
            }
        }
        return INDEX_NOT_FOUND;
    }

    /** The first index of {@code ch}, or {@value #INDEX_NOT_FOUND}. */
    public int indexOf(char ch) {
        return indexOf(ch, 0);
    }

    /** The first index of {@code sub} at or after {@code start}, or {@value #INDEX_NOT_FOUND}. */
    public int indexOf(CharSequence sub, int start) {
        int n = sub.length();
        start = Math.max(start, 0);
        if (n == 0) {
            return Math.min(start, length);
        }
        char first = sub.charAt(0);
        if (first > MAX_CHAR_VALUE) {
            return INDEX_NOT_FOUND;
        }
        int last = length - n;
        for (int i = start; i <= last; i++) {
            i = indexOf(first, i);
            if (i < 0 || i > last) {
                return INDEX_NOT_FOUND;
            }
            if (regionMatches(false, i + 1, sub, 1, n - 1)) {
                return i;
            }
        }
        return INDEX_NOT_FOUND;
    }

    /** The first index of {@code sub}, or {@value #INDEX_NOT_FOUND}. */
    public int indexOf(CharSequence sub) {
        return indexOf(sub, 0);
    }

    /** The last index of {@code ch} at or before {@code start}, or {@value #INDEX_NOT_FOUND}. */
    public int lastIndexOf(char ch, int start) {
        if (ch > MAX_CHAR_VALUE) {
            return INDEX_NOT_FOUND;
        }
        byte b = (byte) ch;
        for (int i = Math.min(start, length - 1); i >= 0; i--) {
            if (value[offset + i] == b) {
                return i;
            }
        }
        return INDEX_NOT_FOUND;
    }

    /** The last index of {@code ch}, or {@value #INDEX_NOT_FOUND}. */
    public int lastIndexOf(char ch) {
        return lastIndexOf(ch, length - 1);
    }

    /** The last index of {@code sub} starting at or before {@code start}, or {@value #INDEX_NOT_FOUND}. */
    public int lastIndexOf(CharSequence sub, int start) {
        int n = sub.length();
        for (int i = Math.min(start, length - n); i >= 0; i--) {
            if (regionMatches(false, i, sub, 0, n)) {
                return i;
            }
        }
        return INDEX_NOT_FOUND;
    }

    /** The last index of {@code sub}, or {@value #INDEX_NOT_FOUND}. */
    public int lastIndexOf(CharSequence sub) {
        return lastIndexOf(sub, length);
    }

    // ---- derived strings ----

    /** This string with ASCII letters in lower case; {@code this} when there are none in upper case. */
    public AsciiString toLowerCase() {
        int first = offset;
        int end = offset + length;
        while (first < end && !isUpperCase(value[first])) {
            first++;
        }
        if (first == end) {
            return this;
        }
        byte[] lower = Arrays.copyOfRange(value, offset, end);
        for (int i = first - offset; i < length; i++) {
            lower[i] = toLowerCase(lower[i]);
        }
        return new AsciiString(lower, false);
    }

    /** This string with ASCII letters in upper case; {@code this} when there are none in lower case. */
    public AsciiString toUpperCase() {
        int first = offset;
        int end = offset + length;
        while (first < end && !isLowerCase(value[first])) {
            first++;
        }
        if (first == end) {
            return this;
        }
        byte[] upper = Arrays.copyOfRange(value, offset, end);
        for (int i = first - offset; i < length; i++) {
            upper[i] = toUpperCase(upper[i]);
        }
        return new AsciiString(upper, false);
    }

    /** This string without leading and trailing bytes {@code <= ' '} (as {@link String#trim()}); shares the array. */
    public AsciiString trim() {
        int start = offset;
        int end = offset + length;
        while (start < end && (value[start] & 0xFF) <= ' ') {
            start++;
        }
        while (end > start && (value[end - 1] & 0xFF) <= ' ') {
            end--;
        }
        return subSequence(start - offset, end - offset);
    }

    /**
     * Splits around {@code delimiter} like {@code String.split} with a one-character literal: trailing empty
     * parts are dropped, and a string without the delimiter gives itself. Parts share this string's array.
     */
    public AsciiString[] split(char delimiter) {
        if (delimiter > MAX_CHAR_VALUE) {
            return new AsciiString[] {this};
        }
        byte d = (byte) delimiter;
        int end = offset + length;
        // Trailing empty parts are dropped, so only bytes up to the last non-delimiter matter.
        while (end > offset && value[end - 1] == d) {
            end--;
        }
        if (end == offset) {
            return length == 0 ? new AsciiString[] {this} : new AsciiString[0];
        }
        int parts = 1;
        for (int i = offset; i < end; i++) {
            if (value[i] == d) {
                parts++;
            }
        }
        AsciiString[] result = new AsciiString[parts];
        int part = 0;
        int start = offset;
        for (int i = offset; i < end; i++) {
            if (value[i] == d) {
                result[part++] = subSequence(start - offset, i - offset);
                start = i + 1;
            }
        }
        result[part] = subSequence(start - offset, end - offset);
        return result;
    }

    /** This string followed by {@code other}'s characters (above {@code 0xFF} replaced by {@code '?'}). */
    public AsciiString concat(CharSequence other) {
        int n = other.length();
        if (n == 0) {
            return this;
        }
        if (length == 0) {
            return of(other);
        }
        byte[] joined = Arrays.copyOfRange(value, offset, offset + length + n);
        if (other instanceof AsciiString a) {
            System.arraycopy(a.value, a.offset, joined, length, n);
        } else {
            for (int i = 0; i < n; i++) {
                joined[length + i] = c2b(other.charAt(i));
            }
        }
        return new AsciiString(joined, false);
    }

    // ---- numbers ----

    /**
     * This string as a signed decimal int ({@code [+-]?[0-9]+}), without creating a String.
     *
     * @throws NumberFormatException if it is empty, has any other character, or overflows
     */
    public int parseInt() {
        return parseInt(0, length);
    }

    /**
     * Characters {@code [start, end)} as a signed decimal int.
     *
     * @throws NumberFormatException if they are empty, have any other character, or overflow
     * @throws IndexOutOfBoundsException if the range is not within {@code [0, length())}
     */
    public int parseInt(int start, int end) {
        long result = parseLong(start, end, Integer.MIN_VALUE, Integer.MAX_VALUE);
        return (int) result;
    }

    /**
     * This string as a signed decimal long ({@code [+-]?[0-9]+}), without creating a String.
     *
     * @throws NumberFormatException if it is empty, has any other character, or overflows
     */
    public long parseLong() {
        return parseLong(0, length);
    }

    /**
     * Characters {@code [start, end)} as a signed decimal long.
     *
     * @throws NumberFormatException if they are empty, have any other character, or overflow
     * @throws IndexOutOfBoundsException if the range is not within {@code [0, length())}
     */
    public long parseLong(int start, int end) {
        return parseLong(start, end, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    private long parseLong(int start, int end, long min, long max) {
        Objects.checkFromToIndex(start, end, length);
        int i = offset + start;
        int stop = offset + end;
        boolean negative = false;
        if (i < stop && (value[i] == '-' || value[i] == '+')) {
            negative = value[i] == '-';
            i++;
        }
        if (i == stop) {
            throw numberFormat(start, end);
        }
        // Accumulate negatively: the negative range is one larger, so MIN_VALUE parses without overflow.
        long limit = negative ? min : -max;
        long multiplyLimit = limit / 10;
        long result = 0;
        for (; i < stop; i++) {
            int digit = value[i] - '0';
            if (digit < 0 || digit > 9 || result < multiplyLimit) {
                throw numberFormat(start, end);
            }
            result *= 10;
            if (result < limit + digit) {
                throw numberFormat(start, end);
            }
            result -= digit;
        }
        return negative ? result : -result;
    }

    private NumberFormatException numberFormat(int start, int end) {
        return new NumberFormatException("not a decimal number in range: \"" + toString(start, end) + '"');
    }

    // ---- single characters ----

    /** {@code b} lower-cased if it is an ASCII upper-case letter. */
    public static byte toLowerCase(byte b) {
        return isUpperCase(b) ? (byte) (b + ('a' - 'A')) : b;
    }

    /** {@code b} upper-cased if it is an ASCII lower-case letter. */
    public static byte toUpperCase(byte b) {
        return isLowerCase(b) ? (byte) (b - ('a' - 'A')) : b;
    }

    /** {@code c} lower-cased if it is an ASCII upper-case letter. */
    public static char toLowerCase(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
    }

    /** Whether {@code b} is an ASCII upper-case letter. */
    public static boolean isUpperCase(byte b) {
        return b >= 'A' && b <= 'Z';
    }

    /** Whether {@code b} is an ASCII lower-case letter. */
    public static boolean isLowerCase(byte b) {
        return b >= 'a' && b <= 'z';
    }

    /** {@code c} as a byte, {@code '?'} if above {@code 0xFF}. */
    public static byte c2b(char c) {
        return c > MAX_CHAR_VALUE ? REPLACEMENT : (byte) c;
    }

    /** {@code b} as an unsigned character. */
    public static char b2c(byte b) {
        return (char) (b & 0xFF);
    }
}
