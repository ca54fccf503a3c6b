package io.weir.handler.codec.string;

import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.MessageToMessageEncoder;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.util.List;
import java.util.Objects;

/**
 * Encodes each outbound {@link CharSequence} into a buffer in a charset (unmappable characters become the
 * charset's replacement bytes); an empty sequence becomes an empty buffer. Other messages pass through.
 *
 * <p>Sharable and thread-safe.
 */
@ChannelHandler.Sharable
public final class StringEncoder extends MessageToMessageEncoder<CharSequence> {
    private final Charset charset;

    /** Encodes with the platform's default charset. */
    public StringEncoder() {
        this(Charset.defaultCharset());
    }

    /** Encodes with {@code charset}. */
    public StringEncoder(Charset charset) {
        super(CharSequence.class);
        this.charset = Objects.requireNonNull(charset, "charset");
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, CharSequence msg, List<Object> out) {
        if (msg.length() == 0) {
            out.add(Unpooled.EMPTY_BUFFER);
            return;
        }
        out.add(ByteBufUtil.encodeString(ctx.alloc(), CharBuffer.wrap(msg), charset));
    }
}
