package io.weir.handler.codec.http2.internal;

import static io.weir.handler.codec.http2.internal.Http2Frames.*;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.channel.AbstractVoidChannelPromise;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.channel.DefaultChannelPromise;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.handler.codec.http2.Http2Settings;
import io.weir.handler.codec.http2.internal.hpack.HpackEncoder;
import io.weir.util.ReferenceCountUtil;
import java.util.ArrayList;

/**
 * Writes HTTP/2 frames (RFC 9113 §4.1, §6) to a channel, in buffers from the channel's allocator
 * ({@link ChannelHandlerContext#alloc()}). Only called from the channel's event loop. The writer holds one piece of
 * state, the peer's SETTINGS_MAX_FRAME_SIZE ({@link #maxFrameSize(int)}), so one instance serves one connection.
 *
 * <p><b>Buffers.</b> Every {@code ByteBuf} argument (DATA payload, header block, debug data, extension payload) is
 * owned by the writer from the call on: it is written or released in every case, including when an argument is
 * refused. Nothing is flushed; the caller flushes.
 *
 * <p><b>Shape on the wire.</b> Control frames, and a header block split into HEADERS (or PUSH_PROMISE) plus
 * CONTINUATION frames at the peer's max frame size, are written as one buffer and one write. A DATA frame whose
 * payload is small or padded is copied behind its header into one buffer; a larger one is written as the 9-octet
 * header followed by the caller's buffer as is, without a copy.
 *
 * <p><b>Coalescing.</b> With {@link #coalesce(boolean)} on (a connection's writer), frames that fit are written one
 * after another into one buffer of {@value #BATCH_CAPACITY_BYTES} octets, which goes down the pipeline as a single
 * message when it is full, before any frame that does not go into it, and on {@link #drain()}, which the owner calls
 * before every flush. A response's HEADERS and small DATA then cost no buffer, no outbound entry and no iovec of
 * their own; DATA payloads up to {@value #COALESCED_DATA_COPY_BYTES} octets are copied into the batch, larger ones
 * end it with their header and follow without a copy. A HEADERS block is encoded straight into the batch
 * ({@link #writeHeaders(ChannelHandlerContext, int, Http2Headers, HpackEncoder, boolean, ChannelPromise)}).
 * The batch is passed on as soon as it holds what the channel still takes below its high-water mark, so the bytes it
 * holds never hide a peer that stopped reading; and it is passed on at most {@value #BATCH_CAPACITY_BYTES} octets
 * large but never much larger than its content ({@link #drain()} shrinks a mostly empty one), so a write-only peer
 * cannot make a few queued octets hold a whole batch each. The promises of the frames in a batch complete when the
 * batch is written, each as its own write would have. HTTP/1.1's {@code HttpServerCodec} batches pipelined
 * responses by the same rules (passed on when full, at the high-water mark, before any other write and at a flush);
 * its batch is its own because it takes only whole responses with a void promise, encoded at lengths not known
 * before, into a buffer that may grow.
 *
 * <p><b>Errors.</b> Out-of-range arguments throw {@link IllegalArgumentException} naming the value; I/O failures
 * complete the promise.
 */
public final class Http2FrameWriter {

    /**
     * DATA payloads up to this many octets are copied behind the frame header (one buffer, one write); larger
     * ones are written as a separate buffer without a copy. In Http2FrameWriterBenchmark (copyThreshold 0 against
     * "always copy") copying and a second write cost the same at 64 and 256 octets, and copying 1 KiB cost about
     * 1.4 times the second write; below the threshold one buffer also saves an outbound entry and an iovec.
     */
    public static final int DEFAULT_DATA_COPY_THRESHOLD_BYTES = 256;

    /** Octets of the buffer frames are coalesced into (see the class comment). */
    public static final int BATCH_CAPACITY_BYTES = 8 * 1024;
    /**
     * While coalescing, DATA payloads up to this many octets are copied into the batch, whatever the copy
     * threshold: a payload passed on by itself ends the batch, whose next frames then start another (a gRPC
     * response of 1 KiB is HEADERS, DATA and trailers).
     */
    public static final int COALESCED_DATA_COPY_BYTES = 2 * 1024;
    /** A batch with less than this in it is copied into a buffer of its size when passed on. */
    private static final int SHRINK_BELOW_BYTES = BATCH_CAPACITY_BYTES / 4;
    private static final ChannelPromise[] NO_PROMISES = new ChannelPromise[0];

