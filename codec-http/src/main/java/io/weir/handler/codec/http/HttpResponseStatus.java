package io.weir.handler.codec.http;

import io.weir.util.AsciiString;

import java.util.Objects;

/**
 * An HTTP response status: a three-digit code and a reason phrase (RFC 9110 §15). Immutable and thread-safe.
 *
 * <p>Every code registered by RFC 9110 and the common extension codes are constants; {@link #valueOf(int)}
 * returns them from a table without allocating. Two statuses are equal when their codes are equal; the reason
 * phrase is informational only (RFC 9112 §4: clients should ignore it).
 */
public final class HttpResponseStatus implements Comparable<HttpResponseStatus> {
    private static final int MIN_CODE = 100;
    private static final int MAX_CODE = 999;
    private static final HttpResponseStatus[] BY_CODE = new HttpResponseStatus[600];

    /** 100 Continue (RFC 9110 §15.2.1). */
    public static final HttpResponseStatus CONTINUE = newConstant(100, "Continue");
    /** 101 Switching Protocols (RFC 9110 §15.2.2). */
    public static final HttpResponseStatus SWITCHING_PROTOCOLS = newConstant(101, "Switching Protocols");
    /** 102 Processing (RFC 2518). */
    public static final HttpResponseStatus PROCESSING = newConstant(102, "Processing");
    /** 103 Early Hints (RFC 8297). */
    public static final HttpResponseStatus EARLY_HINTS = newConstant(103, "Early Hints");
    /** 200 OK (RFC 9110 §15.3.1). */
    public static final HttpResponseStatus OK = newConstant(200, "OK");
    /** 201 Created (RFC 9110 §15.3.2). */
    public static final HttpResponseStatus CREATED = newConstant(201, "Created");
    /** 202 Accepted (RFC 9110 §15.3.3). */
    public static final HttpResponseStatus ACCEPTED = newConstant(202, "Accepted");
    /** 203 Non-Authoritative Information (RFC 9110 §15.3.4). */
    public static final HttpResponseStatus NON_AUTHORITATIVE_INFORMATION = newConstant(203, "Non-Authoritative Information");
    /** 204 No Content (RFC 9110 §15.3.5). */
    public static final HttpResponseStatus NO_CONTENT = newConstant(204, "No Content");
    /** 205 Reset Content (RFC 9110 §15.3.6). */
    public static final HttpResponseStatus RESET_CONTENT = newConstant(205, "Reset Content");
    /** 206 Partial Content (RFC 9110 §15.3.7). */
    public static final HttpResponseStatus PARTIAL_CONTENT = newConstant(206, "Partial Content");
    /** 207 Multi-Status (RFC 4918). */
    public static final HttpResponseStatus MULTI_STATUS = newConstant(207, "Multi-Status");
    /** 208 Already Reported (RFC 5842). */
    public static final HttpResponseStatus ALREADY_REPORTED = newConstant(208, "Already Reported");
    /** 226 IM Used (RFC 3229). */
    public static final HttpResponseStatus IM_USED = newConstant(226, "IM Used");
    /** 300 Multiple Choices (RFC 9110 §15.4.1). */
    public static final HttpResponseStatus MULTIPLE_CHOICES = newConstant(300, "Multiple Choices");
    /** 301 Moved Permanently (RFC 9110 §15.4.2). */
    public static final HttpResponseStatus MOVED_PERMANENTLY = newConstant(301, "Moved Permanently");
    /** 302 Found (RFC 9110 §15.4.3). */
    public static final HttpResponseStatus FOUND = newConstant(302, "Found");
    /** 303 See Other (RFC 9110 §15.4.4). */
    public static final HttpResponseStatus SEE_OTHER = newConstant(303, "See Other");
    /** 304 Not Modified (RFC 9110 §15.4.5). */
    public static final HttpResponseStatus NOT_MODIFIED = newConstant(304, "Not Modified");
    /** 305 Use Proxy (RFC 9110 §15.4.6, deprecated). */
    public static final HttpResponseStatus USE_PROXY = newConstant(305, "Use Proxy");
    /** 307 Temporary Redirect (RFC 9110 §15.4.8). */
    public static final HttpResponseStatus TEMPORARY_REDIRECT = newConstant(307, "Temporary Redirect");
    /** 308 Permanent Redirect (RFC 9110 §15.4.9). */
    public static final HttpResponseStatus PERMANENT_REDIRECT = newConstant(308, "Permanent Redirect");
    /** 400 Bad Request (RFC 9110 §15.5.1). */
    public static final HttpResponseStatus BAD_REQUEST = newConstant(400, "Bad Request");
    /** 401 Unauthorized (RFC 9110 §15.5.2). */
    public static final HttpResponseStatus UNAUTHORIZED = newConstant(401, "Unauthorized");
    /** 402 Payment Required (RFC 9110 §15.5.3). */
    public static final HttpResponseStatus PAYMENT_REQUIRED = newConstant(402, "Payment Required");
    /** 403 Forbidden (RFC 9110 §15.5.4). */
    public static final HttpResponseStatus FORBIDDEN = newConstant(403, "Forbidden");
    /** 404 Not Found (RFC 9110 §15.5.5). */
    public static final HttpResponseStatus NOT_FOUND = newConstant(404, "Not Found");
    /** 405 Method Not Allowed (RFC 9110 §15.5.6). */
    public static final HttpResponseStatus METHOD_NOT_ALLOWED = newConstant(405, "Method Not Allowed");
    /** 406 Not Acceptable (RFC 9110 §15.5.7). */
    public static final HttpResponseStatus NOT_ACCEPTABLE = newConstant(406, "Not Acceptable");
    /** 407 Proxy Authentication Required (RFC 9110 §15.5.8). */
    public static final HttpResponseStatus PROXY_AUTHENTICATION_REQUIRED = newConstant(407, "Proxy Authentication Required");
    /** 408 Request Timeout (RFC 9110 §15.5.9). */
    public static final HttpResponseStatus REQUEST_TIMEOUT = newConstant(408, "Request Timeout");
    /** 409 Conflict (RFC 9110 §15.5.10). */
    public static final HttpResponseStatus CONFLICT = newConstant(409, "Conflict");
    /** 410 Gone (RFC 9110 §15.5.11). */
    public static final HttpResponseStatus GONE = newConstant(410, "Gone");
    /** 411 Length Required (RFC 9110 §15.5.12). */
    public static final HttpResponseStatus LENGTH_REQUIRED = newConstant(411, "Length Required");
    /** 412 Precondition Failed (RFC 9110 §15.5.13). */
    public static final HttpResponseStatus PRECONDITION_FAILED = newConstant(412, "Precondition Failed");
    /** 413 Content Too Large (RFC 9110 §15.5.14). */
    public static final HttpResponseStatus REQUEST_ENTITY_TOO_LARGE = newConstant(413, "Content Too Large");
    /** 414 URI Too Long (RFC 9110 §15.5.15). */
    public static final HttpResponseStatus REQUEST_URI_TOO_LONG = newConstant(414, "URI Too Long");
    /** 415 Unsupported Media Type (RFC 9110 §15.5.16). */
    public static final HttpResponseStatus UNSUPPORTED_MEDIA_TYPE = newConstant(415, "Unsupported Media Type");
    /** 416 Range Not Satisfiable (RFC 9110 §15.5.17). */
    public static final HttpResponseStatus REQUESTED_RANGE_NOT_SATISFIABLE = newConstant(416, "Range Not Satisfiable");
    /** 417 Expectation Failed (RFC 9110 §15.5.18). */
    public static final HttpResponseStatus EXPECTATION_FAILED = newConstant(417, "Expectation Failed");
    /** 421 Misdirected Request (RFC 9110 §15.5.20). */
    public static final HttpResponseStatus MISDIRECTED_REQUEST = newConstant(421, "Misdirected Request");
    /** 422 Unprocessable Content (RFC 9110 §15.5.21). */
    public static final HttpResponseStatus UNPROCESSABLE_ENTITY = newConstant(422, "Unprocessable Content");
    /** 423 Locked (RFC 4918). */
    public static final HttpResponseStatus LOCKED = newConstant(423, "Locked");
    /** 424 Failed Dependency (RFC 4918). */
    public static final HttpResponseStatus FAILED_DEPENDENCY = newConstant(424, "Failed Dependency");
    /** 425 Too Early (RFC 8470). */
    public static final HttpResponseStatus TOO_EARLY = newConstant(425, "Too Early");
    /** 426 Upgrade Required (RFC 9110 §15.5.22). */
    public static final HttpResponseStatus UPGRADE_REQUIRED = newConstant(426, "Upgrade Required");
    /** 428 Precondition Required (RFC 6585). */
    public static final HttpResponseStatus PRECONDITION_REQUIRED = newConstant(428, "Precondition Required");
    /** 429 Too Many Requests (RFC 6585). */
    public static final HttpResponseStatus TOO_MANY_REQUESTS = newConstant(429, "Too Many Requests");
    /** 431 Request Header Fields Too Large (RFC 6585). */
    public static final HttpResponseStatus REQUEST_HEADER_FIELDS_TOO_LARGE = newConstant(431, "Request Header Fields Too Large");
    /** 451 Unavailable For Legal Reasons (RFC 7725). */
    public static final HttpResponseStatus UNAVAILABLE_FOR_LEGAL_REASONS = newConstant(451, "Unavailable For Legal Reasons");
    /** 500 Internal Server Error (RFC 9110 §15.6.1). */
    public static final HttpResponseStatus INTERNAL_SERVER_ERROR = newConstant(500, "Internal Server Error");
    /** 501 Not Implemented (RFC 9110 §15.6.2). */
    public static final HttpResponseStatus NOT_IMPLEMENTED = newConstant(501, "Not Implemented");
    /** 502 Bad Gateway (RFC 9110 §15.6.3). */
    public static final HttpResponseStatus BAD_GATEWAY = newConstant(502, "Bad Gateway");
    /** 503 Service Unavailable (RFC 9110 §15.6.4). */
    public static final HttpResponseStatus SERVICE_UNAVAILABLE = newConstant(503, "Service Unavailable");
    /** 504 Gateway Timeout (RFC 9110 §15.6.5). */
    public static final HttpResponseStatus GATEWAY_TIMEOUT = newConstant(504, "Gateway Timeout");
    /** 505 HTTP Version Not Supported (RFC 9110 §15.6.6). */
    public static final HttpResponseStatus HTTP_VERSION_NOT_SUPPORTED = newConstant(505, "HTTP Version Not Supported");
    /** 506 Variant Also Negotiates (RFC 2295). */
    public static final HttpResponseStatus VARIANT_ALSO_NEGOTIATES = newConstant(506, "Variant Also Negotiates");
    /** 507 Insufficient Storage (RFC 4918). */
    public static final HttpResponseStatus INSUFFICIENT_STORAGE = newConstant(507, "Insufficient Storage");
    /** 508 Loop Detected (RFC 5842). */
    public static final HttpResponseStatus LOOP_DETECTED = newConstant(508, "Loop Detected");
    /** 510 Not Extended (RFC 2774). */
    public static final HttpResponseStatus NOT_EXTENDED = newConstant(510, "Not Extended");
    /** 511 Network Authentication Required (RFC 6585). */
    public static final HttpResponseStatus NETWORK_AUTHENTICATION_REQUIRED = newConstant(511, "Network Authentication Required");

