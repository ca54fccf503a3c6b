package io.weir.handler.codec;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.concurrent.PromiseCombiner;
import java.util.List;

/**
 * Encodes outbound messages of type {@code I} into one or more other messages, which are written on in its
 * place; messages of other types pass through. With several results, the write's promise completes when all of
 * them are written (failing with the first failure).
 *
 * <p><b>Matching</b> works as in {@link MessageToByteEncoder}. <b>Ownership.</b> The encoder releases the
 * message after {@link #encode} (retain it to pass it on as one of the results); results belong to the
 * pipeline once {@code encode} returned, and are released if the encoder fails. An {@code encode} that
 * produces nothing is a bug and raises an {@link EncoderException}, which, like any exception {@code encode}
 * throws (wrapped unless it is an {@code EncoderException}), fails the write's promise.
 *
 * <p>Called on the channel's event loop.
 *
 * @param <I> the type of message encoded
 */
public abstract class MessageToMessageEncoder<I> implements ChannelHandler {
    private static final ClassValue<TypeParameterMatcher> MATCHERS =
            TypeParameterMatcher.cache(MessageToMessageEncoder.class, "I");

    private final TypeParameterMatcher matcher;

    /** Encodes the type argument for {@code I}. */
    protected MessageToMessageEncoder() {
        matcher = MATCHERS.get(getClass());
    }

    /** Encodes instances of {@code outboundMessageType}. */
    protected MessageToMessageEncoder(Class<? extends I> outboundMessageType) {
        matcher = TypeParameterMatcher.of(outboundMessageType);
    }

    MessageToMessageEncoder(TypeParameterMatcher matcher) {
        this.matcher = matcher;
    }

    /** Whether {@code msg} is encoded by this encoder (otherwise it is passed on as is). */
    public boolean acceptOutboundMessage(Object msg) throws Exception {
        return matcher.match(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (!acceptOutboundMessage(msg)) {
            ctx.write(msg, promise);
            return;
        }
        CodecOutputList out = CodecOutputList.newInstance();
        try {
            @SuppressWarnings("unchecked")
            I cast = (I) msg;
            try {
                encode(ctx, cast, out);
            } finally {
                ReferenceCountUtil.release(cast);
            }
            if (out.isEmpty()) {
                throw new EncoderException(getClass().getName() + ".encode() must produce at least one message");
            }
        } catch (Throwable t) {
            for (int i = 0, n = out.size(); i < n; i++) {
                ReferenceCountUtil.release(out.getUnsafe(i));
            }
            out.recycle();
            if (t instanceof EncoderException e) {
                throw e;
            }
            throw new EncoderException(t);
        }
        try {
            writeAll(ctx, out, promise);
        } finally {
            out.recycle();
        }
    }

    private static void writeAll(ChannelHandlerContext ctx, CodecOutputList out, ChannelPromise promise) {
        int n = out.size();
        if (n == 1) {
            ctx.write(out.getUnsafe(0), promise);
        } else if (promise.isVoid()) {
            for (int i = 0; i < n; i++) {
                ctx.write(out.getUnsafe(i), promise);
            }
        } else {
            PromiseCombiner combiner = new PromiseCombiner(ctx.executor());
            for (int i = 0; i < n; i++) {
                combiner.add(ctx.write(out.getUnsafe(i)));
            }
            combiner.finish(promise);
        }
    }

    /**
     * Adds the encoded form of {@code msg} to {@code out}, one message or more. Must not release {@code msg}.
     *
     * @throws Exception if {@code msg} cannot be encoded; wrapped in an {@link EncoderException} unless it is one
     */
    protected abstract void encode(ChannelHandlerContext ctx, I msg, List<Object> out) throws Exception;
}