    private int maxFrameSize = DEFAULT_MAX_FRAME_SIZE_BYTES;
    private int dataCopyThreshold = DEFAULT_DATA_COPY_THRESHOLD_BYTES;
    private boolean coalesce;
    /** The frames written since the last {@link #drain()}, or null; written through {@link #batchCtx}. */
    private ByteBuf batch;
    private ChannelHandlerContext batchCtx;
    /** The batch is passed on once it holds this many octets: what the channel took below its high-water mark. */
    private int batchLimit;
    /** A frame in the batch was written with the channel's void promise: a failure is reported there too. */
    private boolean batchHasVoid;
    /** The promises of the batch's frames that complete (not void), in order. */
    private final ArrayList<ChannelPromise> batchPromises = new ArrayList<>();
    /**
     * The batch's other void promises (a stream channel's, one per stream), which hear of a failure only; the same
     * one twice in a row is kept once. Not touched when the batch is written: most are out of cache by then.
     */
    private final ArrayList<ChannelPromise> batchVoidPromises = new ArrayList<>();

    /**
     * Coalesces the frames that fit into one buffer per {@link #BATCH_CAPACITY_BYTES} (see the class comment); off
     * by default, so that each frame is one message. The owner must then call {@link #drain()} before each flush and
     * {@link #discard(Throwable)} once the channel is gone. Turning it off passes on the batch.
     */
    public Http2FrameWriter coalesce(boolean on) {
        if (!on) {
            drain();
        }
        coalesce = on;
        return this;
    }

    /**
     * Passes the coalesced frames, if any, down the pipeline as one message (unflushed). Called before every flush,
     * and by the writer itself before a frame that does not go into the batch.
     */
    public void drain() {
        ByteBuf b = batch;
        if (b == null) {
            return;
        }
        ChannelHandlerContext ctx = batchCtx;
        // Made while the batch is still held: if it cannot be made (out of memory), the batch and its frames'
        // promises stay here, for the next drain or the discard of the failing connection.
        ChannelPromise promise = batchPromise(ctx);
        batch = null;
        batchCtx = null;
        int length = b.readableBytes();
        if (length == 0) {
            b.release();
            promise.trySuccess();
            return;
        }
        if (length < SHRINK_BELOW_BYTES) {
            b = shrunk(ctx, b, length);
        }
        ctx.write(b, promise);
    }

    /** {@code b}'s content in a buffer of its size ({@code b} released), or {@code b} if there is no memory for it. */
    private static ByteBuf shrunk(ChannelHandlerContext ctx, ByteBuf b, int length) {
        ByteBuf exact;
        try {
            exact = ctx.alloc().buffer(length);
        } catch (OutOfMemoryError e) {
            return b;
        }
        exact.writeBytes(b, b.readerIndex(), length);
        b.release();
        return exact;
    }

    /** Octets of the frames coalesced and not yet passed on (0 when not coalescing). */
    public int coalescedBytes() {
        ByteBuf b = batch;
        return b == null ? 0 : b.readableBytes();
    }

    /**
     * Releases the coalesced frames without writing them and fails their promises with {@code cause}: the channel
     * closed (or the writer's owner is gone) before they were passed on.
     */
    public void discard(Throwable cause) {
        ByteBuf b = batch;
        if (b == null) {
            return;
        }
        batch = null;
        batchCtx = null;
        batchHasVoid = false;
        b.release();
        ChannelPromise[] promises = batchPromises.toArray(NO_PROMISES);
        ChannelPromise[] voids = batchVoidPromises.toArray(NO_PROMISES);
        batchPromises.clear();
        batchVoidPromises.clear();
        failAll(promises, cause);
        failAll(voids, cause);
    }

    /**
     * The promise of the batch's write: the channel's void promise when that is all the frames had, the frames'
     * one void promise when they all had that one (an HTTP/2 stream channel's, say, when a single stream wrote),
     * a void promise that passes a failure on to the frames' void promises when they had several, else a promise
     * that completes every frame's.
     */
    private ChannelPromise batchPromise(ChannelHandlerContext ctx) {
        // Everything is allocated before the lists are cleared, so a failed allocation leaves them as they were.
        boolean hasVoid = batchHasVoid;
        ChannelPromise promise;
        if (batchPromises.isEmpty()) {
            int voids = batchVoidPromises.size();
            if (voids == 0) {
                promise = ctx.voidPromise();
            } else if (voids == 1 && !hasVoid) {
                // It hears of a failure of the batch as it would through a BatchVoidPromise, without one per write
                // (a gRPC stream's messages each go out in a batch of their own).
                promise = batchVoidPromises.get(0);
            } else {
                promise = new BatchVoidPromise(ctx, batchVoidPromises.toArray(NO_PROMISES), hasVoid);
            }
        } else {
            promise = completingPromise(ctx, batchPromises.toArray(NO_PROMISES),
                    batchVoidPromises.isEmpty() ? null : batchVoidPromises.toArray(NO_PROMISES), hasVoid);
        }
        batchPromises.clear();
        batchVoidPromises.clear();
        batchHasVoid = false;
        return promise;
    }

