package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpByteClasses.CR;
import static io.weir.handler.codec.http.HttpByteClasses.SP;

import io.weir.buffer.Unpooled;
import java.nio.charset.StandardCharsets;

/**
 * Decodes HTTP/1.1 requests: an {@link HttpRequest}, its {@link HttpContent}s, then a {@link LastHttpContent}. See
 * {@link HttpObjectDecoder} for the framing rules, the rejections and buffer ownership; {@link HttpServerCodec}
 * pairs it with the response encoder and answers rejected requests.
 *
 * <p>The request line must be {@code method SP request-target SP HTTP-version} (RFC 9112 §3) with single
 * spaces, a token method, a request-target of visible ASCII, and HTTP/1.0 or HTTP/1.1. A request line without a
 * version (HTTP/0.9) is rejected. A request with neither Content-Length nor Transfer-Encoding has no body.
 *
 * <p>The request-target must be in the form its method allows (RFC 9112 §3.2): origin-form ({@code /path}) or
 * absolute-form ({@code http://host/path}) for every method, asterisk-form ({@code *}) only with OPTIONS,
 * authority-form ({@code host:port}) only with CONNECT. CONNECT itself is refused with 501 unless
 * {@linkplain HttpDecoderConfig#setAllowConnect allowed}. {@code OPTIONS *} is legal and passed on: the application
 * answers it (for instance {@code 200} with {@code Allow} and {@code Content-Length: 0}).
 */
public class HttpRequestDecoder extends HttpObjectDecoder {
    private final boolean allowConnect;
    /**
     * The request-target of the previous request, shared by the next one when its bytes are the same (a client
     * that pipelines often asks for one resource again and again); Strings are immutable, so sharing is safe.
     */
    private String lastUri = "/";

    /** A decoder with the {@link HttpDecoderConfig} defaults. */
    public HttpRequestDecoder() {
        this(new HttpDecoderConfig());
    }

    /**
     * A decoder with the given limits and the other defaults.
     *
     * @throws IllegalArgumentException if a limit is not positive
     */
    public HttpRequestDecoder(int maxInitialLineLength, int maxHeaderSize, int maxChunkSize) {
        this(new HttpDecoderConfig().setMaxInitialLineLength(maxInitialLineLength).setMaxHeaderSize(maxHeaderSize)
                .setMaxChunkSize(maxChunkSize));
    }

    /**
     * A decoder with the given configuration, copied now.
     *
     * @throws NullPointerException if {@code config} is null
     */
    public HttpRequestDecoder(HttpDecoderConfig config) {
        super(config);
        allowConnect = config.isAllowConnect();
    }

    @Override
    final boolean isDecodingRequest() {
        return true;
    }

    @Override
    final HttpMessage parseInitialLine(byte[] b, int length) {
        int methodEnd = 0;
        while (methodEnd < length && HttpByteClasses.TCHAR[b[methodEnd] & 0xFF]) {
            methodEnd++;
        }
        if (methodEnd == length) {
            throw new InvalidHttpMessageException(HttpViolation.HTTP_0_9, "a request line with neither "
                    + "request-target nor version");
        }
        if (b[methodEnd] != SP) {
            throw invalidByte(b[methodEnd], HttpViolation.INVALID_METHOD, "in the method");
        }
        if (methodEnd == 0) {
            throw new InvalidHttpMessageException(HttpViolation.INVALID_METHOD, "an empty method");
        }
        int targetStart = methodEnd + 1;
        int targetEnd = targetStart;
        while (targetEnd < length && HttpByteClasses.TARGET[b[targetEnd] & 0xFF]) {
            targetEnd++;
        }
        if (targetEnd == length) {
            if (targetEnd == targetStart) {
                throw new InvalidHttpMessageException(HttpViolation.INVALID_REQUEST_TARGET, "an empty request-target");
            }
            // RFC 9112 §2.3 / RFC 1945: "GET /" alone is an HTTP/0.9 simple request.
            throw new InvalidHttpMessageException(HttpViolation.HTTP_0_9, "a request line without an HTTP version");
        }
        byte stop = b[targetEnd];
        if (stop != SP || targetEnd == targetStart) {
            if (stop == CR) {
                throw new InvalidHttpMessageException(HttpViolation.BARE_CR, "a CR without LF in the request-target");
            }
            throw new InvalidHttpMessageException(HttpViolation.INVALID_REQUEST_TARGET, targetEnd == targetStart
                    ? "an empty request-target" : "byte 0x" + Integer.toHexString(stop & 0xFF)
                    + " in the request-target");
        }
        int versionStart = targetEnd + 1;
        for (int i = versionStart; i < length; i++) {
            if (b[i] == CR) {
                throw new InvalidHttpMessageException(HttpViolation.BARE_CR, "a CR without LF in the request line");
            }
            if (b[i] == SP) {
                // The version field would hold a space: either the target has one, or the line has an extra field.
                throw new InvalidHttpMessageException(HttpViolation.INVALID_REQUEST_TARGET,
                        "whitespace inside the request-target");
            }
        }
        HttpVersion version = parseVersion(b, versionStart, length);
        HttpMethod method = HttpMethod.valueOf(b, 0, methodEnd);
        checkTargetForm(method, b, targetStart, targetEnd);
        String uri = lastUri;
        if (!sameChars(uri, b, targetStart, targetEnd)) {
            uri = new String(b, targetStart, targetEnd - targetStart, StandardCharsets.ISO_8859_1);
            lastUri = uri;
        }
        return new DefaultHttpRequest(version, method, uri, new DefaultHttpHeaders(false));
    }

