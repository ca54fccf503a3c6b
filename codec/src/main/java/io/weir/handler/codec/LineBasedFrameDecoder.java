package io.weir.handler.codec;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandlerContext;
import java.util.List;

/**
 * Splits a byte stream into lines ended by {@code "\n"} or {@code "\r\n"}, emitted with or without the
 * delimiter. The end of line is found with {@link ByteBuf#indexOf}, which scans a word at a time, and a scan
 * that finds nothing is not repeated over the same bytes when more arrive.
 *
 * <p><b>Limits.</b> {@code maxLength} (required) bounds a line without its delimiter, and so what one
 * connection can make the decoder hold. A longer line is discarded as its bytes arrive (never accumulated) and
 * reported with a {@link TooLongFrameException} (without stack trace): with {@code failFast} as soon as the
 * limit is passed, otherwise once its end of line arrived; decoding resumes with the next line. At the end of
 * input a last line without delimiter is dropped.
 *
 * <p>Lines are retained slices of the accumulated bytes, owned by the next handler. Not sharable; called on
 * the channel's event loop.
 */
public class LineBasedFrameDecoder extends ByteToMessageDecoder {
    private final int maxLength;
    private final boolean failFast;
    private final boolean stripDelimiter;
    private boolean discarding;
    private long discardedBytes;
    /** How many readable bytes were already scanned without finding a line feed. */
    private int offset;

    /** Lines of at most {@code maxLength} bytes, delimiter stripped, reported once the long line ended. */
    public LineBasedFrameDecoder(int maxLength) {
        this(maxLength, true, false);
    }

    /**
     * A decoder with every option.
     *
     * @param maxLength the longest line accepted, without its delimiter
     * @param stripDelimiter whether emitted lines lack their delimiter
     * @param failFast whether a too-long line is reported as soon as it passes {@code maxLength}
     * @throws IllegalArgumentException if {@code maxLength} is not positive
     */
    public LineBasedFrameDecoder(int maxLength, boolean stripDelimiter, boolean failFast) {
        if (maxLength <= 0) {
            throw new IllegalArgumentException("maxLength: " + maxLength + " (expected: > 0)");
        }
        this.maxLength = maxLength;
        this.failFast = failFast;
        this.stripDelimiter = stripDelimiter;
    }

    @Override
    protected final void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        Object decoded = decode(ctx, in);
        if (decoded != null) {
            out.add(decoded);
        }
    }

    /**
     * Reads one line from {@code buffer} if it is complete.
     *
     * @return the line, owned by the caller, or {@code null} if more bytes are needed (or were discarded)
     * @throws TooLongFrameException if a line exceeds {@code maxLength}
     */
    protected Object decode(ChannelHandlerContext ctx, ByteBuf buffer) throws Exception {
        int eol = findEndOfLine(buffer);
        int readerIndex = buffer.readerIndex();
        if (!discarding) {
            if (eol >= 0) {
                int length = eol - readerIndex;
                int delimLength = buffer.getByte(eol) == '\r' ? 2 : 1;
                if (length > maxLength) {
                    buffer.readerIndex(eol + delimLength);
                    throw tooLong(length, false);
                }
                ByteBuf frame;
                if (stripDelimiter) {
                    frame = buffer.retainedSlice(readerIndex, length);
                } else {
                    frame = buffer.retainedSlice(readerIndex, length + delimLength);
                }
                buffer.readerIndex(eol + delimLength);
                return frame;
            }
            int length = buffer.readableBytes();
            // A trailing CR may be the first half of the delimiter: it does not count towards the line.
            int contentLength = length > 0 && buffer.getByte(buffer.writerIndex() - 1) == '\r' ? length - 1 : length;
            if (contentLength > maxLength) {
                discardedBytes = length;
                buffer.readerIndex(buffer.writerIndex());
                discarding = true;
                offset = 0;
                if (failFast) {
                    throw tooLong(discardedBytes, true);
                }
            }
            return null;
        }
        if (eol >= 0) {
            long length = discardedBytes + eol - readerIndex;
            int delimLength = buffer.getByte(eol) == '\r' ? 2 : 1;
            buffer.readerIndex(eol + delimLength);
            discardedBytes = 0;
            discarding = false;
            if (!failFast) {
                throw tooLong(length, false);
            }
        } else {
            discardedBytes += buffer.readableBytes();
            buffer.readerIndex(buffer.writerIndex());
            // The scan position is relative to the reader index, which just moved to the end.
            offset = 0;
        }
        return null;
    }

    /** The index of the line's end ('\r' of "\r\n", or '\n'), or -1; remembers how far it scanned in vain. */
    private int findEndOfLine(ByteBuf buffer) {
        int totalLength = buffer.readableBytes();
        int readerIndex = buffer.readerIndex();
        int i = buffer.indexOf(readerIndex + offset, readerIndex + totalLength, (byte) '\n');
        if (i >= 0) {
            offset = 0;
            if (i > readerIndex && buffer.getByte(i - 1) == '\r') {
                i--;
            }
        } else {
            offset = totalLength;
        }
        return i;
    }

    private TooLongFrameException tooLong(long length, boolean sofar) {
        return TooLongFrameException.withoutStackTrace("line of " + (sofar ? "over " : "") + length
                + " bytes exceeds maxLength: " + maxLength);
    }
}
