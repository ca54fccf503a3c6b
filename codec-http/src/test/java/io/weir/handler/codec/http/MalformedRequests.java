package io.weir.handler.codec.http;

import java.util.List;

/**
 * The malformed-request table: each row is a request (bytes as ISO-8859-1), the rule it breaks, the exact status a
 * server answers, and whether the request reaches the handlers before it is rejected (a body error: the request
 * line and headers were fine). Shared by the decoder-level and the server-level tests.
 */
final class MalformedRequests {
    /** One attack or mistake. {@code cause} is the exception class; {@code violation} is null unless it is invalid. */
    record Row(String name, String request, int status, Class<? extends Throwable> cause, HttpViolation violation,
               boolean inBody, HttpDecoderConfig config) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final String GET = "GET / HTTP/1.1\r\nHost: example.com\r\n";
    private static final String CHUNKED_POST = "POST /upload HTTP/1.1\r\nHost: example.com\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n";

    private MalformedRequests() {
    }

    private static Row invalid(String name, String request, HttpViolation violation) {
        return new Row(name, request, violation.statusCode(), InvalidHttpMessageException.class, violation, false,
                new HttpDecoderConfig());
    }

    private static Row invalidBody(String name, String request, HttpViolation violation) {
        return new Row(name, request, violation.statusCode(), InvalidHttpMessageException.class, violation, true,
                new HttpDecoderConfig());
    }

