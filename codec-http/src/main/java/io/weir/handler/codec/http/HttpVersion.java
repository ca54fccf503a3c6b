package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;
import io.weir.util.AsciiString;

import java.util.Objects;

/**
 * An HTTP protocol version such as {@code HTTP/1.1} (RFC 9110 §2.5). Instances are immutable and thread-safe;
 * {@link #HTTP_1_0} and {@link #HTTP_1_1} are the only versions HTTP/1.x codecs speak.
 */
public final class HttpVersion implements Comparable<HttpVersion> {
    /** {@code HTTP/1.0}: connections close after each response unless {@code Connection: keep-alive}. */
    public static final HttpVersion HTTP_1_0 = new HttpVersion("HTTP", 1, 0, false);
    /** {@code HTTP/1.1}: connections persist unless {@code Connection: close}. */
    public static final HttpVersion HTTP_1_1 = new HttpVersion("HTTP", 1, 1, true);

    private static final int MAX_VERSION_DIGIT = 9;

    private final String protocolName;
    private final int majorVersion;
    private final int minorVersion;
    private final String text;
    private final AsciiString asciiText;
    private final boolean keepAliveDefault;

    /**
     * A version {@code protocolName/major.minor}.
     *
     * @param protocolName a non-empty token of upper-case letters, such as {@code HTTP}
     * @param keepAliveDefault whether connections persist by default under this version
     * @throws IllegalArgumentException if the name is empty or not upper-case letters, or a number is negative
     */
    public HttpVersion(String protocolName, int majorVersion, int minorVersion, boolean keepAliveDefault) {
        Objects.requireNonNull(protocolName, "protocolName");
        if (protocolName.isEmpty()) {
            throw new IllegalArgumentException("protocolName is empty");
        }
        for (int i = 0; i < protocolName.length(); i++) {
            char c = protocolName.charAt(i);
            if (c < 'A' || c > 'Z') {
                throw new IllegalArgumentException("protocolName must be upper-case letters: \"" + protocolName + '"');
            }
        }
        if (majorVersion < 0 || minorVersion < 0) {
            throw new IllegalArgumentException("negative version: " + majorVersion + '.' + minorVersion);
        }
        this.protocolName = protocolName;
        this.majorVersion = majorVersion;
        this.minorVersion = minorVersion;
        this.text = protocolName + '/' + majorVersion + '.' + minorVersion;
        this.asciiText = AsciiString.cached(text);
        this.keepAliveDefault = keepAliveDefault;
    }

    /**
     * The version named by {@code text} ({@code NAME/major.minor}, leading and trailing whitespace ignored):
     * the {@link #HTTP_1_0}/{@link #HTTP_1_1} constants for those, a new version otherwise. A version other than
     * HTTP/1.0 keeps connections alive by default.
     *
     * @throws IllegalArgumentException if {@code text} is not of that form
     */
    public static HttpVersion valueOf(String text) {
        Objects.requireNonNull(text, "text");
        String t = text.strip();
        if ("HTTP/1.1".equals(t)) {
            return HTTP_1_1;
        }
        if ("HTTP/1.0".equals(t)) {
            return HTTP_1_0;
        }
        int slash = t.indexOf('/');
        int dot = t.indexOf('.', slash + 1);
        if (slash <= 0 || dot < 0) {
            throw new IllegalArgumentException("invalid HTTP version: \"" + text + '"');
        }
        int major = parseNumber(t, slash + 1, dot, text);
        int minor = parseNumber(t, dot + 1, t.length(), text);
        String name = t.substring(0, slash);
        try {
            return new HttpVersion(name, major, minor, !(major == 1 && minor == 0 && "HTTP".equals(name)));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid HTTP version: \"" + text + '"', e);
        }
    }

    /**
     * {@link #HTTP_1_1} or {@link #HTTP_1_0} if {@code buf[index, index + length)} holds exactly
     * {@code HTTP/1.1} or {@code HTTP/1.0}, else {@code null}; allocates nothing. Meant for decoders, which
     * accept only those two versions (RFC 9112 §2.3). No index of {@code buf} moves.
     */
    public static HttpVersion ofHttp1(ByteBuf buf, int index, int length) {
        if (length != 8 || buf.getByte(index) != 'H' || buf.getByte(index + 1) != 'T'
                || buf.getByte(index + 2) != 'T' || buf.getByte(index + 3) != 'P'
                || buf.getByte(index + 4) != '/' || buf.getByte(index + 5) != '1'
                || buf.getByte(index + 6) != '.') {
            return null;
        }
        byte minor = buf.getByte(index + 7);
        return minor == '1' ? HTTP_1_1 : minor == '0' ? HTTP_1_0 : null;
    }

    private static int parseNumber(String t, int start, int end, String original) {
        if (start >= end || end - start > 1) {
            throw new IllegalArgumentException("invalid HTTP version: \"" + original + '"');
        }
        int d = t.charAt(start) - '0';
        if (d < 0 || d > MAX_VERSION_DIGIT) {
            throw new IllegalArgumentException("invalid HTTP version: \"" + original + '"');
        }
        return d;
    }

    /** The protocol name, such as {@code HTTP}. */
    public String protocolName() {
        return protocolName;
    }

    /** The major version number. */
    public int majorVersion() {
        return majorVersion;
    }

    /** The minor version number. */
    public int minorVersion() {
        return minorVersion;
    }

    /** The full text, such as {@code HTTP/1.1}. */
    public String text() {
        return text;
    }

    /** The full text as an {@link AsciiString}, written to the wire without conversion. */
    public AsciiString asciiText() {
        return asciiText;
    }

    /** Whether connections persist by default under this version (absent a {@code Connection} header). */
    public boolean isKeepAliveDefault() {
        return keepAliveDefault;
    }

    @Override
    public int compareTo(HttpVersion o) {
        int c = protocolName.compareTo(o.protocolName);
        if (c != 0) {
            return c;
        }
        c = Integer.compare(majorVersion, o.majorVersion);
        return c != 0 ? c : Integer.compare(minorVersion, o.minorVersion);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HttpVersion v && majorVersion == v.majorVersion && minorVersion == v.minorVersion
                && protocolName.equals(v.protocolName);
    }

    @Override
    public int hashCode() {
        return (protocolName.hashCode() * 31 + majorVersion) * 31 + minorVersion;
    }

    /** The full text, such as {@code HTTP/1.1}. */
    @Override
    public String toString() {
        return text;
    }
}
