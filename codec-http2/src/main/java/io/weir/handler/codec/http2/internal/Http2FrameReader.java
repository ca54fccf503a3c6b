package io.weir.handler.codec.http2.internal;

import static io.weir.handler.codec.http2.Http2Exception.connectionError;
import static io.weir.handler.codec.http2.Http2Exception.streamError;
import static io.weir.handler.codec.http2.internal.Http2Frames.*;

import io.weir.buffer.ByteBuf;
import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;
import io.weir.handler.codec.http2.Http2Settings;
import java.util.Objects;

/**
 * Parses HTTP/2 frames (RFC 9113 §4, §6) from the bytes of one connection and hands each to an
 * {@link Http2FrameListener}. Only called from the connection's event loop; not thread-safe.
 *
 * <p><b>Buffers.</b> The caller owns the cumulation: {@link #read(ByteBuf)} consumes every complete frame in the
 * buffer's readable bytes, leaves a partial frame unread, and never retains or releases the buffer. The caller
 * appends the next bytes behind the unread ones (as {@code ByteToMessageDecoder} does) and calls again. The reader
 * remembers a frame header it has already parsed, so a large frame arriving in pieces is validated once. The only
 * buffer the reader owns is the one in which it assembles a header block spread over CONTINUATION frames; it is
 * allocated from the input buffer's allocator and released when the block is delivered, on a connection error, and
 * by {@link #close()}.
 *
 * <p><b>Errors.</b> Every violation is thrown as an {@link Http2Exception} with the RFC's code and scope. Every check
 * that does not need the payload runs as soon as the 9-octet header is in, so an oversized or misplaced frame is
 * refused before its payload is buffered. A stream error is thrown after its frame was consumed: the caller resets
 * the stream and may keep reading. After a connection error the reader is {@linkplain #isFailed() failed}: later
 * calls to {@code read} skip their input, since the connection is ending.
 *
 * <p><b>Limits.</b> A frame may not exceed our SETTINGS_MAX_FRAME_SIZE ({@link #maxFrameSize(int)}); a header block
 * may not exceed {@link #maxHeaderBlockBytes(int)} octets nor use more than {@link #maxContinuationFrames(int)}
 * CONTINUATION frames. Exceeding either header block limit is a connection error ENHANCE_YOUR_CALM: a peer may
 * legally split a block into many frames, so PROTOCOL_ERROR would misname it, and the block cannot be skipped
 * without desynchronising HPACK (§4.3), so a stream error is not possible (RFC 9113 §10.5 names ENHANCE_YOUR_CALM
 * for excessive use of legal features).
 */
public final class Http2FrameReader implements AutoCloseable {

    /** Default SETTINGS_MAX_HEADER_LIST_SIZE Weir advertises, in octets. */
    public static final int DEFAULT_MAX_HEADER_LIST_SIZE_BYTES = 8192;
    /**
     * Octets a header block may exceed the header list limit by: HPACK encodes most fields smaller than their list
     * size (which adds 32 per field), but Huffman codes of rare octets and padded integers can make a block larger.
     */
    public static final int HEADER_BLOCK_SLACK_BYTES = 8192;
    /** Default bound on an assembled header block (HEADERS or PUSH_PROMISE plus CONTINUATIONs), in octets. */
    public static final int DEFAULT_MAX_HEADER_BLOCK_BYTES = DEFAULT_MAX_HEADER_LIST_SIZE_BYTES + HEADER_BLOCK_SLACK_BYTES;
    /**
     * Default bound on CONTINUATION frames in one header block. A sender that fills its frames needs one per 16 KiB
     * of block; this leaves room for small frames while refusing a flood of tiny or empty ones.
     */
    public static final int DEFAULT_MAX_CONTINUATION_FRAMES = 32;

    private static final int NO_FRAME = -1;
    /** First capacity of a header block being assembled, in octets (it grows up to the block limit). */
    private static final int INITIAL_BLOCK_CAPACITY_BYTES = 256;
    /** Longest piece of an unexpected first line quoted in an error message. */
    private static final int MAX_QUOTED_LINE_CHARS = 64;

    private final Http2FrameListener listener;
    private final boolean server;

    private int maxFrameSize = DEFAULT_MAX_FRAME_SIZE_BYTES;
    private int maxHeaderBlockBytes = DEFAULT_MAX_HEADER_BLOCK_BYTES;
    private int maxContinuationFrames = DEFAULT_MAX_CONTINUATION_FRAMES;

