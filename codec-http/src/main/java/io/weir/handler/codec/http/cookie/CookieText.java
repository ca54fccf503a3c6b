package io.weir.handler.codec.http.cookie;

/**
 * Character classes of RFC 6265 §4.1.1 shared by the cookie decoders and encoders, as lookup tables over
 * 0..255 (cookie headers are ISO-8859-1 text; anything above 0xFF is invalid everywhere).
 */
final class CookieText {
    private static final boolean[] TOKEN = new boolean[256];
    private static final boolean[] COOKIE_OCTET = new boolean[256];
    private static final boolean[] LAX_VALUE = new boolean[256];
    private static final boolean[] STRICT_PATH = new boolean[256];
    private static final boolean[] LAX_PATH = new boolean[256];
    private static final boolean[] DOMAIN = new boolean[256];

    static {
        // RFC 9110 §5.6.2 tchar
        for (char c = '0'; c <= '9'; c++) {
            TOKEN[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            TOKEN[c] = true;
            TOKEN[c - 32] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TOKEN[c] = true;
        }
        // RFC 6265 §4.1.1 cookie-octet = %x21 / %x23-2B / %x2D-3A / %x3C-5B / %x5D-7E
        for (int c = 0x21; c <= 0x7E; c++) {
            COOKIE_OCTET[c] = c != '"' && c != ',' && c != ';' && c != '\\';
        }
        // Lax values: what browsers send, but never a separator of the header or a control character.
        for (int c = 0x20; c <= 0xFF; c++) {
            LAX_VALUE[c] = c != ';' && c != 0x7F && (c < 0x80 || c >= 0xA0);
        }
        // RFC 6265 §4.1.1 path-value = <any CHAR except CTLs or ";">; strict also refuses space and comma,
        // which a path should carry percent-encoded.
        for (int c = 0x20; c <= 0x7E; c++) {
            LAX_PATH[c] = c != ';';
            STRICT_PATH[c] = c != ';' && c != ' ' && c != ',';
        }
        for (char c = '0'; c <= '9'; c++) {
            DOMAIN[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            DOMAIN[c] = true;
            DOMAIN[c - 32] = true;
        }
        DOMAIN['-'] = true;
        DOMAIN['.'] = true;
        // IPv6 literals appear as host names too.
        DOMAIN[':'] = true;
        DOMAIN['['] = true;
        DOMAIN[']'] = true;
    }

    private CookieText() {
    }

    /** Index of the first character of {@code s[from, to)} not in the table, or -1. */
    private static int firstInvalid(boolean[] table, CharSequence s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c > 0xFF || !table[c]) {
                return i;
            }
        }
        return -1;
    }

    static boolean isToken(CharSequence s, int from, int to) {
        return to > from && firstInvalid(TOKEN, s, from, to) < 0;
    }

    static boolean isValue(CharSequence s, int from, int to, boolean strict) {
        return firstInvalid(strict ? COOKIE_OCTET : LAX_VALUE, s, from, to) < 0;
    }

    static boolean isWhitespace(char c) {
        return c == ' ' || c == '\t';
    }

    /** Throws unless {@code name} is a token: a name never carries header syntax, in any mode. */
    static String validateName(String name) {
        int bad = firstInvalid(TOKEN, name, 0, name.length());
        if (name.isEmpty() || bad >= 0) {
            throw new IllegalArgumentException("cookie name is not an RFC 9110 token (bad character at index "
                    + bad + "): " + printable(name));
        }
        return name;
    }

    /** Throws if {@code value} holds characters not allowed by the mode. */
    static void validateValue(String name, String value, boolean strict) {
        int bad = firstInvalid(strict ? COOKIE_OCTET : LAX_VALUE, value, 0, value.length());
        if (bad >= 0) {
            throw new IllegalArgumentException("value of cookie " + name + " has a forbidden character at index "
                    + bad + ": " + printable(value));
        }
    }

    static void validatePath(String name, String path, boolean strict) {
        int bad = firstInvalid(strict ? STRICT_PATH : LAX_PATH, path, 0, path.length());
        if (bad >= 0) {
            throw new IllegalArgumentException("path of cookie " + name + " has a forbidden character at index "
                    + bad + ": " + printable(path));
        }
    }

    static void validateDomain(String name, String domain, boolean strict) {
        int bad = firstInvalid(strict ? DOMAIN : LAX_PATH, domain, 0, domain.length());
        if (bad >= 0 || domain.isEmpty()) {
            throw new IllegalArgumentException("domain of cookie " + name + " has a forbidden character at index "
                    + bad + ": " + printable(domain));
        }
    }

    /** {@code s} with control characters escaped, cut to a length fit for an exception message. */
    static String printable(String s) {
        int max = Math.min(s.length(), 64);
        StringBuilder b = new StringBuilder(max + 8);
        for (int i = 0; i < max; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7F) {
                b.append("\\x").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 0xF, 16));
            } else {
                b.append(c);
            }
        }
        if (max < s.length()) {
            b.append("...(").append(s.length()).append(" chars)");
        }
        return b.toString();
    }
}
