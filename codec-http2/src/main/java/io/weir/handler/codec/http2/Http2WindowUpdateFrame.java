package io.weir.handler.codec.http2;

/**
 * A WINDOW_UPDATE frame (RFC 9113 §6.9), written by the application only: the codec applies received ones to its
 * send windows itself and does not fire them. Written on a stream, it tells the codec that the application consumed
 * {@code increment} octets
 * of received DATA on that stream: the codec gives them back to the receive windows and sends WINDOW_UPDATE frames
 * when due (it never forwards the frame as is).
 *
 * @param stream the stream whose received bytes were consumed
 * @param increment 1..2^31-1 octets
 */
public record Http2WindowUpdateFrame(Http2FrameStream stream, int increment) implements Http2StreamFrame {

    /** @throws IllegalArgumentException unless {@code increment} is positive */
    public Http2WindowUpdateFrame {
        if (increment <= 0) {
            throw new IllegalArgumentException("increment: " + increment + " (expected 1.." + Integer.MAX_VALUE + ")");
        }
    }

    /** An outbound frame not yet bound to a stream. */
    public Http2WindowUpdateFrame(int increment) {
        this(null, increment);
    }

    @Override
    public Http2WindowUpdateFrame withStream(Http2FrameStream stream) {
        return new Http2WindowUpdateFrame(stream, increment);
    }

    @Override
    public String name() {
        return "WINDOW_UPDATE";
    }
}