    /** A promise whose outcome completes {@code promises} and tells {@code voids} (if any) of a failure. */
    private static ChannelPromise completingPromise(ChannelHandlerContext ctx, ChannelPromise[] promises,
            ChannelPromise[] voids, boolean hasVoid) {
        ChannelPromise promise = ctx.newPromise();
        promise.addListener(f -> {
            Throwable cause = f.cause();
            if (cause == null) {
                for (ChannelPromise p : promises) {
                    p.trySuccess();
                }
            } else {
                failAll(promises, cause);
                BatchVoidPromise.failVoids(ctx, voids, hasVoid, cause);
            }
        });
        return promise;
    }

    static void failAll(ChannelPromise[] promises, Throwable cause) {
        if (promises != null) {
            for (ChannelPromise p : promises) {
                p.tryFailure(cause);
            }
        }
    }

    /**
     * The promise of a batch whose frames had only void promises: void too (the outbound buffer does not touch it
     * when the batch is written), it passes a failure on to them.
     */
    private static final class BatchVoidPromise extends AbstractVoidChannelPromise {
        private final ChannelHandlerContext ctx;
        private final ChannelPromise[] voids;
        private final boolean hasChannelVoid;

        BatchVoidPromise(ChannelHandlerContext ctx, ChannelPromise[] voids, boolean hasChannelVoid) {
            super(ctx.channel());
            this.ctx = ctx;
            this.voids = voids;
            this.hasChannelVoid = hasChannelVoid;
        }

        static void failVoids(ChannelHandlerContext ctx, ChannelPromise[] voids, boolean hasChannelVoid,
                Throwable cause) {
            failAll(voids, cause);
            if (hasChannelVoid) {
                ctx.voidPromise().tryFailure(cause);
            }
        }

        @Override
        protected void failed(Throwable cause) {
            failVoids(ctx, voids, hasChannelVoid, cause);
        }

        @Override
        public ChannelPromise unvoid() {
            ChannelPromise promise = new DefaultChannelPromise(channel());
            promise.addListener(f -> {
                if (!f.isSuccess()) {
                    failed(f.cause());
                }
            });
            return promise;
        }
    }

    /**
     * The buffer to write a frame of {@code length} octets into: the batch when coalescing and it fits (a new batch
     * if the current one is full), else a buffer of its own, after the batch was passed on so that frames keep
     * their order.
     */
    private ByteBuf frameBuffer(ChannelHandlerContext ctx, int length) {
        // A loop: a write that fails at once (a closed channel) completes promises inside drain(), and whoever
        // hears of it may write again, into a new batch, before drain() returns.
        for (ByteBuf b; (b = batch) != null; ) {
            if (batchCtx == ctx && b.writableBytes() >= length) {
                return b;
            }
            drain();
        }
        if (!coalesce || length > BATCH_CAPACITY_BYTES || !ctx.channel().isActive()) {
            return ctx.alloc().buffer(length);
        }
        ByteBuf b = ctx.alloc().buffer(BATCH_CAPACITY_BYTES, BATCH_CAPACITY_BYTES);
        batch = b;
        batchCtx = ctx;
        batchLimit = (int) Math.max(FRAME_HEADER_LENGTH_BYTES,
                Math.min(BATCH_CAPACITY_BYTES, ctx.channel().bytesBeforeUnwritable()));
        return b;
    }

    /** Writes {@code out}, a frame's own buffer or the batch the frame went into. */
    private ChannelFuture send(ChannelHandlerContext ctx, ByteBuf out, ChannelPromise promise) {
        if (out != batch) {
            return ctx.write(out, promise);
        }
        if (promise == ctx.voidPromise()) {
            batchHasVoid = true;
        } else if (promise.isVoid()) {
            int n = batchVoidPromises.size();
            if (n == 0 || batchVoidPromises.get(n - 1) != promise) {
                batchVoidPromises.add(promise);
            }
        } else {
            batchPromises.add(promise);
        }
        if (out.readableBytes() >= batchLimit) {
            drain();
        }
        return promise;
    }

