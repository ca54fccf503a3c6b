package io.weir.handler.codec.http2;

import static io.weir.handler.codec.http2.Http2Exception.streamError;

/**
 * Small parsers for fields the connection itself acts on: the RFC 9218 {@code priority} field (and PRIORITY_UPDATE
 * value) and {@code content-length}. Stateless.
 */
final class Http2Priorities {

    private static final int MAX_URGENCY = 7;

    private Http2Priorities() {
    }

    /**
     * Applies an RFC 9218 §4 priority (a Structured Fields dictionary such as {@code u=1, i}) to the stream. Members
     * it does not understand and malformed ones are ignored (§4: "unknown or malformed ... ignored").
     */
    static void apply(DefaultHttp2FrameStream stream, CharSequence field) {
        String value = field.toString();
        int n = value.length();
        int i = 0;
        while (i < n) {
            while (i < n && (value.charAt(i) == ' ' || value.charAt(i) == ',' || value.charAt(i) == '\t')) {
                i++;
            }
            if (i >= n) {
                return;
            }
            char key = value.charAt(i);
            boolean single = i + 1 >= n || value.charAt(i + 1) == '=' || value.charAt(i + 1) == ','
                    || value.charAt(i + 1) == ' ' || value.charAt(i + 1) == ';';
            int j = i + 1;
            if (key == 'u' && single && j + 1 < n && value.charAt(j) == '=') {
                char digit = value.charAt(j + 1);
                boolean endsThere = j + 2 >= n || value.charAt(j + 2) == ',' || value.charAt(j + 2) == ' '
                        || value.charAt(j + 2) == ';';
                if (digit >= '0' && digit <= '0' + MAX_URGENCY && endsThere) {
                    stream.urgency = digit - '0';
                }
            } else if (key == 'i' && single) {
                if (j >= n || value.charAt(j) != '=' || value.startsWith("=?1", j)) {
                    stream.incremental = true;
                } else if (value.startsWith("=?0", j)) {
                    stream.incremental = false;
                }
            }
            while (i < n && value.charAt(i) != ',') {
                i++;
            }
        }
    }

    /**
     * The {@code content-length} of a header section, -1 when absent.
     *
     * @throws Http2Exception stream PROTOCOL_ERROR when it is not a decimal number or its values disagree
     *         (RFC 9110 §8.6, RFC 9113 §8.1.1)
     */
    static long contentLength(int streamId, Http2Headers headers) throws Http2Exception {
        long length = -1;
        for (int i = headers.pseudoHeaderCount(); i < headers.size(); i++) {
            CharSequence name = headers.name(i);
            if (name.length() != 14 || !"content-length".contentEquals(name)) {
                continue;
            }
            long value = parse(headers.value(i));
            if (value < 0 || length >= 0 && value != length) {
                throw streamError(streamId, Http2Error.PROTOCOL_ERROR, "invalid content-length on stream "
                        + streamId + ": " + headers.value(i));
            }
            length = value;
        }
        return length;
    }

    private static long parse(CharSequence s) {
        int n = s.length();
        if (n == 0 || n > 18) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
