package io.weir.handler.codec.http.multipart;

import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpRequest;
import io.weir.handler.codec.http.multipart.HttpPostRequestDecoder.ErrorDataDecoderException;
import io.weir.handler.codec.http.multipart.HttpPostRequestDecoder.TooLongFormFieldException;
import java.io.IOException;
import java.nio.charset.Charset;

/**
 * Decodes an {@code application/x-www-form-urlencoded} body ({@code name=value&name=value}, {@code +} for space,
 * {@code %XX} bytes decoded with the request's charset, else the decoder's), chunk by chunk.
 *
 * <p>A field is decoded when its {@code &} (or the end of the body) arrives; until then its encoded bytes wait in
 * the undecoded buffer, bounded by {@link HttpPostDecoderConfig#maxFieldSizeBytes()}. The search for {@code &}
 * resumes where the previous one stopped, so a field arriving byte by byte is scanned once.
 * {@link #currentPartialHttpData()} is always {@code null}: a field becomes an item only once complete. A malformed
 * percent-encoding or a field without a name is an {@link ErrorDataDecoderException}. Single-threaded; see
 * {@link InterfaceHttpPostRequestDecoder} for ownership.
 */
public final class HttpPostStandardRequestDecoder extends AbstractPostBodyDecoder {
    /** Bytes after the reader index known to hold no {@code &}. */
    private int scanned;
    private byte[] scratch = new byte[64];

    /**
     * A decoder for {@code request}; content carried by the request itself is offered now.
     *
     * @param charset used unless the {@code Content-Type} names a charset
     */
    public HttpPostStandardRequestDecoder(HttpDataFactory factory, HttpRequest request, Charset charset,
                                          HttpPostDecoderConfig config) {
        super(factory, request, charset, config);
        String contentType = request.headers().get(HttpHeaderNames.CONTENT_TYPE);
        if (contentType != null) {
            this.charset = HeaderParams.charset(HeaderParams.parse(contentType), charset);
        }
        offerOwnContent();
    }

    @Override
    public boolean isMultipart() {
        return false;
    }

    @Override
    public InterfaceHttpData currentPartialHttpData() {
        return null;
    }

    @Override
    void parse() throws IOException {
        while (true) {
            int r = undecoded.readerIndex();
            int w = undecoded.writerIndex();
            int amp = undecoded.indexOf(r + scanned, w, (byte) '&');
            if (amp < 0) {
                scanned = w - r;
                if (scanned > config.maxFieldSizeBytes()) {
                    throw new TooLongFormFieldException("a form field exceeds " + config.maxFieldSizeBytes()
                            + " encoded bytes");
                }
                if (!lastChunkSeen || r == w) {
                    return;
                }
                amp = w;
            }
            if (amp - r > config.maxFieldSizeBytes()) {
                throw new TooLongFormFieldException("a form field exceeds " + config.maxFieldSizeBytes()
                        + " encoded bytes");
            }
            scanned = 0;
            undecoded.readerIndex(Math.min(amp + 1, w));
            decodeField(r, amp);
        }
    }

    private void decodeField(int start, int end) throws IOException {
        if (start == end) {
            return;
        }
        int eq = undecoded.indexOf(start, end, (byte) '=');
        int nameEnd = eq < 0 ? end : eq;
        int nameLength = percentDecode(start, nameEnd);
        if (nameLength == 0) {
            throw new ErrorDataDecoderException("form field without a name");
        }
        String name = new String(scratch, 0, nameLength, charset);
        countField();
        Attribute attribute = factory.createAttribute(request, name);
        try {
            attribute.setCharset(charset);
            int valueLength = eq < 0 ? 0 : percentDecode(eq + 1, end);
            if (attribute instanceof AbstractHttpData own) {
                own.append(scratch, 0, valueLength);
            } else {
                attribute.addContent(io.weir.buffer.Unpooled.copiedBuffer(scratch, 0, valueLength), false);
            }
        } catch (IOException | RuntimeException e) {
            releaseQuietly(attribute);
            throw e;
        }
        addCompleted(attribute);
    }

    /** Decodes {@code [start, end)} into {@link #scratch}; returns the decoded length. */
    private int percentDecode(int start, int end) {
        int length = end - start;
        if (scratch.length < length) {
            scratch = new byte[Math.max(length, scratch.length * 2)];
        }
        undecoded.getBytes(start, scratch, 0, length);
        int out = 0;
        for (int i = 0; i < length; i++) {
            byte b = scratch[i];
            if (b == '+') {
                scratch[out++] = ' ';
            } else if (b == '%') {
                if (i + 2 >= length) {
                    throw new ErrorDataDecoderException("truncated percent-encoding in a form field");
                }
                int hi = Character.digit(scratch[i + 1], 16);
                int lo = Character.digit(scratch[i + 2], 16);
                if (hi < 0 || lo < 0) {
                    throw new ErrorDataDecoderException("invalid percent-encoding in a form field");
                }
                scratch[out++] = (byte) (hi << 4 | lo);
                i += 2;
            } else {
                scratch[out++] = b;
            }
        }
        return out;
    }

    @Override
    void checkEnd() {
        // Any bytes left were the last field and have been decoded: nothing can be incomplete.
    }

    @Override
    void releasePartial() {
        // No partial item exists: fields are created complete.
    }
}