    /** Undoes a frame that failed half written: the batch loses what it got of it, a buffer of its own is freed. */
    private void abandon(ByteBuf out, int frameStart) {
        if (out == batch) {
            out.writerIndex(frameStart);
        } else {
            out.release();
        }
    }

    /**
     * DATA payloads up to this many octets are copied behind their frame header; larger ones are written after it
     * without a copy. Default {@link #DEFAULT_DATA_COPY_THRESHOLD_BYTES}; 0 never copies an unpadded payload.
     *
     * @throws IllegalArgumentException when negative
     */
    public Http2FrameWriter dataCopyThresholdBytes(int octets) {
        if (octets < 0) {
            throw new IllegalArgumentException("dataCopyThresholdBytes: " + octets + " (expected >= 0)");
        }
        dataCopyThreshold = octets;
        return this;
    }

    /**
     * The largest frame payload the peer accepts, its SETTINGS_MAX_FRAME_SIZE (§6.5.2). Default 16384.
     *
     * @throws IllegalArgumentException outside 2^14..2^24-1
     */
    public Http2FrameWriter maxFrameSize(int octets) {
        maxFrameSize = checkMaxFrameSize(octets);
        return this;
    }

    /** The largest frame payload the peer accepts, in octets. */
    public int maxFrameSize() {
        return maxFrameSize;
    }

    /**
     * A DATA frame (§6.1) carrying {@code data}'s readable bytes.
     *
     * @param padding octets of padding including the Pad Length octet, 0 (not padded) or 1..256; the frame costs
     *        {@code data.readableBytes() + padding} octets of flow-control window
     * @throws IllegalArgumentException for a stream id below 1, a bad padding, or a frame larger than
     *         {@link #maxFrameSize()} (the caller splits DATA at flow-control time)
     */
    public ChannelFuture writeData(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding,
            boolean endStream, ChannelPromise promise) {
        int dataLength = data.readableBytes();
        try {
            checkStreamId(streamId);
            checkPadding(padding);
            checkFrameLength(dataLength + padding);
        } catch (IllegalArgumentException e) {
            data.release();
            throw e;
        }
        int flags = endStream ? FLAG_END_STREAM : 0;
        if (padding == 0 && dataLength > dataCopyThreshold
                && (!coalesce || dataLength > COALESCED_DATA_COPY_BYTES)) {
            return writeHeaderThenPayload(ctx, dataLength, DATA, flags, streamId, data, promise);
        }
        ByteBuf out;
        try {
            out = frameBuffer(ctx, FRAME_HEADER_LENGTH_BYTES + dataLength + padding);
        } catch (Throwable t) {
            data.release();
            throw t;
        }
        int start = out.writerIndex();
        try {
            if (padding == 0) {
                writeFrameHeader(out, dataLength, DATA, flags, streamId);
            } else {
                writeFrameHeader(out, dataLength + padding, DATA, flags | FLAG_PADDED, streamId);
                out.writeByte(padding - PAD_LENGTH_BYTES);
            }
            out.writeBytes(data, data.readerIndex(), dataLength);
            out.writeZero(padding > 0 ? padding - PAD_LENGTH_BYTES : 0);
        } catch (RuntimeException e) {
            abandon(out, start);
            throw e;
        } finally {
            data.release();
        }
        return send(ctx, out, promise);
    }

    /**
     * A frame header, then {@code payload} (non-empty) as a message of its own, without a copy. The header goes
     * last into the batch, which is then passed on; its promise is not reported: the header can only fail when
     * the payload's write behind it fails.
     */
    private ChannelFuture writeHeaderThenPayload(ChannelHandlerContext ctx, int length, int type, int flags,
            int streamId, ByteBuf payload, ChannelPromise promise) {
        ByteBuf b = batch;
        if (b != null && batchCtx == ctx && b.writableBytes() >= FRAME_HEADER_LENGTH_BYTES) {
            writeFrameHeader(b, length, type, flags, streamId);
            drain();
        } else {
            // No batch to end (or one that cannot take the header): the header is a buffer of its own, as it was
            // before coalescing, rather than a batch made and passed on for 9 octets.
            drain();
            ByteBuf header;
            try {
                header = ctx.alloc().buffer(FRAME_HEADER_LENGTH_BYTES);
            } catch (Throwable t) {
                payload.release();
                throw t;
            }
            writeFrameHeader(header, length, type, flags, streamId);
            ctx.write(header, promise.isVoid() ? promise : ctx.newPromise());
        }
        return ctx.write(payload, promise);
    }

