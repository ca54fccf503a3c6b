package io.weir.handler.codec;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.CompositeByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInputShutdownEvent;
import io.weir.channel.ChannelShutdownEvent;
import java.util.List;
import java.util.Objects;

/**
 * Turns a stream of bytes into messages: the buffers read from the channel are accumulated into one
 * <em>cumulation</em>, and {@link #decode} is called on it as long as it makes progress, each call reading what
 * it can and adding the messages it found to a list that is then passed on, one {@code channelRead} per message.
 *
 * <pre>{@code
 * final class IntDecoder extends ByteToMessageDecoder {
 *     @Override
 *     protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
 *         if (in.readableBytes() >= 4) {
 *             out.add(in.readInt());
 *         }
 *     }
 * }
 * }</pre>
 *
 * <h2>The decode loop</h2>
 * After each read, {@code decode} is called again and again while the cumulation has readable bytes. The loop
 * stops when a call neither read a byte nor produced a message (it needs more input), when
 * {@linkplain #setSingleDecode single-decode mode} is on and a message was produced, or when the handler was
 * removed from the pipeline. A call that produced messages without reading anything is a bug that would loop
 * forever: it raises a {@link DecoderException}. Every exception {@code decode} throws reaches
 * {@code exceptionCaught} wrapped in a {@link DecoderException} (a {@code DecoderException} is passed as is);
 * messages produced before the exception are still passed on.
 *
 * <h2>Cumulation</h2>
 * The {@link Cumulator} decides how new bytes join what is left: {@link #MERGE_CUMULATOR} (the default) copies
 * them into one contiguous buffer, growing it through the channel's allocator, and takes an arriving buffer as
 * is when nothing is left over; {@link #COMPOSITE_CUMULATOR} adds buffers as components without copying, which
 * suits decoders that slice large frames out but makes every access a little slower. Bytes already read are
 * discarded from the cumulation after {@linkplain #setDiscardAfterReads a number of reads} and at the end of each
 * read loop, so a long-lived connection does not grow its cumulation with dead bytes. A decoder that keeps a
 * slice of the cumulation (by {@code readRetainedSlice}) shares it; the cumulation is then copied on growth
 * rather than modified under the slice.
 *
 * <h2>End of input</h2>
 * When the channel becomes inactive, or its input is shut down ({@link ChannelInputShutdownEvent}), the loop runs
 * a last time and then {@link #decodeLast} is called once, so a decoder can emit a final message that only the
 * end of the stream completes; the cumulation is then released. When the handler is removed, the bytes it has
 * not decoded are passed on to the next handler as one buffer (followed by {@code channelReadComplete}), so a
 * protocol switch loses nothing.
 *
 * <h2>Ownership and threads</h2>
 * The decoder owns the cumulation and releases it exactly once: on the end of input, on removal (handing on
 * the rest), or when the channel closes. {@code decode} must not release {@code in}; messages it adds to
 * {@code out} belong to the pipeline from then on. Called only on the channel's event loop; a decoder keeps
 * per-channel state, so it cannot be {@link ChannelHandler.Sharable @Sharable}. If
 * {@linkplain io.weir.channel.ChannelConfig#isAutoRead() auto-read} is off and a read loop delivered bytes but
 * no message, the decoder asks for another read itself so the connection does not stall.
 */
public abstract class ByteToMessageDecoder implements ChannelHandler {

    /**
     * Joins newly read bytes to what a decoder has left over.
     *
     * <p>{@link #cumulate} takes ownership of both buffers and returns the buffer that now holds the readable
     * bytes of {@code cumulation} followed by those of {@code in}, owned by the caller. On failure it releases
     * both before throwing, so the caller never holds a released buffer. Implementations are stateless and
     * shared.
     */
    @FunctionalInterface
    public interface Cumulator {
        /**
         * Appends the readable bytes of {@code in} to {@code cumulation}.
         *
         * @param alloc the channel's allocator, for any buffer the cumulator needs
         * @param cumulation what is left over; may be empty (never {@code null})
         * @param in the buffer just read
         * @return the new cumulation
         */
        ByteBuf cumulate(ByteBufAllocator alloc, ByteBuf cumulation, ByteBuf in);
    }

