package io.weir.handler.codec.string;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.MessageToMessageEncoder;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.util.List;
import java.util.Objects;

/**
 * Encodes each outbound {@link CharSequence} as a line: its characters in a charset followed by a
 * {@link LineSeparator}, in one buffer. Other messages pass through.
 *
 * <p>Sharable and thread-safe.
 */
@ChannelHandler.Sharable
public final class LineEncoder extends MessageToMessageEncoder<CharSequence> {
    private final Charset charset;
    private final byte[] separator;

    /** Lines ended by the platform's separator, in the platform's default charset. */
    public LineEncoder() {
        this(LineSeparator.DEFAULT, Charset.defaultCharset());
    }

    /** Lines ended by {@code lineSeparator}, in the platform's default charset. */
    public LineEncoder(LineSeparator lineSeparator) {
        this(lineSeparator, Charset.defaultCharset());
    }

    /** Lines ended by the platform's separator, in {@code charset}. */
    public LineEncoder(Charset charset) {
        this(LineSeparator.DEFAULT, charset);
    }

    /** Lines ended by {@code lineSeparator}, in {@code charset}. */
    public LineEncoder(LineSeparator lineSeparator, Charset charset) {
        super(CharSequence.class);
        this.charset = Objects.requireNonNull(charset, "charset");
        this.separator = Objects.requireNonNull(lineSeparator, "lineSeparator").value().getBytes(charset);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, CharSequence msg, List<Object> out) {
        ByteBuf buf = ByteBufUtil.encodeString(ctx.alloc(), CharBuffer.wrap(msg), charset, separator.length);
        buf.writeBytes(separator);
        out.add(buf);
    }
}