    /**
     * A HEADERS frame without padding or priority whose block {@code encoder} encodes from {@code headers} straight
     * into the frame's buffer (the batch, when coalescing), when the block cannot need a CONTINUATION; otherwise
     * the block is encoded into a buffer of its own and written as {@link #writeHeaders(ChannelHandlerContext, int,
     * ByteBuf, int, boolean, ChannelPromise)} does. The encoder's table changes either way, as the peer's will.
     */
    public ChannelFuture writeHeaders(ChannelHandlerContext ctx, int streamId, Http2Headers headers,
            HpackEncoder encoder, boolean endStream, ChannelPromise promise) {
        checkStreamId(streamId);
        long bound = HpackEncoder.maxEncodedLength(headers);
        if (bound > maxFrameSize) {
            ByteBuf block = ctx.alloc().buffer(128);
            try {
                encoder.encode(headers, block, bound);
            } catch (RuntimeException e) {
                block.release();
                throw e;
            }
            return writeHeaders(ctx, streamId, block, 0, endStream, promise);
        }
        ByteBuf out = frameBuffer(ctx, FRAME_HEADER_LENGTH_BYTES + (int) bound);
        int start = out.writerIndex();
        try {
            out.writerIndex(start + FRAME_HEADER_LENGTH_BYTES);
            encoder.encode(headers, out, bound);
        } catch (RuntimeException e) {
            abandon(out, start);
            throw e;
        }
        int blockLength = out.writerIndex() - start - FRAME_HEADER_LENGTH_BYTES;
        out.setMedium(start, blockLength);
        out.setByte(start + 3, HEADERS);
        out.setByte(start + 4, FLAG_END_HEADERS | (endStream ? FLAG_END_STREAM : 0));
        out.setInt(start + 5, streamId);
        return send(ctx, out, promise);
    }

    /** A HEADERS frame without priority, plus CONTINUATION frames as the block needs (§6.2, §6.10). */
    public ChannelFuture writeHeaders(ChannelHandlerContext ctx, int streamId, ByteBuf headerBlock, int padding,
            boolean endStream, ChannelPromise promise) {
        return writeHeaders(ctx, streamId, headerBlock, padding, endStream, false, 0, DEFAULT_PRIORITY_WEIGHT,
                false, promise);
    }

    /**
     * A HEADERS frame carrying an encoded header block, plus the CONTINUATION frames needed to keep every frame
     * within the peer's max frame size (§6.2, §6.10). Written as one buffer; {@code headerBlock} is released.
     *
     * @param padding octets of padding in the HEADERS frame including the Pad Length octet, 0 or 1..256
     * @param hasPriority whether to send the (RFC 7540) priority fields; the next three arguments are then used
     * @param weight 1..256
     */
    public ChannelFuture writeHeaders(ChannelHandlerContext ctx, int streamId, ByteBuf headerBlock, int padding,
            boolean endStream, boolean hasPriority, int streamDependency, int weight, boolean exclusive,
            ChannelPromise promise) {
        try {
            checkStreamId(streamId);
            checkPadding(padding);
            if (hasPriority) {
                checkPriority(streamId, streamDependency, weight);
            }
        } catch (IllegalArgumentException e) {
            headerBlock.release();
            throw e;
        }
        int flags = (endStream ? FLAG_END_STREAM : 0) | (padding > 0 ? FLAG_PADDED : 0)
                | (hasPriority ? FLAG_PRIORITY : 0);
        int fixed = hasPriority ? PRIORITY_PAYLOAD_BYTES : 0;
        ByteBuf out;
        try {
            out = frameBuffer(ctx, blockFramesLength(headerBlock.readableBytes(), padding + fixed));
        } catch (Throwable t) {
            headerBlock.release();
            throw t;
        }
        int start = out.writerIndex();
        try {
            int fragment = firstFragmentLength(headerBlock, padding + fixed);
            writeFrameHeader(out, padding + fixed + fragment, HEADERS,
                    flags | (fragment == headerBlock.readableBytes() ? FLAG_END_HEADERS : 0), streamId);
            if (padding > 0) {
                out.writeByte(padding - PAD_LENGTH_BYTES);
            }
            if (hasPriority) {
                out.writeInt(exclusive ? streamDependency | 0x8000_0000 : streamDependency);
                out.writeByte(weight - 1);
            }
            writeFragments(out, headerBlock, fragment, padding, streamId);
        } catch (RuntimeException e) {
            abandon(out, start);
            throw e;
        } finally {
            headerBlock.release();
        }
        return send(ctx, out, promise);
    }

