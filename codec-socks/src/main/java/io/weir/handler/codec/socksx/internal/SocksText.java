package io.weir.handler.codec.socksx.internal;

import io.weir.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

/**
 * The text fields of SOCKS messages: host names, user ids, user names and passwords travel as bytes, which this
 * codec reads and writes as UTF-8 (US-ASCII, which every client sends for names, is a subset). Decoding is strict:
 * bytes that are not UTF-8 are refused rather than replaced, so that two different byte strings never decode to
 * the same text (a replaced password would compare equal to another). Stateless; any thread.
 */
public final class SocksText {
    private SocksText() {
    }

    /** The bytes {@code s} takes on the wire. */
    public static byte[] encode(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The UTF-8 text of {@code length} bytes of {@code buf} at {@code index}; {@code null} if they are not UTF-8. */
    public static String decode(ByteBuf buf, int index, int length) {
        byte[] bytes = new byte[length];
        buf.getBytes(index, bytes);
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** The index of the first control character (U+0000 to U+001F, U+007F) in {@code s}, or -1. */
    public static int indexOfControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7F) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Checks that {@code name} can be a host name on the wire: not empty, no control character (a NUL would cut
     * the name short for a C resolver), at most {@code maxBytes} bytes of UTF-8.
     *
     * @return the name's bytes
     * @throws IllegalArgumentException if it cannot
     */
    public static byte[] checkHostName(String name, int maxBytes) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("host name is empty");
        }
        int control = indexOfControl(name);
        if (control >= 0) {
            throw new IllegalArgumentException("host name has control character U+"
                    + String.format("%04X", (int) name.charAt(control)) + " at index " + control);
        }
        return checkLength(name, "host name", maxBytes);
    }

    /**
     * Checks that {@code value} takes at most {@code maxBytes} bytes of UTF-8.
     *
     * @return its bytes
     * @throws IllegalArgumentException if it takes more
     */
    public static byte[] checkLength(String value, String what, int maxBytes) {
        byte[] bytes = encode(value);
        if (bytes.length > maxBytes) {
            throw new IllegalArgumentException(what + " is " + bytes.length + " bytes of UTF-8 (at most " + maxBytes
                    + ")");
        }
        return bytes;
    }
}
