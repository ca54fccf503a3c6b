package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpByteClasses.SP;

import io.weir.buffer.Unpooled;
import java.nio.charset.StandardCharsets;

/**
 * Decodes HTTP/1.1 responses: an {@link HttpResponse}, its {@link HttpContent}s, then a {@link LastHttpContent}.
 * See {@link HttpObjectDecoder} for the framing rules, the rejections and buffer ownership.
 *
 * <p>A response's body depends on the request it answers (RFC 9112 §6.3): on its own this decoder knows only
 * that 1xx, 204 and 304 responses have none, and that a 101 response switches the connection to raw bytes. A
 * response to HEAD or CONNECT needs {@link HttpClientCodec}, which pairs each response with its request, or a
 * subclass overriding {@link #isContentAlwaysEmpty}. A response with no framing header runs until the connection
 * closes.
 */
public class HttpResponseDecoder extends HttpObjectDecoder {
    private static final int STATUS_LINE_MIN_BYTES = 12;

    /** A decoder with the {@link HttpDecoderConfig} defaults. */
    public HttpResponseDecoder() {
        this(new HttpDecoderConfig());
    }

    /**
     * A decoder with the given limits and the other defaults.
     *
     * @throws IllegalArgumentException if a limit is not positive
     */
    public HttpResponseDecoder(int maxInitialLineLength, int maxHeaderSize, int maxChunkSize) {
        this(new HttpDecoderConfig().setMaxInitialLineLength(maxInitialLineLength).setMaxHeaderSize(maxHeaderSize)
                .setMaxChunkSize(maxChunkSize));
    }

    /**
     * A decoder with the given configuration, copied now.
     *
     * @throws NullPointerException if {@code config} is null
     */
    public HttpResponseDecoder(HttpDecoderConfig config) {
        super(config);
    }

    @Override
    final boolean isDecodingRequest() {
        return false;
    }

    /** RFC 9112 §6.3 (1): 1xx, 204 and 304 responses never have a body. */
    @Override
    protected boolean isContentAlwaysEmpty(HttpMessage msg) {
        if (msg instanceof HttpResponse res) {
            int code = res.status().code();
            return code < 200 || code == 204 || code == 304;
        }
        return false;
    }

    @Override
    boolean switchesToRawBytes(HttpMessage msg) {
        return msg instanceof HttpResponse res && res.status().code() == 101;
    }

    /** RFC 9112 §4: status-line = HTTP-version SP status-code SP [ reason-phrase ]. */
    @Override
    final HttpMessage parseInitialLine(byte[] b, int length) {
        if (length < 8) {
            throw new InvalidHttpMessageException(HttpViolation.INVALID_VERSION, "a status line too short for a "
                    + "version");
        }
        HttpVersion version = parseVersion(b, 0, 8);
        if (length < STATUS_LINE_MIN_BYTES || b[8] != SP || !isDigit(b[9]) || !isDigit(b[10]) || !isDigit(b[11])
                || b[9] == '0') {
            throw new InvalidHttpMessageException(HttpViolation.INVALID_STATUS, "a status code that is not three "
                    + "digits from 100 to 999");
        }
        int code = (b[9] - '0') * 100 + (b[10] - '0') * 10 + (b[11] - '0');
        String reason = "";
        if (length > STATUS_LINE_MIN_BYTES) {
            // A missing SP after an empty reason is common enough to accept; anything else there is not.
            if (b[STATUS_LINE_MIN_BYTES] != SP) {
                throw new InvalidHttpMessageException(HttpViolation.INVALID_STATUS, "a status code longer than three "
                        + "digits");
            }
            int start = STATUS_LINE_MIN_BYTES + 1;
            for (int i = start; i < length; i++) {
                if (!HttpByteClasses.REASON[b[i] & 0xFF]) {
                    throw invalidByte(b[i], HttpViolation.INVALID_REASON_PHRASE, "in the reason phrase");
                }
            }
            reason = new String(b, start, length - start, StandardCharsets.ISO_8859_1);
        }
        return new DefaultHttpResponse(version, HttpResponseStatus.valueOf(code, reason),
                new DefaultHttpHeaders(false));
    }

    @Override
    final HttpMessage createInvalidMessage() {
        return new DefaultFullHttpResponse(HttpVersion.HTTP_1_0, HttpResponseStatus.BAD_GATEWAY,
                Unpooled.EMPTY_BUFFER);
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }
}
