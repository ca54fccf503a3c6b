package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;

/**
 * Encodes {@link HttpRequest}s and their content (see {@link HttpObjectEncoder} for framing and ordering). The
 * request-target is written as given, with an empty one sent as {@code /} and an absolute URI without a path
 * given the path {@code /} (RFC 9112 §3.2.1, §3.2.2). A request-target holding a space, a control character or a
 * non-ASCII character fails the write, so a target built from user input cannot split the request.
 *
 * <p>Only called on the channel's event loop; one instance per channel.
 */
public class HttpRequestEncoder extends HttpObjectEncoder<HttpRequest> {
    private static final int CRLF_SHORT = '\r' << 8 | '\n';

    /** A request encoder. */
    public HttpRequestEncoder() {
    }

    /** Encodes everything HTTP except responses (which are passed on untouched). */
    @Override
    public boolean acceptOutboundMessage(Object msg) throws Exception {
        return super.acceptOutboundMessage(msg) && !(msg instanceof HttpResponse);
    }

    @Override
    protected void encodeInitialLine(ByteBuf buf, HttpRequest request) {
        String uri = request.uri();
        checkRequestTarget(uri);
        HttpObjectEncoder.writeAscii(buf, request.method().asciiName());
        buf.writeByte(' ');
        if (uri.isEmpty()) {
            buf.writeByte('/');
        } else {
            int schemeEnd = uri.indexOf("://");
            int pathStart = schemeEnd < 0 ? -1 : indexOfPathOrQuery(uri, schemeEnd + 3);
            if (schemeEnd > 0 && pathStart < 0) {
                HttpObjectEncoder.writeAscii(buf, uri);
                buf.writeByte('/');
            } else if (schemeEnd > 0 && uri.charAt(pathStart) == '?') {
                HttpObjectEncoder.writeAscii(buf, uri.substring(0, pathStart));
                buf.writeByte('/');
                HttpObjectEncoder.writeAscii(buf, uri.substring(pathStart));
            } else {
                HttpObjectEncoder.writeAscii(buf, uri);
            }
        }
        buf.writeByte(' ');
        HttpObjectEncoder.writeAscii(buf, request.protocolVersion().asciiText());
        buf.writeShort(CRLF_SHORT);
    }

    private static int indexOfPathOrQuery(String uri, int from) {
        for (int i = from; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c == '/' || c == '?') {
                return i;
            }
        }
        return -1;
    }

    private static void checkRequestTarget(String uri) {
        for (int i = 0, n = uri.length(); i < n; i++) {
            char c = uri.charAt(i);
            if (c <= ' ' || c >= 0x7F) {
                throw new IllegalArgumentException("request-target contains a prohibited character at index " + i
                        + ": " + HttpTokens.quote(uri));
            }
        }
    }
}
