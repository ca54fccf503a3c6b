package io.weir.handler.codec.http2;

import java.util.Objects;

/**
 * A violation of HTTP/2 or HPACK, carrying the RFC 9113 error code to answer it with and its scope: a
 * {@linkplain #isConnectionError() connection error} (§5.4.1) ends the connection with GOAWAY, a stream error
 * (§5.4.2) resets one stream with RST_STREAM and leaves the connection usable.
 *
 * <p>Errors that a peer can cause at will are raised often; instances made with {@code writableStackTrace} false
 * (see {@link #Http2Exception(Http2Error, int, String, boolean)}) skip the stack walk, which is what the codec uses
 * on every path that hostile input reaches.
 */
public class Http2Exception extends Exception {
    private static final long serialVersionUID = 1L;

    /** Stream id of a connection error: it concerns no single stream. */
    public static final int CONNECTION_STREAM_ID = 0;

    private final Http2Error error;
    private final int streamId;

    /**
     * A connection error.
     *
     * @param error the code the GOAWAY carries
     * @param message what was seen and what the limit or rule was
     */
    public Http2Exception(Http2Error error, String message) {
        this(error, CONNECTION_STREAM_ID, message, true);
    }

    /**
     * An error of the given scope.
     *
     * @param error the code the RST_STREAM or GOAWAY carries
     * @param streamId the stream to reset, or {@link #CONNECTION_STREAM_ID} for a connection error
     * @param message what was seen and what the limit or rule was
     * @param writableStackTrace false for errors a peer triggers at will (no stack walk)
     */
    public Http2Exception(Http2Error error, int streamId, String message, boolean writableStackTrace) {
        super(message, null, false, writableStackTrace);
        this.error = Objects.requireNonNull(error, "error");
        if (streamId < 0) {
            throw new IllegalArgumentException("streamId: " + streamId + " (expected >= 0)");
        }
        this.streamId = streamId;
    }

    /** A connection error (GOAWAY) with no stack trace, for violations a peer triggers at will. */
    public static Http2Exception connectionError(Http2Error error, String message) {
        return new Http2Exception(error, CONNECTION_STREAM_ID, message, false);
    }

    /** A stream error (RST_STREAM on {@code streamId}) with no stack trace, for violations a peer triggers at will. */
    public static Http2Exception streamError(int streamId, Http2Error error, String message) {
        if (streamId == CONNECTION_STREAM_ID) {
            throw new IllegalArgumentException("a stream error needs a stream id > 0");
        }
        return new Http2Exception(error, streamId, message, false);
    }

    /** The RFC 9113 §7 code this error is answered with. */
    public Http2Error error() {
        return error;
    }

    /** The stream a stream error resets; {@link #CONNECTION_STREAM_ID} for a connection error. */
    public int streamId() {
        return streamId;
    }

    /** True when the whole connection must end with GOAWAY (RFC 9113 §5.4.1). */
    public boolean isConnectionError() {
        return streamId == CONNECTION_STREAM_ID;
    }
}
