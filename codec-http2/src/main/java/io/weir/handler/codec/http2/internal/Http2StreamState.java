package io.weir.handler.codec.http2.internal;

import static io.weir.handler.codec.http2.Http2Exception.connectionError;
import static io.weir.handler.codec.http2.Http2Exception.streamError;
import static io.weir.handler.codec.http2.internal.Http2Frames.*;

import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;

/**
 * The stream states of RFC 9113 §5.1 and the transitions frames cause, as pure functions: each call takes a frame
 * and returns the next state, or throws the exact error (code and scope) the RFC gives for that frame in this
 * state. "closed" is split in three because the RFC reacts differently to late frames depending on how the stream
 * closed (§5.1, "closed"): {@link #CLOSED} (both sides sent END_STREAM), {@link #CLOSED_RESET_SENT} (we reset it:
 * late frames are ignored) and {@link #CLOSED_RESET_RECEIVED} (the peer reset it).
 *
 * <pre>
 *                          +--------+
 *                  send PP |        | recv PP
 *                 ,--------+  idle  +--------.
 *                /         |        |         \
 *               v          +--------+          v
 *        +----------+          |           +----------+
 *        |          |          | send H /  |          |
 * ,------+ reserved |          | recv H    | reserved +------.
 * |      | (local)  |          |           | (remote) |      |
 * |      +---+------+          v           +------+---+      |
 * |          |             +--------+             |          |
 * |          |     recv ES |        | send ES     |          |
 * |   send H |     ,-------+  open  +-------.     | recv H   |
 * |          |    /        |        |        \    |          |
 * |          v   v         +---+----+         v   v          |
 * |      +----------+          |           +----------+      |
 * |      |   half-  |          |           |   half-  |      |
 * |      |  closed  |          | send R /  |  closed  |      |
 * |      | (remote) |          | recv R    | (local)  |      |
 * |      +----+-----+          |           +-----+----+      |
 * |           |                |                 |           |
 * |           | send ES /      |       recv ES / |           |
 * |           |  send R /      v        send R / |           |
 * |           |  recv R    +--------+   recv R   |           |
 * | send R /  `-----------&gt;|        |&lt;-----------'  send R / |
 * | recv R                 | closed |               recv R   |
 * `-----------------------&gt;|        |&lt;-----------------------'
 *                          +--------+
 *   H: HEADERS   PP: PUSH_PROMISE   ES: END_STREAM flag   R: RST_STREAM
 * </pre>
 *
 * (The diagram of §5.1.) PRIORITY is allowed in every state; WINDOW_UPDATE wherever the receiving side still has
 * something to send or receive. Frame types are the {@link Http2Frames} constants.
 */
public enum Http2StreamState {
    IDLE,
    RESERVED_LOCAL,
    RESERVED_REMOTE,
    OPEN,
    HALF_CLOSED_LOCAL,
    HALF_CLOSED_REMOTE,
    /** Closed by END_STREAM in both directions. */
    CLOSED,
    /** Closed by a RST_STREAM we sent: frames already in flight from the peer are ignored (§5.1). */
    CLOSED_RESET_SENT,
    /** Closed by a RST_STREAM the peer sent. */
    CLOSED_RESET_RECEIVED;

    /** True for the three flavours of "closed". */
    public boolean isClosed() {
        return this == CLOSED || this == CLOSED_RESET_SENT || this == CLOSED_RESET_RECEIVED;
    }

    /** True in the states that count toward SETTINGS_MAX_CONCURRENT_STREAMS: open and half-closed (§5.1.2). */
    public boolean isActive() {
        return this == OPEN || this == HALF_CLOSED_LOCAL || this == HALF_CLOSED_REMOTE;
    }

    /** True when the peer may still send DATA on the stream (open, half-closed local). */
    public boolean remoteMaySendData() {
        return this == OPEN || this == HALF_CLOSED_LOCAL;
    }

    /** True when we may still send DATA on the stream (open, half-closed remote). */
    public boolean localMaySendData() {
        return this == OPEN || this == HALF_CLOSED_REMOTE;
    }

    /**
     * True when frames received in this state are to be dropped without a reaction (after we sent RST_STREAM,
     * §5.1). A dropped HEADERS still goes through HPACK and a dropped DATA still counts against the connection
     * window.
     */
    public boolean ignoresInbound() {
        return this == CLOSED_RESET_SENT;
    }

