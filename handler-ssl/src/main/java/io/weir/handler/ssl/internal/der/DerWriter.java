package io.weir.handler.ssl.internal.der;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * Builds DER (ITU-T X.690 §10) encodings bottom-up: each method returns one complete element, and
 * constructed elements are made from the encodings of their children. Enough for PKCS#8 wrapping and a
 * minimal X.509 v3 certificate; not a general ASN.1 library.
 */
public final class DerWriter {
    /** Context-specific primitive tag 2 ({@code dNSName} in GeneralName). */
    public static final int TAG_CONTEXT_PRIMITIVE_2 = 0x82;
    /** Context-specific primitive tag 7 ({@code iPAddress} in GeneralName). */
    public static final int TAG_CONTEXT_PRIMITIVE_7 = 0x87;
    private static final int TAG_BOOLEAN = 0x01;
    private static final int TAG_UTF8_STRING = 0x0C;
    private static final int TAG_SET = 0x31;
    private static final int TAG_UTC_TIME = 0x17;
    private static final int TAG_GENERALIZED_TIME = 0x18;

    private DerWriter() {
    }

    /** An element with {@code tag} whose value is the concatenation of {@code parts}. */
    public static byte[] element(int tag, byte[]... parts) {
        int length = 0;
        for (byte[] p : parts) {
            length += p.length;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(length + 6);
        out.write(tag);
        writeLength(out, length);
        for (byte[] p : parts) {
            out.write(p, 0, p.length);
        }
        return out.toByteArray();
    }

    /** A SEQUENCE of the given encoded elements. */
    public static byte[] sequence(byte[]... elements) {
        return element(DerReader.TAG_SEQUENCE, elements);
    }

    /** A SET of the given encoded elements (the caller gives them in DER order). */
    public static byte[] set(byte[]... elements) {
        return element(TAG_SET, elements);
    }

    /** An INTEGER in minimal two's complement form. */
    public static byte[] integer(BigInteger value) {
        return element(DerReader.TAG_INTEGER, value.toByteArray());
    }

    /** An INTEGER. */
    public static byte[] integer(long value) {
        return integer(BigInteger.valueOf(value));
    }

    /** An OCTET STRING. */
    public static byte[] octetString(byte[] value) {
        return element(DerReader.TAG_OCTET_STRING, value);
    }

    /** A BIT STRING with no unused bits. */
    public static byte[] bitString(byte[] value) {
        return element(DerReader.TAG_BIT_STRING, new byte[] {0}, value);
    }

    /** NULL. */
    public static byte[] nul() {
        return new byte[] {DerReader.TAG_NULL, 0};
    }

    /** A BOOLEAN. */
    public static byte[] bool(boolean value) {
        return new byte[] {TAG_BOOLEAN, 1, (byte) (value ? 0xFF : 0)};
    }

    /** A UTF8String. */
    public static byte[] utf8String(String value) {
        return element(TAG_UTF8_STRING, value.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A time as RFC 5280 §4.1.2.5 wants it: UTCTime ({@code YYMMDDHHMMSSZ}) for the years 1950 to 2049,
     * GeneralizedTime ({@code YYYYMMDDHHMMSSZ}) otherwise.
     */
    public static byte[] time(java.time.Instant instant) {
        java.time.ZonedDateTime t = instant.atZone(java.time.ZoneOffset.UTC);
        int year = t.getYear();
        String body = String.format("%02d%02d%02d%02d%02dZ", t.getMonthValue(), t.getDayOfMonth(), t.getHour(),
                t.getMinute(), t.getSecond());
        if (year >= 1950 && year < 2050) {
            return element(TAG_UTC_TIME, (String.format("%02d", year % 100) + body).getBytes(StandardCharsets.US_ASCII));
        }
        return element(TAG_GENERALIZED_TIME, (String.format("%04d", year) + body).getBytes(StandardCharsets.US_ASCII));
    }

    /** An OBJECT IDENTIFIER from its dotted form. */
    public static byte[] oid(String dotted) {
        String[] arcs = dotted.split("\\.");
        if (arcs.length < 2) {
            throw new IllegalArgumentException("an OID has at least two arcs: " + dotted);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeBase128(out, Long.parseLong(arcs[0]) * 40 + Long.parseLong(arcs[1]));
        for (int i = 2; i < arcs.length; i++) {
            writeBase128(out, Long.parseLong(arcs[i]));
        }
        return element(DerReader.TAG_OID, out.toByteArray());
    }

    private static void writeBase128(ByteArrayOutputStream out, long value) {
        int groups = 1;
        for (long v = value >>> 7; v != 0; v >>>= 7) {
            groups++;
        }
        for (int i = groups - 1; i >= 0; i--) {
            int b = (int) ((value >>> (7 * i)) & 0x7F);
            out.write(i == 0 ? b : b | 0x80);
        }
    }

    private static void writeLength(ByteArrayOutputStream out, int length) {
        if (length < 0x80) {
            out.write(length);
        } else if (length <= 0xFF) {
            out.write(0x81);
            out.write(length);
        } else if (length <= 0xFFFF) {
            out.write(0x82);
            out.write(length >>> 8);
            out.write(length);
        } else if (length <= 0xFFFFFF) {
            out.write(0x83);
            out.write(length >>> 16);
            out.write(length >>> 8);
            out.write(length);
        } else {
            out.write(0x84);
            out.write(length >>> 24);
            out.write(length >>> 16);
            out.write(length >>> 8);
            out.write(length);
        }
    }
}
