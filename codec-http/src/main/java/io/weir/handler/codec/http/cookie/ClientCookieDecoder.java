package io.weir.handler.codec.http.cookie;

import io.weir.handler.codec.http.DateFormatter;
import java.util.Objects;

/**
 * Decodes one {@code Set-Cookie} response header value (RFC 6265 §5.2) into a {@link Cookie}.
 *
 * <p>Attribute names are matched case-insensitively; unknown attributes and attributes with invalid values are
 * ignored, as §5.2 requires. {@code Max-Age} takes precedence over {@code Expires} (§5.3 step 3) whatever their
 * order; {@code Expires} is parsed in any of the three HTTP-date forms through {@link DateFormatter} and turned
 * into a {@link Cookie#maxAge() max age} relative to now. A {@code Max-Age} of zero or less, or an
 * {@code Expires} in the past, gives max age 0 (delete the cookie). A leading dot of {@code Domain} is dropped
 * (§5.2.3); a {@code Path} not starting with {@code /} is ignored (§5.2.4).
 *
 * <p>The name must be an RFC 9110 token in both modes; {@link #STRICT} holds the value to RFC 6265
 * {@code cookie-octet}s, {@link #LAX} also allows spaces, commas, quotes and Latin-1 letters. A header whose
 * name or value does not parse yields {@code null}.
 *
 * <p>Stateless and thread-safe.
 */
public final class ClientCookieDecoder {
    /** RFC 6265 cookie-octet values only. */
    public static final ClientCookieDecoder STRICT = new ClientCookieDecoder(true);
    /** Browser-tolerant values. */
    public static final ClientCookieDecoder LAX = new ClientCookieDecoder(false);

    private static final long MILLIS_PER_SECOND = 1000L;

    private final boolean strict;

    private ClientCookieDecoder(boolean strict) {
        this.strict = strict;
    }

    /** The cookie set by {@code header}, or {@code null} if its name or value does not parse. */
    public Cookie decode(String header) {
        Objects.requireNonNull(header, "header");
        int length = header.length();
        int pairEnd = header.indexOf(';');
        if (pairEnd < 0) {
            pairEnd = length;
        }
        DefaultCookie cookie = decodePair(header, 0, pairEnd);
        if (cookie == null) {
            return null;
        }
        long maxAge = Cookie.UNDEFINED_MAX_AGE;
        long expiresMaxAge = Cookie.UNDEFINED_MAX_AGE;
        int i = pairEnd + 1;
        while (i < length) {
            int end = header.indexOf(';', i);
            if (end < 0) {
                end = length;
            }
            int nameStart = skipWhitespace(header, i, end);
            int eq = header.indexOf('=', nameStart);
            if (eq < 0 || eq > end) {
                eq = end;
            }
            int nameEnd = trimEnd(header, nameStart, eq);
            int valueStart = eq < end ? skipWhitespace(header, eq + 1, end) : end;
            int valueEnd = trimEnd(header, valueStart, end);
            String value = header.substring(valueStart, valueEnd);
            switch (nameEnd - nameStart) {
                case 4 -> {
                    if (header.regionMatches(true, nameStart, CookieHeaderNames.PATH, 0, 4)) {
                        // RFC 6265 §5.2.4: a path not starting with '/' means the default path.
                        cookie.setPath(value.startsWith("/") ? value : null);
                    }
                }
                case 6 -> {
                    if (header.regionMatches(true, nameStart, CookieHeaderNames.DOMAIN, 0, 6)) {
                        // RFC 6265 §5.2.3: an empty domain is ignored, a leading dot dropped.
                        String domain = value.startsWith(".") ? value.substring(1) : value;
                        cookie.setDomain(domain.isEmpty() ? null : domain);
                    } else if (header.regionMatches(true, nameStart, CookieHeaderNames.SECURE, 0, 6)) {
                        cookie.setSecure(true);
                    }
                }
                case 7 -> {
                    if (header.regionMatches(true, nameStart, CookieHeaderNames.EXPIRES, 0, 7)) {
                        long expires = DateFormatter.parseMillis(value);
                        if (expires != DateFormatter.INVALID_DATE) {
                            long delta = expires - System.currentTimeMillis();
                            expiresMaxAge = delta <= 0 ? 0 : (delta + MILLIS_PER_SECOND - 1) / MILLIS_PER_SECOND;
                        }
                    } else if (header.regionMatches(true, nameStart, CookieHeaderNames.MAX_AGE, 0, 7)) {
                        long parsed = parseDeltaSeconds(value);
                        if (parsed != Cookie.UNDEFINED_MAX_AGE) {
                            maxAge = parsed;
                        }
                    }
                }
                case 8 -> {
                    if (header.regionMatches(true, nameStart, CookieHeaderNames.HTTPONLY, 0, 8)) {
                        cookie.setHttpOnly(true);
                    } else if (header.regionMatches(true, nameStart, CookieHeaderNames.SAMESITE, 0, 8)) {
                        cookie.setSameSite(CookieHeaderNames.SameSite.of(value));
                    }
                }
                case 11 -> {
                    if (header.regionMatches(true, nameStart, CookieHeaderNames.PARTITIONED, 0, 11)) {
                        cookie.setPartitioned(true);
                    }
                }
                default -> {
                    // RFC 6265 §5.2: unrecognised attributes are ignored.
                }
            }
            i = end + 1;
        }
        cookie.setMaxAge(maxAge != Cookie.UNDEFINED_MAX_AGE ? maxAge : expiresMaxAge);
        return cookie;
    }

    private DefaultCookie decodePair(String h, int start, int end) {
        start = skipWhitespace(h, start, end);
        end = trimEnd(h, start, end);
        int eq = h.indexOf('=', start);
        if (eq < 0 || eq >= end) {
            return null;
        }
        int nameEnd = trimEnd(h, start, eq);
        if (!CookieText.isToken(h, start, nameEnd)) {
            return null;
        }
        int valueStart = skipWhitespace(h, eq + 1, end);
        int valueEnd = end;
        boolean wrap = false;
        if (valueEnd - valueStart >= 2 && h.charAt(valueStart) == '"' && h.charAt(valueEnd - 1) == '"') {
            wrap = true;
            valueStart++;
            valueEnd--;
        }
        if (!CookieText.isValue(h, valueStart, valueEnd, strict)) {
            return null;
        }
        DefaultCookie cookie = new DefaultCookie(h.substring(start, nameEnd), h.substring(valueStart, valueEnd));
        cookie.setWrap(wrap);
        return cookie;
    }

    /** RFC 6265 §5.2.2: an optional '-' and digits; out-of-range values saturate; otherwise undefined. */
    private static long parseDeltaSeconds(String s) {
        int i = 0;
        boolean negative = false;
        if (!s.isEmpty() && s.charAt(0) == '-') {
            negative = true;
            i = 1;
        }
        if (i == s.length()) {
            return Cookie.UNDEFINED_MAX_AGE;
        }
        long v = 0;
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return Cookie.UNDEFINED_MAX_AGE;
            }
            if (v < Long.MAX_VALUE / 10) {
                v = v * 10 + (c - '0');
            } else {
                v = Long.MAX_VALUE;
            }
        }
        return negative ? 0 : v;
    }

    private static int skipWhitespace(String s, int i, int end) {
        while (i < end && CookieText.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    private static int trimEnd(String s, int start, int end) {
        while (end > start && CookieText.isWhitespace(s.charAt(end - 1))) {
            end--;
        }
        return end;
    }
}