    /**
     * A PUSH_PROMISE frame (§6.6) plus the CONTINUATION frames its block needs; {@code headerBlock} is released.
     *
     * @param promisedStreamId the reserved stream: even (server-initiated) and above 0
     */
    public ChannelFuture writePushPromise(ChannelHandlerContext ctx, int streamId, int promisedStreamId,
            ByteBuf headerBlock, int padding, ChannelPromise promise) {
        try {
            checkStreamId(streamId);
            checkPadding(padding);
            if (promisedStreamId <= 0 || (promisedStreamId & 1) != 0) {
                throw new IllegalArgumentException("promisedStreamId: " + promisedStreamId
                        + " (expected an even stream id > 0)");
            }
        } catch (IllegalArgumentException e) {
            headerBlock.release();
            throw e;
        }
        int fixed = padding + PROMISED_STREAM_ID_BYTES;
        ByteBuf out;
        try {
            out = frameBuffer(ctx, blockFramesLength(headerBlock.readableBytes(), fixed));
        } catch (Throwable t) {
            headerBlock.release();
            throw t;
        }
        int start = out.writerIndex();
        try {
            int fragment = firstFragmentLength(headerBlock, fixed);
            writeFrameHeader(out, fixed + fragment, PUSH_PROMISE, (padding > 0 ? FLAG_PADDED : 0)
                    | (fragment == headerBlock.readableBytes() ? FLAG_END_HEADERS : 0), streamId);
            if (padding > 0) {
                out.writeByte(padding - PAD_LENGTH_BYTES);
            }
            out.writeInt(promisedStreamId);
            writeFragments(out, headerBlock, fragment, padding, streamId);
        } catch (RuntimeException e) {
            abandon(out, start);
            throw e;
        } finally {
            headerBlock.release();
        }
        return send(ctx, out, promise);
    }

    /** Octets of a header block framed as a first frame with {@code fixed} extra octets plus CONTINUATIONs. */
    private int blockFramesLength(int blockLength, int fixed) {
        int first = Math.min(blockLength, maxFrameSize - fixed);
        int rest = blockLength - first;
        int continuations = (rest + maxFrameSize - 1) / maxFrameSize;
        return FRAME_HEADER_LENGTH_BYTES * (1 + continuations) + fixed + blockLength;
    }

    private int firstFragmentLength(ByteBuf headerBlock, int fixed) {
        return Math.min(headerBlock.readableBytes(), maxFrameSize - fixed);
    }

    /** The first fragment, the first frame's padding, then CONTINUATION frames of at most maxFrameSize. */
    private void writeFragments(ByteBuf out, ByteBuf headerBlock, int first, int padding, int streamId) {
        int index = headerBlock.readerIndex();
        int remaining = headerBlock.readableBytes() - first;
        out.writeBytes(headerBlock, index, first);
        out.writeZero(padding > 0 ? padding - PAD_LENGTH_BYTES : 0);
        index += first;
        while (remaining > 0) {
            int n = Math.min(remaining, maxFrameSize);
            remaining -= n;
            writeFrameHeader(out, n, CONTINUATION, remaining == 0 ? FLAG_END_HEADERS : 0, streamId);
            out.writeBytes(headerBlock, index, n);
            index += n;
        }
    }

    /** A PRIORITY frame (§6.3). */
    public ChannelFuture writePriority(ChannelHandlerContext ctx, int streamId, int streamDependency, int weight,
            boolean exclusive, ChannelPromise promise) {
        checkStreamId(streamId);
        checkPriority(streamId, streamDependency, weight);
        ByteBuf out = frameBuffer(ctx, FRAME_HEADER_LENGTH_BYTES + PRIORITY_PAYLOAD_BYTES);
        writeFrameHeader(out, PRIORITY_PAYLOAD_BYTES, PRIORITY, 0, streamId);
        out.writeInt(exclusive ? streamDependency | 0x8000_0000 : streamDependency);
        out.writeByte(weight - 1);
        return send(ctx, out, promise);
    }

    /** A RST_STREAM frame (§6.4); {@code errorCode} is an unsigned 32-bit code (usually {@code Http2Error.code()}). */
    public ChannelFuture writeRstStream(ChannelHandlerContext ctx, int streamId, long errorCode,
            ChannelPromise promise) {
        checkStreamId(streamId);
        checkErrorCode(errorCode);
        ByteBuf out = frameBuffer(ctx, FRAME_HEADER_LENGTH_BYTES + RST_STREAM_PAYLOAD_BYTES);
        writeFrameHeader(out, RST_STREAM_PAYLOAD_BYTES, RST_STREAM, 0, streamId);
        out.writeInt((int) errorCode);
        return send(ctx, out, promise);
    }

