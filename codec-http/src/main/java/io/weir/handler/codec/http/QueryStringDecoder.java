package io.weir.handler.codec.http;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Splits a request URI (or a bare query string) into its decoded path and parameters.
 *
 * <pre>{@code
 * QueryStringDecoder d = new QueryStringDecoder("/search?q=weir+codec&tag=a&tag=b");
 * d.path();                        // "/search"
 * d.parameters().get("tag");       // ["a", "b"]
 * }</pre>
 *
 * <p>Decoding rules:
 * <ul>
 *   <li>RFC 3986 §2.1 percent-encoding: {@code %} must be followed by two hex digits; anything else
 *       ({@code %zz}, a truncated {@code %4}) throws {@link IllegalArgumentException} naming the offset, never
 *       passing the malformed text through. Decoded bytes are interpreted in the {@link Builder#charset charset}
 *       (UTF-8 by default); an invalid byte sequence in that charset is rejected the same way, because
 *       replacement characters would let two different raw strings decode to the same key.</li>
 *   <li>{@code +} is a space in the query only (HTML form encoding); in the path it stays {@code +}.</li>
 *   <li>{@code &} separates parameters; {@code ;} does too only if {@link Builder#semicolonIsSeparator} is on
 *       (off by default, as the WHATWG URL standard and modern servers do, so that {@code a=1;b=2} is one
 *       parameter and a proxy and this server agree on the parameters).</li>
 *   <li>At most {@link Builder#maxParams maxParams} parameters ({@value #DEFAULT_MAX_PARAMS} by default) are
 *       decoded. Further parameters are silently ignored, as Netty does, unless {@link Builder#strictParams}
 *       is on, in which case exceeding the limit throws {@link TooManyParametersException}.</li>
 *   <li>A fragment ({@code #...}) is dropped.</li>
 * </ul>
 *
 * <p>The URI is decoded lazily, on the first call of an accessor, and the results are cached. Instances are not
 * thread-safe until the first accessor has returned; after that they are immutable and may be shared.
 */
public final class QueryStringDecoder {
    /** Default maximum number of parameters decoded from one query. */
    public static final int DEFAULT_MAX_PARAMS = 1024;

    private final String uri;
    private final Charset charset;
    private final int maxParams;
    private final boolean semicolonIsSeparator;
    private final boolean strictParams;
    private final boolean hasPath;

    /** Index of '?' (or the start of the query when there is no path), or uri.length() if there is none. */
    private int pathEnd = -1;
    private String path;
    private Map<String, List<String>> params;

    /** Decodes {@code uri} (a path with an optional query) with the defaults. */
    public QueryStringDecoder(String uri) {
        this(uri, true, StandardCharsets.UTF_8, DEFAULT_MAX_PARAMS, false, false);
    }

    /** Decodes {@code uri}; {@code hasPath} false means it is a bare query string such as {@code a=1&b=2}. */
    public QueryStringDecoder(String uri, boolean hasPath) {
        this(uri, hasPath, StandardCharsets.UTF_8, DEFAULT_MAX_PARAMS, false, false);
    }

    /** Decodes {@code uri} in {@code charset}, otherwise with the defaults. */
    public QueryStringDecoder(String uri, Charset charset) {
        this(uri, true, charset, DEFAULT_MAX_PARAMS, false, false);
    }

    /** Decodes the raw path and raw query of {@code uri} with the defaults; its fragment is ignored. */
    public QueryStringDecoder(URI uri) {
        this(rawPathAndQuery(uri), true, StandardCharsets.UTF_8, DEFAULT_MAX_PARAMS, false, false);
    }

    private static String rawPathAndQuery(URI uri) {
        Objects.requireNonNull(uri, "uri");
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        return uri.getRawQuery() == null ? path : path + '?' + uri.getRawQuery();
    }

    private QueryStringDecoder(String uri, boolean hasPath, Charset charset, int maxParams,
                               boolean semicolonIsSeparator, boolean strictParams) {
        this.uri = Objects.requireNonNull(uri, "uri");
        this.hasPath = hasPath;
        this.charset = Objects.requireNonNull(charset, "charset");
        if (maxParams <= 0) {
            throw new IllegalArgumentException("maxParams must be positive: " + maxParams);
        }
        this.maxParams = maxParams;
        this.semicolonIsSeparator = semicolonIsSeparator;
        this.strictParams = strictParams;
    }

    /** A builder for a decoder with non-default settings. */
    public static Builder builder() {
        return new Builder();
    }

    /** The URI as given. */
    public String uri() {
        return uri;
    }

    /**
     * The decoded path ({@code ""} for a bare query string).
     *
     * @throws IllegalArgumentException if the path holds an invalid percent-encoding
     */
    public String path() {
        if (path == null) {
            path = hasPath ? decode(uri, 0, pathEnd(), charset, false) : "";
        }
        return path;
    }

    /**
     * The decoded parameters, keys in order of first appearance, values in order; unmodifiable.
     *
     * @throws IllegalArgumentException if a name or value holds an invalid percent-encoding
     * @throws TooManyParametersException in {@linkplain Builder#strictParams strict mode}, past the limit
     */
    public Map<String, List<String>> parameters() {
        if (params == null) {
            int start = queryStart();
            params = start < 0 ? Collections.emptyMap() : decodeParams(start, queryEnd(start));
        }
        return params;
    }

    /** The raw (undecoded) path: everything before '?' ({@code ""} for a bare query string). */
    public String rawPath() {
        return hasPath ? uri.substring(0, pathEnd()) : "";
    }

    /** The raw (undecoded) query: everything after '?' and before '#', or {@code ""}. */
    public String rawQuery() {
        int start = queryStart();
        return start < 0 ? "" : uri.substring(start, queryEnd(start));
    }

    /** Where the query starts, or -1 if there is none (no '?', or the path ends at a fragment). */
    private int queryStart() {
        int end = pathEnd();
        if (!hasPath) {
            return 0;
        }
        return end < uri.length() && uri.charAt(end) == '?' ? end + 1 : -1;
    }

    private int queryEnd(int queryStart) {
        int hash = uri.indexOf('#', queryStart);
        return hash < 0 ? uri.length() : hash;
    }

    private int pathEnd() {
        if (pathEnd < 0) {
            if (!hasPath) {
                pathEnd = 0;
            } else {
                int q = uri.indexOf('?');
                int hash = uri.indexOf('#');
                int end = q >= 0 ? q : uri.length();
                pathEnd = hash >= 0 && hash < end ? hash : end;
            }
        }
        return pathEnd;
    }

    private Map<String, List<String>> decodeParams(int start, int end) {
        if (start >= end) {
            return Collections.emptyMap();
        }
        Map<String, List<String>> result = new LinkedHashMap<>();
        int count = 0;
        int nameStart = start;
        int valueStart = -1;
        for (int i = start; i <= end; i++) {
            char c = i == end ? '&' : uri.charAt(i);
            if (c == '=' && valueStart < 0) {
                valueStart = i + 1;
            } else if (c == '&' || (c == ';' && semicolonIsSeparator)) {
                if (i > nameStart) {
                    if (count == maxParams) {
                        if (strictParams) {
                            throw new TooManyParametersException(maxParams);
                        }
                        break;
                    }
                    addParam(result, nameStart, valueStart, i);
                    count++;
                }
                nameStart = i + 1;
                valueStart = -1;
            }
        }
        return Collections.unmodifiableMap(result);
    }

    private void addParam(Map<String, List<String>> result, int nameStart, int valueStart, int end) {
        int nameEnd = valueStart < 0 ? end : valueStart - 1;
        String name = decode(uri, nameStart, nameEnd, charset, true);
        String value = valueStart < 0 ? "" : decode(uri, valueStart, end, charset, true);
        List<String> values = result.get(name);
        if (values == null) {
            values = new ArrayList<>(1);
            result.put(name, values);
        }
        values.add(value);
    }

    /**
     * Decodes a query component in UTF-8: percent-encodings, and {@code +} as space.
     *
     * @throws IllegalArgumentException on an invalid percent-encoding or invalid UTF-8
     */
    public static String decodeComponent(String s) {
        return decodeComponent(s, StandardCharsets.UTF_8, true);
    }

    /**
     * Decodes a URI component: percent-encodings (RFC 3986 §2.1) and, if {@code plusIsSpace}, {@code +} as space.
     *
     * @throws IllegalArgumentException on an invalid percent-encoding or bytes invalid in {@code charset}
     */
    public static String decodeComponent(String s, Charset charset, boolean plusIsSpace) {
        Objects.requireNonNull(s, "s");
        Objects.requireNonNull(charset, "charset");
        return decode(s, 0, s.length(), charset, plusIsSpace);
    }

    private static String decode(String s, int from, int to, Charset charset, boolean plusIsSpace) {
        int firstEscape = -1;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '%' || (c == '+' && plusIsSpace)) {
                firstEscape = i;
                break;
            }
        }
        if (firstEscape < 0) {
            return s.substring(from, to);
        }
        StringBuilder out = new StringBuilder(to - from);
        out.append(s, from, firstEscape);
        byte[] bytes = null;
        int i = firstEscape;
        while (i < to) {
            char c = s.charAt(i);
            if (c == '+' && plusIsSpace) {
                out.append(' ');
                i++;
            } else if (c != '%') {
                out.append(c);
                i++;
            } else {
                // A run of %XX escapes is one byte sequence: a multi-byte character spans several escapes.
                int runStart = i;
                int n = 0;
                if (bytes == null) {
                    bytes = new byte[(to - i) / 3 + 1];
                }
                while (i < to && s.charAt(i) == '%') {
                    if (i + 2 >= to) {
                        throw new IllegalArgumentException(
                                "truncated percent-encoding at offset " + i + " in: " + s);
                    }
                    int hi = Character.digit(s.charAt(i + 1), 16);
                    int lo = Character.digit(s.charAt(i + 2), 16);
                    if (hi < 0 || lo < 0 || s.charAt(i + 1) > 0x7F || s.charAt(i + 2) > 0x7F) {
                        throw new IllegalArgumentException(
                                "invalid percent-encoding at offset " + i + " in: " + s);
                    }
                    bytes[n++] = (byte) ((hi << 4) | lo);
                    i += 3;
                }
                appendBytes(out, bytes, n, charset, runStart, s);
            }
        }
        return out.toString();
    }

    private static void appendBytes(StringBuilder out, byte[] bytes, int n, Charset charset, int offset,
                                    String s) {
        boolean ascii = true;
        for (int k = 0; k < n; k++) {
            if (bytes[k] < 0) {
                ascii = false;
                break;
            }
        }
        if (ascii && isAsciiCompatible(charset)) {
            for (int k = 0; k < n; k++) {
                out.append((char) bytes[k]);
            }
            return;
        }
        if (charset == StandardCharsets.UTF_8) {
            // A CharsetDecoder per escaped run costs more than the whole rest of the decoding.
            if (!appendUtf8(out, bytes, n)) {
                throw new IllegalArgumentException("percent-encoded bytes at offset " + offset
                        + " are not valid UTF-8 in: " + s);
            }
            return;
        }
        CharsetDecoder decoder = charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            CharBuffer chars = decoder.decode(ByteBuffer.wrap(bytes, 0, n));
            out.append(chars);
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("percent-encoded bytes at offset " + offset + " are not valid "
                    + charset.name() + " in: " + s, e);
        }
    }

    /**
     * Appends the UTF-8 {@code bytes[0, n)} as characters; false if they are not well-formed UTF-8 (RFC 3629 §4:
     * no overlong forms, no surrogates, nothing above U+10FFFF, no truncated sequence).
     */
    private static boolean appendUtf8(StringBuilder out, byte[] bytes, int n) {
        int i = 0;
        while (i < n) {
            int b0 = bytes[i] & 0xFF;
            if (b0 < 0x80) {
                out.append((char) b0);
                i++;
                continue;
            }
            int extra;
            int cp;
            int min;
            if (b0 >= 0xC2 && b0 <= 0xDF) {
                extra = 1;
                cp = b0 & 0x1F;
                min = 0x80;
            } else if (b0 >= 0xE0 && b0 <= 0xEF) {
                extra = 2;
                cp = b0 & 0x0F;
                min = 0x800;
            } else if (b0 >= 0xF0 && b0 <= 0xF4) {
                extra = 3;
                cp = b0 & 0x07;
                min = 0x10000;
            } else {
                return false;
            }
            if (i + extra >= n) {
                return false;
            }
            for (int k = 1; k <= extra; k++) {
                int b = bytes[i + k] & 0xFF;
                if ((b & 0xC0) != 0x80) {
                    return false;
                }
                cp = cp << 6 | (b & 0x3F);
            }
            if (cp < min || cp > Character.MAX_CODE_POINT || cp >= Character.MIN_SURROGATE
                    && cp <= Character.MAX_SURROGATE) {
                return false;
            }
            if (extra == 3) {
                out.append(Character.highSurrogate(cp)).append(Character.lowSurrogate(cp));
            } else {
                out.append((char) cp);
            }
            i += extra + 1;
        }
        return true;
    }

    private static boolean isAsciiCompatible(Charset charset) {
        return charset == StandardCharsets.UTF_8 || charset == StandardCharsets.US_ASCII
                || charset == StandardCharsets.ISO_8859_1;
    }

    @Override
    public String toString() {
        return uri;
    }

    /** Thrown in strict mode when a query has more parameters than allowed. */
    public static final class TooManyParametersException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final int maxParams;

        /** Creates the exception for a query that exceeded {@code maxParams}. */
        public TooManyParametersException(int maxParams) {
            super("query has more than " + maxParams + " parameters");
            this.maxParams = maxParams;
        }

        /** The limit that was exceeded. */
        public int maxParams() {
            return maxParams;
        }
    }

    /** Settings for a {@link QueryStringDecoder}; not thread-safe, reusable for many decoders. */
    public static final class Builder {
        private Charset charset = StandardCharsets.UTF_8;
        private int maxParams = DEFAULT_MAX_PARAMS;
        private boolean semicolonIsSeparator;
        private boolean strictParams;
        private boolean hasPath = true;

        private Builder() {
        }

        /** The charset of percent-encoded bytes; UTF-8 by default. */
        public Builder charset(Charset charset) {
            this.charset = Objects.requireNonNull(charset, "charset");
            return this;
        }

        /** The maximum number of parameters decoded; {@value QueryStringDecoder#DEFAULT_MAX_PARAMS} by default. */
        public Builder maxParams(int maxParams) {
            if (maxParams <= 0) {
                throw new IllegalArgumentException("maxParams must be positive: " + maxParams);
            }
            this.maxParams = maxParams;
            return this;
        }

        /** Whether {@code ;} separates parameters like {@code &}; off by default. */
        public Builder semicolonIsSeparator(boolean semicolonIsSeparator) {
            this.semicolonIsSeparator = semicolonIsSeparator;
            return this;
        }

        /** Whether exceeding {@link #maxParams} throws instead of ignoring the rest; off by default. */
        public Builder strictParams(boolean strictParams) {
            this.strictParams = strictParams;
            return this;
        }

        /** Whether the input starts with a path (true by default) or is a bare query string. */
        public Builder hasPath(boolean hasPath) {
            this.hasPath = hasPath;
            return this;
        }

        /** A decoder of {@code uri} with these settings. */
        public QueryStringDecoder build(String uri) {
            return new QueryStringDecoder(uri, hasPath, charset, maxParams, semicolonIsSeparator, strictParams);
        }
    }
}
