package io.weir.handler.codec.haproxy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One Type-Length-Value vector of a version 2 header (the specification's section 2.2): a type byte and a value
 * of up to 65,535 bytes. Immutable; holds a copy of its value, never a buffer, so it needs no release.
 *
 * <pre>
 *  byte 0      1          2          3 ...
 *      +------+----------+----------+---------------------------+
 *      | type | length (big-endian) | value: length bytes       |
 *      +------+----------+----------+---------------------------+
 * </pre>
 *
 * The {@code TYPE_} constants are the types the specification registers; the range {@code 0xE0}-{@code 0xEF} is
 * for applications, {@code 0xF0}-{@code 0xF7} for experiments. The decoder keeps every TLV, unknown types and
 * {@link #TYPE_NOOP} included, in wire order.
 */
public final class HAProxyTlv {
    /** Application-Layer Protocol Negotiation: the protocol in use, as in TLS's ALPN extension. */
    public static final int TYPE_ALPN = 0x01;
    /** The host name the client asked for, UTF-8 (the TLS SNI when there was TLS). */
    public static final int TYPE_AUTHORITY = 0x02;
    /** A CRC32C checksum of the whole header, 4 bytes big-endian; see {@link #crc32c()}. */
    public static final int TYPE_CRC32C = 0x03;
    /** Padding, to be ignored; may appear any number of times. */
    public static final int TYPE_NOOP = 0x04;
    /** An opaque identifier of the connection, at most {@value #MAX_UNIQUE_ID_BYTES} bytes. */
    public static final int TYPE_UNIQUE_ID = 0x05;
    /** Facts of the client's TLS connection; see {@link HAProxySslTlv}. */
    public static final int TYPE_SSL = 0x20;
    /** Sub-TLV of {@link #TYPE_SSL}: the TLS version, US-ASCII (e.g. {@code TLSv1.3}). */
    public static final int SUBTYPE_SSL_VERSION = 0x21;
    /** Sub-TLV of {@link #TYPE_SSL}: the Common Name of the client certificate's subject, UTF-8. */
    public static final int SUBTYPE_SSL_CN = 0x22;
    /** Sub-TLV of {@link #TYPE_SSL}: the cipher's name, US-ASCII (e.g. {@code ECDHE-RSA-AES128-GCM-SHA256}). */
    public static final int SUBTYPE_SSL_CIPHER = 0x23;
    /** Sub-TLV of {@link #TYPE_SSL}: the algorithm that signed the proxy's certificate (e.g. {@code SHA256}). */
    public static final int SUBTYPE_SSL_SIG_ALG = 0x24;
    /** Sub-TLV of {@link #TYPE_SSL}: the algorithm of the proxy's certificate key (e.g. {@code RSA2048}). */
    public static final int SUBTYPE_SSL_KEY_ALG = 0x25;
    /** The name of the network namespace the connection came from, US-ASCII. */
    public static final int TYPE_NETNS = 0x30;

    /** Bytes of a TLV before its value: the type and the 16-bit length. */
    public static final int HEADER_BYTES = 3;
    /** The largest value a TLV can carry, in bytes (its length field is 16 bits). */
    public static final int MAX_VALUE_BYTES = 0xFFFF;
    /** The largest {@link #TYPE_UNIQUE_ID} value the specification allows, in bytes. */
    public static final int MAX_UNIQUE_ID_BYTES = 128;
    /** The size of a {@link #TYPE_CRC32C} value, in bytes. */
    public static final int CRC32C_VALUE_BYTES = 4;

    private static final int MAX_TYPE = 0xFF;

    private final int type;
    private final byte[] value;

    /**
     * A TLV holding a copy of {@code value}.
     *
     * @param type the type, 0 to 255
     * @param value the value, at most {@value #MAX_VALUE_BYTES} bytes; copied
     * @throws IllegalArgumentException if {@code type} or the value's length is out of range
     * @throws NullPointerException if {@code value} is null
     */
    public HAProxyTlv(int type, byte[] value) {
        this(checkType(type), Objects.requireNonNull(value, "value"), 0, value.length);
    }

    /** A TLV of {@code value[from, to)}, copied; the type is already checked. */
    HAProxyTlv(int type, byte[] value, int from, int to) {
        if (to - from > MAX_VALUE_BYTES) {
            throw new IllegalArgumentException("TLV value of " + (to - from) + " bytes (expected <= "
                    + MAX_VALUE_BYTES + ")");
        }
        this.type = type;
        this.value = Arrays.copyOfRange(value, from, to);
    }

    /**
     * A TLV whose value is {@code value} encoded as UTF-8 (US-ASCII text is the same bytes).
     *
     * @throws IllegalArgumentException if {@code type} is out of range or the encoded value is too long
     * @throws NullPointerException if {@code value} is null
     */
    public static HAProxyTlv ofString(int type, String value) {
        return new HAProxyTlv(type, value.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A {@link #TYPE_CRC32C} TLV with a zero value, for messages to be encoded: the
     * {@link HAProxyMessageEncoder} computes the checksum of the header it writes and puts it in this TLV's
     * place, whatever value the TLV carries.
     */
    public static HAProxyTlv crc32c() {
        return new HAProxyTlv(TYPE_CRC32C, new byte[CRC32C_VALUE_BYTES]);
    }

    private static int checkType(int type) {
        if (type < 0 || type > MAX_TYPE) {
            throw new IllegalArgumentException("TLV type: " + type + " (expected 0 to " + MAX_TYPE + ")");
        }
        return type;
    }

    /** The type, 0 to 255. */
    public int type() {
        return type;
    }

    /** A copy of the value. */
    public byte[] value() {
        return value.clone();
    }

    /** The value's length in bytes. */
    public int length() {
        return value.length;
    }

    /** The value decoded as UTF-8, malformed sequences replaced by U+FFFD. */
    public String valueAsString() {
        return new String(value, StandardCharsets.UTF_8);
    }

    /** The value itself, not a copy: for this package's encoder and checks, which never change it. */
    byte[] rawValue() {
        return value;
    }

    /** Whether {@code o} is a TLV of the same type and value. */
    @Override
    public boolean equals(Object o) {
        return o instanceof HAProxyTlv t && t.type == type && Arrays.equals(t.value, value);
    }

    @Override
    public int hashCode() {
        return 31 * type + Arrays.hashCode(value);
    }

    /** The type in hexadecimal and the value's length, e.g. {@code TLV(0x02, 11 bytes)}. */
    @Override
    public String toString() {
        return "TLV(0x" + Integer.toHexString(0x100 | type).substring(1) + ", " + value.length + " bytes)";
    }
}
