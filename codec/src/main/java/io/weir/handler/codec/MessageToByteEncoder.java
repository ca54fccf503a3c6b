package io.weir.handler.codec;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.util.ReferenceCountUtil;

/**
 * Encodes outbound messages of type {@code I} into bytes: for each written message of that type,
 * {@link #encode} fills a new buffer, which is written on in the message's place with the message's promise.
 * Messages of other types pass through untouched.
 *
 * <pre>{@code
 * final class IntEncoder extends MessageToByteEncoder<Integer> {
 *     @Override
 *     protected void encode(ChannelHandlerContext ctx, Integer msg, ByteBuf out) {
 *         out.writeInt(msg);
 *     }
 * }
 * }</pre>
 *
 * <p><b>Matching.</b> The type is the class's type argument for {@code I} (resolved once per class), or the
 * class given to the constructor; {@link #acceptOutboundMessage} can refine it.
 *
 * <p><b>Ownership.</b> The encoder releases the message after {@code encode} (so {@code encode} must not), and
 * owns the output buffer until it is written on; on failure it releases it and the write's promise fails with
 * an {@link EncoderException} (an exception {@code encode} throws is wrapped unless it is one). When
 * {@code encode} writes nothing, the empty buffer is released and an empty buffer is written in its place so
 * the promise completes in order with the writes around it, unless the promise is the void promise, for which
 * there is nothing to complete.
 *
 * <p>Called on the channel's event loop. Sharable only if the subclass keeps no per-channel state and is
 * annotated.
 *
 * @param <I> the type of message encoded
 */
public abstract class MessageToByteEncoder<I> implements ChannelHandler {
    private static final ClassValue<TypeParameterMatcher> MATCHERS =
            TypeParameterMatcher.cache(MessageToByteEncoder.class, "I");

    private final TypeParameterMatcher matcher;
    private final boolean preferDirect;

    /** Encodes the type argument for {@code I}, into direct buffers. */
    protected MessageToByteEncoder() {
        this(true);
    }

    /** Encodes the type argument for {@code I}, into direct buffers if {@code preferDirect}, else heap buffers. */
    protected MessageToByteEncoder(boolean preferDirect) {
        this.matcher = MATCHERS.get(getClass());
        this.preferDirect = preferDirect;
    }

    /** Encodes instances of {@code outboundMessageType}, into direct buffers. */
    protected MessageToByteEncoder(Class<? extends I> outboundMessageType) {
        this(outboundMessageType, true);
    }

    /** Encodes instances of {@code outboundMessageType}, into direct buffers if {@code preferDirect}. */
    protected MessageToByteEncoder(Class<? extends I> outboundMessageType, boolean preferDirect) {
        this.matcher = TypeParameterMatcher.of(outboundMessageType);
        this.preferDirect = preferDirect;
    }

    /** Whether {@code msg} is encoded by this encoder (otherwise it is passed on as is). */
    public boolean acceptOutboundMessage(Object msg) throws Exception {
        return matcher.match(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        ByteBuf buf = null;
        try {
            if (!acceptOutboundMessage(msg)) {
                ctx.write(msg, promise);
                return;
            }
            @SuppressWarnings("unchecked")
            I cast = (I) msg;
            try {
                buf = allocateBuffer(ctx, cast, preferDirect);
                encode(ctx, cast, buf);
            } finally {
                ReferenceCountUtil.release(cast);
            }
            ByteBuf encoded = buf;
            buf = null;
            if (encoded.isReadable()) {
                ctx.write(encoded, promise);
            } else {
                encoded.release();
                if (!promise.isVoid()) {
                    ctx.write(Unpooled.EMPTY_BUFFER, promise);
                }
            }
        } catch (EncoderException e) {
            throw e;
        } catch (Throwable e) {
            throw new EncoderException(e);
        } finally {
            if (buf != null) {
                buf.release();
            }
        }
    }

    /**
     * The buffer {@code msg} is encoded into; by default an I/O buffer ({@code preferDirect}) or a heap buffer
     * from the channel's allocator. Override to size it from the message. The encoder owns the result.
     */
    protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, I msg, boolean preferDirect) throws Exception {
        return preferDirect ? ctx.alloc().ioBuffer() : ctx.alloc().heapBuffer();
    }

    /** Whether buffers are direct by default. */
    protected boolean isPreferDirect() {
        return preferDirect;
    }

    /**
     * Writes the encoded form of {@code msg} to {@code out}. Must not release {@code msg} or {@code out}.
     *
     * @throws Exception if {@code msg} cannot be encoded; wrapped in an {@link EncoderException} unless it is one
     */
    protected abstract void encode(ChannelHandlerContext ctx, I msg, ByteBuf out) throws Exception;
}
