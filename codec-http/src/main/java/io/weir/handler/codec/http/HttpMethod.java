package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;
import io.weir.util.AsciiString;

import java.util.Objects;

/**
 * An HTTP request method (RFC 9110 §9): a case-sensitive token. The nine standard methods are constants; any
 * other token is accepted as an extension method. Instances are immutable and thread-safe.
 *
 * <p>Method names are case-sensitive (RFC 9110 §9.1): {@code get} is a valid extension method, not {@link #GET}.
 *
 * <p>{@link #valueOf} finds a standard method in constant time with a perfect hash over its first byte and length,
 * then confirms the bytes, so decoding a known method allocates nothing.
 */
public final class HttpMethod implements Comparable<HttpMethod> {
    /** {@code OPTIONS}: the communication options of the target (RFC 9110 §9.3.7). */
    public static final HttpMethod OPTIONS = new HttpMethod("OPTIONS");
    /** {@code GET}: transfer a current representation of the target (RFC 9110 §9.3.1). */
    public static final HttpMethod GET = new HttpMethod("GET");
    /** {@code HEAD}: like GET but the response carries no content (RFC 9110 §9.3.2). */
    public static final HttpMethod HEAD = new HttpMethod("HEAD");
    /** {@code POST}: process the enclosed representation (RFC 9110 §9.3.3). */
    public static final HttpMethod POST = new HttpMethod("POST");
    /** {@code PUT}: replace the target's state (RFC 9110 §9.3.4). */
    public static final HttpMethod PUT = new HttpMethod("PUT");
    /** {@code PATCH}: apply partial modifications (RFC 5789). */
    public static final HttpMethod PATCH = new HttpMethod("PATCH");
    /** {@code DELETE}: remove the target's association (RFC 9110 §9.3.5). */
    public static final HttpMethod DELETE = new HttpMethod("DELETE");
    /** {@code TRACE}: loop the request back (RFC 9110 §9.3.8). */
    public static final HttpMethod TRACE = new HttpMethod("TRACE");
    /** {@code CONNECT}: open a tunnel to the target (RFC 9110 §9.3.6). */
    public static final HttpMethod CONNECT = new HttpMethod("CONNECT");

    /*
     * Perfect hash of the standard methods: slot = (firstByte + 3 * length) & 31. The nine methods land in nine
     * distinct slots of a 32-entry table (POST, PUT and PATCH share a first byte but not a length); a hit is
     * then confirmed byte by byte, so an unknown method can never be mistaken for a known one.
     */
    private static final int TABLE_MASK = 31;
    private static final int LENGTH_MULTIPLIER = 3;
    private static final HttpMethod[] TABLE = new HttpMethod[TABLE_MASK + 1];

    static {
        HttpMethod[] all = {OPTIONS, GET, HEAD, POST, PUT, PATCH, DELETE, TRACE, CONNECT};
        for (HttpMethod m : all) {
            int slot = slot(m.name.charAt(0), m.name.length());
            if (TABLE[slot] != null) {
                throw new AssertionError("perfect hash collision: " + m + " and " + TABLE[slot]);
            }
            TABLE[slot] = m;
        }
    }

    private final String name;
    private final AsciiString asciiName;
    private final byte[] bytes;

    /**
     * A method named {@code name}; prefer {@link #valueOf(String)}, which returns the constants.
     *
     * @throws IllegalArgumentException if {@code name} is not an RFC 9110 token (empty, whitespace, controls,
     *         separators or non-ASCII characters)
     */
    public HttpMethod(String name) {
        Objects.requireNonNull(name, "name");
        int bad = HttpTokens.firstNonTokenChar(name);
        if (bad >= 0) {
            throw new IllegalArgumentException("invalid HTTP method " + HttpTokens.quote(name)
                    + (name.isEmpty() ? ": empty" : ": not a token character at index " + bad));
        }
        this.name = name;
        this.asciiName = AsciiString.cached(name);
        // cached() made the array for this name alone; it is only ever compared, never written, so it is shared
        // rather than copied (an extension method costs one array, not two).
        this.bytes = asciiName.array();
    }

    private static int slot(int firstByte, int length) {
        return (firstByte + LENGTH_MULTIPLIER * length) & TABLE_MASK;
    }

    /**
     * The method named {@code name}: a constant for the standard methods (exact, case-sensitive match), a new
     * extension method for any other token.
     *
     * @throws IllegalArgumentException if {@code name} is not an RFC 9110 token
     */
    public static HttpMethod valueOf(String name) {
        Objects.requireNonNull(name, "name");
        int length = name.length();
        if (length > 0) {
            HttpMethod candidate = TABLE[slot(name.charAt(0), length)];
            if (candidate != null && candidate.name.equals(name)) {
                return candidate;
            }
        }
        return new HttpMethod(name);
    }

    /**
     * The method whose name is {@code bytes[offset, offset + length)}, as {@link #valueOf(String)}; a standard
     * method is returned without allocating.
     *
     * @throws IllegalArgumentException if the bytes are not an RFC 9110 token
     * @throws IndexOutOfBoundsException if the range does not fit {@code bytes}
     */
    public static HttpMethod valueOf(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        if (length > 0) {
            HttpMethod candidate = TABLE[slot(bytes[offset] & 0xFF, length)];
            if (candidate != null && candidate.bytes.length == length
                    && java.util.Arrays.equals(candidate.bytes, 0, length, bytes, offset, offset + length)) {
                return candidate;
            }
        }
        return new HttpMethod(new String(bytes, offset, length, java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    /**
     * The method whose name is {@code buf[index, index + length)}, as {@link #valueOf(String)}; a standard
     * method is returned without allocating. No index of {@code buf} moves.
     *
     * @throws IllegalArgumentException if the bytes are not an RFC 9110 token
     * @throws IndexOutOfBoundsException if the range is outside {@code buf}
     */
    public static HttpMethod valueOf(ByteBuf buf, int index, int length) {
        if (length > 0) {
            HttpMethod candidate = TABLE[slot(buf.getByte(index) & 0xFF, length)];
            if (candidate != null && matches(candidate.bytes, buf, index, length)) {
                return candidate;
            }
        }
        return new HttpMethod(buf.toString(index, length, java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    private static boolean matches(byte[] expected, ByteBuf buf, int index, int length) {
        if (expected.length != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (expected[i] != buf.getByte(index + i)) {
                return false;
            }
        }
        return true;
    }

    /** The method name, such as {@code GET}. */
    public String name() {
        return name;
    }

    /** The method name as an {@link AsciiString}, written to the wire without conversion. */
    public AsciiString asciiName() {
        return asciiName;
    }

    /** Case-sensitive: equal only to a method with exactly the same name. */
    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof HttpMethod m && name.equals(m.name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public int compareTo(HttpMethod o) {
        return this == o ? 0 : name.compareTo(o.name);
    }

    /** The method name. */
    @Override
    public String toString() {
        return name;
    }
}
