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
    /** Default longest request or status line, without its CRLF. */
    public static final int DEFAULT_MAX_INITIAL_LINE_LENGTH_BYTES = 4096;
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

    private int maxInitialLineLength = DEFAULT_MAX_INITIAL_LINE_LENGTH_BYTES;
    private int maxHeaderSize = DEFAULT_MAX_HEADER_SIZE_BYTES;
    private int maxChunkSize = DEFAULT_MAX_CHUNK_SIZE_BYTES;
    private int maxHeaderCount = DEFAULT_MAX_HEADER_COUNT;
    private long maxContentLength = DEFAULT_MAX_CONTENT_LENGTH_BYTES;
    private boolean validateHeaders = true;
    private boolean strictLineEndings = true;

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
