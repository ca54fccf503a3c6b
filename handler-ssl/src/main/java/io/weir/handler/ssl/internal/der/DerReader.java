package io.weir.handler.ssl.internal.der;

/**
 * A bounded reader of DER (ITU-T X.690 §10) type-length-value elements over a byte array, enough to take
 * private keys apart. Only definite lengths with at most four length octets are accepted; every length is
 * checked against the bytes that remain before it is used, so malformed input ends in a {@link DerException},
 * never an index error or a huge allocation. Not thread-safe; one instance per parse.
 *
 * <pre>
 *  tag (1 octet, low-tag-number form only)
 *  length: 0xxxxxxx                  short form, 0..127
 *          1nnnnnnn + n octets       long form, n in 1..4, value &lt; 2^31
 *  value: length octets
 * </pre>
 */
public final class DerReader {
    /** Universal tags used by the key formats. */
    public static final int TAG_INTEGER = 0x02;
    public static final int TAG_BIT_STRING = 0x03;
    public static final int TAG_OCTET_STRING = 0x04;
    public static final int TAG_NULL = 0x05;
    public static final int TAG_OID = 0x06;
    public static final int TAG_SEQUENCE = 0x30;
    /** Context-specific, constructed, tag number 0 ({@code [0]} EXPLICIT). */
    public static final int TAG_CONTEXT_0 = 0xA0;

    private static final int MAX_LENGTH_OCTETS = 4;

    private final byte[] data;
    private int position;
    private final int end;

    /** A reader over {@code data[offset, offset + length)}. */
    public DerReader(byte[] data, int offset, int length) {
        if (offset < 0 || length < 0 || offset > data.length - length) {
            throw new IndexOutOfBoundsException("offset " + offset + ", length " + length + ", size " + data.length);
        }
        this.data = data;
        this.position = offset;
        this.end = offset + length;
    }

    /** A reader over all of {@code data}. */
    public DerReader(byte[] data) {
        this(data, 0, data.length);
    }

    /** Whether elements remain. */
    public boolean hasRemaining() {
        return position < end;
    }

    /** The tag of the next element without consuming it. */
    public int peekTag() throws DerException {
        if (position >= end) {
            throw new DerException("expected an element at offset " + position + " but the input ended");
        }
        return data[position] & 0xFF;
    }

    /**
     * Reads the next element, which must carry {@code expectedTag}, and returns a reader over its value.
     *
     * @throws DerException if the tag differs or the length is malformed or runs past the input
     */
    public DerReader read(int expectedTag) throws DerException {
        int tag = peekTag();
        if (tag != expectedTag) {
            throw new DerException("expected tag 0x" + Integer.toHexString(expectedTag) + " at offset " + position
                    + " but saw 0x" + Integer.toHexString(tag));
        }
        position++;
        int length = readLength();
        DerReader value = new DerReader(data, position, length);
        position += length;
        return value;
    }

    /** Reads the next element whatever its tag and returns its complete encoding (tag, length and value). */
    public byte[] readRawElement() throws DerException {
        int start = position;
        peekTag();
        position++;
        int length = readLength();
        position += length;
        return java.util.Arrays.copyOfRange(data, start, position);
    }

    /** The remaining value bytes of this reader, copied. */
    public byte[] remainingBytes() {
        byte[] copy = java.util.Arrays.copyOfRange(data, position, end);
        position = end;
        return copy;
    }

    /** Reads an INTEGER that must fit in an {@code int}. */
    public int readSmallInteger() throws DerException {
        DerReader value = read(TAG_INTEGER);
        int length = value.end - value.position;
        if (length < 1 || length > 4) {
            throw new DerException("expected a small INTEGER but its length was " + length + " octets");
        }
        int result = value.data[value.position]; // sign-extended: DER integers are two's complement
        for (int i = value.position + 1; i < value.end; i++) {
            result = (result << 8) | (value.data[i] & 0xFF);
        }
        return result;
    }

    /** Reads an OBJECT IDENTIFIER and returns it in dotted form ({@code 1.2.840.113549.1.1.1}). */
    public String readOid() throws DerException {
        DerReader value = read(TAG_OID);
        if (value.end == value.position) {
            throw new DerException("empty OBJECT IDENTIFIER");
        }
        StringBuilder out = new StringBuilder();
        long arc = 0;
        boolean first = true;
        for (int i = value.position; i < value.end; i++) {
            int b = value.data[i] & 0xFF;
            if (arc > (Long.MAX_VALUE >>> 7)) {
                throw new DerException("OBJECT IDENTIFIER arc too large");
            }
            arc = (arc << 7) | (b & 0x7F);
            if ((b & 0x80) == 0) {
                if (first) {
                    // X.690 §8.19.4: the first subidentifier packs the first two arcs as 40 * a + b.
                    long a = Math.min(arc / 40, 2);
                    out.append(a).append('.').append(arc - a * 40);
                    first = false;
                } else {
                    out.append('.').append(arc);
                }
                arc = 0;
            }
        }
        if ((value.data[value.end - 1] & 0x80) != 0) {
            throw new DerException("OBJECT IDENTIFIER ends inside a subidentifier");
        }
        return out.toString();
    }

    private int readLength() throws DerException {
        if (position >= end) {
            throw new DerException("the input ended before a length at offset " + position);
        }
        int first = data[position++] & 0xFF;
        int length;
        if (first < 0x80) {
            length = first;
        } else {
            int octets = first & 0x7F;
            if (octets == 0) {
                throw new DerException("indefinite length is not DER (offset " + (position - 1) + ")");
            }
            if (octets > MAX_LENGTH_OCTETS) {
                throw new DerException("length of " + octets + " octets, at most " + MAX_LENGTH_OCTETS + " allowed");
            }
            if (end - position < octets) {
                throw new DerException("the input ended inside a length at offset " + position);
            }
            long l = 0;
            for (int i = 0; i < octets; i++) {
                l = (l << 8) | (data[position++] & 0xFF);
            }
            if (l > Integer.MAX_VALUE) {
                throw new DerException("length " + l + " is out of range");
            }
            length = (int) l;
        }
        if (length > end - position) {
            throw new DerException("length " + length + " at offset " + position + " runs past the "
                    + (end - position) + " remaining bytes");
        }
        return length;
    }
}
