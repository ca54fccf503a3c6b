package io.weir.handler.codec.string;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.MessageToMessageDecoder;
import java.nio.charset.Charset;
import java.util.List;
import java.util.Objects;

/**
 * Decodes each inbound {@link ByteBuf} into a {@link String} in a charset (malformed input becomes the
 * replacement character). Put a frame decoder before it: it decodes whatever bytes one read brought, which on a
 * stream may end in the middle of a character.
 *
 * <pre>{@code
 * pipeline.addLast(new LineBasedFrameDecoder(8192), new StringDecoder(StandardCharsets.UTF_8));
 * }</pre>
 *
 * <p>Releases the buffer. Sharable and thread-safe.
 */
@ChannelHandler.Sharable
public final class StringDecoder extends MessageToMessageDecoder<ByteBuf> {
    private final Charset charset;

    /** Decodes with the platform's default charset. */
    public StringDecoder() {
        this(Charset.defaultCharset());
    }

    /** Decodes with {@code charset}. */
    public StringDecoder(Charset charset) {
        super(ByteBuf.class);
        this.charset = Objects.requireNonNull(charset, "charset");
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf msg, List<Object> out) {
        out.add(msg.toString(charset));
    }
}
