package io.weir.handler.codec.dns;

import io.weir.buffer.ByteBuf;

/**
 * Domain names between their presentation form and the wire (RFC 1035 §3.1, escapes as in RFC 4343 §2.1).
 * The presentation form used throughout this package has no final dot ({@code "example.com"}, the root is
 * {@code ""}) and escapes a label's {@code .} and {@code \} as {@code \.} and {@code \\} and any byte outside
 * printable ASCII as {@code \DDD} (three decimal digits). Stateless and thread-safe.
 */
public final class DnsNames {
    /** The longest label, in bytes (RFC 1035 §2.3.4). */
    public static final int MAX_LABEL_BYTES = 63;
    /** The longest name on the wire, length bytes and the final zero included (RFC 1035 §2.3.4). */
    public static final int MAX_NAME_BYTES = 255;

    private static final int HIGHEST_PLAIN_CHAR = 0x7E;
    private static final int LOWEST_PLAIN_CHAR = 0x21;

    private DnsNames() {
    }

    /**
     * How many bytes {@code name} takes on the wire, uncompressed.
     *
     * @throws IllegalArgumentException if the name has an empty or too long label, a bad escape, a char beyond
     *                                  ASCII (convert with {@link java.net.IDN#toASCII(String)} first) or is too long
     */
    public static int wireLength(String name) {
        return write(name, null);
    }

    /**
     * Writes {@code name} uncompressed to {@code out}, length-prefixed labels ending in the zero byte.
     *
     * @return the bytes written
     * @throws IllegalArgumentException as {@link #wireLength(String)}; {@code out} is then left as it was
     */
    public static int write(String name, ByteBuf out) {
        int start = out == null ? 0 : out.writerIndex();
        try {
            return write0(name, out);
        } catch (IllegalArgumentException e) {
            if (out != null) {
                out.writerIndex(start);
            }
            throw e;
        }
    }

    private static int write0(String name, ByteBuf out) {
        int len = name.length();
        if (len == 0 || len == 1 && name.charAt(0) == '.') {
            if (out != null) {
                out.writeByte(0);
            }
            return 1;
        }
        int total = 1;
        int i = 0;
        while (i < len) {
            int lengthIndex = out == null ? 0 : out.writerIndex();
            if (out != null) {
                out.writeByte(0);
            }
            int labelBytes = 0;
            while (i < len && name.charAt(i) != '.') {
                char c = name.charAt(i);
                int b;
                if (c == '\\') {
                    if (i + 1 >= len) {
                        throw new IllegalArgumentException("escape at the end of name: " + name);
                    }
                    char d = name.charAt(i + 1);
                    if (d >= '0' && d <= '9') {
                        b = decimalEscape(name, i + 1);
                        i += 4;
                    } else {
                        b = d;
                        i += 2;
                    }
                } else {
                    b = c;
                    i++;
                }
                if (b > 0xFF || c > 0x7F) {
                    throw new IllegalArgumentException("name has a char beyond ASCII (use IDN.toASCII): " + name);
                }
                if (++labelBytes > MAX_LABEL_BYTES) {
                    throw new IllegalArgumentException("label longer than " + MAX_LABEL_BYTES + " bytes in: "
                            + name);
                }
                if (out != null) {
                    out.writeByte(b);
                }
            }
            if (labelBytes == 0) {
                throw new IllegalArgumentException("empty label in name: " + name);
            }
            if (out != null) {
                out.setByte(lengthIndex, labelBytes);
            }
            total += labelBytes + 1;
            if (total > MAX_NAME_BYTES) {
                throw new IllegalArgumentException("name longer than " + MAX_NAME_BYTES + " bytes: " + name);
            }
            i++; // the dot; a final dot ends the name like the end of the string
        }
        if (out != null) {
            out.writeByte(0);
        }
        return total;
    }

    private static int decimalEscape(String name, int at) {
        if (at + 3 > name.length()) {
            throw new IllegalArgumentException("\\DDD escape needs three digits: " + name);
        }
        int v = 0;
        for (int k = at; k < at + 3; k++) {
            char d = name.charAt(k);
            if (d < '0' || d > '9') {
                throw new IllegalArgumentException("\\DDD escape needs three digits: " + name);
            }
            v = v * 10 + (d - '0');
        }
        if (v > 0xFF) {
            throw new IllegalArgumentException("\\DDD escape above 255: " + name);
        }
        return v;
    }

    /** Appends one label byte in presentation form. */
    static void appendLabelByte(StringBuilder sb, int b) {
        if (b == '.' || b == '\\') {
            sb.append('\\').append((char) b);
        } else if (b < LOWEST_PLAIN_CHAR || b > HIGHEST_PLAIN_CHAR) {
            sb.append('\\').append((char) ('0' + b / 100)).append((char) ('0' + b / 10 % 10))
                    .append((char) ('0' + b % 10));
        } else {
            sb.append((char) b);
        }
    }

    /**
     * Whether two names in presentation form are the same name: equal ignoring ASCII case (RFC 4343 §3) and a
     * final dot.
     */
    public static boolean equalsIgnoreCase(String a, String b) {
        int la = withoutFinalDot(a);
        int lb = withoutFinalDot(b);
        return la == lb && a.regionMatches(true, 0, b, 0, la);
    }

    private static int withoutFinalDot(String s) {
        int n = s.length();
        return n > 0 && s.charAt(n - 1) == '.' && (n < 2 || s.charAt(n - 2) != '\\') ? n - 1 : n;
    }
}
