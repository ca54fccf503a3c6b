package io.weir.handler.codec.http.cookie;

/** Attribute names of the {@code Set-Cookie} header (RFC 6265 §4.1.1) and the values of {@code SameSite}. */
public final class CookieHeaderNames {
    /** {@code Path}. */
    public static final String PATH = "Path";
    /** {@code Expires}. */
    public static final String EXPIRES = "Expires";
    /** {@code Max-Age}. */
    public static final String MAX_AGE = "Max-Age";
    /** {@code Domain}. */
    public static final String DOMAIN = "Domain";
    /** {@code Secure}. */
    public static final String SECURE = "Secure";
    /** {@code HttpOnly}. */
    public static final String HTTPONLY = "HttpOnly";
    /** {@code SameSite} (RFC 6265bis §4.1.2.7). */
    public static final String SAMESITE = "SameSite";
    /** {@code Partitioned} (CHIPS). */
    public static final String PARTITIONED = "Partitioned";

    private CookieHeaderNames() {
    }

    /** Values of the {@code SameSite} attribute, spelt as they appear on the wire. */
    public enum SameSite {
        /** Sent with top-level navigations and same-site requests. */
        Lax,
        /** Sent with same-site requests only. */
        Strict,
        /** Sent with every request; browsers require {@code Secure} with it. */
        None;

        /** The value matching {@code name} ignoring case, or {@code null} if there is none. */
        public static SameSite of(String name) {
            if (name != null) {
                for (SameSite s : values()) {
                    if (s.name().equalsIgnoreCase(name)) {
                        return s;
                    }
                }
            }
            return null;
        }
    }
}