    /** Servers expect the client preface before the first frame. */
    private boolean prefaceExpected;
    /** The peer's first frame must be SETTINGS (§3.4). */
    private boolean expectSettings = true;
    private boolean failed;

    // The frame whose header was parsed but whose payload is incomplete: payloadLength is NO_FRAME otherwise.
    private int payloadLength = NO_FRAME;
    private int frameType;
    private int frameFlags;
    private int frameStreamId;

    // An open header block (blockStreamId != 0): the first frame's fields and the fragments so far.
    private ByteBuf block;
    private int blockStreamId;
    private int blockType;
    private int blockPadding;
    private boolean blockEndStream;
    private boolean blockHasPriority;
    private int blockDependency;
    private int blockWeight;
    private boolean blockExclusive;
    private int blockPromisedStreamId;
    private int blockContinuations;

    /**
     * A reader for one side of a connection.
     *
     * @param server true on a server: the client preface is expected first (§3.4) and PUSH_PROMISE is refused
     *        (§8.4); false on a client
     */
    public Http2FrameReader(boolean server, Http2FrameListener listener) {
        this.server = server;
        this.listener = Objects.requireNonNull(listener, "listener");
        this.prefaceExpected = server;
    }

    /**
     * The largest frame payload accepted, our SETTINGS_MAX_FRAME_SIZE (apply a raised value once the peer has
     * acknowledged it). Default {@link Http2Frames#DEFAULT_MAX_FRAME_SIZE_BYTES}.
     *
     * @throws IllegalArgumentException outside 2^14..2^24-1
     */
    public Http2FrameReader maxFrameSize(int octets) {
        maxFrameSize = checkMaxFrameSize(octets);
        return this;
    }

    /** The largest frame payload accepted, in octets. */
    public int maxFrameSize() {
        return maxFrameSize;
    }

    /**
     * Bound on one assembled header block in octets; default {@link #DEFAULT_MAX_HEADER_BLOCK_BYTES}. Tie it to the
     * advertised header list limit with {@link #headerBlockLimitFor(long)}.
     *
     * @throws IllegalArgumentException when not positive
     */
    public Http2FrameReader maxHeaderBlockBytes(int octets) {
        if (octets <= 0) {
            throw new IllegalArgumentException("maxHeaderBlockBytes: " + octets + " (expected > 0)");
        }
        maxHeaderBlockBytes = octets;
        return this;
    }

    /** Bound on one assembled header block, in octets. */
    public int maxHeaderBlockBytes() {
        return maxHeaderBlockBytes;
    }

    /** The header block bound for an advertised SETTINGS_MAX_HEADER_LIST_SIZE: the list size plus slack. */
    public static int headerBlockLimitFor(long maxHeaderListSize) {
        if (maxHeaderListSize < 0) {
            throw new IllegalArgumentException("maxHeaderListSize: " + maxHeaderListSize + " (expected >= 0)");
        }
        return (int) Math.min(Integer.MAX_VALUE, maxHeaderListSize + HEADER_BLOCK_SLACK_BYTES);
    }

    /**
     * Bound on CONTINUATION frames in one header block; default {@link #DEFAULT_MAX_CONTINUATION_FRAMES}.
     *
     * @throws IllegalArgumentException when negative
     */
    public Http2FrameReader maxContinuationFrames(int frames) {
        if (frames < 0) {
            throw new IllegalArgumentException("maxContinuationFrames: " + frames + " (expected >= 0)");
        }
        maxContinuationFrames = frames;
        return this;
    }

    /** Bound on CONTINUATION frames in one header block. */
    public int maxContinuationFrames() {
        return maxContinuationFrames;
    }

    /** True after a connection error: further input is skipped. */
    public boolean isFailed() {
        return failed;
    }

    /** True while a header block is open (a HEADERS or PUSH_PROMISE without END_HEADERS was read). */
    public boolean isHeaderBlockOpen() {
        return blockStreamId != 0;
    }