    private final int code;
    private final AsciiString codeAsText;
    private final AsciiString reasonPhrase;
    private final HttpStatusClass codeClass;
    /** "code SP reason" as bytes, written by the encoders as one copy. */
    private final byte[] statusLineBytes;

    /**
     * A status with {@code code} and {@code reasonPhrase}; prefer {@link #valueOf(int)} for registered codes.
     *
     * @throws IllegalArgumentException if {@code code} is outside 100–999 (RFC 9110 §15: three digits), or the
     *         reason phrase contains CR, LF or another control character
     */
    public HttpResponseStatus(int code, String reasonPhrase) {
        if (code < MIN_CODE || code > MAX_CODE) {
            throw new IllegalArgumentException("status code must be within 100-999: " + code);
        }
        Objects.requireNonNull(reasonPhrase, "reasonPhrase");
        for (int i = 0; i < reasonPhrase.length(); i++) {
            if (!HttpTokens.isFieldValueChar(reasonPhrase.charAt(i))) {
                throw new IllegalArgumentException("reason phrase contains a prohibited character at index " + i
                        + ": " + HttpTokens.quote(reasonPhrase));
            }
        }
        this.code = code;
        this.codeAsText = AsciiString.cached(Integer.toString(code));
        this.reasonPhrase = AsciiString.cached(reasonPhrase);
        this.codeClass = HttpStatusClass.valueOf(code);
        this.statusLineBytes = AsciiString.cached(code + " " + reasonPhrase).toByteArray();
    }

