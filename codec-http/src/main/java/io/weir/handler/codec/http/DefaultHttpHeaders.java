package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.util.AsciiString;

import java.time.Instant;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.Collections;
import java.util.ConcurrentModificationException;
import java.util.Date;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * The standard {@link HttpHeaders}: entries keyed by {@link AsciiString} names with a case-insensitive hash,
 * threaded by a doubly-linked list that keeps insertion order. Up to {@value #MAX_LINEAR_ENTRIES} entries (what
 * most messages carry) the list alone is searched, comparing cached hashes, so an empty or small set allocates
 * nothing but its entries; beyond that a hash table of buckets is built over the same entries. Lookups by an
 * {@link HttpHeaderNames} constant cost one cached hash and a short walk either way.
 *
 * <p>Validation is on by default: names must be RFC 9110 tokens and values must not contain CR, LF, NUL or
 * other control characters except HTAB (RFC 9110 §5.5), which stops header injection (response splitting) by
 * values taken from user input. A decoder that has already checked every byte may turn it off with
 * {@link #DefaultHttpHeaders(boolean)}.
 *
 * <p>Not thread-safe (see {@link HttpHeaders}).
 */
public class DefaultHttpHeaders extends HttpHeaders {
    /**
     * Up to this many entries, lookups walk the insertion-order list: a handful of int comparisons, cheaper than
     * allocating and indexing a bucket table per message.
     */
    static final int MAX_LINEAR_ENTRIES = 16;
    /** Buckets built when the list grows beyond {@link #MAX_LINEAR_ENTRIES}. */
    private static final int INITIAL_BUCKET_COUNT = 32;
    /** Buckets double when the average chain would exceed this many entries. */
    private static final int MAX_AVERAGE_CHAIN_LENGTH = 2;
    private static final int MAX_BUCKET_COUNT = 1 << 16;

    private final boolean validate;
    /** The hash table over the entries; null while there are at most MAX_LINEAR_ENTRIES of them. */
    private Entry[] buckets;
    /** The oldest entry (the insertion-order list runs first.after ... last); null when empty. */
    private Entry first;
    /** The newest entry; null when empty. */
    private Entry last;
    private int size;
    private int modCount;

    /** Empty headers that validate names and values. */
    public DefaultHttpHeaders() {
        this(true);
    }

    /**
     * Empty headers that validate names and values if {@code validate}. Turn validation off only when every
     * name and value comes from a source that has already checked it, such as a strict decoder.
     */
    public DefaultHttpHeaders(boolean validate) {
        this.validate = validate;
    }

    /** Whether these headers validate the names and values added to them. */
    public final boolean isValidating() {
        return validate;
    }

    // ---- validation ----

    /*
     * HttpHeaderNames' constants in an open-addressed table (linear probing from the spread hash code), validated
     * once, here: a name that is one of them, the very object, skips the byte-by-byte check. Only those constants
     * are ever stored, so the table is immutable after class initialisation; a quarter full at most, so a name that
     * is not there meets an empty slot within a probe or two.
     */
    private static final AsciiString[] KNOWN_NAMES = knownNames();

    private static AsciiString[] knownNames() {
        List<AsciiString> names = new ArrayList<>();
        for (java.lang.reflect.Field field : HttpHeaderNames.class.getFields()) {
            if (field.getType() == AsciiString.class && java.lang.reflect.Modifier.isStatic(field.getModifiers())) {
                try {
                    names.add((AsciiString) field.get(null));
                } catch (IllegalAccessException e) {
                    throw new ExceptionInInitializerError(e);
                }
            }
        }
        AsciiString[] table = new AsciiString[Integer.highestOneBit(names.size()) << 3];
        for (AsciiString name : names) {
            validateToken(name);
            int slot = knownSlot(name, table.length);
            while (table[slot] != null) {
                slot = (slot + 1) & (table.length - 1);
            }
            table[slot] = name;
        }
        return table;
    }

    private static int knownSlot(AsciiString name, int tableLength) {
        int h = name.hashCode();
        return (h ^ (h >>> 16)) & (tableLength - 1);
    }

    private static boolean isKnownName(AsciiString name) {
        AsciiString[] table = KNOWN_NAMES;
        for (int slot = knownSlot(name, table.length); ; slot = (slot + 1) & (table.length - 1)) {
            AsciiString known = table[slot];
            if (known == name) {
                return true;
            }
            if (known == null) {
                return false;
            }
        }
    }

    /**
     * Checks that {@code name} is a non-empty RFC 9110 token.
     *
     * @throws IllegalArgumentException naming the offending name and index otherwise
     */
    static void validateName(CharSequence name) {
        if (name instanceof AsciiString a && isKnownName(a)) {
            return;
        }
        validateToken(name);
    }

    private static void validateToken(CharSequence name) {
        if (name instanceof AsciiString a) {
            byte[] array = a.array();
            int offset = a.arrayOffset();
            int n = a.length();
            for (int i = 0; i < n; i++) {
                if (!HttpTokens.isTokenChar(array[offset + i])) {
                    throw invalidName(name, i);
                }
            }
            if (n == 0) {
                throw invalidName(name, 0);
            }
            return;
        }
        int bad = HttpTokens.firstNonTokenChar(name);
        if (bad >= 0) {
            throw invalidName(name, bad);
        }
    }

    private static IllegalArgumentException invalidName(CharSequence name, int index) {
        return new IllegalArgumentException("invalid header name " + HttpTokens.quote(name)
                + (name.length() == 0 ? ": empty" : ": prohibited character at index " + index));
    }

    /**
     * Checks that {@code value} holds only field-value characters (no CR, LF, NUL, DEL or other control except
     * HTAB).
     *
     * @throws IllegalArgumentException naming the header, the offending value and index otherwise
     */
    static void validateValue(CharSequence name, CharSequence value) {
        if (value instanceof AsciiString a) {
            byte[] array = a.array();
            int offset = a.arrayOffset();
            for (int i = 0, n = a.length(); i < n; i++) {
                if (!HttpTokens.isFieldValueChar(array[offset + i])) {
                    throw invalidValue(name, value, i);
                }
            }
            return;
        }
        for (int i = 0, n = value.length(); i < n; i++) {
            if (!HttpTokens.isFieldValueChar(value.charAt(i))) {
                throw invalidValue(name, value, i);
            }
        }
    }

    private static IllegalArgumentException invalidValue(CharSequence name, CharSequence value, int index) {
        return new IllegalArgumentException("invalid value " + HttpTokens.quote(value) + " for header "
                + HttpTokens.quote(name) + ": prohibited character 0x"
                + Integer.toHexString(value.charAt(index)) + " at index " + index);
    }

    /** {@code value} as the CharSequence stored: CharSequences as is, dates as HTTP-dates, others as strings. */
    static CharSequence toCharSequence(Object value) {
        Objects.requireNonNull(value, "value");
        if (value instanceof CharSequence cs) {
            return cs;
        }
        if (value instanceof Date d) {
            return DateFormatter.format(d.getTime());
        }
        if (value instanceof Calendar c) {
            return DateFormatter.format(c.getTimeInMillis());
        }
        if (value instanceof TemporalAccessor t) {
            return DateFormatter.format(Instant.from(t).toEpochMilli());
        }
        return value.toString();
    }

    // ---- hashing ----

    private static int hash(CharSequence name) {
        int h = AsciiString.hashCodeIgnoreCase(name);
        // Spread the high bits: the String-style hash of short names differs mostly in the low bits.
        return h ^ (h >>> 16);
    }

    private static boolean nameEquals(AsciiString stored, CharSequence name) {
        return stored == name || stored.contentEqualsIgnoreCase(name);
    }

    // ---- queries ----

    @Override
    public String get(CharSequence name) {
        CharSequence v = getCharSequence(name);
        return v != null ? v.toString() : null;
    }

    @Override
    public CharSequence getCharSequence(CharSequence name) {
        Objects.requireNonNull(name, "name");
        int h = hash(name);
        Entry e = find(h, name, chainStart(h));
        return e != null ? e.value : null;
    }

    /** Where a search for hash {@code h} begins: its bucket's chain, or the whole list while there is no table. */
    private Entry chainStart(int h) {
        Entry[] table = buckets;
        return table != null ? table[h & (table.length - 1)] : first;
    }

    /** The first entry named {@code name} from {@code from} on (along its chain or the list), or null. */
    private Entry find(int h, CharSequence name, Entry from) {
        if (buckets != null) {
            for (Entry e = from; e != null; e = e.next) {
                if (e.hash == h && nameEquals(e.name, name)) {
                    return e;
                }
            }
        } else {
            for (Entry e = from; e != null; e = e.after) {
                if (e.hash == h && nameEquals(e.name, name)) {
                    return e;
                }
            }
        }
        return null;
    }

    /** The entry after {@code e} along its chain, or along the list while there is no table. */
    private Entry successor(Entry e) {
        return buckets != null ? e.next : e.after;
    }

    @Override
    public List<String> getAll(CharSequence name) {
        Objects.requireNonNull(name, "name");
        int h = hash(name);
        List<String> values = null;
        for (Entry e = find(h, name, chainStart(h)); e != null; e = find(h, name, successor(e))) {
            if (values == null) {
                values = new ArrayList<>(4);
            }
            values.add(e.value.toString());
        }
        return values != null ? values : Collections.emptyList();
    }

    @Override
    public Iterator<CharSequence> valueIterator(CharSequence name) {
        Objects.requireNonNull(name, "name");
        int h = hash(name);
        Entry start = find(h, name, chainStart(h));
        return new Iterator<>() {
            private Entry next = start;

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public CharSequence next() {
                Entry e = next;
                if (e == null) {
                    throw new NoSuchElementException();
                }
                next = find(h, name, successor(e));
                return e.value;
            }
        };
    }

    @Override
    public boolean contains(CharSequence name) {
        return getCharSequence(name) != null;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean isEmpty() {
        return size == 0;
    }

    @Override
    public Set<String> names() {
        if (size == 0) {
            return Collections.emptySet();
        }
        Map<AsciiString, String> byLowerCase = new LinkedHashMap<>();
        for (Entry e = first; e != null; e = e.after) {
            byLowerCase.putIfAbsent(e.name.toLowerCase(), e.name.toString());
        }
        return new LinkedHashSet<>(byLowerCase.values());
    }

    @Override
    public Iterator<Map.Entry<CharSequence, CharSequence>> iterator() {
        return new EntryIterator();
    }

    // ---- mutations ----

    @Override
    public HttpHeaders add(CharSequence name, Object value) {
        Objects.requireNonNull(name, "name");
        CharSequence v = toCharSequence(value);
        if (validate) {
            validateName(name);
            validateValue(name, v);
        }
        addEntry(hash(name), AsciiString.of(name), v);
        return this;
    }

    @Override
    public HttpHeaders add(HttpHeaders headers) {
        Objects.requireNonNull(headers, "headers");
        if (headers == this) {
            throw new IllegalArgumentException("cannot add headers to themselves");
        }
        if (headers instanceof DefaultHttpHeaders other && (other.validate || !validate)) {
            // Already validated (or validation is off here): copy entries without checking them again.
            for (Entry e = other.first; e != null; e = e.after) {
                addEntry(e.hash, e.name, e.value);
            }
            return this;
        }
        return super.add(headers);
    }

    @Override
    public HttpHeaders set(CharSequence name, Object value) {
        Objects.requireNonNull(name, "name");
        CharSequence v = toCharSequence(value);
        if (validate) {
            validateName(name);
            validateValue(name, v);
        }
        int h = hash(name);
        removeAll(h, name);
        addEntry(h, AsciiString.of(name), v);
        return this;
    }

    @Override
    public HttpHeaders remove(CharSequence name) {
        Objects.requireNonNull(name, "name");
        removeAll(hash(name), name);
        return this;
    }

    @Override
    public HttpHeaders clear() {
        if (size != 0) {
            buckets = null;
            first = null;
            last = null;
            size = 0;
            modCount++;
        }
        return this;
    }

    @Override
    public HttpHeaders copy() {
        DefaultHttpHeaders copy = new DefaultHttpHeaders(validate);
        for (Entry e = first; e != null; e = e.after) {
            copy.addEntry(e.hash, e.name, e.value);
        }
        return copy;
    }

    private void addEntry(int h, AsciiString name, CharSequence value) {
        Entry e = new Entry(h, name, value);
        Entry tail = last;
        e.before = tail;
        if (tail == null) {
            first = e;
        } else {
            tail.after = e;
        }
        last = e;
        size++;
        modCount++;
        Entry[] table = buckets;
        if (table == null) {
            if (size > MAX_LINEAR_ENTRIES) {
                rehash(INITIAL_BUCKET_COUNT);
            }
            return;
        }
        if (size > table.length * MAX_AVERAGE_CHAIN_LENGTH && table.length < MAX_BUCKET_COUNT) {
            rehash(table.length << 1);
            return;
        }
        // Appended at the tail of its chain so that chain order is insertion order: get() returns the first
        // value and getAll() needs no reversal.
        int index = h & (table.length - 1);
        Entry chainTail = table[index];
        if (chainTail == null) {
            table[index] = e;
        } else {
            while (chainTail.next != null) {
                chainTail = chainTail.next;
            }
            chainTail.next = e;
        }
    }

    private void rehash(int newCount) {
        Entry[] table = new Entry[newCount];
        Entry[] tails = new Entry[newCount];
        // Walking the insertion-order list keeps each new chain in insertion order.
        for (Entry e = first; e != null; e = e.after) {
            e.next = null;
            int index = e.hash & (newCount - 1);
            if (tails[index] == null) {
                table[index] = e;
            } else {
                tails[index].next = e;
            }
            tails[index] = e;
        }
        buckets = table;
    }

    private void removeAll(int h, CharSequence name) {
        if (buckets == null) {
            for (Entry e = first; e != null; ) {
                Entry next = e.after;
                if (e.hash == h && nameEquals(e.name, name)) {
                    unlinkOrder(e);
                }
                e = next;
            }
            return;
        }
        int index = h & (buckets.length - 1);
        Entry prev = null;
        Entry e = buckets[index];
        while (e != null) {
            Entry next = e.next;
            if (e.hash == h && nameEquals(e.name, name)) {
                if (prev == null) {
                    buckets[index] = next;
                } else {
                    prev.next = next;
                }
                unlinkOrder(e);
            } else {
                prev = e;
            }
            e = next;
        }
    }

    private void removeEntry(Entry target) {
        if (buckets == null) {
            unlinkOrder(target);
            return;
        }
        int index = target.hash & (buckets.length - 1);
        Entry prev = null;
        for (Entry e = buckets[index]; e != null; prev = e, e = e.next) {
            if (e == target) {
                if (prev == null) {
                    buckets[index] = e.next;
                } else {
                    prev.next = e.next;
                }
                unlinkOrder(e);
                return;
            }
        }
    }

    private void unlinkOrder(Entry e) {
        Entry before = e.before;
        Entry after = e.after;
        if (before == null) {
            first = after;
        } else {
            before.after = after;
        }
        if (after == null) {
            last = before;
        } else {
            after.before = before;
        }
        e.before = null;
        e.after = null;
        e.next = null;
        size--;
        modCount++;
    }

    /**
     * Writes every field as {@code name: value CRLF} at {@code buf}'s writer index, copying AsciiString bytes
     * directly. Called by the encoders on the event loop.
     */
    final void encode(ByteBuf buf) {
        for (Entry e = first; e != null; e = e.after) {
            encodeField(buf, e.name, e.value);
        }
    }

    /** How many bytes {@link #encode(byte[], int)} writes: {@code name: value CRLF} per field. */
    final long encodedLength() {
        long n = 0;
        for (Entry e = first; e != null; e = e.after) {
            n += e.name.length() + e.value.length() + 4;
        }
        return n;
    }

    /**
     * Writes every field as {@code name: value CRLF} at {@code dst[pos]}, which has room for
     * {@link #encodedLength()} bytes; chars above {@code 0xFF} become {@code '?'}, as in {@link #encode(ByteBuf)}.
     *
     * @return the index after the last field
     */
    final int encode(byte[] dst, int pos) {
        int p = pos;
        for (Entry e = first; e != null; e = e.after) {
            p = writeAscii(dst, p, e.name);
            dst[p++] = ':';
            dst[p++] = ' ';
            p = writeAscii(dst, p, e.value);
            dst[p++] = '\r';
            dst[p++] = '\n';
        }
        return p;
    }

    /** Writes {@code s} at {@code dst[pos]} one byte per char ({@code '?'} above {@code 0xFF}); returns the end. */
    static int writeAscii(byte[] dst, int pos, CharSequence s) {
        int n = s.length();
        if (s instanceof AsciiString a) {
            System.arraycopy(a.array(), a.arrayOffset(), dst, pos, n);
        } else {
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                dst[pos + i] = (byte) (c > 0xFF ? '?' : c);
            }
        }
        return pos + n;
    }

    static void encodeField(ByteBuf buf, CharSequence name, CharSequence value) {
        int nameLength = name.length();
        int valueLength = value.length();
        buf.ensureWritable(nameLength + valueLength + 4);
        ByteBufUtil.writeAscii(buf, name);
        buf.writeShort(':' << 8 | ' ');
        ByteBufUtil.writeAscii(buf, value);
        buf.writeShort('\r' << 8 | '\n');
    }

    // ---- entries ----

    private static final class Entry implements Map.Entry<CharSequence, CharSequence> {
        final int hash;
        final AsciiString name;
        CharSequence value;
        Entry next;
        Entry before;
        Entry after;
        DefaultHttpHeaders owner;

        Entry(int hash, AsciiString name, CharSequence value) {
            this.hash = hash;
            this.name = name;
            this.value = value;
        }

        @Override
        public CharSequence getKey() {
            return name;
        }

        @Override
        public CharSequence getValue() {
            return value;
        }

        @Override
        public CharSequence setValue(CharSequence newValue) {
            Objects.requireNonNull(newValue, "value");
            if (owner != null && owner.validate) {
                validateValue(name, newValue);
            }
            CharSequence old = value;
            value = newValue;
            return old;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Map.Entry<?, ?> other && other.getKey() instanceof CharSequence k
                    && other.getValue() instanceof CharSequence v
                    && AsciiString.contentEqualsIgnoreCase(name, k) && AsciiString.contentEquals(value, v);
        }

        @Override
        public int hashCode() {
            return name.hashCodeIgnoreCase() ^ AsciiString.hashCode(value);
        }

        @Override
        public String toString() {
            return name + ": " + value;
        }
    }

    private final class EntryIterator implements Iterator<Map.Entry<CharSequence, CharSequence>> {
        private Entry next = first;
        private Entry last;
        private int expectedModCount = modCount;

        @Override
        public boolean hasNext() {
            return next != null;
        }

        @Override
        public Map.Entry<CharSequence, CharSequence> next() {
            if (modCount != expectedModCount) {
                throw new ConcurrentModificationException();
            }
            if (next == null) {
                throw new NoSuchElementException();
            }
            last = next;
            last.owner = DefaultHttpHeaders.this;
            next = next.after;
            return last;
        }

        @Override
        public void remove() {
            if (last == null) {
                throw new IllegalStateException("next() not called or remove() already called");
            }
            if (modCount != expectedModCount) {
                throw new ConcurrentModificationException();
            }
            removeEntry(last);
            last = null;
            expectedModCount = modCount;
        }
    }
}
