package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpByteClasses.COLON;
import static io.weir.handler.codec.http.HttpByteClasses.CR;
import static io.weir.handler.codec.http.HttpByteClasses.LF;
import static io.weir.handler.codec.http.HttpByteClasses.isControl;
import static io.weir.handler.codec.http.HttpByteClasses.isOws;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.ByteToMessageDecoder;
import io.weir.handler.codec.DecoderException;
import io.weir.handler.codec.DecoderResult;
import io.weir.util.AsciiString;
import io.weir.util.concurrent.FastThreadLocal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * Decodes HTTP/1.1 messages (RFC 9112) from bytes into an {@link HttpMessage}, then zero or more
 * {@link HttpContent}s, then one {@link LastHttpContent} carrying the trailer fields, if any. A message without a
 * body is followed by {@link LastHttpContent#EMPTY_LAST_CONTENT}.
 *
 * <h2>Strict by default</h2>
 * Everything RFC 9112 allows a recipient to reject, and that has been used to smuggle requests past proxies, is
 * rejected: bare CR, bare LF (unless {@linkplain HttpDecoderConfig#setStrictLineEndings lenient line endings} are
 * on), obsolete line folding, whitespace before a field name's colon, control characters in names and values,
 * Content-Length together with Transfer-Encoding, conflicting Content-Lengths (and, in a request, a Content-Length
 * list even of identical values), unknown or misplaced transfer codings, malformed chunk sizes and extensions
 * (RFC 9112 §7.1.1: {@code ;} then a token name), declared chunk sizes above a limit, more leading empty lines than
 * a limit, and in a request: no Host in HTTP/1.1 (unless {@linkplain HttpDecoderConfig#setRequireHost turned
 * off}), two Host fields, a Host that is not {@code uri-host [":" port]}, a request-target whose form the method
 * does not allow, and CONNECT (unless {@linkplain HttpDecoderConfig#setAllowConnect allowed}). Every limit of
 * {@link HttpDecoderConfig} is enforced as bytes arrive, so no input makes the decoder buffer more than its limits.
 *
 * <h2>Rejection</h2>
 * A rejected message is not thrown: the decoder emits the message it was decoding (or, before a valid initial
 * line, a placeholder) or, once the body started, a {@link LastHttpContent}, whose
 * {@link io.weir.handler.codec.DecoderResult} is a failure whose cause is an {@link InvalidHttpMessageException}
 * (with the {@link HttpViolation}), a {@link TooLongHttpLineException}, a {@link TooLongHttpHeaderException}, a
 * {@link TooLongHttpContentException} or a {@link PrematureChannelClosureException}. From then on the decoder
 * discards every byte the connection delivers: after a framing error nothing that follows can be trusted.
 *
 * <h2>Ownership and threads</h2>
 * Contents are retained slices of the cumulation, owned by whoever receives them. Called only on the channel's
 * event loop.
 */
public abstract class HttpObjectDecoder extends ByteToMessageDecoder {
    private static final byte[] CONTENT_LENGTH = "content-length".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRANSFER_ENCODING = "transfer-encoding".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRAILER = "trailer".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HOST = "host".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CHUNKED = "chunked".getBytes(StandardCharsets.US_ASCII);
    /** RFC 9112 §7 and the IANA registry: the codings a recipient may pass on for a later handler to undo. */
    private static final byte[][] KNOWN_CODINGS = {
        "gzip".getBytes(StandardCharsets.US_ASCII), "deflate".getBytes(StandardCharsets.US_ASCII),
        "compress".getBytes(StandardCharsets.US_ASCII), "x-gzip".getBytes(StandardCharsets.US_ASCII),
        "x-compress".getBytes(StandardCharsets.US_ASCII),
    };
    private static final int INITIAL_LINE_BUFFER_BYTES = 256;

    private static final int LINE_READY = 1;
    private static final int NEED_MORE = 0;
    private static final int TOO_LONG = -1;

    private enum State {
        SKIP_EMPTY_LINES,
        READ_INITIAL,
        READ_HEADER,
        READ_FIXED_LENGTH_CONTENT,
        READ_VARIABLE_LENGTH_CONTENT,
        READ_CHUNK_SIZE,
        READ_CHUNKED_CONTENT,
        READ_CHUNK_DELIMITER,
        READ_CHUNK_FOOTER,
        BAD_MESSAGE,
        UPGRADED
    }

    private final int maxInitialLineLength;
    private final int maxHeaderSize;
    private final int maxChunkSize;
    private final int maxHeaderCount;
    private final long maxContentLength;
    private final boolean strictLineEndings;
    private final long maxDeclaredChunkSize;
    private final int maxLeadingEmptyLines;
    private final boolean requireHost;
    private final boolean[] nameTable;
    private final boolean[] valueTable;

    private State state = State.SKIP_EMPTY_LINES;
    /**
     * Line copies, one array per thread shared by every decoder on it: a line is copied and parsed before anything
     * else runs, so an idle connection carries no line buffer of its own. Grows to the longest line allowed.
     */
    private static final FastThreadLocal<byte[]> LINES = new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            return new byte[INITIAL_LINE_BUFFER_BYTES];
        }
    };

    /**
     * This thread's {@link #LINES} array, fetched at each decode call; holds the current line without its ending,
     * parsed at once.
     */
    private byte[] line;
    private int lineLength;
    /** Bytes after the reader index already known to hold no LF, so a line arriving byte by byte is scanned once. */
    private int scannedBytes;

    private HttpMessage message;
    private HttpHeaders trailers;
    private int headerBytes;
    private int headerCount;
    private long contentLength = -1;
    private boolean transferEncoding;
    private boolean chunkedSeen;
    private boolean chunkedLast;
    private boolean unknownCoding;
    private boolean hostSeen;
    /**
     * The Host value of the previous request, shared by the next one when its bytes are the same (a client sends
     * the same Host on every request of a connection); AsciiStrings are immutable, so sharing is safe.
     */
    private AsciiString lastHost;
    /** Empty lines skipped before the current initial line. */
    private int emptyLines;
    /** Bytes left in the fixed-length body or in the current chunk. */
    private long remaining;
    /** Body bytes announced so far, against maxContentLength. */
    private long received;

    HttpObjectDecoder(HttpDecoderConfig config) {
        Objects.requireNonNull(config, "config");
        maxInitialLineLength = config.getMaxInitialLineLength();
        maxHeaderSize = config.getMaxHeaderSize();
        maxChunkSize = config.getMaxChunkSize();
        maxHeaderCount = config.getMaxHeaderCount();
        maxContentLength = config.getMaxContentLength();
        boolean validateHeaders = config.isValidateHeaders();
        strictLineEndings = config.isStrictLineEndings();
        maxDeclaredChunkSize = config.getMaxDeclaredChunkSize();
        maxLeadingEmptyLines = config.getMaxLeadingEmptyLines();
        requireHost = config.isRequireHost();
        nameTable = validateHeaders ? HttpByteClasses.TCHAR : HttpByteClasses.FIELD_NAME_LENIENT;
        valueTable = validateHeaders ? HttpByteClasses.FIELD_VALUE : HttpByteClasses.FIELD_VALUE_LENIENT;
    }

    // ---------------------------------------------------------------- hooks

    /** Whether this decoder reads requests (else responses). */
    abstract boolean isDecodingRequest();

    /**
     * Parses the initial line in {@code line[0, length)} into a message with empty headers.
     *
     * @throws InvalidHttpMessageException if the line is malformed
     */
    abstract HttpMessage parseInitialLine(byte[] line, int length);

    /** The placeholder emitted, failed, when a message is rejected before its initial line was understood. */
    abstract HttpMessage createInvalidMessage();

    /**
     * Whether {@code msg} has no body whatever its headers say (a response to HEAD, 1xx, 204, 304). Called once
     * per message, when its headers are complete.
     *
     * @throws DecoderException to reject the message (it is then emitted with a failed result)
     */
    protected boolean isContentAlwaysEmpty(HttpMessage msg) {
        return false;
    }

    /**
     * Whether the connection stops speaking HTTP/1.1 after {@code msg} (101 Switching Protocols, a 2xx answer to
     * CONNECT): every later byte is then passed on as a {@link ByteBuf}. Called after {@link #isContentAlwaysEmpty}.
     */
    boolean switchesToRawBytes(HttpMessage msg) {
        return false;
    }

    /** Whether this decoder has rejected input and now discards everything. */
    public final boolean isRejected() {
        return state == State.BAD_MESSAGE;
    }

    /**
     * Starts over at a message boundary, forgetting any message in progress (its buffers were already handed on),
     * for instance to speak HTTP/1.1 again after a refused protocol switch. After a rejection the connection stays
     * rejected: resetting cannot make the bytes that followed trustworthy. Only called on the event loop.
     */
    public final void reset() {
        if (state != State.BAD_MESSAGE) {
            resetMessage();
        }
    }

    // ---------------------------------------------------------------- decoding

    @Override
    protected final void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int from = out.size();
        // Fetched once per call rather than per line; readLine keeps the thread's array in step when it grows.
        line = LINES.get();
        try {
            decode(in, out, from);
        } catch (DecoderException e) {
            fail(in, out, e);
        }
        decoded(out, from);
    }

    /**
     * Sees (and may edit) the objects {@code out[from, size)} one decode call produced before they are passed on;
     * for the codecs, which pair requests with responses and intercept rejections.
     */
    void decoded(List<Object> out, int from) {
    }

    /**
     * Whether decoding should stop before the next message or body content, leaving the bytes in the cumulation
     * until the decoder is called again: the server codec's backpressure. Asked at most once per object emitted,
     * so it must be cheap.
     */
    boolean pauseBeforeNextObject() {
        return false;
    }

    /**
     * Whether more input from the peer belongs to the current exchange: a message is being decoded, bytes wait in
     * the cumulation, or the decoder rejected the input and discards the rest. False at a clean message boundary
     * and after a switch to raw bytes.
     */
    final boolean inputMayFollow() {
        return state != State.UPGRADED && (state != State.SKIP_EMPTY_LINES || actualReadableBytes() > 0);
    }

    /** Whether undecoded bytes wait in the cumulation. */
    final boolean hasBufferedInput() {
        return actualReadableBytes() > 0;
    }

    private void decode(ByteBuf in, List<Object> out, int from) {
        for (;;) {
            switch (state) {
                case SKIP_EMPTY_LINES -> {
                    // One message per call: what it produced is passed on (and perhaps answered) before the next.
                    if (out.size() > from || pauseBeforeNextObject()) {
                        return;
                    }
                    if (!skipEmptyLines(in)) {
                        return;
                    }
                    state = State.READ_INITIAL;
                }
                case READ_INITIAL -> {
                    int r = readLine(in, maxInitialLineLength);
                    if (r == NEED_MORE) {
                        return;
                    }
                    if (r == TOO_LONG) {
                        throw new TooLongHttpLineException("an HTTP " + (isDecodingRequest() ? "request" : "status")
                                + " line is longer than " + maxInitialLineLength + " bytes");
                    }
                    message = parseInitialLine(line, lineLength);
                    state = State.READ_HEADER;
                }
                case READ_HEADER -> {
                    if (!readHeaders(in, message.headers(), false)) {
                        return;
                    }
                    headersComplete(out);
                }
                case READ_FIXED_LENGTH_CONTENT -> {
                    int n = (int) Math.min(Math.min(remaining, maxChunkSize), in.readableBytes());
                    if (n == 0 || out.size() > from || pauseBeforeNextObject()) {
                        return;
                    }
                    ByteBuf content = in.readRetainedSlice(n);
                    remaining -= n;
                    if (remaining == 0) {
                        resetMessage();
                        out.add(new DefaultLastHttpContent(content));
                    } else {
                        out.add(new DefaultHttpContent(content));
                    }
                }
                case READ_VARIABLE_LENGTH_CONTENT -> {
                    int n = Math.min(maxChunkSize, in.readableBytes());
                    if (n == 0 || out.size() > from || pauseBeforeNextObject()) {
                        return;
                    }
                    out.add(new DefaultHttpContent(in.readRetainedSlice(n)));
                }
                case READ_CHUNK_SIZE -> {
                    int r = readLine(in, maxInitialLineLength);
                    if (r == NEED_MORE) {
                        return;
                    }
                    if (r == TOO_LONG) {
                        throw new InvalidHttpMessageException(HttpViolation.CHUNK_LINE_TOO_LONG,
                                "a chunk-size line is longer than " + maxInitialLineLength + " bytes");
                    }
                    long size = parseChunkSize(line, lineLength);
                    if (size > maxDeclaredChunkSize) {
                        // Refused now: waiting for gigabytes only holds the connection open for an attacker.
                        throw new InvalidHttpMessageException(HttpViolation.CHUNK_SIZE_TOO_LARGE, "a chunk size of "
                                + size + " bytes is above the limit of " + maxDeclaredChunkSize + " bytes");
                    }
                    if (size == 0) {
                        headerBytes = 0;
                        headerCount = 0;
                        state = State.READ_CHUNK_FOOTER;
                    } else {
                        addReceived(size);
                        remaining = size;
                        state = State.READ_CHUNKED_CONTENT;
                    }
                }
                case READ_CHUNKED_CONTENT -> {
                    int n = (int) Math.min(Math.min(remaining, maxChunkSize), in.readableBytes());
                    if (n == 0 || out.size() > from || pauseBeforeNextObject()) {
                        return;
                    }
                    remaining -= n;
                    if (remaining == 0) {
                        state = State.READ_CHUNK_DELIMITER;
                    }
                    out.add(new DefaultHttpContent(in.readRetainedSlice(n)));
                }
                case READ_CHUNK_DELIMITER -> {
                    if (!readChunkDelimiter(in)) {
                        return;
                    }
                    state = State.READ_CHUNK_SIZE;
                }
                case READ_CHUNK_FOOTER -> {
                    if (trailers == null) {
                        trailers = newTrailers();
                    }
                    if (!readHeaders(in, trailers, true)) {
                        return;
                    }
                    HttpHeaders t = trailers;
                    resetMessage();
                    out.add(t.isEmpty() ? LastHttpContent.EMPTY_LAST_CONTENT
                            : new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER, t));
                }
                case BAD_MESSAGE -> {
                    in.skipBytes(in.readableBytes());
                    return;
                }
                case UPGRADED -> {
                    int n = in.readableBytes();
                    if (n > 0) {
                        out.add(in.readRetainedSlice(n));
                    }
                    return;
                }
                default -> throw new IllegalStateException("unknown state: " + state);
            }
        }
    }

    @Override
    protected final void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int from = out.size();
        decodeLast(in, out);
        decoded(out, from);
    }

    private void decodeLast(ByteBuf in, List<Object> out) {
        switch (state) {
            case READ_VARIABLE_LENGTH_CONTENT -> {
                // RFC 9112 §6.3 (8): the close delimits a body with no other framing.
                resetMessage();
                out.add(LastHttpContent.EMPTY_LAST_CONTENT);
            }
            case SKIP_EMPTY_LINES, READ_INITIAL -> {
                if (in.isReadable()) {
                    fail(in, out, new PrematureChannelClosureException(
                            "the connection closed before the initial line was complete"));
                }
            }
            case READ_HEADER -> fail(in, out, new PrematureChannelClosureException(
                    "the connection closed before the header fields were complete"));
            case READ_FIXED_LENGTH_CONTENT, READ_CHUNK_SIZE, READ_CHUNKED_CONTENT, READ_CHUNK_DELIMITER,
                 READ_CHUNK_FOOTER -> fail(in, out, new PrematureChannelClosureException(
                         "the connection closed before the body was complete"));
            default -> {
                // Rejected or upgraded: nothing left to report.
            }
        }
    }

    private void headersComplete(List<Object> out) {
        HttpMessage m = message;
        boolean empty = isContentAlwaysEmpty(m);
        if (switchesToRawBytes(m)) {
            resetMessage();
            state = State.UPGRADED;
            out.add(m);
            out.add(LastHttpContent.EMPTY_LAST_CONTENT);
            return;
        }
        if (requireHost && !hostSeen && isDecodingRequest() && m.protocolVersion().equals(HttpVersion.HTTP_1_1)) {
            // RFC 9112 §3.2: a server MUST respond with 400 to an HTTP/1.1 request that lacks a Host field.
            throw new InvalidHttpMessageException(HttpViolation.MISSING_HOST, "an HTTP/1.1 request without Host");
        }
        if (empty) {
            // RFC 9112 §6.3 (1, 2): framing headers of a bodiless response describe the body it would have had.
            resetMessage();
            out.add(m);
            out.add(LastHttpContent.EMPTY_LAST_CONTENT);
            return;
        }
        if (transferEncoding) {
            if (contentLength >= 0) {
                // RFC 9112 §6.3 (3): both at once is the classic request-smuggling vector; refuse to pick one.
                throw new InvalidHttpMessageException(HttpViolation.CONTENT_LENGTH_WITH_TRANSFER_ENCODING,
                        "Content-Length and Transfer-Encoding are both present");
            }
            if (m.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
                // RFC 9112 §6.1: an HTTP/1.0 peer may not know chunked; its framing is faulty.
                throw new InvalidHttpMessageException(HttpViolation.TRANSFER_ENCODING_IN_HTTP_1_0,
                        "Transfer-Encoding in an HTTP/1.0 message");
            }
            if (isDecodingRequest()) {
                if (!chunkedLast) {
                    // RFC 9112 §6.3 (4): the request's length cannot be determined.
                    throw new InvalidHttpMessageException(HttpViolation.CHUNKED_NOT_FINAL,
                            "the final transfer coding of a request is not chunked");
                }
                if (unknownCoding) {
                    throw new InvalidHttpMessageException(HttpViolation.UNSUPPORTED_TRANSFER_CODING,
                            "a transfer coding other than chunked, gzip, deflate or compress");
                }
            }
            // RFC 9112 §6.3 (4): a response whose final coding is not chunked runs until the close.
            state = chunkedLast ? State.READ_CHUNK_SIZE : State.READ_VARIABLE_LENGTH_CONTENT;
            out.add(m);
            return;
        }
        long length = contentLength;
        if (length > maxContentLength) {
            throw new TooLongHttpContentException("Content-Length " + length + " is above the limit of "
                    + maxContentLength + " bytes");
        }
        if (length > 0) {
            remaining = length;
            state = State.READ_FIXED_LENGTH_CONTENT;
            out.add(m);
        } else if (length == 0 || isDecodingRequest()) {
            // RFC 9112 §6.3 (6): a request without framing headers has no body.
            resetMessage();
            out.add(m);
            out.add(LastHttpContent.EMPTY_LAST_CONTENT);
        } else {
            // RFC 9112 §6.3 (8)
            state = State.READ_VARIABLE_LENGTH_CONTENT;
            out.add(m);
        }
    }

    private void addReceived(long size) {
        long total = received + size;
        if (total < 0 || total > maxContentLength) {
            throw new TooLongHttpContentException("the chunked body is longer than the limit of "
                    + maxContentLength + " bytes");
        }
        received = total;
    }

    private void fail(ByteBuf in, List<Object> out, RuntimeException cause) {
        State was = state;
        state = State.BAD_MESSAGE;
        in.skipBytes(in.readableBytes());
        HttpMessage m = message;
        message = null;
        trailers = null;
        scannedBytes = 0;
        DecoderResult result = DecoderResult.failure(cause);
        if (was == State.SKIP_EMPTY_LINES || was == State.READ_INITIAL || was == State.READ_HEADER) {
            if (m == null) {
                m = createInvalidMessage();
            }
            m.setDecoderResult(result);
            out.add(m);
        } else {
            LastHttpContent last = new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER);
            last.setDecoderResult(result);
            out.add(last);
        }
    }

    private void resetMessage() {
        state = State.SKIP_EMPTY_LINES;
        message = null;
        trailers = null;
        scannedBytes = 0;
        headerBytes = 0;
        headerCount = 0;
        contentLength = -1;
        transferEncoding = false;
        chunkedSeen = false;
        chunkedLast = false;
        unknownCoding = false;
        hostSeen = false;
        emptyLines = 0;
        remaining = 0;
        received = 0;
    }

    private HttpHeaders newTrailers() {
        return new DefaultHttpHeaders(false);
    }

    // ---------------------------------------------------------------- lines

    /**
     * RFC 9112 §2.2: a server SHOULD ignore "at least one" empty line received before a request-line; this one
     * ignores a bounded number.
     */
    private boolean skipEmptyLines(ByteBuf in) {
        for (;;) {
            int r = in.readerIndex();
            int n = in.writerIndex() - r;
            if (n == 0) {
                return false;
            }
            byte b = in.getByte(r);
            int skip;
            if (b == CR) {
                if (n < 2) {
                    return false;
                }
                if (in.getByte(r + 1) != LF) {
                    return true;
                }
                skip = 2;
            } else if (b == LF && !strictLineEndings) {
                skip = 1;
            } else {
                return true;
            }
            if (++emptyLines > maxLeadingEmptyLines) {
                throw new InvalidHttpMessageException(HttpViolation.TOO_MANY_EMPTY_LINES,
                        "more than " + maxLeadingEmptyLines + " empty lines before the initial line");
            }
            in.skipBytes(skip);
        }
    }

    /**
     * Copies the next line, without its ending, into {@link #line}, provided it ends within {@code maxLength} bytes.
     *
     * @return {@link #LINE_READY}, {@link #NEED_MORE} or {@link #TOO_LONG}
     */
    private int readLine(ByteBuf in, int maxLength) {
        int r = in.readerIndex();
        int w = in.writerIndex();
        long windowEnd = (long) r + maxLength + 2;
        int end = (int) Math.min(w, windowEnd);
        int from = r + scannedBytes;
        int lf = from < end ? in.indexOf(from, end, LF) : -1;
        if (lf < 0) {
            scannedBytes = end - r;
            return end == windowEnd ? TOO_LONG : NEED_MORE;
        }
        scannedBytes = 0;
        int length = lf - r;
        if (length > 0 && in.getByte(lf - 1) == CR) {
            length--;
        } else if (strictLineEndings) {
            throw new InvalidHttpMessageException(HttpViolation.BARE_LF, "a line ends with LF without CR");
        }
        if (length > maxLength) {
            return TOO_LONG;
        }
        byte[] buf = line;
        if (buf.length < length) {
            buf = new byte[Math.max(length, buf.length << 1)];
            LINES.set(buf);
        }
        line = buf;
        in.getBytes(r, buf, 0, length);
        in.readerIndex(lf + 1);
        lineLength = length;
        return LINE_READY;
    }

    /**
     * Reads header (or trailer) lines into {@code headers} until the empty line.
     *
     * @return whether the empty line was reached
     */
    private boolean readHeaders(ByteBuf in, HttpHeaders headers, boolean trailer) {
        for (;;) {
            int r = readLine(in, maxHeaderSize - headerBytes);
            if (r == NEED_MORE) {
                return false;
            }
            if (r == TOO_LONG) {
                throw new TooLongHttpHeaderException("the " + (trailer ? "trailer" : "header")
                        + " fields are larger than " + maxHeaderSize + " bytes");
            }
            int length = lineLength;
            if (length == 0) {
                return true;
            }
            headerBytes += length;
            if (++headerCount > maxHeaderCount) {
                throw new TooLongHttpHeaderException("more than " + maxHeaderCount + ' '
                        + (trailer ? "trailer" : "header") + " fields");
            }
            parseFieldLine(headers, trailer, line, length);
        }
    }

    /** RFC 9112 §5: field-line = field-name ":" OWS field-value OWS. */
    private void parseFieldLine(HttpHeaders headers, boolean trailer, byte[] b, int length) {
        if (isOws(b[0])) {
            throw new InvalidHttpMessageException(HttpViolation.OBS_FOLD,
                    "a field line starts with whitespace (obsolete line folding)");
        }
        boolean[] names = nameTable;
        int nameEnd = 0;
        while (nameEnd < length && names[b[nameEnd] & 0xFF]) {
            nameEnd++;
        }
        if (nameEnd == length) {
            throw new InvalidHttpMessageException(HttpViolation.INVALID_FIELD_NAME, "a field line without a colon");
        }
        byte stop = b[nameEnd];
        if (stop != COLON) {
            if (isOws(stop)) {
                // RFC 9112 §5.1: MUST be rejected; proxies disagree on what such a name means.
                throw new InvalidHttpMessageException(HttpViolation.WHITESPACE_BEFORE_COLON,
                        "whitespace between a field name and its colon");
            }
            throw invalidByte(stop, HttpViolation.INVALID_FIELD_NAME, "in a field name");
        }
        if (nameEnd == 0) {
            throw new InvalidHttpMessageException(HttpViolation.INVALID_FIELD_NAME, "an empty field name");
        }
        int valueStart = nameEnd + 1;
        while (valueStart < length && isOws(b[valueStart])) {
            valueStart++;
        }
        int valueEnd = length;
        while (valueEnd > valueStart && isOws(b[valueEnd - 1])) {
            valueEnd--;
        }
        boolean[] values = valueTable;
        for (int i = valueStart; i < valueEnd; i++) {
            if (!values[b[i] & 0xFF]) {
                throw invalidByte(b[i], HttpViolation.CONTROL_CHARACTER, "in a field value");
            }
        }
        if (trailer) {
            // RFC 9110 §6.5.1: framing, routing and the trailer list itself have no meaning as trailers.
            if (HttpByteClasses.equalsLowerCase(b, 0, nameEnd, CONTENT_LENGTH)
                    || HttpByteClasses.equalsLowerCase(b, 0, nameEnd, TRANSFER_ENCODING)
                    || HttpByteClasses.equalsLowerCase(b, 0, nameEnd, TRAILER)
                    || HttpByteClasses.equalsLowerCase(b, 0, nameEnd, HOST)) {
                return;
            }
        } else if (HttpByteClasses.equalsLowerCase(b, 0, nameEnd, CONTENT_LENGTH)) {
            if (!contentLength(headers, b, valueStart, valueEnd)) {
                return;
            }
        } else if (HttpByteClasses.equalsLowerCase(b, 0, nameEnd, TRANSFER_ENCODING)) {
            transferEncoding(b, valueStart, valueEnd);
        } else if (HttpByteClasses.equalsLowerCase(b, 0, nameEnd, HOST) && isDecodingRequest()) {
            if (hostSeen) {
                // RFC 9112 §3.2: MUST answer 400; two hosts let a proxy and a server route one request apart.
                throw new InvalidHttpMessageException(HttpViolation.DUPLICATE_HOST, "more than one Host field");
            }
            hostSeen = true;
            AsciiString host = lastHost;
            if (host == null || !sameBytes(host, b, valueStart, valueEnd)) {
                // The same bytes as the previous Host passed this check already.
                HttpSyntax.checkHost(b, valueStart, valueEnd);
                host = new AsciiString(b, valueStart, valueEnd - valueStart, true);
                lastHost = host;
            }
            headers.add(fieldName(b, nameEnd), host);
            return;
        }
        headers.add(fieldName(b, nameEnd), new AsciiString(b, valueStart, valueEnd - valueStart, true));
    }

    /** The name in {@code b[0, length)}: a shared constant when it is a common one, else a copy. */
    private static AsciiString fieldName(byte[] b, int length) {
        AsciiString known = HttpFieldNameCache.find(b, length);
        return known != null ? known : new AsciiString(b, 0, length, true);
    }

    /** Whether {@code s} holds exactly the bytes {@code b[from, to)}. */
    static boolean sameBytes(AsciiString s, byte[] b, int from, int to) {
        int offset = s.arrayOffset();
        return s.length() == to - from && java.util.Arrays.equals(s.array(), offset, offset + s.length(), b, from, to);
    }

    /**
     * RFC 9112 §6.3 (5): Content-Length = 1*DIGIT, possibly repeated as a list or in several lines; identical
     * values collapse into one, different values are rejected.
     *
     * @return whether the line should be added as it is (false: dropped, or added normalised here)
     */
    private boolean contentLength(HttpHeaders headers, byte[] b, int start, int end) {
        long value = -1;
        int elements = 0;
        int i = start;
        for (;;) {
            while (i < end && isOws(b[i])) {
                i++;
            }
            int digitsStart = i;
            long v = 0;
            while (i < end && b[i] >= '0' && b[i] <= '9') {
                int d = b[i] - '0';
                if (v > (Long.MAX_VALUE - d) / 10) {
                    throw new InvalidHttpMessageException(HttpViolation.INVALID_CONTENT_LENGTH,
                            "a Content-Length that does not fit in 63 bits");
                }
                v = v * 10 + d;
                i++;
            }
            if (i == digitsStart) {
                throw new InvalidHttpMessageException(HttpViolation.INVALID_CONTENT_LENGTH,
                        "a Content-Length that is not a decimal number");
            }
            while (i < end && isOws(b[i])) {
                i++;
            }
            if (value >= 0 && v != value) {
                throw new InvalidHttpMessageException(HttpViolation.CONFLICTING_CONTENT_LENGTH,
                        "Content-Length values " + value + " and " + v);
            }
            value = v;
            elements++;
            if (i == end) {
                break;
            }
            if (b[i] != ',') {
                throw new InvalidHttpMessageException(HttpViolation.INVALID_CONTENT_LENGTH,
                        "a Content-Length that is not a decimal number");
            }
            i++;
        }
        if (contentLength >= 0 && contentLength != value) {
            throw new InvalidHttpMessageException(HttpViolation.CONFLICTING_CONTENT_LENGTH,
                    "Content-Length values " + contentLength + " and " + value);
        }
        if ((elements > 1 || contentLength >= 0) && isDecodingRequest()) {
            // RFC 9110 §8.6 allows collapsing identical values; a server is stricter, as a parser in front of it
            // may not collapse them (responses, where a client has no such peer, still collapse).
            throw new InvalidHttpMessageException(HttpViolation.CONTENT_LENGTH_LIST,
                    "a Content-Length list or repeated Content-Length field");
        }
        if (contentLength >= 0) {
            return false;
        }
        contentLength = value;
        if (elements > 1) {
            headers.add(HttpHeaderNames.CONTENT_LENGTH, new AsciiString(Long.toString(value)));
            return false;
        }
        return true;
    }

    /** RFC 9112 §6.1: Transfer-Encoding = #transfer-coding, applied in order; chunked exactly once, last. */
    private void transferEncoding(byte[] b, int start, int end) {
        transferEncoding = true;
        int i = start;
        while (i < end) {
            while (i < end && (isOws(b[i]) || b[i] == ',')) {
                i++;
            }
            if (i == end) {
                break;
            }
            int nameStart = i;
            while (i < end && HttpByteClasses.TCHAR[b[i] & 0xFF]) {
                i++;
            }
            int nameEnd = i;
            if (nameEnd == nameStart) {
                throw new InvalidHttpMessageException(HttpViolation.INVALID_TRANSFER_ENCODING,
                        "a Transfer-Encoding element that is not a token");
            }
            while (i < end && isOws(b[i])) {
                i++;
            }
            boolean parameters = i < end && b[i] == ';';
            if (i < end && b[i] != ',' && !parameters) {
                throw new InvalidHttpMessageException(HttpViolation.INVALID_TRANSFER_ENCODING,
                        "a Transfer-Encoding element that is not a token");
            }
            if (parameters) {
                // Parameters belong to codings Weir does not undo; skip them up to the next element.
                while (i < end && b[i] != ',') {
                    i++;
                }
            }
            int nameLength = nameEnd - nameStart;
            if (HttpByteClasses.equalsLowerCase(b, nameStart, nameLength, CHUNKED)) {
                if (chunkedSeen || parameters) {
                    // RFC 9112 §6.1: a sender MUST NOT apply chunked more than once; it takes no parameters.
                    throw new InvalidHttpMessageException(HttpViolation.CHUNKED_NOT_FINAL,
                            "chunked applied more than once, or with parameters");
                }
                chunkedSeen = true;
                chunkedLast = true;
            } else {
                chunkedLast = false;
                if (!isKnownCoding(b, nameStart, nameLength)) {
                    unknownCoding = true;
                }
            }
        }
    }

    private static boolean isKnownCoding(byte[] b, int start, int length) {
        for (byte[] coding : KNOWN_CODINGS) {
            if (HttpByteClasses.equalsLowerCase(b, start, length, coding)) {
                return true;
            }
        }
        return false;
    }

    /** RFC 9112 §7.1: chunk-size [ chunk-ext ], chunk-ext = *( BWS ";" BWS ext-name [ BWS "=" BWS ext-val ] ). */
    private static long parseChunkSize(byte[] b, int length) {
        long size = 0;
        int i = 0;
        while (i < length) {
            int digit = HttpByteClasses.HEX[b[i] & 0xFF];
            if (digit < 0) {
                break;
            }
            if (size > (Long.MAX_VALUE >>> 4)) {
                throw new InvalidHttpMessageException(HttpViolation.INVALID_CHUNK_SIZE,
                        "a chunk size that does not fit in 63 bits");
            }
            size = size << 4 | digit;
            i++;
        }
        if (i == 0) {
            throw new InvalidHttpMessageException(HttpViolation.INVALID_CHUNK_SIZE,
                    "a chunk size that is not hexadecimal");
        }
        if (i < length) {
            int j = i;
            while (j < length && isOws(b[j])) {
                j++;
            }
            if (j == length || b[j] != ';') {
                if (j < length && isControl(b[j])) {
                    throw invalidByte(b[j], HttpViolation.INVALID_CHUNK_EXTENSION, "in a chunk extension");
                }
                throw new InvalidHttpMessageException(HttpViolation.INVALID_CHUNK_SIZE,
                        "a chunk size followed by something other than an extension");
            }
            HttpSyntax.checkChunkExtensions(b, j, length);
        }
        return size;
    }

    private boolean readChunkDelimiter(ByteBuf in) {
        int r = in.readerIndex();
        int n = in.writerIndex() - r;
        if (n == 0) {
            return false;
        }
        byte b = in.getByte(r);
        if (b == CR) {
            if (n < 2) {
                return false;
            }
            if (in.getByte(r + 1) != LF) {
                throw new InvalidHttpMessageException(HttpViolation.BARE_CR, "a CR without LF after chunk data");
            }
            in.skipBytes(2);
            return true;
        }
        if (b == LF) {
            if (strictLineEndings) {
                throw new InvalidHttpMessageException(HttpViolation.BARE_LF, "chunk data ends with LF without CR");
            }
            in.skipBytes(1);
            return true;
        }
        throw new InvalidHttpMessageException(HttpViolation.INVALID_CHUNK_DELIMITER,
                "chunk data longer than its chunk size");
    }

    // ---------------------------------------------------------------- helpers for initial lines

    /**
     * The exception for byte {@code b} found where it does not belong: a bare CR and other control characters get
     * their own violations, anything else gets {@code otherwise}.
     */
    static InvalidHttpMessageException invalidByte(byte b, HttpViolation otherwise, String where) {
        if (b == CR) {
            return new InvalidHttpMessageException(
                    otherwise == HttpViolation.INVALID_CHUNK_EXTENSION ? otherwise : HttpViolation.BARE_CR,
                    "a CR without LF " + where);
        }
        if (isControl(b)) {
            return new InvalidHttpMessageException(
                    otherwise == HttpViolation.INVALID_CHUNK_EXTENSION ? otherwise : HttpViolation.CONTROL_CHARACTER,
                    "control character 0x" + Integer.toHexString(b & 0xFF) + ' ' + where);
        }
        return new InvalidHttpMessageException(otherwise, "byte 0x" + Integer.toHexString(b & 0xFF) + ' ' + where);
    }

    /**
     * Parses {@code HTTP/DIGIT.DIGIT} in {@code b[from, to)} (RFC 9112 §2.3).
     *
     * @throws InvalidHttpMessageException if malformed, or a version other than 1.0 and 1.1
     */
    static HttpVersion parseVersion(byte[] b, int from, int to) {
        if (to - from != 8 || b[from] != 'H' || b[from + 1] != 'T' || b[from + 2] != 'T' || b[from + 3] != 'P'
                || b[from + 4] != '/' || b[from + 6] != '.' || !isDigit(b[from + 5]) || !isDigit(b[from + 7])) {
            for (int i = from; i < to; i++) {
                if (isControl(b[i])) {
                    throw invalidByte(b[i], HttpViolation.INVALID_VERSION, "in the HTTP version");
                }
            }
            throw new InvalidHttpMessageException(HttpViolation.INVALID_VERSION,
                    "'" + new String(b, from, to - from, StandardCharsets.ISO_8859_1) + "' is not an HTTP version");
        }
        if (b[from + 5] == '1') {
            if (b[from + 7] == '1') {
                return HttpVersion.HTTP_1_1;
            }
            if (b[from + 7] == '0') {
                return HttpVersion.HTTP_1_0;
            }
        }
        throw new InvalidHttpMessageException(HttpViolation.UNSUPPORTED_VERSION,
                "HTTP/" + (char) b[from + 5] + '.' + (char) b[from + 7] + " is not supported");
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }
}
