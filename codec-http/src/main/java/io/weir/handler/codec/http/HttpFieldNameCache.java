package io.weir.handler.codec.http;

import io.weir.util.AsciiString;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The field names decoders meet most, as shared immutable {@link AsciiString}s, so a decoded message that carries
 * one costs no copy of its name and no hash computation (the constants cache theirs). Holds every
 * {@link HttpHeaderNames} constant in lower case and in the capitalised form most clients send ({@code Host},
 * {@code Content-Length}); a name is only found when its bytes are exactly one of these, so the case a peer sent
 * is kept.
 *
 * <p>An open-addressed table (linear probing) filled at class initialisation and never changed after, so it is
 * safe to read from any thread.
 */
final class HttpFieldNameCache {
    private static final AsciiString[] TABLE = build();

    private HttpFieldNameCache() {
    }

    /**
     * The shared name whose bytes are exactly {@code b[0, length)}, or {@code null} if there is none.
     *
     * @param length at least 1
     */
    static AsciiString find(byte[] b, int length) {
        AsciiString[] table = TABLE;
        int mask = table.length - 1;
        for (int slot = slot(b, 0, length) & mask; ; slot = (slot + 1) & mask) {
            AsciiString name = table[slot];
            if (name == null) {
                return null;
            }
            if (name.length() == length) {
                int offset = name.arrayOffset();
                if (Arrays.equals(name.array(), offset, offset + length, b, 0, length)) {
                    return name;
                }
            }
        }
    }

    /** A cheap hash of the bytes that differ most between field names: the length and three sample bytes. */
    private static int slot(byte[] b, int offset, int length) {
        int h = length;
        h = 31 * h + b[offset];
        h = 31 * h + b[offset + (length >> 1)];
        h = 31 * h + b[offset + length - 1];
        return h ^ (h >>> 7);
    }

    private static AsciiString[] build() {
        List<AsciiString> names = new ArrayList<>();
        for (Field field : HttpHeaderNames.class.getFields()) {
            if (field.getType() == AsciiString.class && Modifier.isStatic(field.getModifiers())) {
                try {
                    AsciiString lower = (AsciiString) field.get(null);
                    names.add(lower);
                    names.add(AsciiString.cached(capitalised(lower.toString())));
                } catch (IllegalAccessException e) {
                    throw new ExceptionInInitializerError(e);
                }
            }
        }
        // At most an eighth full: a name that is not there meets an empty slot within a probe or two.
        AsciiString[] table = new AsciiString[Integer.highestOneBit(names.size()) << 4];
        int mask = table.length - 1;
        for (AsciiString name : names) {
            int slot = slot(name.array(), name.arrayOffset(), name.length()) & mask;
            while (table[slot] != null) {
                slot = (slot + 1) & mask;
            }
            table[slot] = name;
        }
        return table;
    }

    /** {@code content-length} as {@code Content-Length}: each letter after a start or a dash in upper case. */
    private static String capitalised(String lower) {
        char[] c = lower.toCharArray();
        for (int i = 0; i < c.length; i++) {
            if ((i == 0 || c[i - 1] == '-') && c[i] >= 'a' && c[i] <= 'z') {
                c[i] -= 32;
            }
        }
        return new String(c);
    }
}
