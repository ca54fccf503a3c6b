package io.weir.handler.codec.http.cookie;

/**
 * An HTTP cookie (RFC 6265): a name and value plus the attributes a server sets with {@code Set-Cookie}.
 * Cookies are ordered and compared by name, then path, then domain (case-insensitively), which is also what
 * {@link Object#equals} compares: two cookies with the same name, path and domain replace each other in a
 * browser. Implementations are mutable and not thread-safe.
 */
public interface Cookie extends Comparable<Cookie> {
    /** {@link #maxAge()} of a cookie without {@code Max-Age}: a session cookie. */
    long UNDEFINED_MAX_AGE = Long.MIN_VALUE;

    /** The name; never {@code null}. */
    String name();

    /** The value without surrounding quotes; never {@code null}. */
    String value();

    /** Sets the value (without surrounding quotes). */
    void setValue(String value);

    /** Whether the value is sent wrapped in double quotes. */
    boolean wrap();

    /** Sets whether the value is sent wrapped in double quotes. */
    void setWrap(boolean wrap);

    /** The {@code Domain} attribute, or {@code null}. */
    String domain();

    /** Sets the {@code Domain} attribute; {@code null} removes it. */
    void setDomain(String domain);

    /** The {@code Path} attribute, or {@code null}. */
    String path();

    /** Sets the {@code Path} attribute; {@code null} removes it. */
    void setPath(String path);

    /** The {@code Max-Age} attribute in seconds, or {@link #UNDEFINED_MAX_AGE}. */
    long maxAge();

    /** Sets the {@code Max-Age} attribute in seconds; {@link #UNDEFINED_MAX_AGE} removes it. */
    void setMaxAge(long maxAgeSeconds);

    /** Whether the {@code Secure} attribute is set. */
    boolean isSecure();

    /** Sets the {@code Secure} attribute. */
    void setSecure(boolean secure);

    /** Whether the {@code HttpOnly} attribute is set. */
    boolean isHttpOnly();

    /** Sets the {@code HttpOnly} attribute. */
    void setHttpOnly(boolean httpOnly);

    /** The {@code SameSite} attribute, or {@code null}. */
    CookieHeaderNames.SameSite sameSite();

    /** Sets the {@code SameSite} attribute; {@code null} removes it. */
    void setSameSite(CookieHeaderNames.SameSite sameSite);

    /** Whether the {@code Partitioned} attribute is set. */
    boolean isPartitioned();

    /** Sets the {@code Partitioned} attribute. */
    void setPartitioned(boolean partitioned);
}
