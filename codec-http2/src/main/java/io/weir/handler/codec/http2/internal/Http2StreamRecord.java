package io.weir.handler.codec.http2.internal;

import io.weir.channel.ChannelPromise;
import io.weir.handler.codec.http2.Http2FrameStream;
import java.util.ArrayDeque;

/**
 * The connection engine's record of one stream: state, windows, queued outbound frames, what the multiplexer
 * attached. {@link Http2Connection} owns every record it opened and is the only writer of its state and windows;
 * the multiplexer reads them and sets {@link #attachment} and {@link #resetWhenSent}. Only used from the
 * connection's event loop.
 */
public abstract class Http2StreamRecord implements Http2FrameStream {

    /** RFC 9218 §4.1: the default urgency. */
    public static final int DEFAULT_URGENCY = 3;

    /** The stream identifier; -1 until the first HEADERS of a stream we open is written. */
    public int id = -1;
    /** The RFC 9113 §5.1 state. */
    public Http2StreamState state = Http2StreamState.IDLE;
    /** What the peer may still send us; null until the stream is opened. */
    public Http2LocalFlowWindow localWindow;
    /** What we may still send the peer; null until the stream is opened. */
    public Http2FlowWindow remoteWindow;

    /** Outbound DATA and trailers waiting for window, in order; with their promises. */
    ArrayDeque<Object> pendingFrames;
    ArrayDeque<ChannelPromise> pendingPromises;
    long pendingBytes;
    boolean queuedForWrite;
    /** Whether the stream can take more DATA without queuing beyond its send window. */
    public boolean writable = true;
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
    public boolean outboundEnded;
    /**
     * Its child closed after writing a complete response that still waits for window: once the END_STREAM is
     * sent, the peer is asked to stop sending the rest of its request (RST_STREAM NO_ERROR, RFC 9113 §8.1).
     */
    public boolean resetWhenSent;

    int urgency = DEFAULT_URGENCY;
    boolean incremental;

    /** The multiplexer's child channel (or {@code Boolean.FALSE} once it closed); null when none. */
    public Object attachment;

    /** A record for a stream not opened yet. */
    protected Http2StreamRecord() {
    }

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

    /** Whether outbound frames wait in the stream's queue for window. */
    public boolean hasPending() {
        return pendingFrames != null && !pendingFrames.isEmpty();
    }

    @Override
    public String toString() {
        return "Http2FrameStream{id=" + id + ", state=" + state + '}';
    }
}