    /**
     * A SETTINGS frame (§6.5) with every setting {@code settings} has, in identifier order.
     *
     * @throws IllegalArgumentException when the frame would exceed the peer's max frame size (cannot happen with
     *         the settings this class knows)
     */
    public ChannelFuture writeSettings(ChannelHandlerContext ctx, Http2Settings settings, ChannelPromise promise) {
        int length = settings.size() * SETTING_ENTRY_BYTES;
        ByteBuf out = frameBuffer(ctx, FRAME_HEADER_LENGTH_BYTES + length);
        writeFrameHeader(out, length, SETTINGS, 0, 0);
        for (int id = 1; id <= Http2Settings.MAX_KNOWN_ID; id++) {
            if (settings.has(id)) {
                out.writeShort(id);
                out.writeInt((int) settings.get(id, 0));
            }
        }
        return send(ctx, out, promise);
    }

    /** A SETTINGS frame with ACK and no payload (§6.5.3). */
    public ChannelFuture writeSettingsAck(ChannelHandlerContext ctx, ChannelPromise promise) {
        ByteBuf out = frameBuffer(ctx, FRAME_HEADER_LENGTH_BYTES);
        writeFrameHeader(out, 0, SETTINGS, FLAG_ACK, 0);
        return send(ctx, out, promise);
    }

    /** A PING frame (§6.7), or its acknowledgement when {@code ack}; {@code data} is the 8 opaque octets. */
    public ChannelFuture writePing(ChannelHandlerContext ctx, boolean ack, long data, ChannelPromise promise) {
        ByteBuf out = frameBuffer(ctx, FRAME_HEADER_LENGTH_BYTES + PING_PAYLOAD_BYTES);
        writeFrameHeader(out, PING_PAYLOAD_BYTES, PING, ack ? FLAG_ACK : 0, 0);
        out.writeLong(data);
        return send(ctx, out, promise);
    }

    /**
     * A GOAWAY frame (§6.8) with {@code debugData}'s readable bytes as additional debug data (copied into the
     * frame, then released).
     *
     * @param lastStreamId 0..2^31-1
     * @throws IllegalArgumentException for a bad last stream id or error code, or debug data that does not fit
     *         in one frame
     */
    public ChannelFuture writeGoAway(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData,
            ChannelPromise promise) {
        int debugLength = debugData.readableBytes();
        try {
            if (lastStreamId < 0) {
                throw new IllegalArgumentException("lastStreamId: " + lastStreamId + " (expected >= 0)");
            }
            checkErrorCode(errorCode);
            checkFrameLength(GOAWAY_MIN_PAYLOAD_BYTES + debugLength);
        } catch (IllegalArgumentException e) {
            debugData.release();
            throw e;
        }
        ByteBuf out;
        try {
            // Inside the try: a failed allocation (out of memory) still releases the debug data we own.
            out = frameBuffer(ctx, FRAME_HEADER_LENGTH_BYTES + GOAWAY_MIN_PAYLOAD_BYTES + debugLength);
            writeFrameHeader(out, GOAWAY_MIN_PAYLOAD_BYTES + debugLength, GOAWAY, 0, 0);
            out.writeInt(lastStreamId);
            out.writeInt((int) errorCode);
            out.writeBytes(debugData, debugData.readerIndex(), debugLength);
        } finally {
            debugData.release();
        }
        return send(ctx, out, promise);
    }

    /**
     * A WINDOW_UPDATE frame (§6.9).
     *
     * @param streamId 0 for the connection window, else the stream
     * @param windowSizeIncrement 1..2^31-1
     */
    public ChannelFuture writeWindowUpdate(ChannelHandlerContext ctx, int streamId, int windowSizeIncrement,
            ChannelPromise promise) {
        if (streamId < 0) {
            throw new IllegalArgumentException("streamId: " + streamId + " (expected 0..2147483647)");
        }
        if (windowSizeIncrement <= 0) {
            throw new IllegalArgumentException("windowSizeIncrement: " + windowSizeIncrement
                    + " (expected 1..2147483647)");
        }
        ByteBuf out = frameBuffer(ctx, FRAME_HEADER_LENGTH_BYTES + WINDOW_UPDATE_PAYLOAD_BYTES);
        writeFrameHeader(out, WINDOW_UPDATE_PAYLOAD_BYTES, WINDOW_UPDATE, 0, streamId);
        out.writeInt(windowSizeIncrement);
        return send(ctx, out, promise);
    }