    /**
     * Parses every complete frame in {@code in}'s readable bytes, calling the listener for each, and advances the
     * reader index past them; stops early, at a frame boundary, when the listener
     * {@linkplain Http2FrameListener#pauseBeforeNextFrame() asks to pause}. The caller keeps ownership of {@code in}
     * and feeds the bytes left in it again later.
     *
     * @throws Http2Exception a connection error (the reader is then failed) or a stream error (the frame was
     *         consumed; reading may go on)
     */
    public void read(ByteBuf in) throws Http2Exception {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        try {
            if (prefaceExpected && !readPreface(in)) {
                return;
            }
            for (;;) {
                if (payloadLength == NO_FRAME) {
                    if (in.readableBytes() < FRAME_HEADER_LENGTH_BYTES || listener.pauseBeforeNextFrame()) {
                        return;
                    }
                    readFrameHeader(in);
                }
                if (in.readableBytes() < payloadLength) {
                    return;
                }
                int index = in.readerIndex();
                int length = payloadLength;
                payloadLength = NO_FRAME;
                // Consumed before dispatch, so that a stream error leaves the reader at the next frame.
                in.readerIndex(index + length);
                readPayload(in, index, length);
            }
        } catch (Http2Exception e) {
            if (e.isConnectionError()) {
                fail();
            }
            throw e;
        } catch (RuntimeException | Error e) {
            fail();
            throw e;
        }
    }

    /** Releases the header block being assembled, if any. Idempotent. */
    @Override
    public void close() {
        releaseBlock();
    }

    private void fail() {
        failed = true;
        payloadLength = NO_FRAME;
        releaseBlock();
    }

    private void releaseBlock() {
        ByteBuf b = block;
        block = null;
        blockStreamId = 0;
        if (b != null) {
            b.release();
        }
    }

    /**
     * RFC 9113 §3.4: a server first reads the client preface; true once it is complete. Nothing is consumed until
     * the whole preface is in, so a mismatch can quote the peer's first line from its start.
     */
    private boolean readPreface(ByteBuf in) throws Http2Exception {
        int start = in.readerIndex();
        int n = Math.min(in.readableBytes(), CONNECTION_PREFACE_LENGTH_BYTES);
        for (int i = 0; i < n; i++) {
            if (in.getByte(start + i) != connectionPrefaceByte(i)) {
                throw badPreface(in);
            }
        }
        if (n < CONNECTION_PREFACE_LENGTH_BYTES) {
            return false;
        }
        in.skipBytes(CONNECTION_PREFACE_LENGTH_BYTES);
        prefaceExpected = false;
        return true;
    }

    private static Http2Exception badPreface(ByteBuf in) {
        int from = in.readerIndex();
        int end = Math.min(in.writerIndex(), from + MAX_QUOTED_LINE_CHARS);
        StringBuilder line = new StringBuilder();
        for (int i = from; i < end; i++) {
            int c = in.getByte(i) & 0xff;
            if (c == '\r' || c == '\n') {
                break;
            }
            line.append(c >= 0x20 && c < 0x7f ? (char) c : '?');
        }
        // "METHOD target HTTP/1.x": a client that speaks HTTP/1 to an HTTP/2-only port.
        boolean http1 = line.indexOf(" ") > 0 && line.indexOf(" HTTP/1.") > 0;
        String what = http1 ? "an HTTP/1.x request line" : "bytes that are not the preface";
        return connectionError(Http2Error.PROTOCOL_ERROR, "expected the HTTP/2 client connection preface"
                + " (RFC 9113 §3.4) but received " + what + ": \"" + line + '"');
    }

