package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.EncoderException;
import io.weir.handler.codec.MessageToMessageEncoder;
import io.weir.util.concurrent.FastThreadLocal;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Encodes {@link HttpMessage} heads and the {@link HttpContent} that follows them into HTTP/1.1 bytes
 * (RFC 9112): the initial line and header fields are written straight into one buffer from the channel's
 * allocator, and the body is framed by {@code Content-Length} (written as given) or by the chunked transfer
 * coding (when {@code Transfer-Encoding} lists {@code chunked}, RFC 9112 §7.1), ending with the last chunk and
 * the trailer fields of the {@link LastHttpContent}.
 *
 * <p>Messages must come in order: a head, then content pieces, the last one a {@link LastHttpContent} (a
 * {@link FullHttpMessage} is all three at once). Content written before a head, or a head written before the
 * previous message ended, fails the write with an {@link EncoderException}. A message whose body must be empty
 * ({@link #isContentAlwaysEmpty}) has its content dropped and no chunk framing.
 *
 * <p>Ownership: each written object is released by the encoder; bodies larger than
 * {@value #COPY_CONTENT_THRESHOLD_BYTES} bytes are passed on (retained) rather than copied. Only called on the
 * channel's event loop; one instance per channel.
 *
 * @param <H> the kind of head encoded: {@link HttpRequest} or {@link HttpResponse}
 */
public abstract class HttpObjectEncoder<H extends HttpMessage> extends MessageToMessageEncoder<HttpObject> {
    /** Bodies up to this size are copied behind the head or chunk header so the write is one buffer. */
    static final int COPY_CONTENT_THRESHOLD_BYTES = 4096;
    private static final int INITIAL_HEAD_SIZE_ESTIMATE_BYTES = 256;
    /**
     * Heads up to this size bound for a direct buffer are assembled in a per-thread array first and copied in
     * one go: a copy into native memory costs far more per call than per byte, and a head is a dozen small ones.
     */
    static final int HEAD_SCRATCH_BYTES = 2048;
    /** One array per thread shared by every encoder on it: a head is assembled and copied before anything else runs. */
    private static final FastThreadLocal<byte[]> HEAD_SCRATCH = new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            return new byte[HEAD_SCRATCH_BYTES];
        }
    };
    private static final int MIN_HEAD_SIZE_ESTIMATE_BYTES = 64;
    private static final int CRLF_SHORT = '\r' << 8 | '\n';
    private static final byte[] LAST_CHUNK = {'0', '\r', '\n'};
    /** Chunk-size in hex (at most 8 digits for an int) plus CRLF. */
    private static final int MAX_CHUNK_HEADER_BYTES = 10;

    private enum State {
        /** Between messages: a head is expected. */
        INIT,
        /** Body framed by Content-Length or by closing the connection: bytes are written as they come. */
        CONTENT_NON_CHUNK,
        /** Body in the chunked transfer coding. */
        CONTENT_CHUNK,
        /** Body must be empty (HEAD, 1xx, 204, 304, CONNECT 2xx): content is dropped. */
        CONTENT_ALWAYS_EMPTY
    }

    private State state = State.INIT;
    /** Running estimate of the encoded head size, so the first allocation usually fits. */
    private int headSizeEstimate = INITIAL_HEAD_SIZE_ESTIMATE_BYTES;

    /** For subclasses. */
    protected HttpObjectEncoder() {
        super(HttpObject.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, HttpObject msg, List<Object> out) throws Exception {
        encode(ctx, msg, out, null);
    }

    /**
     * Encodes {@code msg}, a whole message with at most {@value #COPY_CONTENT_THRESHOLD_BYTES} content bytes, at the
     * end of {@code target} instead of in buffers of its own, so that several small responses go out as one
     * buffer. Releases {@code msg} unless it returns false.
     *
     * @return false, having done nothing, when {@code msg} cannot be encoded that way (content too large, or the
     *         previous message has not ended)
     * @throws Exception as {@link #encode} would; {@code target} is then left as it was and {@code msg} released
     */
    final boolean encodeWholeInto(ChannelHandlerContext ctx, FullHttpMessage msg, ByteBuf target) throws Exception {
        if (state != State.INIT || msg.content().readableBytes() > COPY_CONTENT_THRESHOLD_BYTES) {
            return false;
        }
        int start = target.writerIndex();
        try {
            encode(ctx, msg, null, target, true, true, true);
        } catch (Throwable t) {
            target.writerIndex(start);
            throw t instanceof EncoderException e ? e : new EncoderException(t);
        } finally {
            msg.release();
        }
        return true;
    }

    /** Encodes into buffers of its own added to {@code out}, or all into {@code target} when it is not null. */
    private void encode(ChannelHandlerContext ctx, HttpObject msg, List<Object> out, ByteBuf target)
            throws Exception {
        if (msg instanceof FullHttpMessage) {
            encode(ctx, msg, out, target, true, true, true);
        } else {
            boolean isContent = msg instanceof HttpContent;
            encode(ctx, msg, out, target, msg instanceof HttpMessage, isContent,
                    isContent && msg instanceof LastHttpContent);
        }
    }

    /**
     * As {@link #encode(ChannelHandlerContext, HttpObject, List, ByteBuf)}, with what {@code msg} is already known:
     * each type check that succeeds on another interface of a class rewrites the JVM's one-entry type-check cache of
     * that class, which every thread shares, so a whole message is tested once rather than once per interface.
     */
    private void encode(ChannelHandlerContext ctx, HttpObject msg, List<Object> out, ByteBuf target,
                        boolean isMessage, boolean isContent, boolean isLast) throws Exception {
        ByteBuf buf = null;
        int start = 0;
        if (isMessage) {
            if (state != State.INIT) {
                throw new EncoderException("unexpected " + msg.getClass().getSimpleName()
                        + ": the previous message's content has not ended (state " + state + ')');
            }
            @SuppressWarnings("unchecked")
            H head = (H) msg;
            if (target != null) {
                buf = target;
                start = target.writerIndex();
            } else {
                buf = ctx.alloc().buffer(headSizeEstimate + (isContent ? contentBytesToCopy((HttpContent) msg) : 0));
                // Added first so that the encoder base releases it if anything below throws.
                out.add(buf);
            }
            int lineLength = buf.hasArray() ? -1 : initialLineLength(head);
            if (lineLength < 0) {
                encodeInitialLine(buf, head);
            }
            boolean alwaysEmpty = isContentAlwaysEmpty(head);
            State next = alwaysEmpty ? State.CONTENT_ALWAYS_EMPTY
                    : HttpUtil.isTransferEncodingChunked(head) ? State.CONTENT_CHUNK : State.CONTENT_NON_CHUNK;
            sanitizeHeadersBeforeEncode(head, alwaysEmpty);
            if (lineLength < 0 || !encodeHeadAtOnce(buf, head, lineLength)) {
                if (lineLength >= 0) {
                    encodeInitialLine(buf, head);
                }
                encodeHeaders(head.headers(), buf);
                buf.writeShort(CRLF_SHORT);
            }
            int headBytes = buf.writerIndex() - start;
            headSizeEstimate = Math.max(MIN_HEAD_SIZE_ESTIMATE_BYTES, (headSizeEstimate * 3 + headBytes) >> 2);
            state = next;
        }
        if (isContent) {
            if (state == State.INIT) {
                throw new EncoderException("unexpected " + msg.getClass().getSimpleName()
                        + ": content written before an HttpMessage");
            }
            HttpContent content = (HttpContent) msg;
            encodeContent(ctx, content, buf, out, isLast);
        }
    }

    /**
     * Assembles the initial line, the header fields and the empty line in this thread's scratch array and writes
     * them to {@code buf} with one copy, provided they fit.
     *
     * @return false, having written nothing, if the head does not fit or its headers are not a DefaultHttpHeaders
     */
    private boolean encodeHeadAtOnce(ByteBuf buf, H head, int lineLength) {
        if (!(head.headers() instanceof DefaultHttpHeaders headers)) {
            return false;
        }
        long length = lineLength + headers.encodedLength() + 2;
        if (length > HEAD_SCRATCH_BYTES) {
            return false;
        }
        byte[] scratch = HEAD_SCRATCH.get();
        int p = writeInitialLine(scratch, 0, head);
        p = headers.encode(scratch, p);
        scratch[p++] = '\r';
        scratch[p++] = '\n';
        buf.writeBytes(scratch, 0, p);
        return true;
    }

    /**
     * The length of {@code message}'s initial line, CRLF included, when {@link #writeInitialLine} writes exactly
     * what {@link #encodeInitialLine} would (a subclass that overrides neither); -1 otherwise.
     */
    int initialLineLength(H message) {
        return -1;
    }

    /**
     * Writes {@code message}'s initial line, CRLF included, at {@code dst[pos]}; only called after
     * {@link #initialLineLength} returned its length.
     *
     * @return the index after the line
     */
    int writeInitialLine(byte[] dst, int pos, H message) {
        throw new UnsupportedOperationException();
    }

    private static int contentBytesToCopy(HttpContent c) {
        int n = c.content().readableBytes();
        return n <= COPY_CONTENT_THRESHOLD_BYTES ? n + MAX_CHUNK_HEADER_BYTES + 2 + LAST_CHUNK.length + 2 : 0;
    }

    private void encodeContent(ChannelHandlerContext ctx, HttpContent msg, ByteBuf head, List<Object> out,
                               boolean last) {
        ByteBuf content = msg.content();
        switch (state) {
            case CONTENT_NON_CHUNK -> writeBody(ctx, content, head, out);
            case CONTENT_CHUNK -> {
                int length = content.readableBytes();
                if (length > 0) {
                    ByteBuf target = head != null ? head : allocate(ctx, out, length);
                    writeChunkHeader(target, length);
                    if (length <= COPY_CONTENT_THRESHOLD_BYTES) {
                        target.writeBytes(content, content.readerIndex(), length);
                        target.writeShort(CRLF_SHORT);
                    } else {
                        out.add(content.retain());
                        ByteBuf crlf = ctx.alloc().buffer(last ? 2 + LAST_CHUNK.length + 2 : 2);
                        out.add(crlf);
                        crlf.writeShort(CRLF_SHORT);
                        head = crlf;
                    }
                    if (head == null) {
                        head = target;
                    }
                }
                if (last) {
                    ByteBuf target = head != null ? head : allocate(ctx, out, LAST_CHUNK.length + 2);
                    target.writeBytes(LAST_CHUNK);
                    encodeHeaders(((LastHttpContent) msg).trailingHeaders(), target);
                    target.writeShort(CRLF_SHORT);
                }
            }
            case CONTENT_ALWAYS_EMPTY -> {
                // RFC 9110 §9.3.2, §15.2, §15.3.5, §15.4.5: these responses end at the head; any body is dropped.
            }
            default -> throw new IllegalStateException("unexpected state " + state);
        }
        if (out != null && out.isEmpty()) {
            out.add(Unpooled.EMPTY_BUFFER);
        }
        if (last) {
            state = State.INIT;
        }
    }

    private static void writeBody(ChannelHandlerContext ctx, ByteBuf content, ByteBuf head, List<Object> out) {
        int length = content.readableBytes();
        if (length == 0) {
            return;
        }
        if (head != null && length <= COPY_CONTENT_THRESHOLD_BYTES) {
            head.writeBytes(content, content.readerIndex(), length);
        } else {
            out.add(content.retain());
        }
    }

    private static ByteBuf allocate(ChannelHandlerContext ctx, List<Object> out, int contentLength) {
        int size = MAX_CHUNK_HEADER_BYTES + 2 + LAST_CHUNK.length + 2
                + (contentLength <= COPY_CONTENT_THRESHOLD_BYTES ? contentLength : 0);
        ByteBuf buf = ctx.alloc().buffer(size);
        out.add(buf);
        return buf;
    }

    /** RFC 9112 §7.1: chunk-size in hex, CRLF (no chunk extensions are written). */
    private static void writeChunkHeader(ByteBuf buf, int length) {
        int digits = (Integer.SIZE - Integer.numberOfLeadingZeros(length) + 3) >> 2;
        buf.ensureWritable(digits + 2);
        for (int shift = (digits - 1) << 2; shift >= 0; shift -= 4) {
            buf.writeByte(HEX_DIGITS[(length >>> shift) & 0xF]);
        }
        buf.writeShort(CRLF_SHORT);
    }

    private static final byte[] HEX_DIGITS = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9',
            'a', 'b', 'c', 'd', 'e', 'f'};

    static void encodeHeaders(HttpHeaders headers, ByteBuf buf) {
        if (headers instanceof DefaultHttpHeaders d) {
            d.encode(buf);
            return;
        }
        for (Iterator<Map.Entry<CharSequence, CharSequence>> it = headers.iterator(); it.hasNext(); ) {
            Map.Entry<CharSequence, CharSequence> e = it.next();
            DefaultHttpHeaders.encodeField(buf, e.getKey(), e.getValue());
        }
    }

    /** Writes {@code s} one byte per char (the caller has checked it is ASCII). */
    static void writeAscii(ByteBuf buf, CharSequence s) {
        ByteBufUtil.writeAscii(buf, s);
    }

    /**
     * Writes the request-line or status-line of {@code message}, CRLF included.
     *
     * @throws Exception (wrapped in an {@link EncoderException}) if the line cannot be encoded
     */
    protected abstract void encodeInitialLine(ByteBuf buf, H message) throws Exception;

    /**
     * Whether the body of {@code message} must be empty whatever its headers say; such a message gets no body
     * bytes and no chunk framing. Called once per head, on the event loop. Default: false.
     */
    protected boolean isContentAlwaysEmpty(H message) {
        return false;
    }

    /**
     * Adjusts {@code message}'s headers just before they are written; {@code isAlwaysEmpty} is the result of
     * {@link #isContentAlwaysEmpty}. Default: nothing.
     */
    protected void sanitizeHeadersBeforeEncode(H message, boolean isAlwaysEmpty) {
    }
}
