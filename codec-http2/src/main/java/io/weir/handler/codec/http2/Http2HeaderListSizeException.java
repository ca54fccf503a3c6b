package io.weir.handler.codec.http2;

/**
 * A stream error raised when a received header section is larger than SETTINGS_MAX_HEADER_LIST_SIZE or holds more
 * fields than allowed, but not so much larger that the connection must end. The HPACK decoder kept its table in
 * sync, so the connection stays usable: a server answers the request with 431 (Request Header Fields Too Large,
 * RFC 6585 §5, as RFC 9113 §10.5.1 suggests) or resets the stream with {@link #error()} (PROTOCOL_ERROR).
 *
 * <p>Sizes are counted as RFC 9113 §6.5.2 does: name length + value length + 32 octets per field.
 */
public final class Http2HeaderListSizeException extends Http2Exception {
    private static final long serialVersionUID = 1L;

    private final long seen;
    private final long limit;

    /**
     * A stream error on {@code streamId}, without stack trace (a peer raises it at will).
     *
     * @param seen the size (bytes) or field count that went over the limit
     * @param limit the limit it went over
     * @param message what was counted
     */
    public Http2HeaderListSizeException(int streamId, long seen, long limit, String message) {
        super(Http2Error.PROTOCOL_ERROR, requireStream(streamId), message, false);
        this.seen = seen;
        this.limit = limit;
    }

    /** The size in bytes, or the field count, seen when the limit was crossed. */
    public long seen() {
        return seen;
    }

    /** The limit that was crossed. */
    public long limit() {
        return limit;
    }

    private static int requireStream(int streamId) {
        if (streamId <= 0) {
            throw new IllegalArgumentException("streamId: " + streamId + " (a stream error needs a stream id > 0)");
        }
        return streamId;
    }
}
