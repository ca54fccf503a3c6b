package io.weir.handler.codec.http2;

/**
 * A handle on one HTTP/2 stream of a connection run by an {@link Http2FrameCodec}. Read it only from the
 * connection's event loop.
 */
public interface Http2FrameStream {

    /**
     * The stream identifier (RFC 9113 §5.1.1), or {@code -1} for a stream made by {@link Http2FrameCodec#newStream()}
     * whose first HEADERS frame has not been written yet.
     */
    int id();

    /** True while the stream is open or half-closed in either direction (RFC 9113 §5.1). */
    boolean isActive();

    /**
     * The RFC 9218 urgency (0 most urgent .. 7), from the request's {@code priority} field or a PRIORITY_UPDATE
     * frame; 3 when none was given (RFC 9218 §4.1).
     */
    int urgency();

    /** The RFC 9218 incremental flag; false when none was given (RFC 9218 §4.2). */
    boolean incremental();
}
