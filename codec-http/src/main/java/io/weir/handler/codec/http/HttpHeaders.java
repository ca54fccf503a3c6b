package io.weir.handler.codec.http;

import io.weir.util.AsciiString;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Date;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The header fields (or trailer fields) of an HTTP message: a multimap from case-insensitive names to values,
 * iterated in insertion order (RFC 9110 §5). Names are compared ignoring ASCII case; values are compared as
 * given unless a method says otherwise.
 *
 * <p>Values may be given as any object: a {@link CharSequence} is kept as is, a {@link Date} or
 * {@link java.time.temporal.TemporalAccessor} instant is formatted as an HTTP-date (RFC 9110 §5.6.7), anything
 * else through {@link Object#toString()}.
 *
 * <p>Not thread-safe: a message's headers belong to the thread handling the message (normally its channel's
 * event loop). The standard implementation is {@link DefaultHttpHeaders}.
 */
public abstract class HttpHeaders implements Iterable<Map.Entry<CharSequence, CharSequence>> {

    /** For subclasses. */
    protected HttpHeaders() {
    }

    // ---- queries ----

    /** The first value of {@code name} in insertion order, or {@code null} if there is none. */
    public abstract String get(CharSequence name);

    /** The first value of {@code name}, or {@code defaultValue} if there is none. */
    public String get(CharSequence name, String defaultValue) {
        String value = get(name);
        return value != null ? value : defaultValue;
    }

    /** The first value of {@code name} as given (not converted to a String), or {@code null}. */
    public abstract CharSequence getCharSequence(CharSequence name);

    /** Every value of {@code name} in insertion order; an empty list if there is none. The list is a copy. */
    public abstract List<String> getAll(CharSequence name);

    /**
     * The first value of {@code name} as a decimal {@code int}, or {@code null} if it is missing or not a
     * valid {@code int}.
     */
    public Integer getInt(CharSequence name) {
        CharSequence value = getCharSequence(name);
        if (value == null) {
            return null;
        }
        long v = parseDecimal(value, Integer.MIN_VALUE, Integer.MAX_VALUE);
        return v == Long.MIN_VALUE ? null : (int) v;
    }

    /** The first value of {@code name} as an {@code int}, or {@code defaultValue} if missing or malformed. */
    public int getInt(CharSequence name, int defaultValue) {
        CharSequence value = getCharSequence(name);
        if (value == null) {
            return defaultValue;
        }
        long v = parseDecimal(value, Integer.MIN_VALUE, Integer.MAX_VALUE);
        return v == Long.MIN_VALUE ? defaultValue : (int) v;
    }

    /** The first value of {@code name} as a {@code long}, or {@code defaultValue} if missing or malformed. */
    public long getLong(CharSequence name, long defaultValue) {
        CharSequence value = getCharSequence(name);
        if (value == null) {
            return defaultValue;
        }
        long v = parseDecimal(value, Long.MIN_VALUE + 1, Long.MAX_VALUE);
        return v == Long.MIN_VALUE ? defaultValue : v;
    }

    /**
     * The first value of {@code name} parsed as an HTTP-date (RFC 1123, RFC 850 or asctime form) in milliseconds
     * since the epoch, or {@code null} if it is missing or not a valid date.
     */
    public Long getTimeMillis(CharSequence name) {
        CharSequence value = getCharSequence(name);
        if (value == null) {
            return null;
        }
        long millis = DateFormatter.parseMillis(value);
        return millis == DateFormatter.INVALID_DATE ? null : millis;
    }

    /** As {@link #getTimeMillis(CharSequence)}, {@code defaultValue} where that returns {@code null}. */
    public long getTimeMillis(CharSequence name, long defaultValue) {
        CharSequence value = getCharSequence(name);
        if (value == null) {
            return defaultValue;
        }
        long millis = DateFormatter.parseMillis(value);
        return millis == DateFormatter.INVALID_DATE ? defaultValue : millis;
    }

    /** Whether there is at least one field named {@code name} (ignoring case). */
    public abstract boolean contains(CharSequence name);

