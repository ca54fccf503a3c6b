package io.weir.handler.codec.http2;

import io.weir.handler.codec.http2.internal.Http2FlowWindow;
import io.weir.handler.codec.http2.internal.Http2LocalFlowWindow;
import io.weir.handler.codec.http2.internal.Http2StreamState;
import java.util.ArrayDeque;

/**
 * The codec's record of one stream: state, windows, queued outbound frames, what the multiplexer attached. Only used
 * from the connection's event loop.
 */
final class DefaultHttp2FrameStream implements Http2FrameStream {

    /** RFC 9218 §4.1: the default urgency. */
    static final int DEFAULT_URGENCY = 3;

    int id = -1;
    Http2StreamState state = Http2StreamState.IDLE;
    Http2LocalFlowWindow localWindow;
    Http2FlowWindow remoteWindow;

    /** Outbound DATA and trailers waiting for window, in order; with their promises. */
    ArrayDeque<Object> pendingFrames;
    ArrayDeque<io.weir.channel.ChannelPromise> pendingPromises;
    long pendingBytes;
    boolean queuedForWrite;
    boolean writable = true;
    /** Ticker time since when queued bytes made no progress, 0 when not stalled. */
    long stalledSinceNanos;
    /**
     * Ticker time since when the stream waits for the peer, for the stream read timeout: its opening, the last
     * HEADERS or DATA received, or the last HEADERS sent (a 100 Continue invites the body).
     */
    long lastReadNanos;

    /** Received content-length, -1 when none. */
    long expectedContentLength = -1;
    long receivedDataBytes;
    /** The body-rate window of a stream the peer is still sending on: when it began, and the octets by then. */
    long rateWindowStartNanos;
    long rateWindowStartBytes;
    boolean headersReceived;
    boolean headMethod;
    /** The request was an extended CONNECT (RFC 8441: it carries {@code :protocol}). Server side. */
    boolean connectProtocol;
    /**
     * A 2xx answered its extended CONNECT: the stream is a tunnel (a WebSocket) whose own protocol bounds a silent
     * peer (its pings and idle rule), so the stream read timeout and the minimum body rate do not apply.
     */
    boolean tunnel;
    /** END_STREAM was written or queued: nothing more may be sent. */
    boolean outboundEnded;
    /**
     * Its child closed after writing a complete response that still waits for window: once the END_STREAM is
     * sent, the peer is asked to stop sending the rest of its request (RST_STREAM NO_ERROR, RFC 9113 §8.1).
     */
    boolean resetWhenSent;

    int urgency = DEFAULT_URGENCY;
    boolean incremental;

    /** The multiplexer's child channel. */
    Object attachment;

    @Override
    public int id() {
        return id;
    }

    @Override
    public boolean isActive() {
        return state.isActive();
    }

    @Override
    public int urgency() {
        return urgency;
    }

    @Override
    public boolean incremental() {
        return incremental;
    }

    boolean hasPending() {
        return pendingFrames != null && !pendingFrames.isEmpty();
    }

    @Override
    public String toString() {
        return "Http2FrameStream{id=" + id + ", state=" + state + '}';
    }
}
