package io.weir.handler.codec.http;

/**
 * Byte-class lookup tables for the RFC 9110/9112 grammar, indexed by {@code b & 0xFF}. A table lookup replaces the
 * chain of range comparisons the grammar spells out, so the decoder's scans are one load and one branch per byte.
 */
final class HttpByteClasses {
    static final byte CR = '\r';
    static final byte LF = '\n';
    static final byte SP = ' ';
    static final byte HTAB = '\t';
    static final byte COLON = ':';

    /** RFC 9110 §5.6.2 tchar: what methods, field names and transfer-coding names are made of. */
    static final boolean[] TCHAR = new boolean[256];
    /** RFC 9110 §5.5 field-vchar plus SP and HTAB: what a field value may hold (obs-text included). */
    static final boolean[] FIELD_VALUE = new boolean[256];
    /** The lenient field-value table used when header validation is off: everything but CR, LF and NUL. */
    static final boolean[] FIELD_VALUE_LENIENT = new boolean[256];
    /** The lenient field-name table used when header validation is off: no separator that breaks framing. */
    static final boolean[] FIELD_NAME_LENIENT = new boolean[256];
    /**
     * RFC 9112 §3.2 request-target: visible US-ASCII only. Spaces would shift the request line's fields (a
     * classic smuggling vector) and raw non-ASCII bytes have no defined meaning in a URI.
     */
    static final boolean[] TARGET = new boolean[256];
    /** RFC 9112 §4 reason-phrase: HTAB, SP, VCHAR and obs-text. */
    static final boolean[] REASON = new boolean[256];
    /**
     * RFC 3986 §3.2.2 reg-name bytes (unreserved, pct-encoded's {@code %}, sub-delims) less the comma, which would
     * make a Host field a list (RFC 9110 §7.2: Host is a single authority).
     */
    static final boolean[] REG_NAME = new boolean[256];
    /** Hexadecimal digit values, -1 for anything else (RFC 9112 §7.1 chunk-size). */
    static final byte[] HEX = new byte[256];

    static {
        for (int c = '0'; c <= '9'; c++) {
            TCHAR[c] = true;
        }
        for (int c = 'a'; c <= 'z'; c++) {
            TCHAR[c] = true;
            TCHAR[c - 32] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TCHAR[c] = true;
        }
        for (int c = 0x21; c <= 0xFF; c++) {
            if (c != 0x7F) {
                FIELD_VALUE[c] = true;
                REASON[c] = true;
            }
            if (c <= 0x7E) {
                TARGET[c] = true;
            }
        }
        FIELD_VALUE[SP] = FIELD_VALUE[HTAB] = true;
        REASON[SP] = REASON[HTAB] = true;
        for (int c = 0; c < 256; c++) {
            FIELD_VALUE_LENIENT[c] = c != CR && c != LF && c != 0;
            FIELD_NAME_LENIENT[c] = FIELD_VALUE_LENIENT[c] && c != SP && c != HTAB && c != COLON;
            HEX[c] = -1;
        }
        for (int c = '0'; c <= '9'; c++) {
            HEX[c] = (byte) (c - '0');
        }
        for (int c = 0; c < 128; c++) {
            REG_NAME[c] = c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
        }
        for (char c : "-._~%!$&'()*+;=".toCharArray()) {
            REG_NAME[c] = true;
        }
        for (int c = 'a'; c <= 'f'; c++) {
            HEX[c] = (byte) (c - 'a' + 10);
            HEX[c - 32] = (byte) (c - 'a' + 10);
        }
    }

    private HttpByteClasses() {
    }

    static boolean isOws(byte b) {
        return b == SP || b == HTAB;
    }

    /** Whether {@code b} is a control character (RFC 5234 CTL): 0x00-0x1F or DEL. */
    static boolean isControl(byte b) {
        return (b & 0xFF) < 0x20 || b == 0x7F;
    }

    /**
     * Whether {@code a[from, from + length)} equals the lower-case ASCII {@code lower}, ignoring ASCII case in
     * {@code a}.
     */
    static boolean equalsLowerCase(byte[] a, int from, int length, byte[] lower) {
        if (length != lower.length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            int c = a[from + i];
            if (c >= 'A' && c <= 'Z') {
                c += 32;
            }
            if (c != lower[i]) {
                return false;
            }
        }
        return true;
    }
}
