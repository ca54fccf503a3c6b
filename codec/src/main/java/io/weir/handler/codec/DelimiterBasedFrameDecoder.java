package io.weir.handler.codec;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandlerContext;
import java.util.List;
import java.util.Objects;

/**
 * Splits a byte stream into frames ended by one of several delimiters. When more than one delimiter occurs,
 * the one giving the shortest frame wins: with delimiters {@code "\n"} and {@code "\r\n"}, {@code "AB\r\nCD"}
 * gives {@code "AB"}, not {@code "AB\r"}. Frames are emitted with or without their delimiter. When the
 * delimiters are exactly {@code "\n"} and {@code "\r\n"} ({@link Delimiters#lineDelimiter()}), decoding is
 * handed to a {@link LineBasedFrameDecoder}, whose scan is faster.
 *
 * <p>Each delimiter's first byte is found with {@link ByteBuf#indexOf} (a word-at-a-time scan), and bytes
 * already scanned in vain are not scanned again when more arrive.
 *
 * <p><b>Limits.</b> {@code maxFrameLength} (required) bounds a frame without its delimiter, and so what one
 * connection can make the decoder hold. A longer frame is discarded as its bytes arrive (never accumulated)
 * and reported with a {@link TooLongFrameException} (without stack trace): with {@code failFast} (the default)
 * as soon as the limit is passed, otherwise once its delimiter arrived; decoding resumes after that delimiter.
 * At the end of input a last frame without delimiter is dropped.
 *
 * <p>The delimiters are copied at construction: the caller keeps ownership of the buffers passed in. Frames
 * are retained slices of the accumulated bytes, owned by the next handler. Not sharable; called on the
 * channel's event loop.
 */
public class DelimiterBasedFrameDecoder extends ByteToMessageDecoder {
    private final byte[][] delimiters;
    private final int maxDelimiterLength;
    private final int maxFrameLength;
    private final boolean stripDelimiter;
    private final boolean failFast;
    private final LineBasedFrameDecoder lineBasedDecoder;
    private boolean discardingTooLongFrame;
    private long tooLongFrameLength;
    /** How many readable bytes were already searched without finding a delimiter's start. */
    private int searched;

    /** Frames of at most {@code maxFrameLength} bytes, delimiter stripped, failing fast. */
    public DelimiterBasedFrameDecoder(int maxFrameLength, ByteBuf... delimiters) {
        this(maxFrameLength, true, true, delimiters);
    }

    /** Failing fast. */
    public DelimiterBasedFrameDecoder(int maxFrameLength, boolean stripDelimiter, ByteBuf... delimiters) {
        this(maxFrameLength, stripDelimiter, true, delimiters);
    }

    /**
     * A decoder with every option.
     *
     * @param maxFrameLength the longest frame accepted, without its delimiter
     * @param stripDelimiter whether emitted frames lack their delimiter
     * @param failFast whether a too-long frame is reported as soon as it passes {@code maxFrameLength}
     * @param delimiters the delimiters' readable bytes, copied (the buffers stay the caller's)
     * @throws IllegalArgumentException if {@code maxFrameLength} is not positive, no delimiter is given, or one
     *         is empty
     */
    public DelimiterBasedFrameDecoder(int maxFrameLength, boolean stripDelimiter, boolean failFast,
                                      ByteBuf... delimiters) {
        if (maxFrameLength <= 0) {
            throw new IllegalArgumentException("maxFrameLength: " + maxFrameLength + " (expected: > 0)");
        }
        Objects.requireNonNull(delimiters, "delimiters");
        if (delimiters.length == 0) {
            throw new IllegalArgumentException("delimiters is empty");
        }
        byte[][] copies = new byte[delimiters.length][];
        int maxLength = 0;
        for (int i = 0; i < delimiters.length; i++) {
            ByteBuf d = Objects.requireNonNull(delimiters[i], "delimiters[" + i + ']');
            if (!d.isReadable()) {
                throw new IllegalArgumentException("delimiters[" + i + "] is empty");
            }
            byte[] copy = new byte[d.readableBytes()];
            d.getBytes(d.readerIndex(), copy);
            copies[i] = copy;
            maxLength = Math.max(maxLength, copy.length);
        }
        this.delimiters = copies;
        this.maxDelimiterLength = maxLength;
        this.maxFrameLength = maxFrameLength;
        this.stripDelimiter = stripDelimiter;
        this.failFast = failFast;
        this.lineBasedDecoder = isLineBased(copies) && getClass() == DelimiterBasedFrameDecoder.class
                ? new LineBasedFrameDecoder(maxFrameLength, stripDelimiter, failFast) : null;
    }

