package io.weir.handler.codec.http;

import io.weir.util.AsciiString;

import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Iterator;
import java.util.Objects;

/**
 * Header-level rules of HTTP/1.1 every handler needs: persistence (RFC 9112 §9.3), message framing
 * (Content-Length and chunked transfer coding, RFC 9112 §6), {@code Expect: 100-continue} (RFC 9110 §10.1.1),
 * and the media type and charset of {@code Content-Type} (RFC 9110 §8.3). Stateless and thread-safe; the
 * messages passed in are not.
 */
public final class HttpUtil {
    private static final AsciiString CHARSET_PARAMETER = AsciiString.cached("charset=");

    private HttpUtil() {
    }

    // ---- persistence ----

    /**
     * Whether the connection stays open after {@code message} (RFC 9112 §9.3): not if {@code Connection} lists
     * {@code close}; yes under HTTP/1.1 otherwise; under HTTP/1.0 only if it lists {@code keep-alive}.
     */
    public static boolean isKeepAlive(HttpMessage message) {
        HttpHeaders headers = message.headers();
        if (headers.containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE, true)) {
            return false;
        }
        return message.protocolVersion().isKeepAliveDefault()
                || headers.containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE, true);
    }

    /**
     * Sets the {@code Connection} header so that {@link #isKeepAlive} returns {@code keepAlive}: under HTTP/1.1
     * {@code close} or nothing, under HTTP/1.0 {@code keep-alive} or nothing. Other {@code Connection} options
     * are replaced.
     */
    public static void setKeepAlive(HttpMessage message, boolean keepAlive) {
        setKeepAlive(message.headers(), message.protocolVersion(), keepAlive);
    }

    /** As {@link #setKeepAlive(HttpMessage, boolean)} for {@code headers} of a message of {@code version}. */
    public static void setKeepAlive(HttpHeaders headers, HttpVersion version, boolean keepAlive) {
        if (version.isKeepAliveDefault()) {
            if (keepAlive) {
                headers.remove(HttpHeaderNames.CONNECTION);
            } else {
                headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            }
        } else if (keepAlive) {
            headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        } else {
            headers.remove(HttpHeaderNames.CONNECTION);
        }
    }

    // ---- framing ----

    /**
     * The {@code Content-Length} of {@code message}.
     *
     * @throws NumberFormatException if the header is missing, not a non-negative decimal, or overflows a long
     */
    public static long getContentLength(HttpMessage message) {
        CharSequence value = message.headers().getCharSequence(HttpHeaderNames.CONTENT_LENGTH);
        if (value == null) {
            throw new NumberFormatException("header not found: " + HttpHeaderNames.CONTENT_LENGTH);
        }
        return parseContentLength(value);
    }

    /**
     * The {@code Content-Length} of {@code message}, or {@code defaultValue} if it has none.
     *
     * @throws NumberFormatException if the header is present but not a non-negative decimal that fits a long
     */
    public static long getContentLength(HttpMessage message, long defaultValue) {
        CharSequence value = message.headers().getCharSequence(HttpHeaderNames.CONTENT_LENGTH);
        return value == null ? defaultValue : parseContentLength(value);
    }

    /** As {@link #getContentLength(HttpMessage, long)}, narrowed to an int ({@code Integer.MAX_VALUE} if larger). */
    public static int getContentLength(HttpMessage message, int defaultValue) {
        return (int) Math.min(Integer.MAX_VALUE, getContentLength(message, (long) defaultValue));
    }

    /** RFC 9110 §8.6: Content-Length = 1*DIGIT; signs, spaces and empty values are malformed. */
    static long parseContentLength(CharSequence value) {
        int n = value.length();
        if (n == 0) {
            throw new NumberFormatException("empty content-length");
        }
        long v = 0;
        for (int i = 0; i < n; i++) {
            int d = value.charAt(i) - '0';
            if (d < 0 || d > 9) {
                throw new NumberFormatException("invalid content-length: " + HttpTokens.quote(value));
            }
            if (v > (Long.MAX_VALUE - d) / 10) {
                throw new NumberFormatException("content-length overflows a long: " + HttpTokens.quote(value));
            }
            v = v * 10 + d;
        }
        return v;
    }

    /**
     * Sets {@code Content-Length} to {@code length}.
     *
     * @throws IllegalArgumentException if {@code length} is negative
     */
    public static void setContentLength(HttpMessage message, long length) {
        if (length < 0) {
            throw new IllegalArgumentException("content length must be >= 0: " + length);
        }
        message.headers().set(HttpHeaderNames.CONTENT_LENGTH, Long.toString(length));
    }

    /** Whether {@code message} has a {@code Content-Length} header. */
    public static boolean isContentLengthSet(HttpMessage message) {
        return message.headers().contains(HttpHeaderNames.CONTENT_LENGTH);
    }

    /** Whether the {@code Transfer-Encoding} of {@code message} lists {@code chunked}. */
    public static boolean isTransferEncodingChunked(HttpMessage message) {
        return message.headers().containsValue(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED, true);
    }

    /**
     * With {@code chunked}, sets {@code Transfer-Encoding: chunked} and removes {@code Content-Length} (the two
     * must not appear together, RFC 9112 §6.2); without, removes {@code chunked} from {@code Transfer-Encoding}
     * and drops the header if nothing else is left.
     */
    public static void setTransferEncodingChunked(HttpMessage message, boolean chunked) {
        HttpHeaders headers = message.headers();
        if (chunked) {
            headers.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            headers.remove(HttpHeaderNames.CONTENT_LENGTH);
            return;
        }
        if (!headers.contains(HttpHeaderNames.TRANSFER_ENCODING)) {
            return;
        }
        StringBuilder kept = new StringBuilder();
        for (Iterator<CharSequence> it = headers.valueIterator(HttpHeaderNames.TRANSFER_ENCODING); it.hasNext(); ) {
            for (String coding : it.next().toString().split(",")) {
                String c = coding.strip();
                if (!c.isEmpty() && !HttpHeaderValues.CHUNKED.contentEqualsIgnoreCase(c)) {
                    if (kept.length() > 0) {
                        kept.append(", ");
                    }
                    kept.append(c);
                }
            }
        }
        if (kept.length() == 0) {
            headers.remove(HttpHeaderNames.TRANSFER_ENCODING);
        } else {
            headers.set(HttpHeaderNames.TRANSFER_ENCODING, kept.toString());
        }
    }

    // ---- expectations ----

    /** Whether {@code message} is an HTTP/1.1 (or later) request with {@code Expect: 100-continue}. */
    public static boolean is100ContinueExpected(HttpMessage message) {
        return message instanceof HttpRequest && isAtLeastHttp11(message.protocolVersion())
                && message.headers().contains(HttpHeaderNames.EXPECT, HttpHeaderValues.CONTINUE, true);
    }

    /**
     * Whether {@code message} is an HTTP/1.1 (or later) request with an {@code Expect} header other than
     * {@code 100-continue}, which a server answers with 417 (RFC 9110 §10.1.1).
     */
    public static boolean isUnsupportedExpectation(HttpMessage message) {
        if (!(message instanceof HttpRequest) || !isAtLeastHttp11(message.protocolVersion())) {
            return false;
        }
        CharSequence expect = message.headers().getCharSequence(HttpHeaderNames.EXPECT);
        return expect != null && !HttpHeaderValues.CONTINUE.contentEqualsIgnoreCase(expect);
    }

    /** Sets or removes {@code Expect: 100-continue}. */
    public static void set100ContinueExpected(HttpMessage message, boolean expected) {
        if (expected) {
            message.headers().set(HttpHeaderNames.EXPECT, HttpHeaderValues.CONTINUE);
        } else {
            message.headers().remove(HttpHeaderNames.EXPECT);
        }
    }

    private static boolean isAtLeastHttp11(HttpVersion v) {
        return v.majorVersion() > 1 || v.majorVersion() == 1 && v.minorVersion() >= 1;
    }

    // ---- media type and charset ----

    /** The charset named by {@code Content-Type}'s {@code charset} parameter, or ISO-8859-1 if absent/unknown. */
    public static Charset getCharset(HttpMessage message) {
        return getCharset(message, StandardCharsets.ISO_8859_1);
    }

    /** The charset named by {@code Content-Type}'s {@code charset} parameter, or {@code defaultCharset}. */
    public static Charset getCharset(HttpMessage message, Charset defaultCharset) {
        CharSequence contentType = message.headers().getCharSequence(HttpHeaderNames.CONTENT_TYPE);
        return contentType == null ? defaultCharset : getCharset(contentType, defaultCharset);
    }

    /**
     * The charset named by the {@code charset} parameter of the Content-Type value {@code contentType}, or
     * {@code defaultCharset} if there is none or it names no charset this JVM supports. Never throws for a
     * malformed value.
     */
    public static Charset getCharset(CharSequence contentType, Charset defaultCharset) {
        CharSequence name = getCharsetAsSequence(contentType);
        if (name == null) {
            return defaultCharset;
        }
        try {
            return Charset.forName(name.toString());
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            return defaultCharset;
        }
    }

    /**
     * The value of the {@code charset} parameter of {@code contentType} (quotes removed), or {@code null}.
     * Parameter names match ignoring case (RFC 9110 §5.6.6).
     */
    public static CharSequence getCharsetAsSequence(CharSequence contentType) {
        Objects.requireNonNull(contentType, "contentType");
        int n = contentType.length();
        for (int semi = indexOf(contentType, ';', 0); semi >= 0; semi = indexOf(contentType, ';', semi + 1)) {
            int p = semi + 1;
            while (p < n && (contentType.charAt(p) == ' ' || contentType.charAt(p) == '\t')) {
                p++;
            }
            if (n - p >= CHARSET_PARAMETER.length()
                    && CHARSET_PARAMETER.contentEqualsIgnoreCase(contentType.subSequence(p, p + CHARSET_PARAMETER.length()))) {
                int start = p + CHARSET_PARAMETER.length();
                int end = indexOf(contentType, ';', start);
                if (end < 0) {
                    end = n;
                }
                while (end > start && (contentType.charAt(end - 1) == ' ' || contentType.charAt(end - 1) == '\t')) {
                    end--;
                }
                if (end - start >= 2 && contentType.charAt(start) == '"' && contentType.charAt(end - 1) == '"') {
                    start++;
                    end--;
                }
                return end > start ? contentType.subSequence(start, end) : null;
            }
        }
        return null;
    }

    /** The media type of {@code message}'s {@code Content-Type} without parameters, or {@code null}. */
    public static CharSequence getMimeType(HttpMessage message) {
        CharSequence contentType = message.headers().getCharSequence(HttpHeaderNames.CONTENT_TYPE);
        return contentType == null ? null : getMimeType(contentType);
    }

    /**
     * The media type of the Content-Type value {@code contentType} without parameters and surrounding
     * whitespace ({@code text/html} for {@code "text/html; charset=utf-8"}), or {@code null} if empty.
     */
    public static CharSequence getMimeType(CharSequence contentType) {
        Objects.requireNonNull(contentType, "contentType");
        int end = indexOf(contentType, ';', 0);
        if (end < 0) {
            end = contentType.length();
        }
        int start = 0;
        while (start < end && (contentType.charAt(start) == ' ' || contentType.charAt(start) == '\t')) {
            start++;
        }
        while (end > start && (contentType.charAt(end - 1) == ' ' || contentType.charAt(end - 1) == '\t')) {
            end--;
        }
        return end > start ? contentType.subSequence(start, end) : null;
    }

    private static int indexOf(CharSequence s, char c, int from) {
        for (int i = from, n = s.length(); i < n; i++) {
            if (s.charAt(i) == c) {
                return i;
            }
        }
        return -1;
    }
}
