package io.weir.handler.codec;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import java.util.List;

/**
 * A decoder and an encoder in one handler: inbound messages of type {@code INBOUND_IN} are decoded as by a
 * {@link MessageToMessageDecoder}, outbound messages of type {@code OUTBOUND_IN} encoded as by a
 * {@link MessageToMessageEncoder}, with the same ownership rules; everything else passes through.
 *
 * <pre>{@code
 * final class NumberCodec extends MessageToMessageCodec<String, Integer> {
 *     protected void decode(ChannelHandlerContext ctx, String msg, List<Object> out) {
 *         out.add(Integer.valueOf(msg));
 *     }
 *     protected void encode(ChannelHandlerContext ctx, Integer msg, List<Object> out) {
 *         out.add(msg.toString());
 *     }
 * }
 * }</pre>
 *
 * @param <INBOUND_IN> the type of inbound message decoded
 * @param <OUTBOUND_IN> the type of outbound message encoded
 */
public abstract class MessageToMessageCodec<INBOUND_IN, OUTBOUND_IN> implements ChannelHandler {
    private static final ClassValue<TypeParameterMatcher> INBOUND_MATCHERS =
            TypeParameterMatcher.cache(MessageToMessageCodec.class, "INBOUND_IN");
    private static final ClassValue<TypeParameterMatcher> OUTBOUND_MATCHERS =
            TypeParameterMatcher.cache(MessageToMessageCodec.class, "OUTBOUND_IN");

    private final MessageToMessageDecoder<Object> decoder;
    private final MessageToMessageEncoder<Object> encoder;
    private final TypeParameterMatcher inboundMatcher;
    private final TypeParameterMatcher outboundMatcher;

    /** Decodes and encodes the class's type arguments. */
    protected MessageToMessageCodec() {
        this((TypeParameterMatcher) null, (TypeParameterMatcher) null);
    }

    /** Decodes instances of {@code inboundMessageType} and encodes instances of {@code outboundMessageType}. */
    protected MessageToMessageCodec(Class<? extends INBOUND_IN> inboundMessageType,
                                    Class<? extends OUTBOUND_IN> outboundMessageType) {
        this(TypeParameterMatcher.of(inboundMessageType), TypeParameterMatcher.of(outboundMessageType));
    }

    /** Null matchers: resolve the class's type arguments. */
    private MessageToMessageCodec(TypeParameterMatcher inbound, TypeParameterMatcher outbound) {
        TypeParameterMatcher in = inbound != null ? inbound : INBOUND_MATCHERS.get(getClass());
        TypeParameterMatcher outMatcher = outbound != null ? outbound : OUTBOUND_MATCHERS.get(getClass());
        decoder = new MessageToMessageDecoder<>(in) {
            @Override
            public boolean acceptInboundMessage(Object msg) throws Exception {
                return MessageToMessageCodec.this.acceptInboundMessage(msg);
            }

            @Override
            @SuppressWarnings("unchecked")
            protected void decode(ChannelHandlerContext ctx, Object msg, List<Object> out) throws Exception {
                MessageToMessageCodec.this.decode(ctx, (INBOUND_IN) msg, out);
            }
        };
        encoder = new MessageToMessageEncoder<>(outMatcher) {
            @Override
            public boolean acceptOutboundMessage(Object msg) throws Exception {
                return MessageToMessageCodec.this.acceptOutboundMessage(msg);
            }

            @Override
            @SuppressWarnings("unchecked")
            protected void encode(ChannelHandlerContext ctx, Object msg, List<Object> out) throws Exception {
                MessageToMessageCodec.this.encode(ctx, (OUTBOUND_IN) msg, out);
            }
        };
        inboundMatcher = in;
        outboundMatcher = outMatcher;
    }

    /** Whether inbound {@code msg} is decoded (otherwise it is passed on as is). */
    public boolean acceptInboundMessage(Object msg) throws Exception {
        return inboundMatcher.match(msg);
    }

    /** Whether outbound {@code msg} is encoded (otherwise it is passed on as is). */
    public boolean acceptOutboundMessage(Object msg) throws Exception {
        return outboundMatcher.match(msg);
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
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        encoder.write(ctx, msg, promise);
    }

    /** Decodes {@code msg} as {@link MessageToMessageDecoder#decode} does. */
    protected abstract void decode(ChannelHandlerContext ctx, INBOUND_IN msg, List<Object> out) throws Exception;

    /** Encodes {@code msg} as {@link MessageToMessageEncoder#encode} does. */
    protected abstract void encode(ChannelHandlerContext ctx, OUTBOUND_IN msg, List<Object> out) throws Exception;
}
