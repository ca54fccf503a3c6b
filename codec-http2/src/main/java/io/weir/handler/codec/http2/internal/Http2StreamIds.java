package io.weir.handler.codec.http2.internal;

import static io.weir.handler.codec.http2.Http2Exception.connectionError;

import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;

/**
 * The stream identifier rules of RFC 9113 §5.1.1 for one side of a connection: clients open odd streams and
 * servers even ones, each side's new ids increase, and ids are never reused, so the 31-bit space runs out. Only
 * called from the connection's event loop.
 *
 * <p>When our ids run out {@link #nextLocalStreamId()} answers {@link #EXHAUSTED}, so that the connection can
 * send GOAWAY(NO_ERROR) and let the application open a new one (§5.1.1), instead of failing a stream.
 */
public final class Http2StreamIds {

    /** Returned by {@link #nextLocalStreamId()} once no identifier is left. */
    public static final int EXHAUSTED = -1;

    private final boolean server;
    /** Next id we will open; beyond 2^31-1 when exhausted (kept in a long so it cannot wrap). */
    private long nextLocal;
    private int lastRemote;

    /** @param server true on the server side (our ids are even), false on the client (odd) */
    public Http2StreamIds(boolean server) {
        this.server = server;
        this.nextLocal = server ? 2 : 1;
    }

    /** True when {@code streamId} is one we open (or reserve with PUSH_PROMISE, on a server). */
    public boolean isLocal(int streamId) {
        return streamId > 0 && ((streamId & 1) == 0) == server;
    }

    /** True when {@code streamId} is one the peer opens. */
    public boolean isRemote(int streamId) {
        return streamId > 0 && ((streamId & 1) == 0) != server;
    }

    /** The id {@link #nextLocalStreamId()} would return, without taking it; {@link #EXHAUSTED} if none. */
    public int peekLocalStreamId() {
        return nextLocal > Http2Frames.MAX_STREAM_ID ? EXHAUSTED : (int) nextLocal;
    }

    /**
     * Takes the next id for a stream we open, or returns {@link #EXHAUSTED} when the space is used up (then send
     * GOAWAY and open a new connection, §5.1.1).
     */
    public int nextLocalStreamId() {
        int id = peekLocalStreamId();
        if (id != EXHAUSTED) {
            nextLocal += 2;
        }
        return id;
    }

    /**
     * Marks every local id up to {@code streamId} as used, so the next one opened is above it: for a stream opened
     * outside this class, such as stream 1 of an HTTP/1.1 Upgrade to h2c (RFC 9113 §3.2 of RFC 7540).
     *
     * @throws IllegalArgumentException when {@code streamId} is not a local id or is below an id already used
     */
    public void markLocalUsedUpTo(int streamId) {
        if (!isLocal(streamId) || streamId < nextLocal - 2) {
            throw new IllegalArgumentException("streamId: " + streamId + " (expected a " + (server ? "even" : "odd")
                    + " id >= " + Math.max(nextLocal - 2, server ? 2 : 1) + ")");
        }
        nextLocal = (long) streamId + 2;
    }

    /** True once we cannot open another stream. */
    public boolean isLocalExhausted() {
        return nextLocal > Http2Frames.MAX_STREAM_ID;
    }

    /**
     * Accepts the id of a stream the peer opens (HEADERS on a new stream, or the promised stream of a received
     * PUSH_PROMISE).
     *
     * @throws Http2Exception connection PROTOCOL_ERROR when the id has our parity or does not exceed every id the
     *         peer opened before (§5.1.1)
     */
    public void acceptRemote(int streamId) throws Http2Exception {
        if (!isRemote(streamId)) {
            throw connectionError(Http2Error.PROTOCOL_ERROR, "stream " + streamId + " opened by the "
                    + (server ? "client" : "server") + " must be " + (server ? "odd" : "even") + " (RFC 9113 §5.1.1)");
        }
        if (streamId <= lastRemote) {
            throw connectionError(Http2Error.PROTOCOL_ERROR, "stream " + streamId + " opened after stream "
                    + lastRemote + " (identifiers must increase, RFC 9113 §5.1.1)");
        }
        lastRemote = streamId;
    }

    /** The highest id the peer has opened: the Last-Stream-ID of a GOAWAY we send (§6.8). */
    public int lastRemoteStreamId() {
        return lastRemote;
    }

    /**
     * True when {@code streamId} is still idle: never opened by its side. Opening a stream implicitly closes every
     * idle stream of its side with a lower id (§5.1.1), so only ids above the highest one used are idle.
     */
    public boolean isIdle(int streamId) {
        if (isLocal(streamId)) {
            return streamId >= nextLocal;
        }
        return isRemote(streamId) && streamId > lastRemote;
    }
}
