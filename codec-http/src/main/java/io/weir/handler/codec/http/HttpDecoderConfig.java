package io.weir.handler.codec.http;

/**
 * The limits and strictness of an {@link HttpObjectDecoder}. Every limit has a safe default; a decoder copies the
 * values when it is built, so a config may be reused and changed afterwards without affecting decoders already
 * built. Not thread-safe while being changed.
 *
 * <pre>{@code
 * new HttpServerCodec(new HttpDecoderConfig().setMaxHeaderSize(16 * 1024).setMaxHeaderCount(64));
 * }</pre>
 */
public final class HttpDecoderConfig implements Cloneable {
    /**
     * Default longest request or status line, without its CRLF: 8 KiB, above the 8,000 octets RFC 9112 §3
     * recommends every recipient accept.
     */
    public static final int DEFAULT_MAX_INITIAL_LINE_LENGTH_BYTES = 8192;
    /** Default largest total size of the header lines (and, separately, of the trailer lines), without CRLFs. */
    public static final int DEFAULT_MAX_HEADER_SIZE_BYTES = 8192;
    /** Default largest {@link HttpContent} the decoder emits; longer bodies and chunks are split, not rejected. */
    public static final int DEFAULT_MAX_CHUNK_SIZE_BYTES = 8192;
    /** Default largest number of header fields (and, separately, of trailer fields) in one message. */
    public static final int DEFAULT_MAX_HEADER_COUNT = 100;
    /**
     * Default largest body: unbounded, because the decoder streams bodies in chunks of at most
     * {@link #DEFAULT_MAX_CHUNK_SIZE_BYTES} and holds none of it; aggregation is bounded by
     * {@code HttpObjectAggregator}.
     */
    public static final long DEFAULT_MAX_CONTENT_LENGTH_BYTES = Long.MAX_VALUE;

    /**
     * Default largest chunk size a chunk line may declare: 16 MiB. Clients stream chunked bodies in pieces of their
     * write buffer (curl 64 KiB, most HTTP libraries 4 to 64 KiB), so 16 MiB leaves a wide margin, while a size
     * near 2^31 or 2^63 is a probe for integer overflows or a way to hold a connection open waiting for gigabytes.
     */
    public static final long DEFAULT_MAX_DECLARED_CHUNK_SIZE_BYTES = 16L << 20;
    /**
     * Default largest number of empty lines skipped before a request or status line (RFC 9112 §2.2 asks a server
     * to skip "at least one"); more is not a client's mistake but a way to keep a connection busy.
     */
    public static final int DEFAULT_MAX_LEADING_EMPTY_LINES = 16;

    private int maxInitialLineLength = DEFAULT_MAX_INITIAL_LINE_LENGTH_BYTES;
    private int maxHeaderSize = DEFAULT_MAX_HEADER_SIZE_BYTES;
    private int maxChunkSize = DEFAULT_MAX_CHUNK_SIZE_BYTES;
    private int maxHeaderCount = DEFAULT_MAX_HEADER_COUNT;
    private long maxContentLength = DEFAULT_MAX_CONTENT_LENGTH_BYTES;
    private boolean validateHeaders = true;
    private boolean strictLineEndings = true;
    private long maxDeclaredChunkSize = DEFAULT_MAX_DECLARED_CHUNK_SIZE_BYTES;
    private int maxLeadingEmptyLines = DEFAULT_MAX_LEADING_EMPTY_LINES;
    private boolean requireHost = true;
    private boolean allowConnect;

    /** A config with every default. */
    public HttpDecoderConfig() {
    }

    /** The longest initial line accepted, in bytes without the line ending. */
    public int getMaxInitialLineLength() {
        return maxInitialLineLength;
    }

    /**
     * Sets the longest request or status line (bytes, without CRLF); a longer one fails with
     * {@link TooLongHttpLineException}. Also bounds chunk-size lines.
     *
     * @throws IllegalArgumentException if not positive
     */
    public HttpDecoderConfig setMaxInitialLineLength(int maxInitialLineLength) {
        this.maxInitialLineLength = checkPositive(maxInitialLineLength, "maxInitialLineLength");
        return this;
    }

    /** The largest total size of the header lines accepted, in bytes. */
    public int getMaxHeaderSize() {
        return maxHeaderSize;
    }

    /**
     * Sets the largest total size of the header lines, without their CRLFs; trailers get the same budget
     * separately. More fails with {@link TooLongHttpHeaderException}.
     *
     * @throws IllegalArgumentException if not positive
     */
    public HttpDecoderConfig setMaxHeaderSize(int maxHeaderSize) {
        this.maxHeaderSize = checkPositive(maxHeaderSize, "maxHeaderSize");
        return this;
    }

    /** The largest content chunk emitted, in bytes. */
    public int getMaxChunkSize() {
        return maxChunkSize;
    }

    /**
     * Sets the largest {@link HttpContent} the decoder emits: larger bodies and chunks are split into several
     * contents of at most this size (never rejected for it).
     *
     * @throws IllegalArgumentException if not positive
     */
    public HttpDecoderConfig setMaxChunkSize(int maxChunkSize) {
        this.maxChunkSize = checkPositive(maxChunkSize, "maxChunkSize");
        return this;
    }

    /** The largest number of header fields accepted. */
    public int getMaxHeaderCount() {
        return maxHeaderCount;
    }

