package io.weir.handler.codec;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandlerContext;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Objects;

/**
 * Splits a byte stream into frames by a length field in each frame's header.
 *
 * <pre>
 *   |&lt;-- lengthFieldOffset --&gt;|&lt;- lengthFieldLength -&gt;|&lt;------------- rest of the frame -------------&gt;|
 *   +------------------------+----------------------+-----------------------------------------------+
 *   |     header bytes       |     length field L   |        L + lengthAdjustment bytes             |
 *   +------------------------+----------------------+-----------------------------------------------+
 *   |&lt;-------- lengthFieldEndOffset ---------------&gt;|
 *   frame length = lengthFieldEndOffset + L + lengthAdjustment;  the first initialBytesToStrip bytes are cut off
 * </pre>
 *
 * <ul>
 *   <li>{@code lengthFieldLength} is 1, 2, 3, 4 or 8 bytes, read unsigned (an 8-byte field is signed, and
 *       negative is corrupt) in {@code byteOrder};</li>
 *   <li>{@code lengthAdjustment} is added to the field's value: negative when the field counts the header
 *       too, positive when more header follows the field;</li>
 *   <li>{@code initialBytesToStrip} leading bytes are removed from each emitted frame (the header, usually).</li>
 * </ul>
 * For example, a 2-byte length followed by that many bytes of content, emitted without the length:
 * {@code new LengthFieldBasedFrameDecoder(65_535 + 2, 0, 2, 0, 2)}.
 *
 * <h2>Limits and errors</h2>
 * {@code maxFrameLength} (required) bounds the whole frame before stripping, and so the memory one connection
 * can make the decoder hold. A frame announced longer is discarded as its bytes arrive (never accumulated) and
 * reported with a {@link TooLongFrameException}: with {@code failFast} as soon as its length is read, otherwise
 * once the whole frame went by; decoding resumes with the next frame. A length field that is negative, or that
 * gives a frame shorter than its own header or than {@code initialBytesToStrip}, makes the stream impossible
 * to follow: the header is skipped and a {@link CorruptedFrameException} raised, after which the application
 * should close the connection. Both exceptions come without stack trace (a peer triggers them at will).
 *
 * <p>Frames are retained slices of the accumulated bytes, owned by the next handler. Not sharable; called on
 * the channel's event loop.
 */
public class LengthFieldBasedFrameDecoder extends ByteToMessageDecoder {
    /**
     * Added to an 8-byte length field's value, an adjustment and the header length could overflow a
     * {@code long}; values above this are treated as this, which is still far beyond any frame limit.
     */
    private static final long MAX_UNADJUSTED_LENGTH = Long.MAX_VALUE >> 1;

    private final ByteOrder byteOrder;
    private final int maxFrameLength;
    private final int lengthFieldOffset;
    private final int lengthFieldLength;
    private final int lengthFieldEndOffset;
    private final int lengthAdjustment;
    private final int initialBytesToStrip;
    private final boolean failFast;
    private boolean discardingTooLongFrame;
    private long tooLongFrameLength;
    private long bytesToDiscard;

    /** Big-endian, no adjustment, nothing stripped, fail fast. */
    public LengthFieldBasedFrameDecoder(int maxFrameLength, int lengthFieldOffset, int lengthFieldLength) {
        this(maxFrameLength, lengthFieldOffset, lengthFieldLength, 0, 0);
    }

    /** Big-endian, fail fast. */
    public LengthFieldBasedFrameDecoder(int maxFrameLength, int lengthFieldOffset, int lengthFieldLength,
                                        int lengthAdjustment, int initialBytesToStrip) {
        this(maxFrameLength, lengthFieldOffset, lengthFieldLength, lengthAdjustment, initialBytesToStrip, true);
    }

    /** Big-endian. */
    public LengthFieldBasedFrameDecoder(int maxFrameLength, int lengthFieldOffset, int lengthFieldLength,
                                        int lengthAdjustment, int initialBytesToStrip, boolean failFast) {
        this(ByteOrder.BIG_ENDIAN, maxFrameLength, lengthFieldOffset, lengthFieldLength, lengthAdjustment,
                initialBytesToStrip, failFast);
    }

