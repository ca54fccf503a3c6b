package io.weir.handler.codec.http;

import io.weir.util.AsciiString;

/** The class of an HTTP status code, given by its first digit (RFC 9110 §15). */
public enum HttpStatusClass {
    /** 1xx: the request was received, processing continues. */
    INFORMATIONAL(100, 200, "Informational"),
    /** 2xx: the request was received, understood and accepted. */
    SUCCESS(200, 300, "Success"),
    /** 3xx: further action is needed to complete the request. */
    REDIRECTION(300, 400, "Redirection"),
    /** 4xx: the request is wrong or cannot be fulfilled. */
    CLIENT_ERROR(400, 500, "Client Error"),
    /** 5xx: the server failed to fulfil a valid request. */
    SERVER_ERROR(500, 600, "Server Error"),
    /** Any code outside 100–599. */
    UNKNOWN(0, 0, "Unknown Status") {
        @Override
        public boolean contains(int code) {
            return code < 100 || code >= 600;
        }
    };

    private final int min;
    private final int maxExclusive;
    private final AsciiString defaultReasonPhrase;

    HttpStatusClass(int min, int maxExclusive, String defaultReasonPhrase) {
        this.min = min;
        this.maxExclusive = maxExclusive;
        this.defaultReasonPhrase = AsciiString.cached(defaultReasonPhrase);
    }

    /** The class of {@code code}; {@link #UNKNOWN} outside 100–599. */
    public static HttpStatusClass valueOf(int code) {
        return switch (code / 100) {
            case 1 -> code >= 100 ? INFORMATIONAL : UNKNOWN;
            case 2 -> SUCCESS;
            case 3 -> REDIRECTION;
            case 4 -> CLIENT_ERROR;
            case 5 -> SERVER_ERROR;
            default -> UNKNOWN;
        };
    }

    /** Whether {@code code} belongs to this class. */
    public boolean contains(int code) {
        return code >= min && code < maxExclusive;
    }

    /** The reason phrase used for an unregistered code of this class, such as {@code Client Error}. */
    public AsciiString defaultReasonPhrase() {
        return defaultReasonPhrase;
    }
}
