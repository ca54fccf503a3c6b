package io.weir.handler.codec.http;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Builds a URI from a path and parameters, percent-encoding each name and value.
 *
 * <pre>{@code
 * QueryStringEncoder e = new QueryStringEncoder("/search");
 * e.addParam("q", "weir & netty");
 * e.toString();   // "/search?q=weir%20%26%20netty"
 * }</pre>
 *
 * <p>Only RFC 3986 §2.3 unreserved characters ({@code A-Z a-z 0-9 - . _ ~}) are left as they are; every other
 * character is encoded as the percent-encoded bytes of its {@link #QueryStringEncoder(String, Charset) charset}
 * form (UTF-8 by default). A space becomes {@code %20}, not {@code +}, so the output means the same to form
 * decoders and to plain RFC 3986 decoders. Unpaired surrogates, which no charset can encode, become {@code ?}'s
 * encoding as the charset's encoder does. The path is taken as given (it is expected to be already encoded).
 *
 * <p>Not thread-safe.
 */
public final class QueryStringEncoder {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private final Charset charset;
    private final StringBuilder uri;
    private boolean hasParams;

    /** An encoder appending parameters to {@code uri}, encoding in UTF-8. */
    public QueryStringEncoder(String uri) {
        this(uri, StandardCharsets.UTF_8);
    }

    /** An encoder appending parameters to {@code uri}, encoding in {@code charset}. */
    public QueryStringEncoder(String uri, Charset charset) {
        Objects.requireNonNull(uri, "uri");
        this.charset = Objects.requireNonNull(charset, "charset");
        this.uri = new StringBuilder(uri);
        this.hasParams = uri.indexOf('?') >= 0;
    }

    /** Appends {@code name=value}; a {@code null} value appends {@code name} alone. */
    public void addParam(String name, String value) {
        Objects.requireNonNull(name, "name");
        uri.append(hasParams ? '&' : '?');
        hasParams = true;
        appendComponent(uri, name, charset);
        if (value != null) {
            uri.append('=');
            appendComponent(uri, value, charset);
        }
    }

    /**
     * The built URI as a {@link URI}.
     *
     * @throws URISyntaxException if the path given at construction is not a valid URI
     */
    public URI toUri() throws URISyntaxException {
        return new URI(toString());
    }

    /** The built URI. */
    @Override
    public String toString() {
        return uri.toString();
    }

    /** {@code s} percent-encoded as a URI component in {@code charset}: all but unreserved characters escaped. */
    public static String encodeComponent(String s, Charset charset) {
        Objects.requireNonNull(s, "s");
        Objects.requireNonNull(charset, "charset");
        StringBuilder out = new StringBuilder(s.length() + 8);
        appendComponent(out, s, charset);
        return out.toString();
    }

    private static void appendComponent(StringBuilder out, String s, Charset charset) {
        int length = s.length();
        int i = 0;
        while (i < length) {
            char c = s.charAt(i);
            if (isUnreserved(c)) {
                out.append(c);
                i++;
            } else if (c < 0x80 && isAsciiCompatible(charset)) {
                appendEscape(out, c);
                i++;
            } else {
                // Encode the whole run of characters needing bytes at once so surrogate pairs stay together.
                int runEnd = i + 1;
                while (runEnd < length && !isUnreserved(s.charAt(runEnd))) {
                    runEnd++;
                }
                byte[] bytes = s.substring(i, runEnd).getBytes(charset);
                for (byte b : bytes) {
                    appendEscape(out, b & 0xFF);
                }
                i = runEnd;
            }
        }
    }

    private static void appendEscape(StringBuilder out, int b) {
        out.append('%').append(HEX[b >>> 4]).append(HEX[b & 0xF]);
    }

    private static boolean isUnreserved(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                || c == '-' || c == '.' || c == '_' || c == '~';
    }

    private static boolean isAsciiCompatible(Charset charset) {
        return charset == StandardCharsets.UTF_8 || charset == StandardCharsets.US_ASCII
                || charset == StandardCharsets.ISO_8859_1;
    }
}
