package io.weir.handler.codec.http2;

/**
 * A header section we were asked to send is larger than the peer's SETTINGS_MAX_HEADER_LIST_SIZE (RFC 9113 §6.5.2),
 * counted as that setting counts: name length + value length + 32 octets per field. The section was not encoded
 * (the HPACK tables are untouched) and not sent; the write's promise fails with this exception.
 *
 * <p>What happened to the stream: a stream that was not open yet (a request's first HEADERS) stays unopened and
 * used no identifier, {@link #streamId()} is then {@link #CONNECTION_STREAM_ID}, though the connection is fine; an
 * open stream (a response, or trailers) was reset with RST_STREAM INTERNAL_ERROR, {@link #error()}: the peer
 * announced it would not process the section (RFC 9113 §10.5.1 lets it discard such a response), so the stream
 * ends at once rather than leaving the peer waiting.
 */
public final class Http2OutboundHeaderListSizeException extends Http2Exception {
    private static final long serialVersionUID = 1L;

    private final long seen;
    private final long limit;

    /**
     * @param streamId the stream that was reset, or {@link #CONNECTION_STREAM_ID} when it was never opened
     * @param seen the header list size that was to be sent, in octets
     * @param limit the peer's SETTINGS_MAX_HEADER_LIST_SIZE, in octets
     */
    public Http2OutboundHeaderListSizeException(int streamId, long seen, long limit) {
        super(Http2Error.INTERNAL_ERROR, streamId, "header list of " + seen + " octets not sent on "
                + (streamId == CONNECTION_STREAM_ID ? "a new stream" : "stream " + streamId)
                + ": the peer's SETTINGS_MAX_HEADER_LIST_SIZE is " + limit + " (RFC 9113 §6.5.2)", true);
        this.seen = seen;
        this.limit = limit;
    }

    /** The size of the header list that was not sent: name + value + 32 octets per field. */
    public long seen() {
        return seen;
    }

    /** The peer's SETTINGS_MAX_HEADER_LIST_SIZE, in octets. */
    public long limit() {
        return limit;
    }
}
