package io.weir.handler.codec.http;

/**
 * Character classes of RFC 9110 §5.6.2 and §5.5 shared by methods, header names and header values, as
 * 256-entry tables so a check is one array load per byte. Stateless and thread-safe.
 */
final class HttpTokens {
    private static final boolean[] TCHAR = new boolean[256];
    private static final boolean[] FIELD_VALUE_CHAR = new boolean[256];

    static {
        // RFC 9110 §5.6.2: tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`"
        //                          / "|" / "~" / DIGIT / ALPHA
        for (char c = '0'; c <= '9'; c++) {
            TCHAR[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            TCHAR[c] = true;
            TCHAR[c - 'a' + 'A'] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TCHAR[c] = true;
        }
        // RFC 9110 §5.5: field-value characters are VCHAR, obs-text (0x80-0xFF), SP and HTAB.
        for (int c = 0x21; c <= 0x7E; c++) {
            FIELD_VALUE_CHAR[c] = true;
        }
        for (int c = 0x80; c <= 0xFF; c++) {
            FIELD_VALUE_CHAR[c] = true;
        }
        FIELD_VALUE_CHAR[' '] = true;
        FIELD_VALUE_CHAR['\t'] = true;
    }

    private HttpTokens() {
    }

    /** Whether byte {@code b} is an RFC 9110 token character. */
    static boolean isTokenChar(byte b) {
        return TCHAR[b & 0xFF];
    }

    /** Whether char {@code c} is an RFC 9110 token character. */
    static boolean isTokenChar(char c) {
        return c < 256 && TCHAR[c];
    }

    /** Whether byte {@code b} may appear in a field value (no CTL other than HTAB, no DEL). */
    static boolean isFieldValueChar(byte b) {
        return FIELD_VALUE_CHAR[b & 0xFF];
    }

    /** Whether char {@code c} may appear in a field value (no CTL other than HTAB, no DEL, nothing above 0xFF). */
    static boolean isFieldValueChar(char c) {
        return c < 256 && FIELD_VALUE_CHAR[c];
    }

    /** Index of the first non-token char of {@code s}, or -1 if it is a token (an empty string is not: 0). */
    static int firstNonTokenChar(CharSequence s) {
        int n = s.length();
        if (n == 0) {
            return 0;
        }
        for (int i = 0; i < n; i++) {
            if (!isTokenChar(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    /** {@code s} quoted with control characters and non-ASCII escaped, so it can be put in a message safely. */
    static String quote(CharSequence s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c >= 0x20 && c < 0x7F) {
                sb.append(c);
            } else {
                sb.append("\\x").append(Character.forDigit(c >> 4 & 0xF, 16)).append(Character.forDigit(c & 0xF, 16));
                if (c > 0xFF) {
                    sb.append("(U+").append(Integer.toHexString(c)).append(')');
                }
            }
        }
        return sb.append('"').toString();
    }
}