    /**
     * A PRIORITY_UPDATE frame (RFC 9218 §7.1) on stream 0.
     *
     * @param priorityFieldValue the Priority Field Value, ASCII (for example {@code "u=3, i"})
     */
    public ChannelFuture writePriorityUpdate(ChannelHandlerContext ctx, int prioritizedStreamId,
            CharSequence priorityFieldValue, ChannelPromise promise) {
        checkStreamId(prioritizedStreamId);
        int valueLength = priorityFieldValue.length();
        checkFrameLength(PRIORITY_UPDATE_MIN_PAYLOAD_BYTES + valueLength);
        ByteBuf out = frameBuffer(ctx, FRAME_HEADER_LENGTH_BYTES + PRIORITY_UPDATE_MIN_PAYLOAD_BYTES + valueLength);
        writeFrameHeader(out, PRIORITY_UPDATE_MIN_PAYLOAD_BYTES + valueLength, PRIORITY_UPDATE, 0, 0);
        out.writeInt(prioritizedStreamId);
        ByteBufUtil.writeAscii(out, priorityFieldValue);
        return send(ctx, out, promise);
    }

    /**
     * A frame of any type with {@code payload} as its payload (extension frames, §5.5); the payload is written
     * after the header without a copy.
     *
     * @throws IllegalArgumentException for a type outside 0..255, flags outside 0..255, a negative stream id or a
     *         payload larger than {@link #maxFrameSize()}
     */
    public ChannelFuture writeFrame(ChannelHandlerContext ctx, int frameType, int flags, int streamId,
            ByteBuf payload, ChannelPromise promise) {
        int length = payload.readableBytes();
        try {
            if ((frameType & ~0xff) != 0) {
                throw new IllegalArgumentException("frameType: " + frameType + " (expected 0..255)");
            }
            if ((flags & ~0xff) != 0) {
                throw new IllegalArgumentException("flags: " + flags + " (expected 0..255)");
            }
            if (streamId < 0) {
                throw new IllegalArgumentException("streamId: " + streamId + " (expected 0..2147483647)");
            }
            checkFrameLength(length);
        } catch (IllegalArgumentException e) {
            payload.release();
            throw e;
        }
        if (length > 0) {
            return writeHeaderThenPayload(ctx, length, frameType, flags, streamId, payload, promise);
        }
        ReferenceCountUtil.release(payload);
        ByteBuf header = frameBuffer(ctx, FRAME_HEADER_LENGTH_BYTES);
        writeFrameHeader(header, 0, frameType, flags, streamId);
        return send(ctx, header, promise);
    }

    /** The 9-octet header of §4.1: Length (24), Type (8), Flags (8), R (1) = 0, Stream Identifier (31). */
    static void writeFrameHeader(ByteBuf out, int length, int type, int flags, int streamId) {
        out.writeMedium(length);
        out.writeByte(type);
        out.writeByte(flags);
        out.writeInt(streamId);
    }

    private static void checkStreamId(int streamId) {
        if (streamId <= 0) {
            throw new IllegalArgumentException("streamId: " + streamId + " (expected 1..2147483647)");
        }
    }

    private static void checkPadding(int padding) {
        if (padding < 0 || padding > MAX_PADDING_BYTES + PAD_LENGTH_BYTES) {
            throw new IllegalArgumentException("padding: " + padding + " (expected 0..256 including the Pad Length"
                    + " octet)");
        }
    }

    private static void checkPriority(int streamId, int streamDependency, int weight) {
        if (streamDependency < 0) {
            throw new IllegalArgumentException("streamDependency: " + streamDependency + " (expected 0..2147483647)");
        }
        if (streamDependency == streamId) {
            throw new IllegalArgumentException("streamDependency: " + streamDependency
                    + " is the stream itself (RFC 9113 §5.3.1)");
        }
        if (weight < 1 || weight > 256) {
            throw new IllegalArgumentException("weight: " + weight + " (expected 1..256)");
        }
    }

    private static void checkErrorCode(long errorCode) {
        if (errorCode < 0 || errorCode > 0xffff_ffffL) {
            throw new IllegalArgumentException("errorCode: " + errorCode + " (expected 0..4294967295)");
        }
    }

    private void checkFrameLength(int length) {
        if (length > maxFrameSize) {
            throw new IllegalArgumentException("frame payload of " + length + " octets exceeds the peer's"
                    + " SETTINGS_MAX_FRAME_SIZE " + maxFrameSize);
        }
    }
}
