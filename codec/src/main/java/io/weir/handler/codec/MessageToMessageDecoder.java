package io.weir.handler.codec;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.util.ReferenceCountUtil;
import java.util.List;

/**
 * Decodes inbound messages of type {@code I} into zero or more other messages, passed on in its place one
 * {@code channelRead} each; messages of other types pass through.
 *
 * <p><b>Matching</b> is by the class's type argument for {@code I} or the class given to the constructor;
 * {@link #acceptInboundMessage} can refine it. <b>Ownership.</b> The decoder releases the message after
 * {@link #decode} (retain it to pass it on as one of the results). Results already added when {@code decode}
 * throws are still passed on; the exception reaches {@code exceptionCaught} wrapped in a
 * {@link DecoderException} unless it is one.
 *
 * <p>If {@linkplain io.weir.channel.ChannelConfig#isAutoRead() auto-read} is off and a read loop brought this
 * decoder messages but it produced none, it asks for another read so the connection does not stall.
 *
 * <p>Called on the channel's event loop. The auto-read bookkeeping is per channel, so a subclass marked
 * {@link ChannelHandler.Sharable @Sharable} shares it too: harmless, since it only triggers extra reads.
 *
 * @param <I> the type of message decoded
 */
public abstract class MessageToMessageDecoder<I> implements ChannelHandler {
    private static final ClassValue<TypeParameterMatcher> MATCHERS =
            TypeParameterMatcher.cache(MessageToMessageDecoder.class, "I");

    private final TypeParameterMatcher matcher;
    private boolean decodeCalled;
    private boolean messageProduced;

    /** Decodes the type argument for {@code I}. */
    protected MessageToMessageDecoder() {
        matcher = MATCHERS.get(getClass());
    }

    /** Decodes instances of {@code inboundMessageType}. */
    protected MessageToMessageDecoder(Class<? extends I> inboundMessageType) {
        matcher = TypeParameterMatcher.of(inboundMessageType);
    }

    MessageToMessageDecoder(TypeParameterMatcher matcher) {
        this.matcher = matcher;
    }

    /** Whether {@code msg} is decoded by this decoder (otherwise it is passed on as is). */
    public boolean acceptInboundMessage(Object msg) throws Exception {
        return matcher.match(msg);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (!acceptInboundMessage(msg)) {
            ctx.fireChannelRead(msg);
            return;
        }
        decodeCalled = true;
        CodecOutputList out = CodecOutputList.newInstance();
        try {
            @SuppressWarnings("unchecked")
            I cast = (I) msg;
            try {
                decode(ctx, cast, out);
            } finally {
                ReferenceCountUtil.release(cast);
            }
        } catch (DecoderException e) {
            throw e;
        } catch (Exception e) {
            throw new DecoderException(e);
        } finally {
            try {
                int n = out.size();
                messageProduced |= n > 0;
                ByteToMessageDecoder.fireChannelRead(ctx, out, n);
            } finally {
                out.recycle();
            }
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        if (decodeCalled && !messageProduced && !ctx.channel().config().isAutoRead()) {
            ctx.read();
        }
        decodeCalled = false;
        messageProduced = false;
        ctx.fireChannelReadComplete();
    }

    /**
     * Adds the decoded form of {@code msg} to {@code out}: any number of messages. Must not release {@code msg}.
     *
     * @throws Exception if {@code msg} cannot be decoded; wrapped in a {@link DecoderException} unless it is one
     */
    protected abstract void decode(ChannelHandlerContext ctx, I msg, List<Object> out) throws Exception;
}
