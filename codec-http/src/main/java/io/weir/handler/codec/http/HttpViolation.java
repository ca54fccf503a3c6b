package io.weir.handler.codec.http;

/**
 * What exactly was wrong with a message that {@link HttpObjectDecoder} rejected, carried by
 * {@link InvalidHttpMessageException#violation()}. Each constant names the RFC 9112 rule it enforces and the
 * status {@link HttpServerCodec} answers with.
 */
public enum HttpViolation {
    /** A line ended with LF alone while strict line endings are on (RFC 9112 §2.2). Answered with 400. */
    BARE_LF(400),
    /** A CR not followed by LF inside a line (RFC 9112 §2.2). Answered with 400. */
    BARE_CR(400),
    /** A control character (or NUL) in a field name or value, or in the request line. Answered with 400. */
    CONTROL_CHARACTER(400),
    /** A header line starting with whitespace: obsolete line folding (RFC 9112 §5.2). Answered with 400. */
    OBS_FOLD(400),
    /** Whitespace between a field name and its colon (RFC 9112 §5.1). Answered with 400. */
    WHITESPACE_BEFORE_COLON(400),
    /** A field name that is empty, not a token, or a header line without a colon. Answered with 400. */
    INVALID_FIELD_NAME(400),
    /** A method that is not a token (RFC 9110 §9.1). Answered with 400. */
    INVALID_METHOD(400),
    /** A request-target with whitespace, controls or non-ASCII bytes, or an empty one. Answered with 400. */
    INVALID_REQUEST_TARGET(400),
    /** A request line without an HTTP version: HTTP/0.9, which Weir never speaks. Answered with 400. */
    HTTP_0_9(400),
    /** An HTTP version that does not match {@code HTTP/DIGIT.DIGIT}. Answered with 400. */
    INVALID_VERSION(400),
    /** A well-formed version other than HTTP/1.0 and HTTP/1.1. Answered with 505. */
    UNSUPPORTED_VERSION(505),
    /** A status line whose status code is not three digits. */
    INVALID_STATUS(400),
    /** A reason phrase with control characters. */
    INVALID_REASON_PHRASE(400),
    /** More than one Host field in a request (RFC 9112 §3.2). Answered with 400. */
    DUPLICATE_HOST(400),
    /** An HTTP/1.1 request without a Host field (RFC 9112 §3.2: MUST be answered with 400). */
    MISSING_HOST(400),
    /**
     * A Host field that is not {@code uri-host [":" port]} (RFC 9110 §7.2): a list, userinfo, a path, a bad port or
     * bytes outside the URI grammar. Answered with 400.
     */
    INVALID_HOST(400),
    /**
     * A request-target whose form the method does not allow (RFC 9112 §3.2): asterisk-form other than with
     * OPTIONS, authority-form other than with CONNECT, or a target in none of the four forms. Answered with 400.
     */
    INVALID_TARGET_FORM(400),
    /**
     * A CONNECT request to a server that does not tunnel (RFC 9110 §9.3.6; see
     * {@link HttpDecoderConfig#setAllowConnect}). Answered with 501.
     */
    CONNECT_NOT_SUPPORTED(501),
    /**
     * More empty lines before a request line than {@link HttpDecoderConfig#getMaxLeadingEmptyLines()} (RFC 9112
     * §2.2). Answered with 400.
     */
    TOO_MANY_EMPTY_LINES(400),
    /** Content-Length and Transfer-Encoding in one message: a smuggling vector (RFC 9112 §6.3). Answered with 400. */
    CONTENT_LENGTH_WITH_TRANSFER_ENCODING(400),
    /** Content-Length values that differ (RFC 9112 §6.3). Answered with 400. */
    CONFLICTING_CONTENT_LENGTH(400),
    /**
     * A request whose Content-Length is a list or appears more than once, even with identical values: RFC 9110
     * §8.6 lets a recipient accept that, but two parsers that disagree on it disagree on where the request ends.
     * Answered with 400.
     */
    CONTENT_LENGTH_LIST(400),
    /** A Content-Length that is not a decimal number or does not fit in a long. Answered with 400. */
    INVALID_CONTENT_LENGTH(400),
    /** Transfer-Encoding in an HTTP/1.0 message, whose framing is then unreliable (RFC 9112 §6.1). Answered with 400. */
    TRANSFER_ENCODING_IN_HTTP_1_0(400),
    /** A request whose final transfer coding is not chunked, or that applies chunked twice (RFC 9112 §6.3). Answered with 400. */
    CHUNKED_NOT_FINAL(400),
    /** A Transfer-Encoding value that is not a list of transfer codings. Answered with 400. */
    INVALID_TRANSFER_ENCODING(400),
    /** A transfer coding Weir does not know (RFC 9112 §6.1). Answered with 501. */
    UNSUPPORTED_TRANSFER_CODING(501),
    /** A chunk size that is not hexadecimal or does not fit in a long (RFC 9112 §7.1). Answered with 400. */
    INVALID_CHUNK_SIZE(400),
    /**
     * A chunk extension that is not {@code ";" token ["=" (token / quoted-string)]}, or holds a CR or control
     * character (RFC 9112 §7.1.1). Answered with 400.
     */
    INVALID_CHUNK_EXTENSION(400),
    /**
     * A declared chunk size above {@link HttpDecoderConfig#getMaxDeclaredChunkSize()}: refused at once rather than
     * awaited. Answered with 413.
     */
    CHUNK_SIZE_TOO_LARGE(413),
    /** A chunk-size line longer than the initial line limit. Answered with 400. */
    CHUNK_LINE_TOO_LONG(400),
    /** Chunk data not followed by CRLF (RFC 9112 §7.1). Answered with 400. */
    INVALID_CHUNK_DELIMITER(400);

    private final int statusCode;

    HttpViolation(int statusCode) {
        this.statusCode = statusCode;
    }

    /** The status code a server answers a request rejected for this reason with. */
    public int statusCode() {
        return statusCode;
    }
}
