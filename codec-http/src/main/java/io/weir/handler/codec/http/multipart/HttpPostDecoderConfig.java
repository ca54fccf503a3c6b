package io.weir.handler.codec.http.multipart;

/**
 * Limits of {@link HttpPostRequestDecoder}. Every limit is on by default; exceeding one makes
 * {@link HttpPostRequestDecoder#offer} throw a subclass of
 * {@link HttpPostRequestDecoder.ErrorDataDecoderException} after the decoder released everything it held.
 * Mutable, not thread-safe: configure, then hand to decoders (they read it, never write it).
 */
public final class HttpPostDecoderConfig {
    /** Default maximum number of fields (attributes plus files) in one body. */
    public static final int DEFAULT_MAX_FIELDS = 128;
    /**
     * Default maximum size of one attribute, and of any part while it is held in memory: 64 KiB. File parts that
     * the factory streams to disk are not bounded by it (use {@link HttpDataFactory#setMaxLimit(long)}).
     */
    public static final int DEFAULT_MAX_FIELD_SIZE_BYTES = 64 * 1024;
    /** Default maximum of received but not yet decoded bytes held by the decoder: 1 MiB. */
    public static final int DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024;
    /** Default maximum size of the header block of one multipart part: 8 KiB. */
    public static final int DEFAULT_MAX_PART_HEADER_SIZE_BYTES = 8 * 1024;

    private int maxFields = DEFAULT_MAX_FIELDS;
    private int maxFieldSizeBytes = DEFAULT_MAX_FIELD_SIZE_BYTES;
    private int maxBufferedBytes = DEFAULT_MAX_BUFFERED_BYTES;
    private int maxPartHeaderSizeBytes = DEFAULT_MAX_PART_HEADER_SIZE_BYTES;

    /** The maximum number of fields. */
    public int maxFields() {
        return maxFields;
    }

    /** Sets the maximum number of fields. @throws IllegalArgumentException if below 1 */
    public HttpPostDecoderConfig setMaxFields(int maxFields) {
        this.maxFields = positive("maxFields", maxFields);
        return this;
    }

    /** The maximum size of an attribute or of an in-memory part. */
    public int maxFieldSizeBytes() {
        return maxFieldSizeBytes;
    }

    /** Sets the maximum size of an attribute or of an in-memory part. @throws IllegalArgumentException if below 1 */
    public HttpPostDecoderConfig setMaxFieldSizeBytes(int maxFieldSizeBytes) {
        this.maxFieldSizeBytes = positive("maxFieldSizeBytes", maxFieldSizeBytes);
        return this;
    }

    /** The maximum of undecoded bytes held. */
    public int maxBufferedBytes() {
        return maxBufferedBytes;
    }

    /**
     * Sets the maximum of undecoded bytes held; it must leave room for a part's headers and a delimiter.
     *
     * @throws IllegalArgumentException if below 256
     */
    public HttpPostDecoderConfig setMaxBufferedBytes(int maxBufferedBytes) {
        if (maxBufferedBytes < 256) {
            throw new IllegalArgumentException("maxBufferedBytes: " + maxBufferedBytes + " (expected >= 256)");
        }
        this.maxBufferedBytes = maxBufferedBytes;
        return this;
    }

    /** The maximum size of one part's header block. */
    public int maxPartHeaderSizeBytes() {
        return maxPartHeaderSizeBytes;
    }

    /** Sets the maximum size of one part's header block. @throws IllegalArgumentException if below 1 */
    public HttpPostDecoderConfig setMaxPartHeaderSizeBytes(int maxPartHeaderSizeBytes) {
        this.maxPartHeaderSizeBytes = positive("maxPartHeaderSizeBytes", maxPartHeaderSizeBytes);
        return this;
    }

    private static int positive(String what, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(what + ": " + value + " (expected >= 1)");
        }
        return value;
    }
}