    /** Parses a frame header and runs every check that needs no payload. */
    private void readFrameHeader(ByteBuf in) throws Http2Exception {
        // Two absolute reads instead of four relative ones: Length and Type share the first int.
        int index = in.readerIndex();
        int lengthAndType = in.getInt(index);
        int length = lengthAndType >>> 8;
        int type = lengthAndType & 0xff;
        int flags = in.getUnsignedByte(index + 4);
        int streamId = in.getInt(index + 5) & STREAM_ID_MASK; // §4.1: the reserved bit is ignored on receipt
        in.readerIndex(index + FRAME_HEADER_LENGTH_BYTES);
        if (length > maxFrameSize) {
            // §4.2: a frame larger than our SETTINGS_MAX_FRAME_SIZE is a FRAME_SIZE_ERROR; treated as a connection
            // error because its payload is never buffered, so the frame cannot be skipped cheaply.
            throw connectionError(Http2Error.FRAME_SIZE_ERROR, typeName(type) + " frame of " + length
                    + " octets exceeds SETTINGS_MAX_FRAME_SIZE " + maxFrameSize);
        }
        if (expectSettings) {
            // §3.4: the connection preface of either side ends with a SETTINGS frame (not an ACK).
            if (type != SETTINGS || (flags & FLAG_ACK) != 0) {
                throw connectionError(Http2Error.PROTOCOL_ERROR, "expected SETTINGS as the first frame (RFC 9113"
                        + " §3.4), received " + typeName(type) + ((flags & FLAG_ACK) != 0 ? " with ACK" : ""));
            }
            expectSettings = false;
        }
        if (blockStreamId != 0) {
            // §6.10: while a header block is open, only a CONTINUATION of the same stream may follow.
            if (type != CONTINUATION || streamId != blockStreamId) {
                throw connectionError(Http2Error.PROTOCOL_ERROR, typeName(type) + " on stream " + streamId
                        + " interleaved with the header block of stream " + blockStreamId + " (RFC 9113 §6.10)");
            }
        }
        switch (type) {
            case DATA:
                requireStream(type, streamId);
                requireMinLength(type, length, (flags & FLAG_PADDED) != 0 ? PAD_LENGTH_BYTES : 0);
                break;
            case HEADERS:
                requireStream(type, streamId);
                requireMinLength(type, length, ((flags & FLAG_PADDED) != 0 ? PAD_LENGTH_BYTES : 0)
                        + ((flags & FLAG_PRIORITY) != 0 ? PRIORITY_PAYLOAD_BYTES : 0));
                requireBlockLength(length);
                break;
            case PRIORITY:
                requireStream(type, streamId);
                break;
            case RST_STREAM:
                requireStream(type, streamId);
                requireLength(type, length, RST_STREAM_PAYLOAD_BYTES); // §6.4
                break;
            case SETTINGS:
                requireConnection(type, streamId);
                if ((flags & FLAG_ACK) != 0 && length != 0) {
                    // §6.5: an ACK with a payload is a connection FRAME_SIZE_ERROR.
                    throw connectionError(Http2Error.FRAME_SIZE_ERROR,
                            "SETTINGS with ACK has a payload of " + length + " octets (RFC 9113 §6.5)");
                }
                if (length % SETTING_ENTRY_BYTES != 0) {
                    throw connectionError(Http2Error.FRAME_SIZE_ERROR, "SETTINGS payload of " + length
                            + " octets is not a multiple of " + SETTING_ENTRY_BYTES + " (RFC 9113 §6.5)");
                }
                break;
            case PUSH_PROMISE:
                requireStream(type, streamId);
                if (server) {
                    // §8.4: a client cannot push.
                    throw connectionError(Http2Error.PROTOCOL_ERROR, "PUSH_PROMISE received by a server on stream "
                            + streamId + " (RFC 9113 §8.4)");
                }
                requireMinLength(type, length,
                        ((flags & FLAG_PADDED) != 0 ? PAD_LENGTH_BYTES : 0) + PROMISED_STREAM_ID_BYTES);
                requireBlockLength(length);
                break;
            case PING:
                requireConnection(type, streamId);
                requireLength(type, length, PING_PAYLOAD_BYTES); // §6.7
                break;
            case GOAWAY:
                requireConnection(type, streamId);
                requireMinLength(type, length, GOAWAY_MIN_PAYLOAD_BYTES); // §6.8
                break;
            case WINDOW_UPDATE:
                requireLength(type, length, WINDOW_UPDATE_PAYLOAD_BYTES); // §6.9
                break;
            case CONTINUATION:
                checkContinuation(streamId, length, flags);
                break;
            case PRIORITY_UPDATE:
                requireConnection(type, streamId); // RFC 9218 §7.1
                requireMinLength(type, length, PRIORITY_UPDATE_MIN_PAYLOAD_BYTES);
                break;
            default:
                break; // §5.5: unknown types are ignored once their size passed
        }
        payloadLength = length;
        frameType = type;
        frameFlags = flags;
        frameStreamId = streamId;
    }

