package io.weir.handler.codec.http.cookie;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Decodes the {@code Cookie} request header (RFC 6265 §4.2.1, {@code name=value; name2=value2}) into cookies,
 * in header order.
 *
 * <p>Pairs that do not parse are skipped, never fatal, in both modes; the modes differ in what parses:
 * <ul>
 *   <li>{@link #STRICT}: the value must be RFC 6265 {@code cookie-octet}s, optionally in double quotes.</li>
 *   <li>{@link #LAX}: the value may also hold spaces, commas, quotes, backslashes and Latin-1 letters, as
 *       browsers send them; never control characters.</li>
 * </ul>
 * In both, the name must be an RFC 9110 token, RFC 2965 attributes ({@code $Version}, {@code $Path}, ...) are
 * dropped, and at most {@value #MAX_COOKIES} cookies are decoded from one header (the rest are ignored).
 *
 * <p>Stateless and thread-safe.
 */
public final class ServerCookieDecoder {
    /** The most cookies decoded from one header; browsers keep far fewer per domain. */
    public static final int MAX_COOKIES = 256;

    /** RFC 6265 {@code cookie-octet} values. */
    public static final ServerCookieDecoder STRICT = new ServerCookieDecoder(true);
    /** Values as browsers send them, without control characters. */
    public static final ServerCookieDecoder LAX = new ServerCookieDecoder(false);

    private final boolean strict;

    private ServerCookieDecoder(boolean strict) {
        this.strict = strict;
    }

    /**
     * The cookies of {@code header}, one per name (the first, which RFC 6265 §5.4 makes the most specific), in
     * header order; unmodifiable.
     */
    public Set<Cookie> decode(String header) {
        List<Cookie> all = decodeAll(header);
        if (all.isEmpty()) {
            return Collections.emptySet();
        }
        Set<Cookie> unique = new LinkedHashSet<>(all.size() * 2);
        for (int i = 0; i < all.size(); i++) {
            unique.add(all.get(i));
        }
        return Collections.unmodifiableSet(unique);
    }

    /** All cookies of {@code header} in header order, duplicates included; unmodifiable. */
    public List<Cookie> decodeAll(String header) {
        Objects.requireNonNull(header, "header");
        int length = header.length();
        List<Cookie> cookies = null;
        int i = 0;
        while (i < length) {
            int end = header.indexOf(';', i);
            if (end < 0) {
                end = length;
            }
            Cookie c = decodePair(header, i, end);
            if (c != null) {
                if (cookies == null) {
                    cookies = new ArrayList<>(4);
                }
                cookies.add(c);
                if (cookies.size() == MAX_COOKIES) {
                    break;
                }
            }
            i = end + 1;
        }
        return cookies == null ? Collections.emptyList() : Collections.unmodifiableList(cookies);
    }

    private Cookie decodePair(String h, int start, int end) {
        while (start < end && CookieText.isWhitespace(h.charAt(start))) {
            start++;
        }
        while (end > start && CookieText.isWhitespace(h.charAt(end - 1))) {
            end--;
        }
        int eq = h.indexOf('=', start);
        if (eq < 0 || eq >= end) {
            return null;
        }
        int nameEnd = eq;
        while (nameEnd > start && CookieText.isWhitespace(h.charAt(nameEnd - 1))) {
            nameEnd--;
        }
        if (!CookieText.isToken(h, start, nameEnd) || h.charAt(start) == '$') {
            return null;
        }
        int valueStart = eq + 1;
        while (valueStart < end && CookieText.isWhitespace(h.charAt(valueStart))) {
            valueStart++;
        }
        boolean wrap = false;
        int valueEnd = end;
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
}
