package io.weir.handler.codec;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.channel.ChannelShutdownEvent;
import java.util.List;

/**
 * A {@link ByteToMessageDecoder} and a {@link MessageToByteEncoder} in one handler: inbound bytes are decoded by
 * {@link #decode} exactly as a {@code ByteToMessageDecoder} would (cumulation, end of input, leftovers handed on
 * at removal), and outbound messages of type {@code I} are encoded by {@link #encode} as a
 * {@code MessageToByteEncoder} would; the ownership rules of both apply.
 *
 * <p>Called on the channel's event loop; keeps per-channel state, so it cannot be
 * {@link ChannelHandler.Sharable @Sharable}.
 *
 * @param <I> the type of outbound message encoded
 */
public abstract class ByteToMessageCodec<I> implements ChannelHandler {
    private static final ClassValue<TypeParameterMatcher> MATCHERS =
            TypeParameterMatcher.cache(ByteToMessageCodec.class, "I");

    private final TypeParameterMatcher outboundMatcher;
    private final Decoder decoder = new Decoder();
    private final MessageToByteEncoder<I> encoder;

    /** Encodes the type argument for {@code I}, into direct buffers. */
    protected ByteToMessageCodec() {
        this(true);
    }

    /** Encodes the type argument for {@code I}, into direct buffers if {@code preferDirect}. */
    protected ByteToMessageCodec(boolean preferDirect) {
        this(null, preferDirect);
    }

    /** Encodes instances of {@code outboundMessageType}, into direct buffers. */
    protected ByteToMessageCodec(Class<? extends I> outboundMessageType) {
        this(outboundMessageType, true);
    }

    /** Encodes instances of {@code outboundMessageType}, into direct buffers if {@code preferDirect}. */
    protected ByteToMessageCodec(Class<? extends I> outboundMessageType, boolean preferDirect) {
        if (getClass().isAnnotationPresent(ChannelHandler.Sharable.class)) {
            throw new IllegalStateException(getClass().getName()
                    + " keeps per-channel state and must not be annotated @Sharable");
        }
        outboundMatcher = outboundMessageType == null ? MATCHERS.get(getClass())
                : TypeParameterMatcher.of(outboundMessageType);
        encoder = new Encoder(preferDirect);
    }

    /** Whether outbound {@code msg} is encoded (otherwise it is passed on as is). */
    public boolean acceptOutboundMessage(Object msg) throws Exception {
        return outboundMatcher.match(msg);
    }

    /** See {@link ByteToMessageDecoder#setSingleDecode}. */
    public void setSingleDecode(boolean singleDecode) {
        decoder.setSingleDecode(singleDecode);
    }

    /** See {@link ByteToMessageDecoder#isSingleDecode}. */
    public boolean isSingleDecode() {
        return decoder.isSingleDecode();
    }

    /** See {@link ByteToMessageDecoder#setCumulator}. */
    public void setCumulator(ByteToMessageDecoder.Cumulator cumulator) {
        decoder.setCumulator(cumulator);
    }

    /** See {@link ByteToMessageDecoder#setDiscardAfterReads}. */
    public void setDiscardAfterReads(int discardAfterReads) {
        decoder.setDiscardAfterReads(discardAfterReads);
    }

    /** The bytes accumulated and not yet decoded; see {@link ByteToMessageDecoder#internalBuffer()}. */
    protected ByteBuf internalBuffer() {
        return decoder.internalBuffer();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        decoder.channelRead(ctx, msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        decoder.channelReadComplete(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        decoder.channelInactive(ctx);
    }

    @Override
    public void channelShutdown(ChannelHandlerContext ctx, ChannelShutdownEvent event) throws Exception {
        decoder.channelShutdown(ctx, event);
    }

    /** Hands the bytes not yet decoded on to the next handler, as {@link ByteToMessageDecoder} does. */
    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        decoder.handlerRemoved(ctx);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        encoder.write(ctx, msg, promise);
    }

    /** Encodes {@code msg} into {@code out}, as {@link MessageToByteEncoder#encode} does. */
    protected abstract void encode(ChannelHandlerContext ctx, I msg, ByteBuf out) throws Exception;

    /** Decodes from {@code in}, as {@link ByteToMessageDecoder#decode} does. */
    protected abstract void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception;

    /** Decodes at the end of input, as {@link ByteToMessageDecoder#decodeLast} does (by default, once more). */
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        if (in.isReadable()) {
            decode(ctx, in, out);
        }
    }

    private final class Decoder extends ByteToMessageDecoder {
        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
            ByteToMessageCodec.this.decode(ctx, in, out);
        }

        @Override
        protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
            ByteToMessageCodec.this.decodeLast(ctx, in, out);
        }
    }

    private final class Encoder extends MessageToByteEncoder<I> {
        Encoder(boolean preferDirect) {
            // I resolves to its bound here; acceptOutboundMessage below applies the codec's real type.
            super(preferDirect);
        }

        @Override
        public boolean acceptOutboundMessage(Object msg) throws Exception {
            return ByteToMessageCodec.this.acceptOutboundMessage(msg);
        }

        @Override
        protected void encode(ChannelHandlerContext ctx, I msg, ByteBuf out) throws Exception {
            ByteToMessageCodec.this.encode(ctx, msg, out);
        }
    }
}