    /**
     * A decoder with every parameter (see the class documentation).
     *
     * @param byteOrder the order of the length field's bytes
     * @param maxFrameLength the longest frame accepted, header included, before stripping
     * @param lengthFieldOffset where the length field starts in the frame
     * @param lengthFieldLength 1, 2, 3, 4 or 8
     * @param lengthAdjustment added to the length field's value to get the length of what follows the field
     * @param initialBytesToStrip how many leading bytes to cut from each emitted frame
     * @param failFast whether a too-long frame is reported as soon as its length is read
     * @throws IllegalArgumentException if a value is out of range, naming it
     */
    public LengthFieldBasedFrameDecoder(ByteOrder byteOrder, int maxFrameLength, int lengthFieldOffset,
                                        int lengthFieldLength, int lengthAdjustment, int initialBytesToStrip,
                                        boolean failFast) {
        this.byteOrder = Objects.requireNonNull(byteOrder, "byteOrder");
        if (maxFrameLength <= 0) {
            throw new IllegalArgumentException("maxFrameLength: " + maxFrameLength + " (expected: > 0)");
        }
        if (lengthFieldOffset < 0) {
            throw new IllegalArgumentException("lengthFieldOffset: " + lengthFieldOffset + " (expected: >= 0)");
        }
        if (lengthFieldLength != 1 && lengthFieldLength != 2 && lengthFieldLength != 3 && lengthFieldLength != 4
                && lengthFieldLength != 8) {
            throw new IllegalArgumentException("lengthFieldLength: " + lengthFieldLength
                    + " (expected: 1, 2, 3, 4 or 8)");
        }
        if (initialBytesToStrip < 0) {
            throw new IllegalArgumentException("initialBytesToStrip: " + initialBytesToStrip + " (expected: >= 0)");
        }
        if (lengthFieldOffset > maxFrameLength - lengthFieldLength) {
            throw new IllegalArgumentException("maxFrameLength (" + maxFrameLength + ") must be at least "
                    + "lengthFieldOffset (" + lengthFieldOffset + ") + lengthFieldLength (" + lengthFieldLength + ')');
        }
        this.maxFrameLength = maxFrameLength;
        this.lengthFieldOffset = lengthFieldOffset;
        this.lengthFieldLength = lengthFieldLength;
        this.lengthFieldEndOffset = lengthFieldOffset + lengthFieldLength;
        this.lengthAdjustment = lengthAdjustment;
        this.initialBytesToStrip = initialBytesToStrip;
        this.failFast = failFast;
    }

