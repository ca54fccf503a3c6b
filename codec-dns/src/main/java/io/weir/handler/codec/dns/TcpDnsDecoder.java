package io.weir.handler.codec.dns;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.ByteToMessageDecoder;
import java.util.List;
import java.util.Objects;

/**
 * Decodes DNS messages from a TCP stream, each preceded by its length in two bytes (RFC 1035 §4.2.2). A length
 * above {@link #maxMessageBytes()} or a malformed message fails with a {@link DnsDecoderException}; at most one
 * message's worth of bytes is buffered. After either failure the stream cannot be framed any more: close the
 * connection. Event loop only; one instance per channel.
 */
public final class TcpDnsDecoder extends ByteToMessageDecoder {
    /** The default cap on a message's length: what the two length bytes can say. */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 0xFFFF;

    private static final int LENGTH_BYTES = 2;

    private final DnsMessageDecoder decoder;
    private final int maxMessageBytes;

    /** A decoder with the default limits. */
    public TcpDnsDecoder() {
        this(new DnsMessageDecoder(), DEFAULT_MAX_MESSAGE_BYTES);
    }

    /**
     * A decoder with {@code decoder}'s limits, refusing messages longer than {@code maxMessageBytes}.
     *
     * @throws IllegalArgumentException if {@code maxMessageBytes} is not in [12, 65535]
     */
    public TcpDnsDecoder(DnsMessageDecoder decoder, int maxMessageBytes) {
        this.decoder = Objects.requireNonNull(decoder, "decoder");
        if (maxMessageBytes < DnsMessageDecoder.HEADER_BYTES || maxMessageBytes > DEFAULT_MAX_MESSAGE_BYTES) {
            throw new IllegalArgumentException("maxMessageBytes not in [12, 65535]: " + maxMessageBytes);
        }
        this.maxMessageBytes = maxMessageBytes;
    }

    /** The longest message accepted, in bytes. */
    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.readableBytes() < LENGTH_BYTES) {
            return;
        }
        int length = in.getUnsignedShort(in.readerIndex());
        if (length > maxMessageBytes) {
            // Nothing after a bad length can be framed: drop what is buffered rather than hold it.
            in.skipBytes(in.readableBytes());
            throw new DnsDecoderException("TCP message of " + length + " bytes is longer than the limit of "
                    + maxMessageBytes);
        }
        if (in.readableBytes() < LENGTH_BYTES + length) {
            return;
        }
        ByteBuf message = in.slice(in.readerIndex() + LENGTH_BYTES, length);
        in.skipBytes(LENGTH_BYTES + length);
        out.add(decoder.decode(message));
    }
}