    private static HttpResponseStatus newConstant(int code, String reasonPhrase) {
        HttpResponseStatus status = new HttpResponseStatus(code, reasonPhrase);
        BY_CODE[code] = status;
        return status;
    }

    /**
     * The constant for {@code code} if it is registered, else a new status whose reason phrase is the default
     * of its class (such as {@code Client Error} for 499).
     *
     * @throws IllegalArgumentException if {@code code} is outside 100–999
     */
    public static HttpResponseStatus valueOf(int code) {
        if (code >= MIN_CODE && code < BY_CODE.length) {
            HttpResponseStatus status = BY_CODE[code];
            if (status != null) {
                return status;
            }
        }
        return new HttpResponseStatus(code, HttpStatusClass.valueOf(code).defaultReasonPhrase().toString());
    }

    /**
     * The constant for {@code code} if it is registered with exactly {@code reasonPhrase}, else a new status.
     *
     * @throws IllegalArgumentException as {@link #HttpResponseStatus(int, String)}
     */
    public static HttpResponseStatus valueOf(int code, String reasonPhrase) {
        if (code >= MIN_CODE && code < BY_CODE.length) {
            HttpResponseStatus status = BY_CODE[code];
            if (status != null && status.reasonPhrase.contentEquals(reasonPhrase)) {
                return status;
            }
        }
        return new HttpResponseStatus(code, reasonPhrase);
    }