    /**
     * Whether one of the values of {@code name} equals {@code value} as a whole, ignoring ASCII case when
     * {@code ignoreCase}. See {@link #containsValue} for comma-separated lists.
     */
    public boolean contains(CharSequence name, CharSequence value, boolean ignoreCase) {
        Objects.requireNonNull(value, "value");
        for (Iterator<CharSequence> it = valueIterator(name); it.hasNext(); ) {
            CharSequence v = it.next();
            if (ignoreCase ? AsciiString.contentEqualsIgnoreCase(v, value) : AsciiString.contentEquals(v, value)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code value} is one of the elements of the comma-separated lists (RFC 9110 §5.6.1) held by the
     * values of {@code name}, elements trimmed of spaces and tabs; ASCII case ignored when {@code ignoreCase}.
     * {@code Connection: keep-alive, Upgrade} contains {@code upgrade} (ignoring case).
     */
    public boolean containsValue(CharSequence name, CharSequence value, boolean ignoreCase) {
        Objects.requireNonNull(value, "value");
        for (Iterator<CharSequence> it = valueIterator(name); it.hasNext(); ) {
            if (listContains(it.next(), value, ignoreCase)) {
                return true;
            }
        }
        return false;
    }

    static boolean listContains(CharSequence list, CharSequence value, boolean ignoreCase) {
        int n = list.length();
        int start = 0;
        while (start <= n) {
            int end = start;
            while (end < n && list.charAt(end) != ',') {
                end++;
            }
            int s = start;
            int e = end;
            while (s < e && isOws(list.charAt(s))) {
                s++;
            }
            while (e > s && isOws(list.charAt(e - 1))) {
                e--;
            }
            if (e - s == value.length() && regionEquals(list, s, value, ignoreCase)) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    private static boolean isOws(char c) {
        return c == ' ' || c == '\t';
    }

    private static boolean regionEquals(CharSequence list, int start, CharSequence value, boolean ignoreCase) {
        for (int i = 0, n = value.length(); i < n; i++) {
            char a = list.charAt(start + i);
            char b = value.charAt(i);
            if (a != b && (!ignoreCase || AsciiString.toLowerCase(a) != AsciiString.toLowerCase(b))) {
                return false;
            }
        }
        return true;
    }

    /** The values of {@code name} in insertion order, as given. */
    public abstract Iterator<CharSequence> valueIterator(CharSequence name);

    /** Same as {@link #valueIterator(CharSequence)}, for code written against Netty. */
    public Iterator<CharSequence> valueCharSequenceIterator(CharSequence name) {
        return valueIterator(name);
    }

    /** The values of {@code name} in insertion order, converted to Strings. */
    public Iterator<String> valueStringIterator(CharSequence name) {
        Iterator<CharSequence> it = valueIterator(name);
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public String next() {
                return it.next().toString();
            }
        };
    }

    /** Same as {@link #get(CharSequence)}, for code written against Netty. */
    public String getAsString(CharSequence name) {
        return get(name);
    }

    /** Same as {@link #getAll(CharSequence)}, for code written against Netty. */
    public List<String> getAllAsString(CharSequence name) {
        return getAll(name);
    }

    /** The number of fields (a name with three values counts three). */
    public abstract int size();

    /** Whether there are no fields. */
    public boolean isEmpty() {
        return size() == 0;
    }

    /** The distinct names (ignoring case; each in the spelling first added), in insertion order. A copy. */
    public abstract Set<String> names();

    /**
     * Every field in insertion order, names and values as given. {@link Iterator#remove()} removes the field
     * last returned where the implementation supports it.
     */
    @Override
    public abstract Iterator<Map.Entry<CharSequence, CharSequence>> iterator();

    /** Same as {@link #iterator()}, for code written against Netty. */
    public Iterator<Map.Entry<CharSequence, CharSequence>> iteratorCharSequence() {
        return iterator();
    }

    /** Every field in insertion order with name and value converted to {@link String}s. */
    public Iterator<Map.Entry<String, String>> iteratorAsString() {
        Iterator<Map.Entry<CharSequence, CharSequence>> it = iterator();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public Map.Entry<String, String> next() {
                Map.Entry<CharSequence, CharSequence> e = it.next();
                return new AbstractMap.SimpleImmutableEntry<>(e.getKey().toString(), e.getValue().toString());
            }

            @Override
            public void remove() {
                it.remove();
            }
        };
    }

    /** Every field in insertion order as String pairs; a copy. */
    public List<Map.Entry<String, String>> entries() {
        if (isEmpty()) {
            return Collections.emptyList();
        }
        List<Map.Entry<String, String>> list = new ArrayList<>(size());
        for (Iterator<Map.Entry<String, String>> it = iteratorAsString(); it.hasNext(); ) {
            list.add(it.next());
        }
        return list;
    }

    // ---- mutations ----

    /**
     * Adds a field {@code name: value} after the existing ones.
     *
     * @return this
     * @throws IllegalArgumentException if validation is on and the name is not a token or the value holds a
     *         prohibited character (CR, LF, NUL, other controls); the message names the offending text
     * @throws NullPointerException if {@code name} or {@code value} is null
     * @throws UnsupportedOperationException if these headers are read-only
     */
    public abstract HttpHeaders add(CharSequence name, Object value);

    /** Adds one field per element of {@code values}, as {@link #add(CharSequence, Object)}; returns this. */
    public HttpHeaders add(CharSequence name, Iterable<?> values) {
        Objects.requireNonNull(values, "values");
        for (Object v : values) {
            add(name, v);
        }
        return this;
    }

    /** Adds every field of {@code headers} after the existing ones; returns this. */
    public HttpHeaders add(HttpHeaders headers) {
        Objects.requireNonNull(headers, "headers");
        if (headers == this) {
            throw new IllegalArgumentException("cannot add headers to themselves");
        }
        for (Map.Entry<CharSequence, CharSequence> e : headers) {
            add(e.getKey(), e.getValue());
        }
        return this;
    }

    /** Adds {@code name: value} with {@code value} in decimal; returns this. */
    public HttpHeaders addInt(CharSequence name, int value) {
        return add(name, Integer.toString(value));
    }

    /**
     * Adds {@code name: value} with {@code epochMillis} written as an HTTP-date; returns this.
     *
     * @throws IllegalArgumentException if the year is outside 0000–9999
     */
    public HttpHeaders addTimeMillis(CharSequence name, long epochMillis) {
        return add(name, DateFormatter.format(epochMillis));
    }

    /**
     * Replaces every field named {@code name} by {@code name: value} with {@code epochMillis} written as an
     * HTTP-date; returns this.
     *
     * @throws IllegalArgumentException if the year is outside 0000–9999
     */
    public HttpHeaders setTimeMillis(CharSequence name, long epochMillis) {
        return set(name, DateFormatter.format(epochMillis));
    }

    /**
     * Replaces every field named {@code name} by one field {@code name: value}, at the end of the order.
     *
     * @return this
     * @throws IllegalArgumentException as {@link #add(CharSequence, Object)}
     */
    public abstract HttpHeaders set(CharSequence name, Object value);

    /** Replaces every field named {@code name} by one field per element of {@code values}; returns this. */
    public HttpHeaders set(CharSequence name, Iterable<?> values) {
        Objects.requireNonNull(values, "values");
        remove(name);
        return add(name, values);
    }

    /** Replaces every field named {@code name} by {@code name: value} in decimal; returns this. */
    public HttpHeaders setInt(CharSequence name, int value) {
        return set(name, Integer.toString(value));
    }

    /** Replaces all fields by those of {@code headers}; returns this. */
    public HttpHeaders set(HttpHeaders headers) {
        Objects.requireNonNull(headers, "headers");
        if (headers == this) {
            return this;
        }
        clear();
        return add(headers);
    }

    /**
     * For every name present in {@code headers}, replaces this object's fields of that name by
     * {@code headers}' fields of that name; other names are kept. Returns this.
     */
    public HttpHeaders setAll(HttpHeaders headers) {
        Objects.requireNonNull(headers, "headers");
        if (headers == this) {
            return this;
        }
        for (String name : headers.names()) {
            remove(name);
        }
        return add(headers);
    }

    /** Removes every field named {@code name} (ignoring case); returns this. */
    public abstract HttpHeaders remove(CharSequence name);

    /** Removes every field; returns this. */
    public abstract HttpHeaders clear();

    /** A mutable, validating copy of these headers, independent of them. */
    public HttpHeaders copy() {
        return new DefaultHttpHeaders().add(this);
    }

    // ---- helpers ----

    /** The decimal value of {@code s} within [min, max], or {@link Long#MIN_VALUE} if malformed or out of range. */
    static long parseDecimal(CharSequence s, long min, long max) {
        int n = s.length();
        if (n == 0) {
            return Long.MIN_VALUE;
        }
        int i = 0;
        boolean negative = false;
        char first = s.charAt(0);
        if (first == '-' || first == '+') {
            negative = first == '-';
            i = 1;
            if (n == 1) {
                return Long.MIN_VALUE;
            }
        }
        long limit = negative ? -min : max;
        long v = 0;
        for (; i < n; i++) {
            int d = s.charAt(i) - '0';
            if (d < 0 || d > 9) {
                return Long.MIN_VALUE;
            }
            if (v > (limit - d) / 10) {
                return Long.MIN_VALUE;
            }
            v = v * 10 + d;
        }
        return negative ? -v : v;
    }

    /** Names and values one per line in insertion order, for logs. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(getClass().getSimpleName()).append('[');
        boolean first = true;
        for (Map.Entry<CharSequence, CharSequence> e : this) {
            if (!first) {
                sb.append(", ");
            }
            first = false;
            sb.append(e.getKey()).append(": ").append(e.getValue());
        }
        return sb.append(']').toString();
    }
}