    /** RFC 9112 §3.2: request-target = origin-form / absolute-form / authority-form / asterisk-form. */
    private void checkTargetForm(HttpMethod method, byte[] b, int start, int end) {
        if (method.equals(HttpMethod.CONNECT)) {
            if (!allowConnect) {
                // RFC 9110 §9.3.6: tunnelling is a proxy's job; an origin server does not implement it.
                throw new InvalidHttpMessageException(HttpViolation.CONNECT_NOT_SUPPORTED,
                        "CONNECT to a server that does not tunnel");
            }
            // RFC 9112 §3.2.3: authority-form, uri-host ":" port, and nothing else.
            int colon = -1;
            for (int i = start; i < end; i++) {
                if (b[i] == ':') {
                    colon = i;
                }
            }
            if (colon <= start || colon == end - 1) {
                throw new InvalidHttpMessageException(HttpViolation.INVALID_TARGET_FORM,
                        "a CONNECT target that is not host:port");
            }
            HttpSyntax.checkHost(b, start, end);
            return;
        }
        byte first = b[start];
        if (first == '/') {
            return;
        }
        if (first == '*' && end - start == 1) {
            // RFC 9112 §3.2.4: asterisk-form is only used for a server-wide OPTIONS request.
            if (!method.equals(HttpMethod.OPTIONS)) {
                throw new InvalidHttpMessageException(HttpViolation.INVALID_TARGET_FORM,
                        "asterisk-form with " + method.name() + " (only OPTIONS may use it)");
            }
            return;
        }
        // RFC 9112 §3.2.2 absolute-form; RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":".
        // The "//" of an authority is required too (RFC 9110 §4.2: http and https URIs have one), which also tells
        // "host:port" (authority-form, CONNECT only) apart from a scheme.
        if (isAlpha(first)) {
            for (int i = start + 1; i < end; i++) {
                byte c = b[i];
                if (c == ':') {
                    if (i + 2 < end && b[i + 1] == '/' && b[i + 2] == '/') {
                        return;
                    }
                    break;
                }
                if (!isAlpha(c) && (c < '0' || c > '9') && c != '+' && c != '-' && c != '.') {
                    break;
                }
            }
        }
        throw new InvalidHttpMessageException(HttpViolation.INVALID_TARGET_FORM,
                "a request-target in none of origin-form and absolute-form");
    }

    /** Whether {@code s} is exactly the ISO-8859-1 characters {@code b[from, to)}. */
    private static boolean sameChars(String s, byte[] b, int from, int to) {
        int n = to - from;
        if (s.length() != n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (s.charAt(i) != (b[from + i] & 0xFF)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isAlpha(byte c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    @Override
    final HttpMessage createInvalidMessage() {
        return new DefaultFullHttpRequest(HttpVersion.HTTP_1_0, HttpMethod.GET, "/bad-request",
                Unpooled.EMPTY_BUFFER);
    }
}
