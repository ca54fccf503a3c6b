package io.weir.handler.codec.http2.internal;

import static io.weir.handler.codec.http2.Http2Exception.streamError;

import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;
import io.weir.handler.codec.http2.Http2Headers;

/**
 * Small parsers for fields the connection itself acts on: the RFC 9218 Priority Field Value (the {@code priority}
 * header field and the PRIORITY_UPDATE frame's payload) and {@code content-length}. Stateless.
 *
 * <p>A parsed priority is packed into an int so that it can be stored without allocation:
 * <pre>
 *   bit   3        2..0
 *        +--------+---------+
 *        | incr.  | urgency |   urgency 0 (most urgent) .. 7, RFC 9218 §4.1; incremental, §4.2
 *        +--------+---------+
 * </pre>
 */
public final class Http2Priorities {

    /** RFC 9218 §4.1: the default urgency. */
    static final int DEFAULT_URGENCY = 3;
    /** The packed priority of a request that signals none: urgency 3, not incremental (RFC 9218 §4). */
    static final int DEFAULT = DEFAULT_URGENCY;

    private static final int MAX_URGENCY = 7;
    private static final int URGENCY_MASK = 0x7;
    private static final int INCREMENTAL_BIT = 0x8;

    private Http2Priorities() {
    }

    /** The urgency of a packed priority. */
    static int urgency(int packed) {
        return packed & URGENCY_MASK;
    }

    /** The incremental flag of a packed priority. */
    static boolean incremental(int packed) {
        return (packed & INCREMENTAL_BIT) != 0;
    }

    /** Packs an urgency (0..7) and an incremental flag. */
    public static int pack(int urgency, boolean incremental) {
        if (urgency < 0 || urgency > MAX_URGENCY) {
            throw new IllegalArgumentException("urgency: " + urgency + " (expected: 0-7, RFC 9218 §4.1)");
        }
        return urgency | (incremental ? INCREMENTAL_BIT : 0);
    }

    /** The Priority Field Value that {@link #parse} reads back as {@code packed}, defaults left out. */
    static String format(int packed) {
        int u = urgency(packed);
        boolean i = incremental(packed);
        if (u == DEFAULT_URGENCY) {
            return i ? "i" : "";
        }
        return i ? "u=" + u + ", i" : "u=" + u;
    }

    /** Applies a parsed priority to a stream. */
    static void apply(Http2StreamRecord stream, int packed) {
        stream.urgency = urgency(packed);
        stream.incremental = incremental(packed);
    }

    /**
     * Parses an RFC 9218 §4 Priority Field Value, a Structured Fields dictionary (RFC 8941 §3.2) such as
     * {@code u=1, i}. Each value is a complete signal: a parameter it leaves out takes its default. Members other
     * than {@code u} and {@code i}, their parameters, and {@code u} or {@code i} with a value of the wrong type or
     * out of range are ignored (RFC 9218 §4); of duplicated keys the last counts (RFC 8941 §3.2). A value that is
     * not a dictionary at all, or longer than {@code maxLength} characters, is ignored as a whole: the defaults.
     *
     * @return the packed priority
     */
    static int parse(CharSequence value, int maxLength) {
        int n = value.length();
        if (n > maxLength) {
            return DEFAULT;
        }
        int urgency = DEFAULT_URGENCY;
        boolean incremental = false;
        int i = skipSpaces(value, 0, n);
        while (i < n) {
            int keyStart = i;
            char first = value.charAt(i);
            if (!(first >= 'a' && first <= 'z' || first == '*')) {
                return DEFAULT; // RFC 8941 §4.2.3.3: a key starts with lcalpha or "*"
            }
            while (i < n && isKeyChar(value.charAt(i))) {
                i++;
            }
            boolean isU = i - keyStart == 1 && first == 'u';
            boolean isI = i - keyStart == 1 && first == 'i';
            if (i < n && value.charAt(i) == '=') {
                int itemStart = ++i;
                i = skipBareItem(value, i, n);
                if (i < 0) {
                    return DEFAULT;
                }
                if (isU) {
                    int u = smallInteger(value, itemStart, i);
                    if (u >= 0 && u <= MAX_URGENCY) {
                        urgency = u;
                    }
                } else if (isI && i - itemStart == 2 && value.charAt(itemStart) == '?') {
                    incremental = value.charAt(itemStart + 1) == '1';
                }
            } else if (isI) {
                incremental = true; // a bare key is Boolean true (RFC 8941 §3.2)
            }
            i = skipParameters(value, i, n);
            if (i < 0) {
                return DEFAULT;
            }
            i = skipOws(value, i, n);
            if (i >= n) {
                break;
            }
            if (value.charAt(i) != ',') {
                return DEFAULT;
            }
            i = skipOws(value, i + 1, n);
            if (i >= n) {
                return DEFAULT; // RFC 8941 §4.2.2: a trailing comma fails parsing
            }
        }
        return urgency | (incremental ? INCREMENTAL_BIT : 0);
    }

