package io.weir.handler.codec.http2;

import io.weir.handler.codec.http2.internal.hpack.HpackFieldValidator;
import io.weir.util.AsciiString;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The fields of an HTTP/2 header or trailer section: an ordered multimap of lower-case names to values, with the
 * pseudo-header fields ({@code :method}, {@code :status}, …) kept before the regular ones as RFC 9113 §8.3
 * requires on the wire.
 *
 * <p>Fields are stored as a flat array of name/value pairs in insertion order (pseudo-headers first); walk them by
 * index with {@link #size()}, {@link #name(int)} and {@link #value(int)}, which allocates nothing. Lookups compare
 * lengths, then characters, so they are linear in the number of fields: header sections are small, and no hash has
 * to be computed for every field a decoder adds. Names
 * compare case-sensitively, because HTTP/2 names are lower case (RFC 9113 §8.2.1).
 *
 * <p>A validating instance (the default) rejects, with {@link IllegalArgumentException}, names that are empty,
 * hold characters outside the lower-case token set of RFC 9110 §5.6.2, or start with {@code ':'} without being
 * one of the six defined pseudo-headers, and values holding NUL, CR or LF (RFC 9113 §8.2.1). The HPACK decoder
 * fills non-validating instances, having validated the fields already.
 *
 * <p>Names and values are kept by reference: pass immutable {@link CharSequence}s ({@link String},
 * {@link AsciiString}). Not thread-safe; an instance belongs to one stream on its event loop.
 */
public final class Http2Headers {
    /** {@code :method}, the request method (RFC 9113 §8.3.1). */
    public static final AsciiString METHOD = AsciiString.cached(":method");
    /** {@code :scheme}, the request target's scheme (RFC 9113 §8.3.1). */
    public static final AsciiString SCHEME = AsciiString.cached(":scheme");
    /** {@code :authority}, the request target's authority (RFC 9113 §8.3.1). */
    public static final AsciiString AUTHORITY = AsciiString.cached(":authority");
    /** {@code :path}, the request target's path and query (RFC 9113 §8.3.1). */
    public static final AsciiString PATH = AsciiString.cached(":path");
    /** {@code :status}, the response status code (RFC 9113 §8.3.2). */
    public static final AsciiString STATUS = AsciiString.cached(":status");
    /** {@code :protocol}, the protocol of an extended CONNECT (RFC 8441 §4). */
    public static final AsciiString PROTOCOL = AsciiString.cached(":protocol");

    /** Fields an instance made with {@link #Http2Headers()} has room for before it grows. */
    public static final int DEFAULT_INITIAL_CAPACITY = 8;

    private static final CharSequence[] PSEUDO_HEADERS = {METHOD, SCHEME, AUTHORITY, PATH, STATUS, PROTOCOL};

    private final boolean validate;
    private CharSequence[] names;
    private CharSequence[] values;
    private int size;
    private int pseudoCount;

    /** An empty, validating instance. */
    public Http2Headers() {
        this(DEFAULT_INITIAL_CAPACITY, true);
    }

    /**
     * An empty instance.
     *
     * @param initialCapacity fields it holds before growing
     * @param validate whether {@link #add} and {@link #set} check names and values (see the class notes)
     */
    public Http2Headers(int initialCapacity, boolean validate) {
        if (initialCapacity < 0) {
            throw new IllegalArgumentException("initialCapacity: " + initialCapacity + " (expected >= 0)");
        }
        this.validate = validate;
        names = new CharSequence[initialCapacity];
        values = new CharSequence[initialCapacity];
    }

    /** Number of fields, pseudo-headers included. */
    public int size() {
        return size;
    }

    /** True when there is no field. */
    public boolean isEmpty() {
        return size == 0;
    }

    /** Number of pseudo-header fields; they occupy indices {@code 0} to {@code pseudoHeaderCount() - 1}. */
    public int pseudoHeaderCount() {
        return pseudoCount;
    }

    /**
     * The name of the field at {@code index} in wire order.
     *
     * @throws IndexOutOfBoundsException unless {@code 0 <= index < size()}
     */
    public CharSequence name(int index) {
        Objects.checkIndex(index, size);
        return names[index];
    }

    /**
     * The value of the field at {@code index} in wire order.
     *
     * @throws IndexOutOfBoundsException unless {@code 0 <= index < size()}
     */
    public CharSequence value(int index) {
        Objects.checkIndex(index, size);
        return values[index];
    }

    /**
     * Adds a field after the others of its kind: a pseudo-header after the pseudo-headers, a regular field at the
     * end.
     *
     * @return this
     * @throws IllegalArgumentException if this instance validates and the field is invalid (class notes)
     */
    public Http2Headers add(CharSequence name, CharSequence value) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        if (validate) {
            validate(name, value);
        }
        insert(name, value);
        return this;
    }

    /**
     * Replaces the value of the first field named {@code name} and removes the others, or adds the field.
     *
     * @return this
     * @throws IllegalArgumentException if this instance validates and the field is invalid (class notes)
     */
    public Http2Headers set(CharSequence name, CharSequence value) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        if (validate) {
            validate(name, value);
        }
        return replace(name, value, size);
    }

    /** The value of the first field named {@code name}, or {@code null}. */
    public CharSequence get(CharSequence name) {
        int i = indexOf(name, 0, size);
        return i < 0 ? null : values[i];
    }

    /** The values of every field named {@code name}, in order; an empty list when there is none. */
    public List<CharSequence> getAll(CharSequence name) {
        List<CharSequence> all = new ArrayList<>(2);
        for (int i = 0; i < size; i++) {
            if (nameEquals(names[i], name)) {
                all.add(values[i]);
            }
        }
        return all;
    }

    /** True when a field is named {@code name}. */
    public boolean contains(CharSequence name) {
        return indexOf(name, 0, size) >= 0;
    }

    /** True when a field is named {@code name} with exactly this value (case-sensitive). */
    public boolean contains(CharSequence name, CharSequence value) {
        for (int i = 0; i < size; i++) {
            if (nameEquals(names[i], name) && AsciiString.contentEquals(values[i], value)) {
                return true;
            }
        }
        return false;
    }

    /** Removes every field named {@code name}; true if there was one. */
    public boolean remove(CharSequence name) {
        return removeFrom(name, 0);
    }

    /** Removes every field. */
    public Http2Headers clear() {
        Arrays.fill(names, 0, size, null);
        Arrays.fill(values, 0, size, null);
        size = 0;
        pseudoCount = 0;
        return this;
    }

    // ---- pseudo-headers (RFC 9113 §8.3) ----

    /** {@code :method}, or {@code null}. */
    public CharSequence method() {
        return pseudo(METHOD);
    }

    /** Sets {@code :method}; returns this. */
    public Http2Headers method(CharSequence value) {
        return setPseudo(METHOD, value);
    }

    /** {@code :scheme}, or {@code null}. */
    public CharSequence scheme() {
        return pseudo(SCHEME);
    }

    /** Sets {@code :scheme}; returns this. */
    public Http2Headers scheme(CharSequence value) {
        return setPseudo(SCHEME, value);
    }

    /** {@code :authority}, or {@code null}. */
    public CharSequence authority() {
        return pseudo(AUTHORITY);
    }

    /** Sets {@code :authority}; returns this. */
    public Http2Headers authority(CharSequence value) {
        return setPseudo(AUTHORITY, value);
    }

    /** {@code :path}, or {@code null}. */
    public CharSequence path() {
        return pseudo(PATH);
    }

    /** Sets {@code :path}; returns this. */
    public Http2Headers path(CharSequence value) {
        return setPseudo(PATH, value);
    }

    /** {@code :status}, or {@code null}. */
    public CharSequence status() {
        return pseudo(STATUS);
    }

    /** Sets {@code :status}; returns this. */
    public Http2Headers status(CharSequence value) {
        return setPseudo(STATUS, value);
    }

    /** {@code :protocol} (extended CONNECT, RFC 8441), or {@code null}. */
    public CharSequence protocol() {
        return pseudo(PROTOCOL);
    }

    /** Sets {@code :protocol}; returns this. */
    public Http2Headers protocol(CharSequence value) {
        return setPseudo(PROTOCOL, value);
    }

    /** True when {@code name} is one of the six pseudo-header names this class knows. */
    public static boolean isPseudoHeader(CharSequence name) {
        if (name.length() == 0 || name.charAt(0) != ':') {
            return false;
        }
        for (CharSequence p : PSEUDO_HEADERS) {
            // This class's own constants (what the HPACK decoder names decoded fields with) match by identity.
            if (p == name || AsciiString.contentEquals(p, name)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Http2Headers[");
        for (int i = 0; i < size; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(names[i]).append(": ").append(values[i]);
        }
        return sb.append(']').toString();
    }

    // ---- internals ----

    private CharSequence pseudo(AsciiString name) {
        int i = indexOf(name, 0, pseudoCount);
        return i < 0 ? null : values[i];
    }

    private int indexOf(CharSequence name, int from, int to) {
        for (int i = from; i < to; i++) {
            if (nameEquals(names[i], name)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean nameEquals(CharSequence a, CharSequence b) {
        // Identity first: decoded pseudo-headers are this class's own constants (HpackStaticTable).
        return a == b || a.length() == b.length() && AsciiString.contentEquals(a, b);
    }

    private void insert(CharSequence name, CharSequence value) {
        if (size == names.length) {
            int grown = Math.max(DEFAULT_INITIAL_CAPACITY, size * 2);
            names = Arrays.copyOf(names, grown);
            values = Arrays.copyOf(values, grown);
        }
        int at = size;
        if (name.length() > 0 && name.charAt(0) == ':') {
            at = pseudoCount++;
            int moved = size - at;
            if (moved > 0) {
                System.arraycopy(names, at, names, at + 1, moved);
                System.arraycopy(values, at, values, at + 1, moved);
            }
        }
        names[at] = name;
        values[at] = value;
        size++;
    }

    private boolean removeFrom(CharSequence name, int from) {
        int kept = from;
        boolean pseudo = name.length() > 0 && name.charAt(0) == ':';
        for (int i = from; i < size; i++) {
            if (nameEquals(names[i], name)) {
                if (pseudo) {
                    pseudoCount--;
                }
                continue;
            }
            names[kept] = names[i];
            values[kept] = values[i];
            kept++;
        }
        boolean removed = kept != size;
        Arrays.fill(names, kept, size, null);
        Arrays.fill(values, kept, size, null);
        size = kept;
        return removed;
    }

    /**
     * Sets pseudo-header {@code name}, one of this class's constants: only the value needs checking, and the field
     * can only be among the first {@code pseudoCount}.
     */
    private Http2Headers setPseudo(AsciiString name, CharSequence value) {
        Objects.requireNonNull(value, "value");
        if (validate) {
            validateValue(name, value);
        }
        return replace(name, value, pseudoCount);
    }

    /**
     * Gives the first field named {@code name}, looked for among the first {@code searched}, the value {@code value}
     * and removes the others; adds the field if there is none.
     */
    private Http2Headers replace(CharSequence name, CharSequence value, int searched) {
        int i = indexOf(name, 0, searched);
        if (i < 0) {
            insert(name, value);
            return this;
        }
        values[i] = value;
        removeFrom(name, i + 1);
        return this;
    }

    private static void validate(CharSequence name, CharSequence value) {
        int length = name.length();
        if (length == 0) {
            throw new IllegalArgumentException("empty header name");
        }
        if (name.charAt(0) == ':') {
            if (!isPseudoHeader(name)) {
                throw new IllegalArgumentException("unknown pseudo-header: " + name);
            }
        } else {
            for (int i = 0; i < length; i++) {
                char c = name.charAt(i);
                if (c > 0xFF || !HpackFieldValidator.isNameByte(c)) {
                    throw new IllegalArgumentException("invalid character 0x" + Integer.toHexString(c)
                            + " at " + i + " in header name (lower-case token expected): " + name);
                }
            }
        }
        validateValue(name, value);
    }

    private static void validateValue(CharSequence name, CharSequence value) {
        int vlength = value.length();
        for (int i = 0; i < vlength; i++) {
            char c = value.charAt(i);
            if (c == 0 || c == '\r' || c == '\n') {
                throw new IllegalArgumentException("invalid character 0x" + Integer.toHexString(c) + " at " + i
                        + " in the value of header " + name);
            }
        }
    }
}