    /**
     * Parses the part of a status line after the version: {@code "200"} or {@code "200 OK"} (three digits,
     * optionally followed by a space and a reason phrase, which may be empty).
     *
     * @throws IllegalArgumentException if {@code line} does not start with exactly three digits followed by the
     *         end or a space, or the reason phrase holds control characters
     */
    public static HttpResponseStatus parseLine(CharSequence line) {
        Objects.requireNonNull(line, "line");
        int n = line.length();
        if (n < 3 || n > 3 && line.charAt(3) != ' ') {
            throw new IllegalArgumentException("malformed status line: " + HttpTokens.quote(line));
        }
        int code = 0;
        for (int i = 0; i < 3; i++) {
            int d = line.charAt(i) - '0';
            if (d < 0 || d > 9) {
                throw new IllegalArgumentException("malformed status code: " + HttpTokens.quote(line));
            }
            code = code * 10 + d;
        }
        if (n <= 4) {
            return valueOf(code);
        }
        return valueOf(code, line.subSequence(4, n).toString());
    }

    /** The status code, 100–999. */
    public int code() {
        return code;
    }

    /** The status code as text, such as {@code 404}. */
    public AsciiString codeAsText() {
        return codeAsText;
    }

    /** The reason phrase, such as {@code Not Found}. */
    public AsciiString reasonPhrase() {
        return reasonPhrase;
    }

    /** The class of this status' code. */
    public HttpStatusClass codeClass() {
        return codeClass;
    }

    byte[] statusLineBytes() {
        return statusLineBytes;
    }

    /** Equal to any status with the same code, whatever the reason phrase. */
    @Override
    public boolean equals(Object o) {
        return o instanceof HttpResponseStatus s && code == s.code;
    }

    @Override
    public int hashCode() {
        return code;
    }

    @Override
    public int compareTo(HttpResponseStatus o) {
        return Integer.compare(code, o.code);
    }

    /** The code and reason phrase, such as {@code 404 Not Found}. */
    @Override
    public String toString() {
        return code + " " + reasonPhrase;
    }
}
