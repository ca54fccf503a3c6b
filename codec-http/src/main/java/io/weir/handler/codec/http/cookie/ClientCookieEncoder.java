package io.weir.handler.codec.http.cookie;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Encodes cookies as one {@code Cookie} request header value (RFC 6265 §5.4): {@code a=1; b=2}, cookies with
 * longer paths first (ties keep their given order), attributes not sent.
 *
 * <p>Names must be RFC 9110 tokens in both modes; {@link #STRICT} holds values to RFC 6265
 * {@code cookie-octet}s, {@link #LAX} also allows spaces, commas, quotes and Latin-1 letters; neither lets
 * {@code ;} or a control character through. Violations throw {@link IllegalArgumentException}.
 *
 * <p>Stateless and thread-safe.
 */
public final class ClientCookieEncoder {
    /** RFC 6265 cookie-octet values only. */
    public static final ClientCookieEncoder STRICT = new ClientCookieEncoder(true);
    /** Browser-tolerant values; never header syntax. */
    public static final ClientCookieEncoder LAX = new ClientCookieEncoder(false);

    private static final Comparator<Cookie> LONGER_PATH_FIRST =
            Comparator.comparingInt((Cookie c) -> c.path() == null ? 0 : c.path().length()).reversed();

    private final boolean strict;

    private ClientCookieEncoder(boolean strict) {
        this.strict = strict;
    }

    /** {@code name=value} as a {@code Cookie} header value. */
    public String encode(String name, String value) {
        return encode(new DefaultCookie(name, value));
    }

    /** {@code cookie} as a {@code Cookie} header value. */
    public String encode(Cookie cookie) {
        StringBuilder b = new StringBuilder();
        append(b, Objects.requireNonNull(cookie, "cookie"));
        return b.toString();
    }

    /**
     * {@code cookies} as one {@code Cookie} header value, longer paths first.
     *
     * @throws IllegalArgumentException if {@code cookies} is empty or a cookie is not allowed in this mode
     */
    public String encode(Collection<? extends Cookie> cookies) {
        Objects.requireNonNull(cookies, "cookies");
        if (cookies.isEmpty()) {
            throw new IllegalArgumentException("no cookies to encode");
        }
        List<Cookie> sorted = new ArrayList<>(cookies);
        // List.sort is stable, so cookies with paths of equal length keep the caller's order.
        sorted.sort(LONGER_PATH_FIRST);
        StringBuilder b = new StringBuilder(sorted.size() * 24);
        for (int i = 0; i < sorted.size(); i++) {
            if (i > 0) {
                b.append("; ");
            }
            append(b, sorted.get(i));
        }
        return b.toString();
    }

    private void append(StringBuilder b, Cookie cookie) {
        String name = CookieText.validateName(cookie.name());
        String value = cookie.value();
        CookieText.validateValue(name, value, strict);
        b.append(name).append('=');
        if (cookie.wrap()) {
            b.append('"').append(value).append('"');
        } else {
            b.append(value);
        }
    }
}