    private static boolean isKeyChar(char c) {
        return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '*';
    }

    /** The value of a 1-3 digit non-negative Integer item, -1 for anything else. */
    private static int smallInteger(CharSequence s, int from, int to) {
        if (to - from < 1 || to - from > 3) {
            return -1;
        }
        int v = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + c - '0';
        }
        return v;
    }

    /**
     * Skips one bare item (RFC 8941 §3.3): a number, string, token, byte sequence or boolean; -1 when malformed.
     * Only its extent matters here; {@code u} and {@code i} are checked by the caller.
     */
    private static int skipBareItem(CharSequence s, int i, int n) {
        if (i >= n) {
            return -1;
        }
        char c = s.charAt(i);
        if (c == '"') {
            for (i++; i < n; i++) {
                char d = s.charAt(i);
                if (d == '\\') {
                    i++;
                } else if (d == '"') {
                    return i + 1;
                } else if (d < 0x20 || d > 0x7e) {
                    return -1;
                }
            }
            return -1;
        }
        if (c == ':') {
            for (i++; i < n; i++) {
                if (s.charAt(i) == ':') {
                    return i + 1;
                }
            }
            return -1;
        }
        if (c == '?') {
            return i + 1 < n && (s.charAt(i + 1) == '0' || s.charAt(i + 1) == '1') ? i + 2 : -1;
        }
        if (c == '-' || c >= '0' && c <= '9') {
            int start = i;
            i++;
            while (i < n && (s.charAt(i) >= '0' && s.charAt(i) <= '9' || s.charAt(i) == '.')) {
                i++;
            }
            return i - start <= 20 ? i : -1;
        }
        if (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '*') {
            i++;
            while (i < n && isTokenChar(s.charAt(i))) {
                i++;
            }
            return i;
        }
        return -1;
    }

    private static boolean isTokenChar(char c) {
        return c > 0x20 && c < 0x7f && c != '"' && c != '(' && c != ')' && c != ',' && c != ';' && c != '<'
                && c != '=' && c != '>' && c != '@' && c != '[' && c != '\\' && c != ']' && c != '{' && c != '}';
    }

    /** Skips {@code *( ";" *SP key [ "=" bare-item ] )} (RFC 8941 §3.1.2); -1 when malformed. */
    private static int skipParameters(CharSequence s, int i, int n) {
        while (i < n && s.charAt(i) == ';') {
            i = skipSpaces(s, i + 1, n);
            if (i >= n || !(s.charAt(i) >= 'a' && s.charAt(i) <= 'z' || s.charAt(i) == '*')) {
                return -1;
            }
            while (i < n && isKeyChar(s.charAt(i))) {
                i++;
            }
            if (i < n && s.charAt(i) == '=') {
                i = skipBareItem(s, i + 1, n);
                if (i < 0) {
                    return -1;
                }
            }
        }
        return i;
    }

    private static int skipSpaces(CharSequence s, int i, int n) {
        while (i < n && s.charAt(i) == ' ') {
            i++;
        }
        return i;
    }

    private static int skipOws(CharSequence s, int i, int n) {
        while (i < n && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    /**
     * The {@code content-length} of a header section, -1 when absent.
     *
     * @throws Http2Exception stream PROTOCOL_ERROR when it is not a decimal number or its values disagree
     *         (RFC 9110 §8.6, RFC 9113 §8.1.1)
     */
    static long contentLength(int streamId, Http2Headers headers) throws Http2Exception {
        long length = -1;
        for (int i = headers.pseudoHeaderCount(); i < headers.size(); i++) {
            CharSequence name = headers.name(i);
            if (name.length() != 14 || !"content-length".contentEquals(name)) {
                continue;
            }
            long value = parse(headers.value(i));
            if (value < 0 || length >= 0 && value != length) {
                throw streamError(streamId, Http2Error.PROTOCOL_ERROR, "invalid content-length on stream "
                        + streamId + ": " + headers.value(i));
            }
            length = value;
        }
        return length;
    }

    private static long parse(CharSequence s) {
        int n = s.length();
        if (n == 0 || n > 18) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
