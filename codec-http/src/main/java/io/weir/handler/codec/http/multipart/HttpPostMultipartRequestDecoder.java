package io.weir.handler.codec.http.multipart;

import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpRequest;
import io.weir.handler.codec.http.multipart.HttpPostRequestDecoder.ErrorDataDecoderException;
import io.weir.handler.codec.http.multipart.HttpPostRequestDecoder.TooLongFormFieldException;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Decodes a {@code multipart/form-data} body (RFC 7578 over RFC 2046 §5.1), including one level of nested
 * {@code multipart/mixed} (several files under one field name, RFC 7578 §4.3's older form), chunk by chunk.
 *
 * <p><b>Cost.</b> Part content is copied out to its item as soon as it cannot be the start of a delimiter, so at
 * most a delimiter's length minus one byte stays behind a scan and is looked at again when more bytes arrive: a
 * body arriving one byte at a time is scanned in linear time. The delimiter search ({@link DelimiterSearch}) reads
 * the undecoded buffer's array directly and usually moves on by several delimiter lengths per two bytes read; no
 * slice or duplicate is made, so the cost does not depend on the leak-detection level. File parts stream to disk
 * as they arrive when the factory says so, so uploads of hundreds of MiB need no more heap than the buffered-bytes
 * limit.
 *
 * <p>Part headers must end in CRLF; a part needs {@code Content-Disposition: form-data; name=...}; only the
 * {@code 7bit}, {@code 8bit} and {@code binary} transfer encodings are accepted (RFC 7578 §4.7 deprecates the
 * others). File names lose any directory part ({@code filename*} of RFC 8187 is preferred when present).
 * Single-threaded; see {@link InterfaceHttpPostRequestDecoder} for ownership.
 */
public final class HttpPostMultipartRequestDecoder extends AbstractPostBodyDecoder {
    /** RFC 2046 §5.1.1: a boundary is 1 to 70 characters. */
    static final int MAX_BOUNDARY_LENGTH = 70;
    private static final byte CR = '\r';
    private static final byte LF = '\n';
    private static final String DEFAULT_FILE_CONTENT_TYPE = "application/octet-stream";

    private enum State { PREAMBLE, DELIMITER_TAIL, HEADERS, BODY, EPILOGUE }

    /** {@code CRLF--boundary} of the form. */
    private final DelimiterSearch formDelimiter;
    /** {@code CRLF--boundary} of the multipart/mixed part being read, or {@code null}. */
    private DelimiterSearch mixedDelimiter;
    private String mixedFieldName;
    private State state = State.PREAMBLE;
    /** Whether the delimiter may still come without its CRLF (at the very start of a multipart body). */
    private boolean atBodyStart = true;
    /** Bytes after the reader index already known to hold no LF (header line scan). */
    private int lineScanned;
    private int headerBlockBytes;
    private String partDisposition;
    private String partContentType;
    private String partTransferEncoding;
    private HttpData current;

    /**
     * A decoder for {@code request}, whose {@code Content-Type} must be {@code multipart/form-data} with a
     * boundary. Content carried by the request itself is offered now.
     *
     * @throws ErrorDataDecoderException if the boundary is missing or not 1 to 70 characters
     */
    public HttpPostMultipartRequestDecoder(HttpDataFactory factory, HttpRequest request, Charset charset,
                                           HttpPostDecoderConfig config) {
        super(factory, request, charset, config);
        String contentType = request.headers().get(HttpHeaderNames.CONTENT_TYPE);
        if (contentType == null) {
            throw new ErrorDataDecoderException("no Content-Type");
        }
        HeaderParams params = HeaderParams.parse(contentType);
        if (!params.value.equals("multipart/form-data")) {
            throw new ErrorDataDecoderException("not multipart/form-data: " + contentType);
        }
        this.charset = HeaderParams.charset(params, charset);
        formDelimiter = delimiter(params.get("boundary"));
        offerOwnContent();
    }

    private static DelimiterSearch delimiter(String boundary) {
        if (boundary == null || boundary.isEmpty() || boundary.length() > MAX_BOUNDARY_LENGTH) {
            throw new ErrorDataDecoderException("boundary must be 1 to " + MAX_BOUNDARY_LENGTH + " characters: "
                    + boundary);
        }
        byte[] b = ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        for (int i = 4; i < b.length; i++) {
            if (b[i] < 0x20 || b[i] == 0x7f || boundary.charAt(i - 4) > 0xff) {
                throw new ErrorDataDecoderException("boundary holds a control or non-Latin-1 character");
            }
        }
        return new DelimiterSearch(b);
    }

    @Override
    public boolean isMultipart() {
        return true;
    }

    @Override
    public InterfaceHttpData currentPartialHttpData() {
        return current;
    }

    private DelimiterSearch delimiter() {
        return mixedDelimiter != null ? mixedDelimiter : formDelimiter;
    }

    @Override
    void parse() throws IOException {
        boolean progress = true;
        while (progress) {
            progress = switch (state) {
                case PREAMBLE -> skipPreamble();
                case DELIMITER_TAIL -> readDelimiterTail();
                case HEADERS -> readHeaders();
                case BODY -> readBody();
                case EPILOGUE -> {
                    undecoded.skipBytes(undecoded.readableBytes());
                    yield false;
                }
            };
        }
    }

    @Override
    void checkEnd() {
        if (state != State.EPILOGUE) {
            throw new ErrorDataDecoderException("body ended before its close delimiter (in " + state + ")");
        }
    }

    @Override
    void releasePartial() {
        HttpData partial = current;
        current = null;
        releaseQuietly(partial);
    }

    /**
     * Finds {@code delim} in {@code [from, to)} of the undecoded buffer.
     *
     * @return its index, or {@code -1 - safe} where {@code safe} is the index before which no delimiter can start
     *         (the start of a partial match at the end of the bytes, or {@code to})
     */
    private int findDelimiter(DelimiterSearch delim, int from, int to) {
        int base = undecoded.arrayOffset();
        int found = delim.find(undecoded.array(), base + from, base + to);
        return found >= 0 ? found - base : found + base;
    }

    /** Whether the bytes at the reader index start with {@code delim} minus its CRLF: 1 yes, 0 not yet known, -1 no. */
    private int matchesBareDelimiter(DelimiterSearch delim) {
        int r = undecoded.readerIndex();
        int avail = Math.min(delim.length() - 2, undecoded.readableBytes());
        for (int k = 0; k < avail; k++) {
            if (undecoded.getByte(r + k) != delim.byteAt(k + 2)) {
                return -1;
            }
        }
        return avail == delim.length() - 2 ? 1 : 0;
    }

    private boolean skipPreamble() {
        DelimiterSearch delim = delimiter();
        if (atBodyStart) {
            // RFC 2046 §5.1.1: the CRLF before the first delimiter belongs to it, but a body may start with it.
            int bare = matchesBareDelimiter(delim);
            if (bare == 0) {
                return false;
            }
            atBodyStart = false;
            if (bare > 0) {
                undecoded.skipBytes(delim.length() - 2);
                state = State.DELIMITER_TAIL;
                return true;
            }
        }
        int found = findDelimiter(delim, undecoded.readerIndex(), undecoded.writerIndex());
        if (found >= 0) {
            undecoded.readerIndex(found + delim.length());
            state = State.DELIMITER_TAIL;
            return true;
        }
        undecoded.readerIndex(-1 - found);
        return false;
    }

    private boolean readDelimiterTail() {
        int r = undecoded.readerIndex();
        int w = undecoded.writerIndex();
        if (w - r < 2) {
            return false;
        }
        byte b0 = undecoded.getByte(r);
        byte b1 = undecoded.getByte(r + 1);
        if (b0 == '-' && b1 == '-') {
            undecoded.readerIndex(r + 2);
            if (mixedDelimiter != null) {
                // The close delimiter of the nested body: what follows up to the form's delimiter is its epilogue.
                mixedDelimiter = null;
                mixedFieldName = null;
                current = null;
                state = State.BODY;
            } else {
                state = State.EPILOGUE;
            }
            return true;
        }
        // RFC 2046 §5.1.1: transport padding (linear white space) may precede the CRLF.
        int i = r;
        while (i < w && (undecoded.getByte(i) == ' ' || undecoded.getByte(i) == '\t')) {
            i++;
        }
        undecoded.readerIndex(i);
        if (w - i < 2) {
            return false;
        }
        if (undecoded.getByte(i) != CR || undecoded.getByte(i + 1) != LF) {
            throw new ErrorDataDecoderException("boundary not followed by CRLF");
        }
        undecoded.readerIndex(i + 2);
        state = State.HEADERS;
        lineScanned = 0;
        headerBlockBytes = 0;
        partDisposition = null;
        partContentType = null;
        partTransferEncoding = null;
        return true;
    }

    private boolean readHeaders() throws IOException {
        while (true) {
            int r = undecoded.readerIndex();
            int w = undecoded.writerIndex();
            int lf = undecoded.indexOf(r + lineScanned, w, LF);
            if (lf < 0) {
                lineScanned = w - r;
                checkHeaderBlock(headerBlockBytes + lineScanned);
                return false;
            }
            lineScanned = 0;
            headerBlockBytes += lf + 1 - r;
            checkHeaderBlock(headerBlockBytes);
            if (lf == r || undecoded.getByte(lf - 1) != CR) {
                throw new ErrorDataDecoderException("part header line not ended by CRLF");
            }
            int lineLength = lf - 1 - r;
            undecoded.readerIndex(lf + 1);
            if (lineLength == 0) {
                startPart();
                return true;
            }
            byte[] line = new byte[lineLength];
            undecoded.getBytes(r, line);
            headerLine(new String(line, HeaderParams.HEADER_CHARSET));
        }
    }

    private void checkHeaderBlock(int bytes) {
        if (bytes > config.maxPartHeaderSizeBytes()) {
            throw new TooLongFormFieldException("part headers exceed " + config.maxPartHeaderSizeBytes() + " bytes");
        }
    }

    private void headerLine(String line) {
        int colon = line.indexOf(':');
        // No obs-fold (RFC 9112 §5.2) and no space before the colon: anything else is garbage, not a header.
        if (colon <= 0 || line.charAt(0) == ' ' || line.charAt(0) == '\t' || line.charAt(colon - 1) == ' '
                || line.charAt(colon - 1) == '\t') {
            throw new ErrorDataDecoderException("malformed part header: " + abbreviate(line));
        }
        String name = line.substring(0, colon);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c <= ' ' || c >= 0x7f || "\"(),/:;<=>?@[\\]{}".indexOf(c) >= 0) {
                throw new ErrorDataDecoderException("malformed part header name: " + abbreviate(name));
            }
        }
        String value = line.substring(colon + 1).trim();
        switch (name.toLowerCase(Locale.ROOT)) {
            case "content-disposition" -> partDisposition = value;
            case "content-type" -> partContentType = value;
            case "content-transfer-encoding" -> partTransferEncoding = value;
            default -> {
                // Other part headers (Content-Length, Content-ID...) carry nothing a form item needs.
            }
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "...";
    }

    private void startPart() throws IOException {
        HeaderParams disposition = partDisposition == null ? null : HeaderParams.parse(partDisposition);
        HeaderParams type = partContentType == null ? null : HeaderParams.parse(partContentType);
        String transferEncoding = partTransferEncoding == null ? null
                : partTransferEncoding.toLowerCase(Locale.ROOT);
        if (transferEncoding != null && !transferEncoding.equals("7bit") && !transferEncoding.equals("8bit")
                && !transferEncoding.equals("binary")) {
            // RFC 7578 §4.7: senders must not use other encodings; decoding base64 here would hide that.
            throw new ErrorDataDecoderException("unsupported Content-Transfer-Encoding: " + partTransferEncoding);
        }
        String name;
        String filename;
        if (mixedDelimiter != null) {
            // RFC 7578 §4.3 (older form): parts of a nested multipart/mixed are files of the enclosing field.
            name = mixedFieldName;
            filename = disposition == null ? "" : filename(disposition);
            if (filename == null) {
                filename = "";
            }
        } else {
            if (disposition == null) {
                throw new ErrorDataDecoderException("part without Content-Disposition");
            }
            if (!disposition.value.equals("form-data")) {
                throw new ErrorDataDecoderException("Content-Disposition is not form-data: " + disposition.value);
            }
            name = disposition.get("name");
            if (name == null || name.isEmpty()) {
                throw new ErrorDataDecoderException("Content-Disposition without a field name");
            }
            filename = filename(disposition);
            if (type != null && type.value.equals("multipart/mixed")) {
                mixedDelimiter = delimiter(type.get("boundary"));
                mixedFieldName = name;
                atBodyStart = true;
                state = State.PREAMBLE;
                return;
            }
        }
        countField();
        if (filename != null) {
            String contentType = type == null || type.value.isEmpty() ? DEFAULT_FILE_CONTENT_TYPE : type.value;
            current = factory.createFileUpload(request, name, filename, contentType, transferEncoding,
                    HeaderParams.charset(type, null), 0);
        } else {
            Attribute attribute = factory.createAttribute(request, name);
            current = attribute;
            attribute.setCharset(HeaderParams.charset(type, charset));
        }
        state = State.BODY;
    }

    /** RFC 7578 §4.2: the file name, preferring an RFC 8187 {@code filename*}; {@code null} if none. */
    private static String filename(HeaderParams disposition) {
        String ext = disposition.get("filename*");
        String decoded = ext == null ? null : HeaderParams.decodeExtValue(ext);
        String plain = decoded != null ? decoded : disposition.get("filename");
        return plain == null ? null : HeaderParams.stripPath(plain);
    }

    private boolean readBody() throws IOException {
        DelimiterSearch delim = delimiter();
        int r = undecoded.readerIndex();
        int found = findDelimiter(delim, r, undecoded.writerIndex());
        int contentEnd = found >= 0 ? found : -1 - found;
        if (current != null) {
            appendTo(current, r, contentEnd - r);
        }
        if (found < 0) {
            undecoded.readerIndex(contentEnd);
            return false;
        }
        undecoded.readerIndex(found + delim.length());
        HttpData done = current;
        if (done != null) {
            current = null;
            addCompleted(done);
        }
        state = State.DELIMITER_TAIL;
        return true;
    }
}
