package io.weir.grpc;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The percent-encoding of the {@code grpc-message} trailer (gRPC over HTTP/2, "Responses"): the UTF-8 bytes of the
 * description, each byte outside {@code %x20-%x24 / %x26-%x7E} written as {@code %} and two upper-case hex digits.
 */
public final class GrpcStatusMessage {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private GrpcStatusMessage() {
    }

    /** {@code description} percent-encoded; the same string when nothing needs encoding. */
    public static String encode(String description) {
        int length = description.length();
        int i = 0;
        while (i < length && isUnreserved(description.charAt(i))) {
            i++;
        }
        if (i == length) {
            return description;
        }
        byte[] utf8 = description.getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder(utf8.length + 16);
        for (byte b : utf8) {
            int c = b & 0xFF;
            if (isUnreserved(c)) {
                out.append((char) c);
            } else {
                out.append('%').append(HEX[c >>> 4]).append(HEX[c & 0xF]);
            }
        }
        return out.toString();
    }

    /**
     * {@code value} decoded. As the protocol asks, a malformed {@code %} sequence is not an error: it is kept as
     * it is, and bytes that are not UTF-8 become U+FFFD.
     */
    public static String decode(CharSequence value) {
        int length = value.length();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(length);
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (c == '%' && i + 2 < length) {
                int hi = Character.digit(value.charAt(i + 1), 16);
                int lo = Character.digit(value.charAt(i + 2), 16);
                if (hi >= 0 && lo >= 0) {
                    bytes.write(hi << 4 | lo);
                    i += 2;
                    continue;
                }
            }
            bytes.write(c <= 0xFF ? c : '?');
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static boolean isUnreserved(int c) {
        return c >= 0x20 && c <= 0x7E && c != '%';
    }
}
