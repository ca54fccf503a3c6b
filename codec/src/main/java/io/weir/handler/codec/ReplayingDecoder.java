package io.weir.handler.codec;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandlerContext;
import java.util.List;

/**
 * A {@link ByteToMessageDecoder} whose {@link #decode(ChannelHandlerContext, ReplayingDecoderBuffer, List)}
 * reads as if every byte it needs had already arrived. When a read needs more than was received, the call is
 * abandoned, the reader index goes back to the last checkpoint, and the call is made again when more bytes
 * arrive: no length checks in the decoder.
 *
 * <pre>{@code
 * final class IntPairDecoder extends ReplayingDecoder<Void> {
 *     @Override
 *     protected void decode(ChannelHandlerContext ctx, ReplayingDecoderBuffer in, List<Object> out) {
 *         out.add(new long[] {in.readInt(), in.readInt()});
 *     }
 * }
 * }</pre>
 *
 * <h2>Checkpoints and state</h2>
 * Each call starts with a checkpoint at the current reader index. A decoder that reads a long message in parts
 * can call {@link #checkpoint(Object)} after each part: a replay then restarts from there, in the recorded
 * state, instead of re-reading the whole message. Everything the decoder did since the last checkpoint is
 * redone on replay, so a message must be added to {@code out} only after its last read, or be followed by a
 * checkpoint. The state type {@code S} is typically an enum ({@link Void} when unused).
 *
 * <h2>Contract</h2>
 * A call that returns normally must have read input or changed the state, or a {@link DecoderException} is
 * raised (it would otherwise be called forever). The signal a replay uses is an {@link Error}: code in
 * {@code decode} must not catch {@code Throwable} or {@code Error}. When the input ends inside a message, the
 * partial message is dropped with the accumulated bytes. Costs over a plain {@code ByteToMessageDecoder}: a
 * message that arrives in many pieces is decoded from its checkpoint once per piece.
 *
 * @param <S> the state type
 */
public abstract class ReplayingDecoder<S> extends ByteToMessageDecoder {
    private final ReplayingDecoderBuffer replayable = new ReplayingDecoderBuffer();
    private S state;
    private int checkpoint;
    /** Whether the last decode attempt ran out of bytes. */
    private boolean replayed;
    /** Whether the attempt in progress is the one at the end of input. */
    private boolean lastCall;

    /** A decoder with a {@code null} initial state. */
    protected ReplayingDecoder() {
        this(null);
    }

    /** A decoder starting in {@code initialState}. */
    protected ReplayingDecoder(S initialState) {
        state = initialState;
    }

    /** Sets the checkpoint to the current reader index: a replay restarts from here. */
    protected void checkpoint() {
        checkpoint = internalBuffer().readerIndex();
    }

    /** Sets the checkpoint to the current reader index and the state to {@code state}. */
    protected void checkpoint(S state) {
        checkpoint();
        this.state = state;
    }

    /** The current state. */
    protected S state() {
        return state;
    }

    /** Sets the state without moving the checkpoint; returns the previous one. */
    protected S state(S newState) {
        S old = state;
        state = newState;
        return old;
    }

    /**
     * Decodes from {@code in}, reading as if all needed bytes were there (see the class documentation).
     *
     * @throws Exception on malformed input; wrapped in a {@link DecoderException} unless it is one
     */
    protected abstract void decode(ChannelHandlerContext ctx, ReplayingDecoderBuffer in, List<Object> out)
            throws Exception;

    /**
     * Called once when the input ends. The default decodes once more if bytes remain. A read past the end of
     * what was received still replays, which here means the partial message is dropped.
     */
    protected void decodeLast(ChannelHandlerContext ctx, ReplayingDecoderBuffer in, List<Object> out)
            throws Exception {
        if (in.isReadable()) {
            decode(ctx, in, out);
        }
    }

    /**
     * One replaying attempt on {@code in}: calls {@link #decode(ChannelHandlerContext, ReplayingDecoderBuffer,
     * List)} (or {@link #decodeLast(ChannelHandlerContext, ReplayingDecoderBuffer, List)} at the end of input)
     * and rewinds to the checkpoint if it ran out of bytes.
     */
    @Override
    protected final void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        replayable.setCumulation(in);
        checkpoint = in.readerIndex();
        replayed = false;
        try {
            if (lastCall) {
                decodeLast(ctx, replayable, out);
            } else {
                decode(ctx, replayable, out);
            }
        } catch (ReplaySignal signal) {
            replayed = true;
            in.readerIndex(checkpoint);
        }
    }

    /** At the end of input, one last attempt through the reentry protection, calling the replaying decodeLast. */
    @Override
    protected final void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        lastCall = true;
        try {
            decodeRemovalReentryProtection(ctx, in, out);
        } finally {
            lastCall = false;
        }
    }

    @Override
    void callDecode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        CodecOutputList list = (CodecOutputList) out;
        while (in.isReadable()) {
            int outSize = list.size();
            if (outSize > 0) {
                fireChannelRead(ctx, list, outSize);
                list.clear();
                if (isDone(ctx, in)) {
                    break;
                }
            }
            S oldState = state;
            int oldReaderIndex = in.readerIndex();
            decodeRemovalReentryProtection(ctx, in, list);
            if (isDone(ctx, in) || replayed) {
                // Done: the rest was handed on or released. Replayed: nothing more until bytes arrive.
                break;
            }
            if (oldReaderIndex == in.readerIndex() && oldState == state) {
                throw new DecoderException(getClass().getName() + ".decode() returned without reading input or "
                        + "changing its state" + (list.isEmpty() ? "" : " but produced a message"));
            }
            if (!list.isEmpty() && isSingleDecode()) {
                break;
            }
        }
    }
}
