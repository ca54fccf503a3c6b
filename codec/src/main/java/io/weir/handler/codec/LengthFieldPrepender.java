package io.weir.handler.codec;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Objects;

/**
 * Writes a length field before each outbound {@link ByteBuf}: the counterpart of
 * {@link LengthFieldBasedFrameDecoder}. The field holds the buffer's readable bytes, plus the field's own length
 * if {@code lengthIncludesLengthFieldLength}, plus {@code lengthAdjustment}; it is written as a separate small
 * buffer followed by the message itself (no copy), both under the write's promise.
 *
 * <pre>{@code
 * pipeline.addLast(new LengthFieldBasedFrameDecoder(65_537, 0, 2, 0, 2), new LengthFieldPrepender(2));
 * }</pre>
 *
 * <p>A length that does not fit the field fails the write with an {@link EncoderException} caused by an
 * {@link IllegalArgumentException} naming the length. Sharable and thread-safe.
 */
@ChannelHandler.Sharable
public class LengthFieldPrepender extends MessageToMessageEncoder<ByteBuf> {
    private final boolean bigEndian;
    private final int lengthFieldLength;
    private final boolean lengthIncludesLengthFieldLength;
    private final int lengthAdjustment;

    /** A big-endian field of {@code lengthFieldLength} bytes (1, 2, 3, 4 or 8) counting the content only. */
    public LengthFieldPrepender(int lengthFieldLength) {
        this(lengthFieldLength, false);
    }

    /** A big-endian field, counting itself if {@code lengthIncludesLengthFieldLength}. */
    public LengthFieldPrepender(int lengthFieldLength, boolean lengthIncludesLengthFieldLength) {
        this(lengthFieldLength, 0, lengthIncludesLengthFieldLength);
    }

    /** A big-endian field with an adjustment. */
    public LengthFieldPrepender(int lengthFieldLength, int lengthAdjustment,
                                boolean lengthIncludesLengthFieldLength) {
        this(ByteOrder.BIG_ENDIAN, lengthFieldLength, lengthAdjustment, lengthIncludesLengthFieldLength);
    }

    /**
     * A prepender with every option.
     *
     * @param byteOrder the order of the field's bytes
     * @param lengthFieldLength 1, 2, 3, 4 or 8
     * @param lengthAdjustment added to the length written
     * @param lengthIncludesLengthFieldLength whether the length counts the field itself
     * @throws IllegalArgumentException if {@code lengthFieldLength} is not 1, 2, 3, 4 or 8
     */
    public LengthFieldPrepender(ByteOrder byteOrder, int lengthFieldLength, int lengthAdjustment,
                                boolean lengthIncludesLengthFieldLength) {
        super(ByteBuf.class);
        Objects.requireNonNull(byteOrder, "byteOrder");
        if (lengthFieldLength != 1 && lengthFieldLength != 2 && lengthFieldLength != 3 && lengthFieldLength != 4
                && lengthFieldLength != 8) {
            throw new IllegalArgumentException("lengthFieldLength: " + lengthFieldLength
                    + " (expected: 1, 2, 3, 4 or 8)");
        }
        this.bigEndian = byteOrder == ByteOrder.BIG_ENDIAN;
        this.lengthFieldLength = lengthFieldLength;
        this.lengthIncludesLengthFieldLength = lengthIncludesLengthFieldLength;
        this.lengthAdjustment = lengthAdjustment;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, ByteBuf msg, List<Object> out) throws Exception {
        long length = (long) msg.readableBytes() + lengthAdjustment;
        if (lengthIncludesLengthFieldLength) {
            length += lengthFieldLength;
        }
        if (length < 0) {
            throw new IllegalArgumentException("adjusted frame length (" + length + ") is less than zero");
        }
        long maxValue = lengthFieldLength == 8 ? Long.MAX_VALUE : (1L << (lengthFieldLength * 8)) - 1;
        if (length > maxValue) {
            throw new IllegalArgumentException("length does not fit into a " + lengthFieldLength
                    + "-byte field: " + length);
        }
        ByteBuf header = ctx.alloc().buffer(lengthFieldLength);
        switch (lengthFieldLength) {
            case 1 -> header.writeByte((int) length);
            case 2 -> {
                if (bigEndian) {
                    header.writeShort((int) length);
                } else {
                    header.writeShortLE((int) length);
                }
            }
            case 3 -> {
                if (bigEndian) {
                    header.writeMedium((int) length);
                } else {
                    header.writeMediumLE((int) length);
                }
            }
            case 4 -> {
                if (bigEndian) {
                    header.writeInt((int) length);
                } else {
                    header.writeIntLE((int) length);
                }
            }
            default -> {
                if (bigEndian) {
                    header.writeLong(length);
                } else {
                    header.writeLongLE(length);
                }
            }
        }
        out.add(header);
        // The encoder releases msg after this call; the retain hands one reference on with the output.
        out.add(msg.retain());
    }
}