    private void checkContinuation(int streamId, int length, int flags) throws Http2Exception {
        if (blockStreamId == 0) {
            // §6.10: CONTINUATION must follow HEADERS, PUSH_PROMISE or CONTINUATION without END_HEADERS.
            throw connectionError(Http2Error.PROTOCOL_ERROR, "CONTINUATION on stream " + streamId
                    + " without an open header block (RFC 9113 §6.10)");
        }
        if (++blockContinuations > maxContinuationFrames) {
            throw connectionError(Http2Error.ENHANCE_YOUR_CALM, "header block of stream " + streamId
                    + " exceeds " + maxContinuationFrames + " CONTINUATION frames");
        }
        long total = (long) block.readableBytes() + length;
        if (total > maxHeaderBlockBytes) {
            throw connectionError(Http2Error.ENHANCE_YOUR_CALM, "header block of stream " + streamId + " grows to "
                    + total + " octets, above the limit of " + maxHeaderBlockBytes);
        }
    }

    private void requireBlockLength(int length) throws Http2Exception {
        if (length > maxHeaderBlockBytes) {
            throw connectionError(Http2Error.ENHANCE_YOUR_CALM, "header block fragment of " + length
                    + " octets exceeds the header block limit of " + maxHeaderBlockBytes);
        }
    }

    private static void requireStream(int type, int streamId) throws Http2Exception {
        if (streamId == 0) {
            // §6.1, §6.2, §6.3, §6.4, §6.6, §6.10: these frames belong to a stream.
            throw connectionError(Http2Error.PROTOCOL_ERROR, typeName(type) + " on stream 0 (RFC 9113 §6)");
        }
    }

    private static void requireConnection(int type, int streamId) throws Http2Exception {
        if (streamId != 0) {
            // §6.5, §6.7, §6.8; RFC 9218 §7.1: these frames belong to the connection.
            throw connectionError(Http2Error.PROTOCOL_ERROR, typeName(type) + " on stream " + streamId
                    + " (expected stream 0, RFC 9113 §6)");
        }
    }

    private static void requireLength(int type, int length, int expected) throws Http2Exception {
        if (length != expected) {
            throw connectionError(Http2Error.FRAME_SIZE_ERROR, typeName(type) + " payload of " + length
                    + " octets (expected " + expected + ", RFC 9113 §6)");
        }
    }

    private static void requireMinLength(int type, int length, int min) throws Http2Exception {
        if (length < min) {
            // §4.2: too small to contain mandatory frame data.
            throw connectionError(Http2Error.FRAME_SIZE_ERROR, typeName(type) + " payload of " + length
                    + " octets is shorter than its mandatory fields (" + min + " octets, RFC 9113 §4.2)");
        }
    }

    private void readPayload(ByteBuf in, int index, int length) throws Http2Exception {
        int streamId = frameStreamId;
        int flags = frameFlags;
        switch (frameType) {
            case DATA:
                readData(in, index, length, streamId, flags);
                break;
            case HEADERS:
                readHeaders(in, index, length, streamId, flags);
                break;
            case PRIORITY:
                readPriority(in, index, length, streamId);
                break;
            case RST_STREAM:
                listener.onRstStream(streamId, in.getUnsignedInt(index));
                break;
            case SETTINGS:
                readSettings(in, index, length, flags);
                break;
            case PUSH_PROMISE:
                readPushPromise(in, index, length, streamId, flags);
                break;
            case PING:
                if ((flags & FLAG_ACK) != 0) {
                    listener.onPingAck(in.getLong(index));
                } else {
                    listener.onPing(in.getLong(index));
                }
                break;
            case GOAWAY:
                listener.onGoAway(in.getInt(index) & STREAM_ID_MASK, in.getUnsignedInt(index + 4),
                        in.slice(index + GOAWAY_MIN_PAYLOAD_BYTES, length - GOAWAY_MIN_PAYLOAD_BYTES));
                break;
            case WINDOW_UPDATE:
                readWindowUpdate(in, index, streamId);
                break;
            case CONTINUATION:
                readContinuation(in, index, length, flags);
                break;
            case PRIORITY_UPDATE:
                readPriorityUpdate(in, index, length);
                break;
            default:
                listener.onUnknownFrame(frameType, streamId, flags, in.slice(index, length));
                break;
        }
    }

    private void readData(ByteBuf in, int index, int length, int streamId, int flags) throws Http2Exception {
        int padding = 0;
        int dataIndex = index;
        if ((flags & FLAG_PADDED) != 0) {
            padding = padding(in, index, length, PAD_LENGTH_BYTES, DATA);
            dataIndex++;
        }
        listener.onData(streamId, in, dataIndex, length - padding, padding, (flags & FLAG_END_STREAM) != 0);
    }