    /**
     * The state after receiving a frame of {@code frameType} on this stream.
     *
     * @param endStream the frame's END_STREAM flag (DATA, HEADERS)
     * @param streamId for the error
     * @throws Http2Exception with the RFC's code and scope when the frame is not allowed in this state
     */
    public Http2StreamState onReceive(int frameType, boolean endStream, int streamId) throws Http2Exception {
        if (frameType == PRIORITY) {
            return this; // §5.1: PRIORITY may be received in any state
        }
        switch (this) {
            case IDLE:
                // §5.1 idle: HEADERS opens the stream; anything but HEADERS or PRIORITY is a PROTOCOL_ERROR.
                if (frameType == HEADERS) {
                    return endStream ? HALF_CLOSED_REMOTE : OPEN;
                }
                throw connectionError(Http2Error.PROTOCOL_ERROR, received(frameType, streamId));
            case RESERVED_LOCAL:
                // §5.1 reserved (local): only RST_STREAM, PRIORITY, WINDOW_UPDATE may be received.
                if (frameType == RST_STREAM) {
                    return CLOSED_RESET_RECEIVED;
                }
                if (frameType == WINDOW_UPDATE) {
                    return this;
                }
                throw connectionError(Http2Error.PROTOCOL_ERROR, received(frameType, streamId));
            case RESERVED_REMOTE:
                // §5.1 reserved (remote): only HEADERS, RST_STREAM, PRIORITY may be received.
                if (frameType == HEADERS) {
                    return endStream ? CLOSED : HALF_CLOSED_LOCAL;
                }
                if (frameType == RST_STREAM) {
                    return CLOSED_RESET_RECEIVED;
                }
                throw connectionError(Http2Error.PROTOCOL_ERROR, received(frameType, streamId));
            case OPEN:
                return receiveWhileOpen(frameType, endStream, HALF_CLOSED_REMOTE);
            case HALF_CLOSED_LOCAL:
                return receiveWhileOpen(frameType, endStream, CLOSED);
            case HALF_CLOSED_REMOTE:
                return receiveHalfClosedRemote(frameType, streamId);
            case CLOSED:
                // §5.1 closed: WINDOW_UPDATE and RST_STREAM may cross our END_STREAM; frames that follow the
                // peer's own END_STREAM are a connection STREAM_CLOSED.
                if (frameType == WINDOW_UPDATE || frameType == RST_STREAM) {
                    return this;
                }
                throw connectionError(Http2Error.STREAM_CLOSED, received(frameType, streamId));
            case CLOSED_RESET_SENT:
                return this; // §5.1: ignored after we sent RST_STREAM
            default: // CLOSED_RESET_RECEIVED
                if (frameType == RST_STREAM) {
                    return this; // §5.4.2: never answer RST_STREAM with RST_STREAM
                }
                // §5.1: any frame but PRIORITY after receiving RST_STREAM is a stream error STREAM_CLOSED.
                throw streamError(streamId, Http2Error.STREAM_CLOSED, received(frameType, streamId));
        }
    }

    private Http2StreamState receiveWhileOpen(int frameType, boolean endStream, Http2StreamState onEndStream) {
        switch (frameType) {
            case DATA:
            case HEADERS:
                return endStream ? onEndStream : this;
            case RST_STREAM:
                return CLOSED_RESET_RECEIVED;
            default: // WINDOW_UPDATE, PUSH_PROMISE on the associated stream, extension frames
                return this;
        }
    }

    private Http2StreamState receiveHalfClosedRemote(int frameType, int streamId) throws Http2Exception {
        switch (frameType) {
            case WINDOW_UPDATE:
                return this;
            case RST_STREAM:
                return CLOSED_RESET_RECEIVED;
            case PUSH_PROMISE:
                // §6.6: PUSH_PROMISE on a stream not open or half-closed (local) is a connection PROTOCOL_ERROR.
                throw connectionError(Http2Error.PROTOCOL_ERROR, received(frameType, streamId));
            default:
                // §5.1 half-closed (remote): other frames are a stream error STREAM_CLOSED.
                throw streamError(streamId, Http2Error.STREAM_CLOSED, received(frameType, streamId));
        }
    }

    /**
     * The state of a stream that a received PUSH_PROMISE reserves (its promised stream, §6.6, §8.4).
     *
     * @throws Http2Exception connection PROTOCOL_ERROR unless this stream is idle (§5.1.1)
     */
    public Http2StreamState onPushPromiseReceived(int promisedStreamId) throws Http2Exception {
        if (this != IDLE) {
            throw connectionError(Http2Error.PROTOCOL_ERROR, "PUSH_PROMISE reserves stream " + promisedStreamId
                    + ", which is " + this + " (RFC 9113 §6.6)");
        }
        return RESERVED_REMOTE;
    }

    /**
     * The state of a stream our PUSH_PROMISE reserves.
     *
     * @throws IllegalStateException unless this stream is idle
     */
    public Http2StreamState onPushPromiseSent() {
        if (this != IDLE) {
            throw new IllegalStateException("cannot promise a stream that is " + this);
        }
        return RESERVED_LOCAL;
    }

    /** True when we may send a frame of {@code frameType} in this state (§5.1). */
    public boolean canSend(int frameType) {
        if (frameType == PRIORITY) {
            return true;
        }
        switch (this) {
            case IDLE:
                return frameType == HEADERS;
            case RESERVED_LOCAL:
                return frameType == HEADERS || frameType == RST_STREAM;
            case RESERVED_REMOTE:
            case HALF_CLOSED_LOCAL:
                return frameType == RST_STREAM || frameType == WINDOW_UPDATE;
            case OPEN:
            case HALF_CLOSED_REMOTE:
                return true;
            case CLOSED:
            case CLOSED_RESET_RECEIVED:
                // §5.4.2: a stream error on a closed stream is still answered with RST_STREAM.
                return frameType == RST_STREAM;
            default: // CLOSED_RESET_SENT
                return false;
        }
    }

    /**
     * The state after sending a frame of {@code frameType} on this stream.
     *
     * @throws IllegalStateException when {@link #canSend(int)} is false: the caller's bug, not the peer's
     */
    public Http2StreamState onSend(int frameType, boolean endStream) {
        if (!canSend(frameType)) {
            throw new IllegalStateException("cannot send " + typeName(frameType) + " on a stream that is " + this
                    + " (RFC 9113 §5.1)");
        }
        if (frameType == RST_STREAM) {
            return CLOSED_RESET_SENT;
        }
        if (frameType != DATA && frameType != HEADERS) {
            return this;
        }
        switch (this) {
            case IDLE:
            case OPEN:
                return endStream ? HALF_CLOSED_LOCAL : OPEN;
            case RESERVED_LOCAL:
                return endStream ? CLOSED : HALF_CLOSED_REMOTE;
            default: // HALF_CLOSED_REMOTE
                return endStream ? CLOSED : this;
        }
    }

    private String received(int frameType, int streamId) {
        return typeName(frameType) + " received on stream " + streamId + " in state " + this + " (RFC 9113 §5.1)";
    }
}