    /** Whether decoding is handed to the line-based decoder; for tests. */
    boolean usesLineBasedDecoder() {
        return lineBasedDecoder != null;
    }

    private static boolean isLineBased(byte[][] delimiters) {
        if (delimiters.length != 2) {
            return false;
        }
        byte[] a = delimiters[0];
        byte[] b = delimiters[1];
        if (a.length < b.length) {
            byte[] t = a;
            a = b;
            b = t;
        }
        return a.length == 2 && b.length == 1 && a[0] == '\r' && a[1] == '\n' && b[0] == '\n';
    }

    @Override
    protected final void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        Object decoded = decode(ctx, in);
        if (decoded != null) {
            out.add(decoded);
        }
    }

    /**
     * Reads one frame from {@code buffer} if it is complete.
     *
     * @return the frame, owned by the caller, or {@code null} if more bytes are needed (or were discarded)
     * @throws TooLongFrameException if a frame exceeds {@code maxFrameLength}
     */
    protected Object decode(ChannelHandlerContext ctx, ByteBuf buffer) throws Exception {
        if (lineBasedDecoder != null) {
            return lineBasedDecoder.decode(ctx, buffer);
        }
        int minFrameLength = Integer.MAX_VALUE;
        byte[] minDelimiter = null;
        for (byte[] delimiter : delimiters) {
            int frameLength = indexOf(buffer, delimiter, searched);
            if (frameLength >= 0 && frameLength < minFrameLength) {
                minFrameLength = frameLength;
                minDelimiter = delimiter;
            }
        }
        if (minDelimiter != null) {
            searched = 0;
            int delimiterLength = minDelimiter.length;
            if (discardingTooLongFrame) {
                // The end of the frame being discarded: resume with the next one.
                long tooLong = tooLongFrameLength + minFrameLength;
                discardingTooLongFrame = false;
                tooLongFrameLength = 0;
                buffer.skipBytes(minFrameLength + delimiterLength);
                if (!failFast) {
                    throw tooLong(tooLong, false);
                }
                return null;
            }
            if (minFrameLength > maxFrameLength) {
                buffer.skipBytes(minFrameLength + delimiterLength);
                throw tooLong(minFrameLength, false);
            }
            ByteBuf frame;
            int readerIndex = buffer.readerIndex();
            if (stripDelimiter) {
                frame = buffer.retainedSlice(readerIndex, minFrameLength);
            } else {
                frame = buffer.retainedSlice(readerIndex, minFrameLength + delimiterLength);
            }
            buffer.readerIndex(readerIndex + minFrameLength + delimiterLength);
            return frame;
        }
        // No delimiter yet. The last maxDelimiterLength - 1 bytes may be the start of one: keep them, and do not
        // count them towards the frame.
        int readable = buffer.readableBytes();
        int keep = Math.min(readable, maxDelimiterLength - 1);
        int frameSoFar = readable - keep;
        if (discardingTooLongFrame) {
            tooLongFrameLength += frameSoFar;
            buffer.skipBytes(frameSoFar);
            // The kept bytes may start a delimiter that had no room to match: search them again.
            searched = 0;
        } else if (frameSoFar > maxFrameLength) {
            tooLongFrameLength = frameSoFar;
            buffer.skipBytes(frameSoFar);
            discardingTooLongFrame = true;
            searched = 0;
            if (failFast) {
                throw tooLong(frameSoFar, true);
            }
        } else {
            searched = frameSoFar;
        }
        return null;
    }

    /**
     * The number of readable bytes before {@code needle} starts in {@code haystack}, looking for its start from
     * {@code searchFrom} readable bytes on; -1 if absent.
     */
    private static int indexOf(ByteBuf haystack, byte[] needle, int searchFrom) {
        int readerIndex = haystack.readerIndex();
        int end = haystack.writerIndex();
        int lastStart = end - needle.length;
        byte first = needle[0];
        int i = readerIndex + searchFrom;
        while (i <= lastStart) {
            i = haystack.indexOf(i, lastStart + 1, first);
            if (i < 0) {
                return -1;
            }
            int j = 1;
            while (j < needle.length && haystack.getByte(i + j) == needle[j]) {
                j++;
            }
            if (j == needle.length) {
                return i - readerIndex;
            }
            i++;
        }
        return -1;
    }

    private TooLongFrameException tooLong(long length, boolean sofar) {
        return TooLongFrameException.withoutStackTrace("frame of " + (sofar ? "over " : "") + length
                + " bytes exceeds maxFrameLength: " + maxFrameLength);
    }
}
