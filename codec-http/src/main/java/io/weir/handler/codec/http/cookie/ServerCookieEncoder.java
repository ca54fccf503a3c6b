package io.weir.handler.codec.http.cookie;

import io.weir.handler.codec.http.DateFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Encodes cookies as {@code Set-Cookie} header values (RFC 6265 §4.1), one header per cookie:
 * {@code name=value; Max-Age=60; Expires=Sun, 06 Nov 1994 08:49:37 GMT; Domain=d; Path=/; Secure; HttpOnly;
 * SameSite=Lax; Partitioned}. {@code Expires} is written beside {@code Max-Age} for old clients, computed from
 * the current time through {@link DateFormatter}.
 *
 * <p>Nothing a caller puts in a cookie can add a header field or an attribute: in both modes a name must be an
 * RFC 9110 token, and no value, path or domain may hold {@code ;} or a control character (CR, LF, NUL, ...).
 * {@link #STRICT} further holds values to RFC 6265 {@code cookie-octet}s (no space, comma, quote or backslash),
 * domains to host-name characters, paths to no space or comma, and refuses {@code Partitioned} without
 * {@code Secure} (browsers drop such cookies). {@link #LAX} lets spaces, commas, quotes and Latin-1 letters
 * through in values. Violations throw {@link IllegalArgumentException} naming the cookie and the index.
 *
 * <p>Stateless and thread-safe.
 */
public final class ServerCookieEncoder {
    /** RFC 6265 syntax only; several cookies of one name encoded together keep only the last. */
    public static final ServerCookieEncoder STRICT = new ServerCookieEncoder(true);
    /** Browser-tolerant values; never header syntax. Duplicates are kept. */
    public static final ServerCookieEncoder LAX = new ServerCookieEncoder(false);

    private static final long MILLIS_PER_SECOND = 1000L;
    /** The farthest Expires date written, so that now + Max-Age stays within the years DateFormatter writes. */
    private static final long MAX_EXPIRES_DELTA_SECONDS = 100L * 365 * 24 * 3600;

    private final boolean strict;

    private ServerCookieEncoder(boolean strict) {
        this.strict = strict;
    }

    /** {@code name=value} as a {@code Set-Cookie} value, without attributes. */
    public String encode(String name, String value) {
        return encode(new DefaultCookie(name, value));
    }

    /**
     * {@code cookie} as a {@code Set-Cookie} value.
     *
     * @throws IllegalArgumentException if a part of the cookie is not allowed in this mode
     */
    public String encode(Cookie cookie) {
        Objects.requireNonNull(cookie, "cookie");
        String name = CookieText.validateName(cookie.name());
        String value = cookie.value();
        CookieText.validateValue(name, value, strict);
        StringBuilder b = new StringBuilder(name.length() + value.length() + 64);
        b.append(name).append('=');
        if (cookie.wrap()) {
            b.append('"').append(value).append('"');
        } else {
            b.append(value);
        }
        long maxAge = cookie.maxAge();
        if (maxAge != Cookie.UNDEFINED_MAX_AGE) {
            // RFC 6265 §4.1.1: Max-Age is digits only; a negative age means "expire now", which 0 says.
            long delta = Math.max(0, Math.min(maxAge, MAX_EXPIRES_DELTA_SECONDS));
            b.append("; ").append(CookieHeaderNames.MAX_AGE).append('=').append(Math.max(0, maxAge));
            b.append("; ").append(CookieHeaderNames.EXPIRES).append('=')
                    .append(DateFormatter.format(System.currentTimeMillis() + delta * MILLIS_PER_SECOND));
        }
        String domain = cookie.domain();
        if (domain != null) {
            CookieText.validateDomain(name, domain, strict);
            b.append("; ").append(CookieHeaderNames.DOMAIN).append('=').append(domain);
        }
        String path = cookie.path();
        if (path != null) {
            CookieText.validatePath(name, path, strict);
            b.append("; ").append(CookieHeaderNames.PATH).append('=').append(path);
        }
        if (cookie.isSecure()) {
            b.append("; ").append(CookieHeaderNames.SECURE);
        }
        if (cookie.isHttpOnly()) {
            b.append("; ").append(CookieHeaderNames.HTTPONLY);
        }
        if (cookie.sameSite() != null) {
            b.append("; ").append(CookieHeaderNames.SAMESITE).append('=').append(cookie.sameSite().name());
        }
        if (cookie.isPartitioned()) {
            if (strict && !cookie.isSecure()) {
                throw new IllegalArgumentException("cookie " + name + " is Partitioned but not Secure");
            }
            b.append("; ").append(CookieHeaderNames.PARTITIONED);
        }
        return b.toString();
    }

    /**
     * One {@code Set-Cookie} value per cookie, in order; in {@link #STRICT} only the last cookie of each name.
     *
     * @throws IllegalArgumentException if a cookie is not allowed in this mode
     */
    public List<String> encode(Collection<? extends Cookie> cookies) {
        return encode(cookies, strict);
    }

    /**
     * One {@code Set-Cookie} value per cookie, in order; if {@code dedupByName}, only the last cookie of each
     * name is kept, at the position of that last one.
     *
     * @throws IllegalArgumentException if a cookie is not allowed in this mode
     */
    public List<String> encode(Collection<? extends Cookie> cookies, boolean dedupByName) {
        Objects.requireNonNull(cookies, "cookies");
        if (cookies.isEmpty()) {
            return Collections.emptyList();
        }
        List<String> out = new ArrayList<>(cookies.size());
        if (!dedupByName) {
            for (Cookie c : cookies) {
                out.add(encode(c));
            }
            return out;
        }
        Map<String, Cookie> last = new LinkedHashMap<>();
        for (Cookie c : cookies) {
            last.remove(c.name());
            last.put(c.name(), c);
        }
        for (Cookie c : last.values()) {
            out.add(encode(c));
        }
        return out;
    }
}
