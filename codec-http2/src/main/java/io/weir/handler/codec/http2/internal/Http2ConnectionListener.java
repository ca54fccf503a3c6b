package io.weir.handler.codec.http2.internal;

/**
 * What an {@link Http2Connection} tells the channel handler around it besides the frames it fires: the handler
 * makes the stream records (so that they carry the type the stream channels know) and relays stream events to
 * the multiplexer. Only called from the connection's event loop.
 */
public interface Http2ConnectionListener {

    /** A new record for a stream the peer opens. */
    Http2StreamRecord newStream();

    /** The stream closed (both sides ended, a reset, or the connection ended); its child should close. */
    void streamClosed(Http2StreamRecord stream);

    /** The stream's {@link Http2StreamRecord#writable writability} changed. */
    void streamWritabilityChanged(Http2StreamRecord stream);

    /** The connection's output bound was crossed or cleared: every stream's writability follows it. */
    void connectionWritabilityChanged();

    /**
     * Asked before each frame is read: true to stop reading here (the peer does not read what we send); the bytes
     * left stay with the handler until it resumes.
     */
    boolean pauseBeforeNextFrame();
}
