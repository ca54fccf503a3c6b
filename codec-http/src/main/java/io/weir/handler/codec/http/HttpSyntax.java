package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpByteClasses.isControl;
import static io.weir.handler.codec.http.HttpByteClasses.isOws;

/**
 * Grammar checks of field values and chunk lines that the decoder runs once per message (Host) or once per chunk
 * (extensions), kept apart from the decoder's state machine. Each method scans a plain array once and throws an
 * {@link InvalidHttpMessageException} naming the rule broken.
 */
final class HttpSyntax {
    /** RFC 3986 §3.2.3 port: digits; more than five cannot be a TCP port. */
    private static final int MAX_PORT_DIGITS = 5;
    private static final int MAX_PORT = 65_535;

    private HttpSyntax() {
    }

    /**
     * RFC 9110 §7.2 / RFC 9112 §3.2: {@code Host = uri-host [ ":" port ]}, uri-host being an IP-literal in brackets,
     * an IPv4 address or a reg-name (RFC 3986 §3.2.2). An empty value is allowed (a target without authority). A
     * comma (a list), {@code @} (userinfo), {@code /} (a path) and anything else outside the grammar are rejected:
     * a proxy and a server that read such a Host differently route one request to two places.
     *
     * @throws InvalidHttpMessageException with {@link HttpViolation#INVALID_HOST}
     */
    static void checkHost(byte[] b, int start, int end) {
        int i = start;
        if (i < end && b[i] == '[') {
            i++;
            int literalStart = i;
            while (i < end && b[i] != ']') {
                // IPv6address and IPvFuture: hex digits, ':', '.', 'v' and unreserved / sub-delims.
                if (!HttpByteClasses.REG_NAME[b[i] & 0xFF] && b[i] != ':' || b[i] == '%') {
                    throw invalidHost(b[i], "in an IP literal");
                }
                i++;
            }
            if (i == end || i == literalStart) {
                throw new InvalidHttpMessageException(HttpViolation.INVALID_HOST,
                        "an unterminated or empty IP literal");
            }
            i++;
        } else {
            while (i < end && b[i] != ':') {
                byte c = b[i];
                if (!HttpByteClasses.REG_NAME[c & 0xFF]) {
                    throw invalidHost(c, "in the host name");
                }
                if (c == '%') {
                    // pct-encoded = "%" HEXDIG HEXDIG
                    if (i + 2 >= end || HttpByteClasses.HEX[b[i + 1] & 0xFF] < 0
                            || HttpByteClasses.HEX[b[i + 2] & 0xFF] < 0) {
                        throw new InvalidHttpMessageException(HttpViolation.INVALID_HOST,
                                "a '%' not followed by two hexadecimal digits in Host");
                    }
                    i += 2;
                }
                i++;
            }
        }
        if (i == end) {
            return;
        }
        if (b[i] != ':') {
            throw invalidHost(b[i], "after an IP literal");
        }
        i++;
        int digits = end - i;
        if (digits > MAX_PORT_DIGITS) {
            throw new InvalidHttpMessageException(HttpViolation.INVALID_HOST,
                    "a port of " + digits + " digits in Host");
        }
        int port = 0;
        for (; i < end; i++) {
            byte c = b[i];
            if (c < '0' || c > '9') {
                throw invalidHost(c, "in the port");
            }
            port = port * 10 + c - '0';
        }
        if (port > MAX_PORT) {
            throw new InvalidHttpMessageException(HttpViolation.INVALID_HOST, "port " + port + " in Host");
        }
    }

    private static InvalidHttpMessageException invalidHost(byte c, String where) {
        String what = c == ',' ? "a list" : c == '@' ? "userinfo" : c == '/' ? "a path"
                : "byte 0x" + Integer.toHexString(c & 0xFF) + ' ' + where;
        return new InvalidHttpMessageException(HttpViolation.INVALID_HOST, "a Host field with " + what);
    }

    /**
     * RFC 9112 §7.1.1: {@code chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )}, the name
     * a token and the value a token or a quoted-string. {@code b[from]} is the first {@code ';'}.
     *
     * @throws InvalidHttpMessageException with {@link HttpViolation#INVALID_CHUNK_EXTENSION}
     */
    static void checkChunkExtensions(byte[] b, int from, int length) {
        int i = from;
        while (i < length) {
            if (b[i] != ';') {
                throw badExtension(b[i], "where ';' was expected");
            }
            i = skipOws(b, i + 1, length);
            int nameStart = i;
            while (i < length && HttpByteClasses.TCHAR[b[i] & 0xFF]) {
                i++;
            }
            if (i == nameStart) {
                throw i < length ? badExtension(b[i], "where a chunk extension name was expected")
                        : new InvalidHttpMessageException(HttpViolation.INVALID_CHUNK_EXTENSION,
                                "a ';' without a chunk extension name");
            }
            i = skipOws(b, i, length);
            if (i < length && b[i] == '=') {
                i = skipOws(b, i + 1, length);
                i = i < length && b[i] == '"' ? quotedString(b, i + 1, length) : token(b, i, length);
                i = skipOws(b, i, length);
            }
        }
    }

    private static int token(byte[] b, int i, int length) {
        int start = i;
        while (i < length && HttpByteClasses.TCHAR[b[i] & 0xFF]) {
            i++;
        }
        if (i == start) {
            throw i < length ? badExtension(b[i], "where a chunk extension value was expected")
                    : new InvalidHttpMessageException(HttpViolation.INVALID_CHUNK_EXTENSION,
                            "a chunk extension '=' without a value");
        }
        return i;
    }

    /** RFC 9110 §5.6.4 quoted-string, from just after the opening quote; returns the index after the closing one. */
    private static int quotedString(byte[] b, int i, int length) {
        while (i < length) {
            byte c = b[i];
            if (c == '"') {
                return i + 1;
            }
            if (c == '\\') {
                i++;
                if (i == length) {
                    break;
                }
                c = b[i];
            }
            if (isControl(c) && c != '\t') {
                throw badExtension(c, "in a quoted chunk extension value");
            }
            i++;
        }
        throw new InvalidHttpMessageException(HttpViolation.INVALID_CHUNK_EXTENSION,
                "an unterminated quoted chunk extension value");
    }

    private static int skipOws(byte[] b, int i, int length) {
        while (i < length && isOws(b[i])) {
            i++;
        }
        return i;
    }

    private static InvalidHttpMessageException badExtension(byte c, String where) {
        return new InvalidHttpMessageException(HttpViolation.INVALID_CHUNK_EXTENSION,
                (c == '\r' ? "a CR without LF" : "byte 0x" + Integer.toHexString(c & 0xFF)) + ' ' + where);
    }
}
