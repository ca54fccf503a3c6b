package io.weir.handler.codec.http2.internal;

import io.weir.buffer.ByteBuf;
import io.weir.handler.codec.http2.Http2Exception;
import io.weir.handler.codec.http2.Http2Settings;

/**
 * Receives the frames an {@link Http2FrameReader} parses, one call per frame, on the thread that calls
 * {@link Http2FrameReader#read} (the connection's event loop). Every frame has already passed the checks of RFC 9113
 * §4 and §6 that need no stream state (lengths, stream id zero or not, padding, settings values, header block
 * framing); stream-state rules (§5.1) are the listener's to apply.
 *
 * <p><b>Buffers.</b> No buffer handed to a listener is owned by it: each is valid only during the call, must not be
 * released, and must be {@linkplain ByteBuf#retainedSlice(int, int) retained} or copied to be kept. A listener may
 * move the reader index of a buffer it is given whole (a header block, debug data); it must not change the buffer
 * given with an index and length (DATA), nor its indexes.
 *
 * <p><b>Errors.</b> A listener may throw {@link Http2Exception}; the reader has already consumed the frame, so after
 * a stream error the caller may go on feeding the reader. After a connection error it must stop.
 */
public interface Http2FrameListener {

    /**
     * A DATA frame (RFC 9113 §6.1). The payload is the region {@code data[index, index + length)} of the buffer
     * being read, handed over without a slice so that the common path allocates nothing; take
     * {@code data.retainedSlice(index, length)} to keep it.
     *
     * @param padding octets of the frame that are not data (Pad Length octet plus padding, 0 when not padded);
     *        {@code length + padding} is what the frame costs in flow control (§6.9.1)
     */
    void onData(int streamId, ByteBuf data, int index, int length, int padding, boolean endStream)
            throws Http2Exception;

    /**
     * A complete header block from a HEADERS frame and its CONTINUATION frames (§6.2, §6.10), not yet decoded.
     * Its readable bytes are the block.
     *
     * @param padding octets of the HEADERS frame that were padding (Pad Length octet included)
     * @param hasPriority whether the PRIORITY flag was set; when false the three priority arguments are 0, 16,
     *        false
     * @param streamDependency the stream this one depends on (RFC 7540 §5.3, deprecated by RFC 9113 §5.3.2)
     * @param weight 1..256
     */
    void onHeaders(int streamId, ByteBuf headerBlock, int padding, boolean endStream, boolean hasPriority,
            int streamDependency, int weight, boolean exclusive) throws Http2Exception;

    /**
     * A header block the reader answers with a stream error right after this call (for example HEADERS whose
     * priority names its own stream, §5.3.1). The block still has to go through the HPACK decoder, whose state it
     * changes (RFC 9113 §4.3), and its fields are then dropped. The default does nothing, which is only right for a
     * listener that decodes no headers.
     */
    default void onDiscardedHeaderBlock(int streamId, ByteBuf headerBlock) throws Http2Exception {
    }

    /** A PRIORITY frame (§6.3): parsed and validated; RFC 9113 lets the receiver otherwise ignore it. */
    void onPriority(int streamId, int streamDependency, int weight, boolean exclusive) throws Http2Exception;

    /** A RST_STREAM frame (§6.4); {@code errorCode} is the unsigned 32-bit code (see {@code Http2Error.of}). */
    void onRstStream(int streamId, long errorCode) throws Http2Exception;

    /** A SETTINGS frame without ACK (§6.5), every value validated; the listener owns {@code settings}. */
    void onSettings(Http2Settings settings) throws Http2Exception;

    /** A SETTINGS frame with ACK (§6.5.3). */
    void onSettingsAck() throws Http2Exception;

    /** A PING frame without ACK (§6.7); the 8 opaque octets as a big-endian long. */
    void onPing(long data) throws Http2Exception;

    /** A PING frame with ACK (§6.7). */
    void onPingAck(long data) throws Http2Exception;

    /**
     * A complete header block from a PUSH_PROMISE frame and its CONTINUATION frames (§6.6), not yet decoded; only
     * ever called on a client.
     */
    void onPushPromise(int streamId, int promisedStreamId, ByteBuf headerBlock, int padding) throws Http2Exception;

    /** A GOAWAY frame (§6.8); {@code debugData}'s readable bytes are the additional debug data (maybe none). */
    void onGoAway(int lastStreamId, long errorCode, ByteBuf debugData) throws Http2Exception;

    /** A WINDOW_UPDATE frame (§6.9) with an increment of 1..2^31-1; stream 0 is the connection window. */
    void onWindowUpdate(int streamId, int windowSizeIncrement) throws Http2Exception;

    /**
     * A PRIORITY_UPDATE frame (RFC 9218 §7.1); {@code priorityFieldValue}'s readable bytes are the ASCII Priority
     * Field Value (a Structured Fields dictionary, not yet parsed).
     */
    void onPriorityUpdate(int prioritizedStreamId, ByteBuf priorityFieldValue) throws Http2Exception;

    /**
     * A frame of a type this reader does not know (§5.5: it must be ignored), after its size was checked against
     * SETTINGS_MAX_FRAME_SIZE. The default ignores it.
     */
    default void onUnknownFrame(int frameType, int streamId, int flags, ByteBuf payload) throws Http2Exception {
    }

    /**
     * Asked before each frame is parsed: true makes {@link Http2FrameReader#read} return at once, leaving the next
     * frame's bytes unread in the buffer, so that a connection whose output is not draining takes no more work from
     * its peer until it is. The default never pauses.
     */
    default boolean pauseBeforeNextFrame() {
        return false;
    }
}