    /**
     * Reads a Pad Length octet and returns the octets of the frame that are padding, Pad Length octet included.
     * §6.1, §6.2, §6.6: padding that leaves no room for the fixed fields is a connection PROTOCOL_ERROR.
     */
    private static int padding(ByteBuf in, int index, int length, int fixedBytes, int type) throws Http2Exception {
        int padLength = in.getUnsignedByte(index);
        if (padLength > length - fixedBytes) {
            throw connectionError(Http2Error.PROTOCOL_ERROR, typeName(type) + " Pad Length " + padLength
                    + " leaves no room in a payload of " + length + " octets (RFC 9113 §6.1)");
        }
        return padLength + PAD_LENGTH_BYTES;
    }

    private void readHeaders(ByteBuf in, int index, int length, int streamId, int flags) throws Http2Exception {
        boolean padded = (flags & FLAG_PADDED) != 0;
        boolean hasPriority = (flags & FLAG_PRIORITY) != 0;
        int fixed = (padded ? PAD_LENGTH_BYTES : 0) + (hasPriority ? PRIORITY_PAYLOAD_BYTES : 0);
        int padding = padded ? padding(in, index, length, fixed, HEADERS) : 0;
        int p = index + (padded ? PAD_LENGTH_BYTES : 0);
        int dependency = 0;
        int weight = DEFAULT_PRIORITY_WEIGHT;
        boolean exclusive = false;
        if (hasPriority) {
            int word = in.getInt(p);
            exclusive = word < 0;
            dependency = word & STREAM_ID_MASK;
            weight = in.getUnsignedByte(p + 4) + 1;
            p += PRIORITY_PAYLOAD_BYTES;
        }
        int fragmentLength = length - fixed - (padded ? padding - PAD_LENGTH_BYTES : 0);
        blockType = HEADERS;
        blockPadding = padding;
        blockEndStream = (flags & FLAG_END_STREAM) != 0;
        blockHasPriority = hasPriority;
        blockDependency = dependency;
        blockWeight = weight;
        blockExclusive = exclusive;
        startBlock(in, p, fragmentLength, streamId, flags);
    }

    private void readPushPromise(ByteBuf in, int index, int length, int streamId, int flags) throws Http2Exception {
        boolean padded = (flags & FLAG_PADDED) != 0;
        int fixed = (padded ? PAD_LENGTH_BYTES : 0) + PROMISED_STREAM_ID_BYTES;
        int padding = padded ? padding(in, index, length, fixed, PUSH_PROMISE) : 0;
        int p = index + (padded ? PAD_LENGTH_BYTES : 0);
        int promised = in.getInt(p) & STREAM_ID_MASK;
        if (promised == 0 || (promised & 1) != 0) {
            // §6.6, §5.1.1: the promised stream is a new server-initiated (even, non-zero) stream.
            throw connectionError(Http2Error.PROTOCOL_ERROR, "PUSH_PROMISE on stream " + streamId
                    + " promises stream " + promised + " (expected an even id > 0, RFC 9113 §6.6)");
        }
        int fragmentLength = length - fixed - (padded ? padding - PAD_LENGTH_BYTES : 0);
        blockType = PUSH_PROMISE;
        blockPadding = padding;
        blockPromisedStreamId = promised;
        startBlock(in, p + PROMISED_STREAM_ID_BYTES, fragmentLength, streamId, flags);
    }

    private void startBlock(ByteBuf in, int index, int length, int streamId, int flags) throws Http2Exception {
        if ((flags & FLAG_END_HEADERS) != 0) {
            deliverBlock(streamId, in.slice(index, length));
            return;
        }
        // §6.10: the block continues in CONTINUATION frames; keep the fragment.
        ByteBuf b = in.alloc().buffer(
                Math.min(Math.max(length * 2, INITIAL_BLOCK_CAPACITY_BYTES), maxHeaderBlockBytes), maxHeaderBlockBytes);
        b.writeBytes(in, index, length);
        block = b;
        blockStreamId = streamId;
        blockContinuations = 0;
    }