    /**
     * Sets the largest number of header fields (and of trailer fields) in one message; more fails with
     * {@link TooLongHttpHeaderException}.
     *
     * @throws IllegalArgumentException if not positive
     */
    public HttpDecoderConfig setMaxHeaderCount(int maxHeaderCount) {
        this.maxHeaderCount = checkPositive(maxHeaderCount, "maxHeaderCount");
        return this;
    }

    /** The largest body accepted, in bytes. */
    public long getMaxContentLength() {
        return maxContentLength;
    }

    /**
     * Sets the largest body: a Content-Length above it, or chunked data adding up to more, fails with
     * {@link TooLongHttpContentException}. Unbounded by default.
     *
     * @throws IllegalArgumentException if negative
     */
    public HttpDecoderConfig setMaxContentLength(long maxContentLength) {
        if (maxContentLength < 0) {
            throw new IllegalArgumentException("maxContentLength: " + maxContentLength + " (expected: >= 0)");
        }
        this.maxContentLength = maxContentLength;
        return this;
    }

    /** Whether field names must be tokens and field values free of control characters. */
    public boolean isValidateHeaders() {
        return validateHeaders;
    }

    /**
     * Turns field name and value validation on (the default) or off. Off, names may hold any byte but the
     * separators that delimit them (colon, whitespace, CR, LF, NUL) and values any byte but CR, LF and NUL: the
     * checks that keep message framing unambiguous stay on regardless.
     */
    public HttpDecoderConfig setValidateHeaders(boolean validateHeaders) {
        this.validateHeaders = validateHeaders;
        return this;
    }

    /** Whether lines must end with CRLF. */
    public boolean isStrictLineEndings() {
        return strictLineEndings;
    }

    /**
     * With {@code true} (the default) every line must end with CRLF and a bare LF is rejected; with {@code false}
     * a bare LF also ends a line (RFC 9112 §2.2 allows it). A bare CR is rejected either way.
     */
    public HttpDecoderConfig setStrictLineEndings(boolean strictLineEndings) {
        this.strictLineEndings = strictLineEndings;
        return this;
    }

    /** The largest chunk size a chunk line may declare, in bytes. */
    public long getMaxDeclaredChunkSize() {
        return maxDeclaredChunkSize;
    }

    /**
     * Sets the largest chunk size a chunk line may declare; a larger one fails at once with
     * {@link HttpViolation#CHUNK_SIZE_TOO_LARGE} (413, then close) instead of being awaited. Independent of
     * {@link #setMaxChunkSize}, which only splits what is emitted.
     *
     * @throws IllegalArgumentException if not positive
     */
    public HttpDecoderConfig setMaxDeclaredChunkSize(long maxDeclaredChunkSize) {
        if (maxDeclaredChunkSize <= 0) {
            throw new IllegalArgumentException("maxDeclaredChunkSize: " + maxDeclaredChunkSize + " (expected: > 0)");
        }
        this.maxDeclaredChunkSize = maxDeclaredChunkSize;
        return this;
    }

    /** The largest number of empty lines skipped before an initial line. */
    public int getMaxLeadingEmptyLines() {
        return maxLeadingEmptyLines;
    }

    /**
     * Sets how many empty lines may precede a request or status line (RFC 9112 §2.2); one more fails with
     * {@link HttpViolation#TOO_MANY_EMPTY_LINES}.
     *
     * @throws IllegalArgumentException if negative
     */
    public HttpDecoderConfig setMaxLeadingEmptyLines(int maxLeadingEmptyLines) {
        if (maxLeadingEmptyLines < 0) {
            throw new IllegalArgumentException("maxLeadingEmptyLines: " + maxLeadingEmptyLines + " (expected: >= 0)");
        }
        this.maxLeadingEmptyLines = maxLeadingEmptyLines;
        return this;
    }

    /** Whether an HTTP/1.1 request must carry a Host field. */
    public boolean isRequireHost() {
        return requireHost;
    }

    /**
     * With {@code true} (the default) an HTTP/1.1 request without Host fails with {@link HttpViolation#MISSING_HOST}
     * (RFC 9112 §3.2: a server MUST answer it with 400). A Host field that is present is always checked (one
     * field, {@code uri-host [":" port]}), whatever this says. HTTP/1.0 requests need no Host.
     */
    public HttpDecoderConfig setRequireHost(boolean requireHost) {
        this.requireHost = requireHost;
        return this;
    }

    /** Whether CONNECT requests are passed on instead of rejected. */
    public boolean isAllowConnect() {
        return allowConnect;
    }

    /**
     * With {@code false} (the default) a CONNECT request fails with {@link HttpViolation#CONNECT_NOT_SUPPORTED}
     * (501, then close): an origin server does not tunnel. With {@code true} it is passed on (its target must be
     * authority-form, RFC 9112 §3.2.3) and the application, acting as a proxy, takes over the connection after
     * its 2xx answer, for instance by removing the codec.
     */
    public HttpDecoderConfig setAllowConnect(boolean allowConnect) {
        this.allowConnect = allowConnect;
        return this;
    }

    @Override
    public HttpDecoderConfig clone() {
        try {
            return (HttpDecoderConfig) super.clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }

    private static int checkPositive(int value, String name) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: > 0)");
        }
        return value;
    }
}