    /**
     * Copies new bytes into one contiguous buffer. When nothing is left over and the new buffer is contiguous,
     * the new buffer itself becomes the cumulation (no copy). The cumulation grows in place when it can; it is
     * replaced by a larger buffer from the allocator when it is too small for in-place growth to be safe (shared
     * with a retained slice, read-only, or at its maximum capacity).
     */
    public static final Cumulator MERGE_CUMULATOR = ByteToMessageDecoder::mergeCumulate;

    /**
     * Adds new buffers as components of a {@link CompositeByteBuf}, never copying bytes on arrival. When nothing
     * is left over, the new buffer itself becomes the cumulation.
     */
    public static final Cumulator COMPOSITE_CUMULATOR = ByteToMessageDecoder::compositeCumulate;

    /** The default of {@link #setDiscardAfterReads(int)}: after this many reads, read bytes are discarded. */
    public static final int DEFAULT_DISCARD_AFTER_READS = 16;

    private static final byte STATE_INIT = 0;
    private static final byte STATE_CALLING_CHILD_DECODE = 1;
    private static final byte STATE_HANDLER_REMOVED_PENDING = 2;

    private ByteBuf cumulation;
    private Cumulator cumulator = MERGE_CUMULATOR;
    private boolean singleDecode;
    /** The cumulation is the first buffer read as is: someone else may still use its read part. */
    private boolean first;
    /** Whether this read loop produced a message; for the auto-read-off case in channelReadComplete. */
    private boolean firedChannelRead;
    /** Whether this read loop brought bytes to this decoder. */
    private boolean receivedBytes;
    /** The input was shut down and decodeLast ran; channelInactive need not run it again. */
    private boolean inputClosed;
    /** Guards against handlerRemoved running while decode is on the stack (the decoder removed itself). */
    private byte decodeState = STATE_INIT;
    private int discardAfterReads = DEFAULT_DISCARD_AFTER_READS;
    private int numReads;

    /**
     * @throws IllegalStateException if the subclass is marked {@link ChannelHandler.Sharable}: a decoder keeps
     *         per-channel state
     */
    protected ByteToMessageDecoder() {
        if (getClass().isAnnotationPresent(ChannelHandler.Sharable.class)) {
            throw new IllegalStateException(getClass().getName()
                    + " keeps per-channel state and must not be annotated @Sharable");
        }
    }

    // ---------------------------------------------------------------- settings

    /**
     * Turns single-decode mode on or off: when on, at most one message is decoded per read, and the rest waits
     * for the next read. Useful when the next handler replaces this decoder after the first message (a protocol
     * upgrade). Off by default.
     */
    public void setSingleDecode(boolean singleDecode) {
        this.singleDecode = singleDecode;
    }

    /** Whether {@linkplain #setSingleDecode single-decode mode} is on. */
    public boolean isSingleDecode() {
        return singleDecode;
    }

    /**
     * Sets how new bytes join the cumulation; takes effect with the next read.
     *
     * @throws NullPointerException if {@code cumulator} is null
     */
    public void setCumulator(Cumulator cumulator) {
        this.cumulator = Objects.requireNonNull(cumulator, "cumulator");
    }

    /**
     * Sets after how many reads the bytes already decoded are discarded from the cumulation (they are also
     * discarded at the end of each read loop). Lower values keep the cumulation smaller at the cost of more
     * copying. The default is {@value #DEFAULT_DISCARD_AFTER_READS}.
     *
     * @throws IllegalArgumentException if {@code discardAfterReads} is not positive
     */
    public void setDiscardAfterReads(int discardAfterReads) {
        if (discardAfterReads <= 0) {
            throw new IllegalArgumentException("discardAfterReads: " + discardAfterReads + " (expected: > 0)");
        }
        this.discardAfterReads = discardAfterReads;
    }