    @Override
    protected final void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        Object decoded = decode(ctx, in);
        if (decoded != null) {
            out.add(decoded);
        }
    }

    /**
     * Reads one frame from {@code in} if it is complete.
     *
     * @return the frame, owned by the caller, or {@code null} if more bytes are needed (or were discarded)
     * @throws TooLongFrameException if a frame exceeds {@code maxFrameLength}
     * @throws CorruptedFrameException if the length field is impossible
     */
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        if (discardingTooLongFrame) {
            discardTooLongFrame(in);
            if (discardingTooLongFrame) {
                return null;
            }
        }
        if (in.readableBytes() < lengthFieldEndOffset) {
            return null;
        }
        int lengthFieldIndex = in.readerIndex() + lengthFieldOffset;
        long unadjusted = getUnadjustedFrameLength(in, lengthFieldIndex, lengthFieldLength, byteOrder);
        if (unadjusted < 0) {
            in.skipBytes(lengthFieldEndOffset);
            throw CorruptedFrameException.withoutStackTrace("negative length field: " + unadjusted);
        }
        if (unadjusted > MAX_UNADJUSTED_LENGTH) {
            unadjusted = MAX_UNADJUSTED_LENGTH;
        }
        long frameLength = unadjusted + lengthAdjustment + lengthFieldEndOffset;
        if (frameLength < lengthFieldEndOffset) {
            in.skipBytes(lengthFieldEndOffset);
            throw CorruptedFrameException.withoutStackTrace("adjusted frame length (" + frameLength
                    + ") is less than lengthFieldEndOffset: " + lengthFieldEndOffset);
        }
        if (frameLength > maxFrameLength) {
            startDiscarding(in, frameLength);
            return null;
        }
        int frameLengthInt = (int) frameLength;
        if (in.readableBytes() < frameLengthInt) {
            return null;
        }
        if (initialBytesToStrip > frameLengthInt) {
            in.skipBytes(frameLengthInt);
            throw CorruptedFrameException.withoutStackTrace("adjusted frame length (" + frameLength
                    + ") is less than initialBytesToStrip: " + initialBytesToStrip);
        }
        in.skipBytes(initialBytesToStrip);
        int readerIndex = in.readerIndex();
        int actualFrameLength = frameLengthInt - initialBytesToStrip;
        ByteBuf frame = extractFrame(ctx, in, readerIndex, actualFrameLength);
        in.readerIndex(readerIndex + actualFrameLength);
        return frame;
    }

    /**
     * The value of the length field at {@code offset}, before adjustment. Override to decode an unusual
     * encoding (a variable-length integer, a textual length); a negative result means corrupt.
     */
    protected long getUnadjustedFrameLength(ByteBuf buf, int offset, int length, ByteOrder order) {
        boolean big = order == ByteOrder.BIG_ENDIAN;
        return switch (length) {
            case 1 -> buf.getUnsignedByte(offset);
            case 2 -> big ? buf.getUnsignedShort(offset) : buf.getUnsignedShortLE(offset);
            case 3 -> big ? buf.getUnsignedMedium(offset) : buf.getUnsignedMediumLE(offset);
            case 4 -> big ? buf.getUnsignedInt(offset) : buf.getUnsignedIntLE(offset);
            case 8 -> big ? buf.getLong(offset) : buf.getLongLE(offset);
            default -> throw new DecoderException("unsupported lengthFieldLength: " + length
                    + " (expected: 1, 2, 3, 4 or 8)");
        };
    }

    /**
     * The frame at {@code [index, index + length)} of {@code buffer}; by default a retained slice (no copy).
     * Override to copy instead, when frames live long and would pin the accumulated bytes.
     */
    protected ByteBuf extractFrame(ChannelHandlerContext ctx, ByteBuf buffer, int index, int length) {
        return buffer.retainedSlice(index, length);
    }

    private void startDiscarding(ByteBuf in, long frameLength) {
        long discard = frameLength - in.readableBytes();
        tooLongFrameLength = frameLength;
        if (discard <= 0) {
            // The whole frame is here already: drop it at once.
            in.skipBytes((int) frameLength);
            bytesToDiscard = 0;
        } else {
            discardingTooLongFrame = true;
            bytesToDiscard = discard;
            in.skipBytes(in.readableBytes());
        }
        failIfNecessary(true);
    }

    private void discardTooLongFrame(ByteBuf in) {
        long remaining = bytesToDiscard;
        int now = (int) Math.min(remaining, in.readableBytes());
        in.skipBytes(now);
        bytesToDiscard = remaining - now;
        failIfNecessary(false);
    }

    private void failIfNecessary(boolean firstDetection) {
        if (bytesToDiscard == 0) {
            long tooLong = tooLongFrameLength;
            tooLongFrameLength = 0;
            discardingTooLongFrame = false;
            if (!failFast || firstDetection) {
                throw tooLong(tooLong, !failFast && !firstDetection);
            }
        } else if (failFast && firstDetection) {
            throw tooLong(tooLongFrameLength, false);
        }
    }

    private TooLongFrameException tooLong(long frameLength, boolean discarded) {
        return TooLongFrameException.withoutStackTrace((discarded ? "discarded a frame of " : "frame of ")
                + frameLength + " bytes exceeds maxFrameLength: " + maxFrameLength);
    }
}
