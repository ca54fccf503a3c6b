package io.weir.handler.codec.http.cookie;

import java.util.Objects;

/**
 * The plain {@link Cookie}. Names are not validated here but by the encoders and decoders, so that a cookie
 * can be built freely and an invalid one is refused where it would reach the wire. Not thread-safe.
 */
public class DefaultCookie implements Cookie {
    private final String name;
    private String value;
    private boolean wrap;
    private String domain;
    private String path;
    private long maxAge = UNDEFINED_MAX_AGE;
    private boolean secure;
    private boolean httpOnly;
    private CookieHeaderNames.SameSite sameSite;
    private boolean partitioned;

    /**
     * A cookie named {@code name} with {@code value}.
     *
     * @throws IllegalArgumentException if {@code name} is empty
     */
    public DefaultCookie(String name, String value) {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("empty cookie name");
        }
        this.name = name;
        this.value = Objects.requireNonNull(value, "value");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String value() {
        return value;
    }

    @Override
    public void setValue(String value) {
        this.value = Objects.requireNonNull(value, "value");
    }

    @Override
    public boolean wrap() {
        return wrap;
    }

    @Override
    public void setWrap(boolean wrap) {
        this.wrap = wrap;
    }

    @Override
    public String domain() {
        return domain;
    }

    @Override
    public void setDomain(String domain) {
        this.domain = domain;
    }

    @Override
    public String path() {
        return path;
    }

    @Override
    public void setPath(String path) {
        this.path = path;
    }

    @Override
    public long maxAge() {
        return maxAge;
    }

    @Override
    public void setMaxAge(long maxAgeSeconds) {
        this.maxAge = maxAgeSeconds;
    }

    @Override
    public boolean isSecure() {
        return secure;
    }

    @Override
    public void setSecure(boolean secure) {
        this.secure = secure;
    }

    @Override
    public boolean isHttpOnly() {
        return httpOnly;
    }

    @Override
    public void setHttpOnly(boolean httpOnly) {
        this.httpOnly = httpOnly;
    }

    @Override
    public CookieHeaderNames.SameSite sameSite() {
        return sameSite;
    }

    @Override
    public void setSameSite(CookieHeaderNames.SameSite sameSite) {
        this.sameSite = sameSite;
    }

    @Override
    public boolean isPartitioned() {
        return partitioned;
    }

    @Override
    public void setPartitioned(boolean partitioned) {
        this.partitioned = partitioned;
    }

    @Override
    public int compareTo(Cookie other) {
        int c = name.compareTo(other.name());
        if (c != 0) {
            return c;
        }
        c = compareNullable(path, other.path(), false);
        return c != 0 ? c : compareNullable(domain, other.domain(), true);
    }

    private static int compareNullable(String a, String b, boolean ignoreCase) {
        if (a == null) {
            return b == null ? 0 : -1;
        }
        if (b == null) {
            return 1;
        }
        return ignoreCase ? a.compareToIgnoreCase(b) : a.compareTo(b);
    }

    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof Cookie other && compareTo(other) == 0;
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(name).append('=').append(value);
        if (domain != null) {
            b.append(", domain=").append(domain);
        }
        if (path != null) {
            b.append(", path=").append(path);
        }
        if (maxAge != UNDEFINED_MAX_AGE) {
            b.append(", maxAge=").append(maxAge).append('s');
        }
        if (secure) {
            b.append(", secure");
        }
        if (httpOnly) {
            b.append(", HTTPOnly");
        }
        if (sameSite != null) {
            b.append(", SameSite=").append(sameSite);
        }
        if (partitioned) {
            b.append(", Partitioned");
        }
        return b.toString();
    }
}