    static List<Row> rows() {
        HttpDecoderConfig small = new HttpDecoderConfig().setMaxContentLength(16);
        return List.of(
                invalid("whitespace before the colon", GET + "Content-Length : 5\r\n\r\nhello",
                        HttpViolation.WHITESPACE_BEFORE_COLON),
                invalid("tab before the colon", GET + "Transfer-Encoding\t: chunked\r\n\r\n",
                        HttpViolation.WHITESPACE_BEFORE_COLON),
                invalid("obs-fold continuation line", GET + "X-Folded: a\r\n b\r\n\r\n", HttpViolation.OBS_FOLD),
                invalid("obs-fold with a tab", GET + "X-Folded: a\r\n\tb\r\n\r\n", HttpViolation.OBS_FOLD),
                invalid("bare CR in a field value", GET + "X-A: a\rb\r\n\r\n", HttpViolation.BARE_CR),
                invalid("bare CR ending a header line", "GET / HTTP/1.1\r\nX-A: a\rX-B: b\r\n\r\n",
                        HttpViolation.BARE_CR),
                invalid("bare CR ending the request line", "GET / HTTP/1.1\rHost: a\r\n\r\n", HttpViolation.BARE_CR),
                invalid("bare CR in the request-target", "GET /a\rb HTTP/1.1\r\n\r\n", HttpViolation.BARE_CR),
                invalid("bare LF ending the request line", "GET / HTTP/1.1\nHost: a\r\n\r\n", HttpViolation.BARE_LF),
                invalid("bare LF ending a header line", GET + "X-A: a\n\r\n", HttpViolation.BARE_LF),
                invalid("bare LF ending the header block", GET + "\n", HttpViolation.BARE_LF),
                invalid("NUL in a field value", GET + "X-A: a\u0000b\r\n\r\n", HttpViolation.CONTROL_CHARACTER),
                invalid("control character in a field value", GET + "X-A: a\u001fb\r\n\r\n",
                        HttpViolation.CONTROL_CHARACTER),
                invalid("DEL in a field value", GET + "X-A: a\u007fb\r\n\r\n", HttpViolation.CONTROL_CHARACTER),
                invalid("NUL in a field name", GET + "X\u0000A: a\r\n\r\n", HttpViolation.CONTROL_CHARACTER),
                invalid("control character in a field name", GET + "X\u0001A: a\r\n\r\n",
                        HttpViolation.CONTROL_CHARACTER),
                invalid("separator in a field name", GET + "X(A): a\r\n\r\n", HttpViolation.INVALID_FIELD_NAME),
                invalid("non-ASCII in a field name", GET + "X\u00e9: a\r\n\r\n", HttpViolation.INVALID_FIELD_NAME),
                invalid("empty field name", GET + ": a\r\n\r\n", HttpViolation.INVALID_FIELD_NAME),
                invalid("header line without a colon", GET + "X-A a\r\n\r\n", HttpViolation.WHITESPACE_BEFORE_COLON),
                invalid("header token without a colon", GET + "X-A\r\n\r\n", HttpViolation.INVALID_FIELD_NAME),
                invalid("separator in the method", "G(ET / HTTP/1.1\r\n\r\n", HttpViolation.INVALID_METHOD),
                invalid("NUL in the method", "GE\u0000T / HTTP/1.1\r\n\r\n", HttpViolation.CONTROL_CHARACTER),
                invalid("empty method", " / HTTP/1.1\r\n\r\n", HttpViolation.INVALID_METHOD),
                invalid("space in the request-target", "GET /a b HTTP/1.1\r\n\r\n",
                        HttpViolation.INVALID_REQUEST_TARGET),
                invalid("tab in the request-target", "GET /a\tb HTTP/1.1\r\n\r\n",
                        HttpViolation.INVALID_REQUEST_TARGET),
                invalid("control character in the request-target", "GET /a\u0001b HTTP/1.1\r\n\r\n",
                        HttpViolation.INVALID_REQUEST_TARGET),
                invalid("NUL in the request-target", "GET /a\u0000 HTTP/1.1\r\n\r\n",
                        HttpViolation.INVALID_REQUEST_TARGET),
                invalid("non-ASCII in the request-target", "GET /caf\u00e9 HTTP/1.1\r\n\r\n",
                        HttpViolation.INVALID_REQUEST_TARGET),
                invalid("two spaces before the request-target", "GET  / HTTP/1.1\r\n\r\n",
                        HttpViolation.INVALID_REQUEST_TARGET),
                invalid("HTTP/0.9 simple request", "GET /\r\n\r\n", HttpViolation.HTTP_0_9),
                invalid("method alone", "GET\r\n\r\n", HttpViolation.HTTP_0_9),
                invalid("HTTP/1.2", "GET / HTTP/1.2\r\n\r\n", HttpViolation.UNSUPPORTED_VERSION),
                invalid("HTTP/2.0 over HTTP/1 framing", "GET / HTTP/2.0\r\n\r\n", HttpViolation.UNSUPPORTED_VERSION),
                invalid("HTTP/0.9 version", "GET / HTTP/0.9\r\n\r\n", HttpViolation.UNSUPPORTED_VERSION),
                invalid("lower-case version", "GET / http/1.1\r\n\r\n", HttpViolation.INVALID_VERSION),
                invalid("version without a dot", "GET / HTTP/11\r\n\r\n", HttpViolation.INVALID_VERSION),
                invalid("version with two-digit minor", "GET / HTTP/1.10\r\n\r\n", HttpViolation.INVALID_VERSION),
                invalid("two Host fields", GET + "Host: evil.example\r\n\r\n", HttpViolation.DUPLICATE_HOST),
                invalid("Host twice with different case", "GET / HTTP/1.1\r\nHost: a\r\nhost: a\r\n\r\n",
                        HttpViolation.DUPLICATE_HOST),
                invalid("HTTP/1.1 request without Host", "GET / HTTP/1.1\r\nX-A: a\r\n\r\n",
                        HttpViolation.MISSING_HOST),
                invalid("Host list", "GET / HTTP/1.1\r\nHost: a.example, b.example\r\n\r\n",
                        HttpViolation.INVALID_HOST),
                invalid("Host with userinfo", "GET / HTTP/1.1\r\nHost: user@evil.example\r\n\r\n",
                        HttpViolation.INVALID_HOST),
                invalid("Host with a path", "GET / HTTP/1.1\r\nHost: example.com/admin\r\n\r\n",
                        HttpViolation.INVALID_HOST),
                invalid("Host with a space", "GET / HTTP/1.1\r\nHost: example .com\r\n\r\n",
                        HttpViolation.INVALID_HOST),
                invalid("Host with a non-numeric port", "GET / HTTP/1.1\r\nHost: example.com:80a\r\n\r\n",
                        HttpViolation.INVALID_HOST),
                invalid("Host with a port above 65535", "GET / HTTP/1.1\r\nHost: example.com:65536\r\n\r\n",
                        HttpViolation.INVALID_HOST),
                invalid("Host with an unterminated IP literal", "GET / HTTP/1.1\r\nHost: [::1\r\n\r\n",
                        HttpViolation.INVALID_HOST),
                invalid("Host with a bad percent-escape", "GET / HTTP/1.1\r\nHost: a%zz\r\n\r\n",
                        HttpViolation.INVALID_HOST),
                invalid("Host with a non-ASCII byte", "GET / HTTP/1.1\r\nHost: caf\u00e9.example\r\n\r\n",
                        HttpViolation.INVALID_HOST),
                invalid("identical Content-Length list", GET + "Content-Length: 5, 5\r\n\r\nhello",
                        HttpViolation.CONTENT_LENGTH_LIST),
                invalid("identical Content-Length lines", GET + "Content-Length: 5\r\nContent-Length: 5\r\n\r\n"
                        + "hello", HttpViolation.CONTENT_LENGTH_LIST),
                invalid("CONNECT to an origin server", "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443"
                        + "\r\n\r\n", HttpViolation.CONNECT_NOT_SUPPORTED),
                invalid("asterisk-form with GET", "GET * HTTP/1.1\r\nHost: example.com\r\n\r\n",
                        HttpViolation.INVALID_TARGET_FORM),
                invalid("authority-form with GET", "GET example.com:80 HTTP/1.1\r\nHost: example.com\r\n\r\n",
                        HttpViolation.INVALID_TARGET_FORM),
                invalid("relative request-target", "GET index.html HTTP/1.1\r\nHost: example.com\r\n\r\n",
                        HttpViolation.INVALID_TARGET_FORM),
                invalid("more than 16 empty lines before the request", "\r\n".repeat(17) + GET + "\r\n",
                        HttpViolation.TOO_MANY_EMPTY_LINES),
                invalid("Content-Length with Transfer-Encoding",
                        GET + "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                        HttpViolation.CONTENT_LENGTH_WITH_TRANSFER_ENCODING),
                invalid("Transfer-Encoding with Content-Length",
                        GET + "Transfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n0\r\n\r\n",
                        HttpViolation.CONTENT_LENGTH_WITH_TRANSFER_ENCODING),
                invalid("different Content-Length lines", GET + "Content-Length: 5\r\nContent-Length: 6\r\n\r\n",
                        HttpViolation.CONFLICTING_CONTENT_LENGTH),
                invalid("different Content-Length list values", GET + "Content-Length: 5, 6\r\n\r\n",
                        HttpViolation.CONFLICTING_CONTENT_LENGTH),
                invalid("letters in Content-Length", GET + "Content-Length: abc\r\n\r\n",
                        HttpViolation.INVALID_CONTENT_LENGTH),
                invalid("negative Content-Length", GET + "Content-Length: -1\r\n\r\n",
                        HttpViolation.INVALID_CONTENT_LENGTH),
                invalid("signed Content-Length", GET + "Content-Length: +5\r\n\r\nhello",
                        HttpViolation.INVALID_CONTENT_LENGTH),
                invalid("hexadecimal Content-Length", GET + "Content-Length: 0x5\r\n\r\nhello",
                        HttpViolation.INVALID_CONTENT_LENGTH),
                invalid("empty Content-Length", GET + "Content-Length:\r\n\r\n", HttpViolation.INVALID_CONTENT_LENGTH),
                invalid("Content-Length with a trailing comma", GET + "Content-Length: 5,\r\n\r\nhello",
                        HttpViolation.INVALID_CONTENT_LENGTH),
                invalid("overflowing Content-Length", GET + "Content-Length: 99999999999999999999\r\n\r\n",
                        HttpViolation.INVALID_CONTENT_LENGTH),
                invalid("Content-Length just above Long.MAX_VALUE", GET + "Content-Length: 9223372036854775808\r\n\r\n",
                        HttpViolation.INVALID_CONTENT_LENGTH),
                invalid("final transfer coding is gzip", GET + "Transfer-Encoding: chunked, gzip\r\n\r\n",
                        HttpViolation.CHUNKED_NOT_FINAL),
                invalid("only transfer coding is gzip", GET + "Transfer-Encoding: gzip\r\n\r\n",
                        HttpViolation.CHUNKED_NOT_FINAL),
                invalid("chunked applied twice", GET + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
                        HttpViolation.CHUNKED_NOT_FINAL),
                invalid("misspelt chunked", GET + "Transfer-Encoding: chunked-ish\r\n\r\n",
                        HttpViolation.CHUNKED_NOT_FINAL),
                invalid("Transfer-Encoding value with a quote", GET + "Transfer-Encoding: \"chunked\"\r\n\r\n",
                        HttpViolation.INVALID_TRANSFER_ENCODING),
                invalid("unknown transfer coding before chunked", GET + "Transfer-Encoding: foo, chunked\r\n\r\n",
                        HttpViolation.UNSUPPORTED_TRANSFER_CODING),
                invalid("Transfer-Encoding in HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "0\r\n\r\n", HttpViolation.TRANSFER_ENCODING_IN_HTTP_1_0),
                invalidBody("chunk size that is not hexadecimal", CHUNKED_POST + "zz\r\nhello\r\n0\r\n\r\n",
                        HttpViolation.INVALID_CHUNK_SIZE),
                invalidBody("negative chunk size", CHUNKED_POST + "-5\r\nhello\r\n0\r\n\r\n",
                        HttpViolation.INVALID_CHUNK_SIZE),
                invalidBody("chunk size with 0x prefix", CHUNKED_POST + "0x5\r\nhello\r\n0\r\n\r\n",
                        HttpViolation.INVALID_CHUNK_SIZE),
                invalidBody("empty chunk size line", CHUNKED_POST + "\r\nhello\r\n0\r\n\r\n",
                        HttpViolation.INVALID_CHUNK_SIZE),
                invalidBody("overflowing chunk size", CHUNKED_POST + "10000000000000000\r\nhello\r\n",
                        HttpViolation.INVALID_CHUNK_SIZE),
                invalidBody("bare CR in a chunk extension", CHUNKED_POST + "5;a=b\rc\r\nhello\r\n0\r\n\r\n",
                        HttpViolation.INVALID_CHUNK_EXTENSION),
                invalidBody("control character in a chunk extension", CHUNKED_POST + "5;a\u0000\r\nhello\r\n0\r\n\r\n",
                        HttpViolation.INVALID_CHUNK_EXTENSION),
                invalidBody("bare LF ending a chunk extension", CHUNKED_POST + "5;a=b\nhello\r\n0\r\n\r\n",
                        HttpViolation.BARE_LF),
                invalidBody("bare LF after chunk data", CHUNKED_POST + "5\r\nhello\n0\r\n\r\n",
                        HttpViolation.BARE_LF),
                invalidBody("chunk extension without a name", CHUNKED_POST + "5;\r\nhello\r\n0\r\n\r\n",
                        HttpViolation.INVALID_CHUNK_EXTENSION),
                invalidBody("chunk extension name that is not a token", CHUNKED_POST + "5;a@b\r\nhello\r\n0\r\n\r\n",
                        HttpViolation.INVALID_CHUNK_EXTENSION),
                invalidBody("chunk extension with an empty value", CHUNKED_POST + "5;a=\r\nhello\r\n0\r\n\r\n",
                        HttpViolation.INVALID_CHUNK_EXTENSION),
                invalidBody("chunk extension with an unterminated quote", CHUNKED_POST + "5;a=\"b\r\nhello\r\n0\r\n"
                        + "\r\n", HttpViolation.INVALID_CHUNK_EXTENSION),
                invalidBody("chunk extension followed by junk", CHUNKED_POST + "5;a=b c\r\nhello\r\n0\r\n\r\n",
                        HttpViolation.INVALID_CHUNK_EXTENSION),
                invalidBody("chunk size above 16 MiB", CHUNKED_POST + "1000001\r\nhello\r\n",
                        HttpViolation.CHUNK_SIZE_TOO_LARGE),
                invalidBody("chunk size of 2^32", CHUNKED_POST + "100000000\r\nhello\r\n",
                        HttpViolation.CHUNK_SIZE_TOO_LARGE),
                invalidBody("chunk data longer than its size", CHUNKED_POST + "5\r\nhello world\r\n0\r\n\r\n",
                        HttpViolation.INVALID_CHUNK_DELIMITER),
                invalidBody("chunk-size line longer than the limit",
                        CHUNKED_POST + "5;" + "x".repeat(9000) + "\r\nhello\r\n0\r\n\r\n",
                        HttpViolation.CHUNK_LINE_TOO_LONG),
                invalidBody("obs-fold in a trailer", CHUNKED_POST + "0\r\nX-T: a\r\n b\r\n\r\n",
                        HttpViolation.OBS_FOLD),
                new Row("oversized trailers", CHUNKED_POST + "0\r\nX-T: " + "t".repeat(9000) + "\r\n\r\n", 431,
                        TooLongHttpHeaderException.class, null, true, new HttpDecoderConfig()),
                new Row("too many trailers", CHUNKED_POST + "0\r\n" + "X-T: t\r\n".repeat(101) + "\r\n", 431,
                        TooLongHttpHeaderException.class, null, true, new HttpDecoderConfig()),
                new Row("request line above 8192 bytes", "GET /" + "a".repeat(8200) + " HTTP/1.1\r\n\r\n", 414,
                        TooLongHttpLineException.class, null, false, new HttpDecoderConfig()),
                new Row("request line without an end", "GET /" + "a".repeat(8200), 414,
                        TooLongHttpLineException.class, null, false, new HttpDecoderConfig()),
                new Row("header fields above 8192 bytes", GET + ("X-Big: " + "b".repeat(1000) + "\r\n").repeat(9)
                        + "\r\n", 431, TooLongHttpHeaderException.class, null, false, new HttpDecoderConfig()),
                new Row("one header line above 8192 bytes", GET + "X-Big: " + "b".repeat(9000), 431,
                        TooLongHttpHeaderException.class, null, false, new HttpDecoderConfig()),
                new Row("more than 100 header fields", GET + "X-H: h\r\n".repeat(100) + "\r\n", 431,
                        TooLongHttpHeaderException.class, null, false, new HttpDecoderConfig()),
                new Row("Content-Length above the content limit", GET + "Content-Length: 17\r\n\r\n"
                        + "x".repeat(17), 413, TooLongHttpContentException.class, null, false, small),
                new Row("chunked body above the content limit", CHUNKED_POST + "10\r\n" + "x".repeat(16) + "\r\n"
                        + "1\r\nx\r\n0\r\n\r\n", 413, TooLongHttpContentException.class, null, true, small));
    }
}