    /** The bytes accumulated and not yet decoded (an empty buffer if none); a view to read, never to release. */
    protected ByteBuf internalBuffer() {
        ByteBuf c = cumulation;
        return c != null ? c : Unpooled.EMPTY_BUFFER;
    }

    /** The number of bytes accumulated and not yet decoded. */
    protected int actualReadableBytes() {
        return internalBuffer().readableBytes();
    }

    // ---------------------------------------------------------------- to implement

    /**
     * Decodes what it can from {@code in}, adding each message to {@code out}. Called repeatedly while it makes
     * progress (see the class documentation). Must not release {@code in}.
     *
     * @param ctx this handler's context
     * @param in the cumulation: read from it what was decoded, leave the rest
     * @param out where decoded messages go; they are passed on after the call
     * @throws Exception on malformed input; wrapped in a {@link DecoderException} unless it is one
     */
    protected abstract void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception;

    /**
     * Called once when the input ends (channel inactive or input shut down), after the decode loop ran on what
     * was left. The default calls {@link #decode} once if bytes remain; override to produce a message the end of
     * the stream completes, or to report a truncated one. {@code in} may be empty.
     */
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        if (in.isReadable()) {
            decodeRemovalReentryProtection(ctx, in, out);
        }
    }

    /** Called by {@link #handlerRemoved} after the leftover bytes were passed on; override to clean up. */
    protected void handlerRemoved0(ChannelHandlerContext ctx) throws Exception {
    }

    // ---------------------------------------------------------------- events

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (!(msg instanceof ByteBuf data)) {
            ctx.fireChannelRead(msg);
            return;
        }
        receivedBytes = true;
        inputClosed = false;
        CodecOutputList out = CodecOutputList.newInstance();
        try {
            ByteBuf c = cumulation;
            first = c == null;
            // The cumulator owns both buffers from here on, and releases both if it fails.
            cumulation = null;
            cumulation = cumulator.cumulate(ctx.alloc(), first ? Unpooled.EMPTY_BUFFER : c, data);
            callDecode(ctx, cumulation, out);
        } catch (DecoderException e) {
            throw e;
        } catch (Exception e) {
            throw new DecoderException(e);
        } finally {
            try {
                ByteBuf c = cumulation;
                if (c != null && !c.isReadable()) {
                    numReads = 0;
                    cumulation = null;
                    c.release();
                } else if (++numReads >= discardAfterReads) {
                    // Counted even without a cumulation, harmlessly: the count only paces the discards.
                    numReads = 0;
                    discardSomeReadBytes();
                }
                int size = out.size();
                firedChannelRead |= out.insertSinceRecycled();
                fireChannelRead(ctx, out, size);
            } finally {
                out.recycle();
            }
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        numReads = 0;
        discardSomeReadBytes();
        if (receivedBytes && !firedChannelRead && !ctx.channel().config().isAutoRead()) {
            // Nothing reached the next handlers, so none of them will ask for more: without this read the
            // connection would stall with a partial message in the cumulation.
            ctx.read();
        }
        receivedBytes = false;
        firedChannelRead = false;
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (inputClosed) {
            // decodeLast ran when the input was shut down and no byte came since.
            ctx.fireChannelInactive();
            return;
        }
        channelInputClosed(ctx, true);
    }

    @Override
    public void channelShutdown(ChannelHandlerContext ctx, ChannelShutdownEvent event) throws Exception {
        if (event instanceof ChannelInputShutdownEvent) {
            // The input is over while the channel stays open (half-closure): flush what the stream completes.
            try {
                channelInputClosed(ctx, false);
            } finally {
                inputClosed = true;
                ctx.fireChannelShutdown(event);
            }
        } else {
            ctx.fireChannelShutdown(event);
        }
    }

    /**
     * Passes the bytes not yet decoded on to the next handler as one buffer (then {@code channelReadComplete}),
     * then calls {@link #handlerRemoved0}. If the decoder is removed from inside its own {@code decode}, this
     * happens as soon as that call returns, after the messages it produced were passed on.
     */
    @Override
    public final void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        if (decodeState == STATE_CALLING_CHILD_DECODE) {
            decodeState = STATE_HANDLER_REMOVED_PENDING;
            return;
        }
        ByteBuf buf = cumulation;
        if (buf != null) {
            cumulation = null;
            numReads = 0;
            if (buf.isReadable()) {
                // Ownership of the leftovers moves to the next handler.
                ctx.fireChannelRead(buf);
                ctx.fireChannelReadComplete();
            } else {
                buf.release();
            }
        }
        handlerRemoved0(ctx);
    }

    // ---------------------------------------------------------------- machinery

    /**
     * Runs the decode loop on {@code in} (see the class documentation), passing on messages as they come.
     * Subclasses with a different idea of progress ({@link ReplayingDecoder}) replace it.
     */
    void callDecode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        CodecOutputList list = (CodecOutputList) out;
        while (in.isReadable()) {
            int outSize = list.size();
            if (outSize > 0) {
                fireChannelRead(ctx, list, outSize);
                list.clear();
                // A handler further on may have removed this decoder while handling those messages (what is
                // left was then handed on), or closed a channel that delivers channelInactive at once (the end of
                // input then consumed and released the cumulation): either way 'in' must not be touched again.
                if (isDone(ctx, in)) {
                    break;
                }
            }
            int oldInputLength = in.readableBytes();
            decodeRemovalReentryProtection(ctx, in, list);
            if (isDone(ctx, in)) {
                break;
            }
            if (list.isEmpty()) {
                if (oldInputLength == in.readableBytes()) {
                    break;
                }
                continue;
            }
            if (oldInputLength == in.readableBytes()) {
                throw new DecoderException(getClass().getName()
                        + ".decode() produced a message without reading any input");
            }
            if (singleDecode) {
                break;
            }
        }
    }

    /** Whether the loop over {@code in} must stop because {@code in} is no longer this decoder's cumulation. */
    final boolean isDone(ChannelHandlerContext ctx, ByteBuf in) {
        return ctx.isRemoved() || in != cumulation;
    }

    /**
     * Calls {@link #decode}, deferring a {@link #handlerRemoved} that the call triggers until it returns, so the
     * leftovers are handed on after the messages the call produced, not before.
     */
    final void decodeRemovalReentryProtection(ChannelHandlerContext ctx, ByteBuf in, List<Object> out)
            throws Exception {
        decodeState = STATE_CALLING_CHILD_DECODE;
        try {
            decode(ctx, in, out);
        } finally {
            boolean removePending = decodeState == STATE_HANDLER_REMOVED_PENDING;
            decodeState = STATE_INIT;
            if (removePending) {
                CodecOutputList list = (CodecOutputList) out;
                fireChannelRead(ctx, list, list.size());
                list.clear();
                handlerRemoved(ctx);
            }
        }
    }

    /** Runs the decode loop on what is left, then {@link #decodeLast}; used at the end of input. */
    void decodeAtEndOfInput(ChannelHandlerContext ctx, List<Object> out) throws Exception {
        ByteBuf c = cumulation;
        if (c != null) {
            callDecode(ctx, c, out);
            if (!ctx.isRemoved()) {
                // The loop may have handed the buffer on (removal) or emptied it; decodeLast sees what is left.
                c = cumulation;
                decodeLast(ctx, c == null ? Unpooled.EMPTY_BUFFER : c, out);
            }
        } else {
            decodeLast(ctx, Unpooled.EMPTY_BUFFER, out);
        }
    }

    private void channelInputClosed(ChannelHandlerContext ctx, boolean callChannelInactive) throws Exception {
        CodecOutputList out = CodecOutputList.newInstance();
        try {
            decodeAtEndOfInput(ctx, out);
        } catch (DecoderException e) {
            throw e;
        } catch (Exception e) {
            throw new DecoderException(e);
        } finally {
            try {
                ByteBuf c = cumulation;
                if (c != null) {
                    cumulation = null;
                    c.release();
                }
                int size = out.size();
                fireChannelRead(ctx, out, size);
                if (size > 0) {
                    ctx.fireChannelReadComplete();
                }
                if (callChannelInactive) {
                    ctx.fireChannelInactive();
                }
            } finally {
                out.recycle();
            }
        }
    }

    /** Discards the read part of the cumulation, unless someone else may still see it. */
    protected final void discardSomeReadBytes() {
        ByteBuf c = cumulation;
        // A first buffer taken as is, or one shared with a retained slice, may still be read by someone else
        // through indexes that discarding would shift.
        if (c != null && !first && c.refCnt() == 1) {
            c.discardSomeReadBytes();
        }
    }

    /** Passes the first {@code count} messages of {@code out} on, in order. */
    static void fireChannelRead(ChannelHandlerContext ctx, CodecOutputList out, int count) {
        for (int i = 0; i < count; i++) {
            ctx.fireChannelRead(out.getUnsafe(i));
        }
    }

    private static ByteBuf mergeCumulate(ByteBufAllocator alloc, ByteBuf cumulation, ByteBuf in) {
        if (!cumulation.isReadable() && in.nioBufferCount() == 1) {
            // Nothing left over and the new buffer is contiguous: take it as the cumulation, no copy.
            cumulation.release();
            return in;
        }
        try {
            int required = in.readableBytes();
            if (required > cumulation.maxWritableBytes()
                    || (required > cumulation.writableBytes() && cumulation.refCnt() > 1)
                    || cumulation.isReadOnly()) {
                // Growing in place is impossible, or would reallocate memory a retained slice still reads.
                return expandCumulation(alloc, cumulation, in);
            }
            cumulation.writeBytes(in, in.readerIndex(), required);
            in.readerIndex(in.writerIndex());
            return cumulation;
        } catch (Throwable t) {
            cumulation.release();
            throw t;
        } finally {
            in.release();
        }
    }

    /** A new buffer holding the readable bytes of both; releases {@code oldCumulation} on success only. */
    private static ByteBuf expandCumulation(ByteBufAllocator alloc, ByteBuf oldCumulation, ByteBuf in) {
        int oldBytes = oldCumulation.readableBytes();
        int newBytes = in.readableBytes();
        int totalBytes = oldBytes + newBytes;
        if (totalBytes < 0) {
            throw new DecoderException("cumulation would exceed " + Integer.MAX_VALUE + " bytes: "
                    + oldBytes + " + " + newBytes);
        }
        ByteBuf newCumulation = alloc.buffer(alloc.calculateNewCapacity(totalBytes, Integer.MAX_VALUE));
        try {
            newCumulation.writeBytes(oldCumulation, oldCumulation.readerIndex(), oldBytes)
                    .writeBytes(in, in.readerIndex(), newBytes);
            in.readerIndex(in.writerIndex());
        } catch (Throwable t) {
            newCumulation.release();
            throw t;
        }
        oldCumulation.release();
        return newCumulation;
    }

    private static ByteBuf compositeCumulate(ByteBufAllocator alloc, ByteBuf cumulation, ByteBuf in) {
        if (!cumulation.isReadable()) {
            cumulation.release();
            return in;
        }
        CompositeByteBuf composite;
        if (cumulation instanceof CompositeByteBuf c && c.refCnt() == 1) {
            composite = c;
        } else {
            // A shared cumulation stays untouched; the new composite holds it as its first component.
            try {
                composite = alloc.compositeBuffer(Integer.MAX_VALUE);
            } catch (Throwable t) {
                cumulation.release();
                in.release();
                throw t;
            }
            try {
                composite.addFlattenedComponents(true, cumulation);
            } catch (Throwable t) {
                // The failed add released cumulation already.
                composite.release();
                in.release();
                throw t;
            }
        }
        try {
            composite.addFlattenedComponents(true, in);
        } catch (Throwable t) {
            // The failed add released 'in' already.
            composite.release();
            throw t;
        }
        return composite;
    }
}