    private void readContinuation(ByteBuf in, int index, int length, int flags) throws Http2Exception {
        block.writeBytes(in, index, length);
        if ((flags & FLAG_END_HEADERS) != 0) {
            ByteBuf b = block;
            int streamId = blockStreamId;
            block = null;
            blockStreamId = 0;
            try {
                deliverBlock(streamId, b);
            } finally {
                b.release();
            }
        }
    }

    private void deliverBlock(int streamId, ByteBuf headerBlock) throws Http2Exception {
        if (blockType == PUSH_PROMISE) {
            listener.onPushPromise(streamId, blockPromisedStreamId, headerBlock, blockPadding);
            return;
        }
        if (blockHasPriority && blockDependency == streamId) {
            // RFC 9113 §5.3.1: a stream cannot depend on itself; a stream error, after HPACK has seen the block.
            listener.onDiscardedHeaderBlock(streamId, headerBlock);
            throw streamError(streamId, Http2Error.PROTOCOL_ERROR,
                    "HEADERS on stream " + streamId + " depends on itself (RFC 9113 §5.3.1)");
        }
        listener.onHeaders(streamId, headerBlock, blockPadding, blockEndStream, blockHasPriority, blockDependency,
                blockWeight, blockExclusive);
    }

    private void readPriority(ByteBuf in, int index, int length, int streamId) throws Http2Exception {
        if (length != PRIORITY_PAYLOAD_BYTES) {
            // §6.3: a stream error, unlike the other fixed-length frames.
            throw streamError(streamId, Http2Error.FRAME_SIZE_ERROR, "PRIORITY payload of " + length
                    + " octets (expected " + PRIORITY_PAYLOAD_BYTES + ", RFC 9113 §6.3)");
        }
        int word = in.getInt(index);
        int dependency = word & STREAM_ID_MASK;
        if (dependency == streamId) {
            throw streamError(streamId, Http2Error.PROTOCOL_ERROR,
                    "PRIORITY on stream " + streamId + " depends on itself (RFC 9113 §5.3.1)");
        }
        listener.onPriority(streamId, dependency, in.getUnsignedByte(index + 4) + 1, word < 0);
    }

    private void readSettings(ByteBuf in, int index, int length, int flags) throws Http2Exception {
        if ((flags & FLAG_ACK) != 0) {
            listener.onSettingsAck();
            return;
        }
        Http2Settings settings = new Http2Settings();
        for (int p = index, end = index + length; p < end; p += SETTING_ENTRY_BYTES) {
            int id = in.getUnsignedShort(p);
            long value = in.getUnsignedInt(p + 2);
            Http2Error error = Http2Settings.violation(id, value);
            if (error != null) {
                // §6.5.2: each bad value names its own code (FLOW_CONTROL_ERROR or PROTOCOL_ERROR).
                throw connectionError(error, "SETTINGS parameter 0x" + Integer.toHexString(id) + " has value "
                        + value + ", outside its range (RFC 9113 §6.5.2)");
            }
            settings.put(id, value); // unknown ids are ignored (§6.5.2)
        }
        listener.onSettings(settings);
    }

    private void readWindowUpdate(ByteBuf in, int index, int streamId) throws Http2Exception {
        int increment = in.getInt(index) & STREAM_ID_MASK;
        if (increment == 0) {
            // §6.9: an increment of 0 is a stream error on a stream, a connection error on the connection.
            String message = "WINDOW_UPDATE with an increment of 0 on stream " + streamId + " (RFC 9113 §6.9)";
            throw streamId == 0 ? connectionError(Http2Error.PROTOCOL_ERROR, message)
                    : streamError(streamId, Http2Error.PROTOCOL_ERROR, message);
        }
        listener.onWindowUpdate(streamId, increment);
    }

    private void readPriorityUpdate(ByteBuf in, int index, int length) throws Http2Exception {
        int prioritized = in.getInt(index) & STREAM_ID_MASK;
        if (prioritized == 0) {
            // RFC 9218 §7.1: a Prioritized Stream ID of 0 is a connection PROTOCOL_ERROR.
            throw connectionError(Http2Error.PROTOCOL_ERROR,
                    "PRIORITY_UPDATE for stream 0 (RFC 9218 §7.1)");
        }
        listener.onPriorityUpdate(prioritized, in.slice(index + PRIORITY_UPDATE_MIN_PAYLOAD_BYTES,
                length - PRIORITY_UPDATE_MIN_PAYLOAD_BYTES));
    }
}
