package io.weir.handler.codec.http2;

import io.weir.handler.codec.http2.internal.Http2Priorities;

/**
 * An RFC 9218 priority signal for one stream: the content of a PRIORITY_UPDATE frame (RFC 9218 §7.1, type 0x10,
 * always sent on stream 0 and naming the prioritized stream).
 *
 * <p>Inbound (server side), it is fired when a client reprioritizes an open stream; the codec has already applied it
 * to {@link Http2FrameStream#urgency()} and {@link Http2FrameStream#incremental()}. A signal for a stream the client
 * has not opened yet is kept (bounded) and applied when the stream opens, where it overrides the request's
 * {@code priority} field. Outbound, only a client may write it (RFC 9218 §7.1: servers never send PRIORITY_UPDATE),
 * on a stream whose HEADERS were written; the codec fails the promise otherwise. Holds no buffer.
 *
 * @param stream the prioritized stream (see {@link Http2StreamFrame})
 * @param urgency 0 (most urgent) to 7 (RFC 9218 §4.1)
 * @param incremental whether the response may be processed incrementally (RFC 9218 §4.2)
 */
public record Http2PriorityUpdateFrame(Http2FrameStream stream, int urgency, boolean incremental)
        implements Http2StreamFrame {

    /**
     * Checks the urgency.
     *
     * @throws IllegalArgumentException when {@code urgency} is not in 0..7
     */
    public Http2PriorityUpdateFrame {
        Http2Priorities.pack(urgency, incremental);
    }

    /** An outbound frame not yet bound to a stream (for an {@link Http2StreamChannel}). */
    public Http2PriorityUpdateFrame(int urgency, boolean incremental) {
        this(null, urgency, incremental);
    }

    @Override
    public Http2PriorityUpdateFrame withStream(Http2FrameStream stream) {
        return new Http2PriorityUpdateFrame(stream, urgency, incremental);
    }

    @Override
    public String name() {
        return "PRIORITY_UPDATE";
    }
}
