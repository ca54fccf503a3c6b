package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;
import io.weir.util.AsciiString;

/**
 * Encodes {@link HttpResponse}s and their content (see {@link HttpObjectEncoder} for framing and ordering).
 *
 * <p>Bodies are left out where HTTP forbids them: 1xx, 204 and 304 responses (RFC 9110 §15.2, §15.3.5,
 * §15.4.5), responses to {@code HEAD} (§9.3.2) and 2xx responses to {@code CONNECT} (§9.3.6). The request method
 * is not part of a response, so an encoder used alone cannot know it: {@link #pollRequestMethod()} returns
 * {@code null} here, and the server codec overrides it to hand out the methods of the requests it decoded, in
 * order. {@code Transfer-Encoding} is removed from bodiless 1xx/204/304 responses, and {@code Content-Length}
 * from 1xx/204 ones (§8.6); a {@code HEAD} response keeps both, since they describe the GET response.
 *
 * <p>Only called on the channel's event loop; one instance per channel.
 */
public class HttpResponseEncoder extends HttpObjectEncoder<HttpResponse> {
    private static final int CRLF_SHORT = '\r' << 8 | '\n';
    /** Whether a class overrides {@link #encodeInitialLine}: its heads are then written its way only. */
    private static final ClassValue<Boolean> OVERRIDES_INITIAL_LINE = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            for (Class<?> c = type; c != HttpResponseEncoder.class; c = c.getSuperclass()) {
                try {
                    c.getDeclaredMethod("encodeInitialLine", ByteBuf.class, HttpResponse.class);
                    return true;
                } catch (NoSuchMethodException e) {
                    // not declared here: look further up
                }
            }
            return false;
        }
    };

    private final boolean ownInitialLine = !OVERRIDES_INITIAL_LINE.get(getClass());

    /** A response encoder that does not know the request methods ({@link #pollRequestMethod()} returns null). */
    public HttpResponseEncoder() {
    }

    /** Encodes everything HTTP except requests (which are passed on untouched). */
    @Override
    public boolean acceptOutboundMessage(Object msg) throws Exception {
        return super.acceptOutboundMessage(msg) && !(msg instanceof HttpRequest);
    }

    @Override
    protected void encodeInitialLine(ByteBuf buf, HttpResponse response) {
        HttpObjectEncoder.writeAscii(buf, response.protocolVersion().asciiText());
        buf.writeByte(' ');
        buf.writeBytes(response.status().statusLineBytes());
        buf.writeShort(CRLF_SHORT);
    }

    @Override
    final int initialLineLength(HttpResponse response) {
        if (!ownInitialLine) {
            return -1;
        }
        return response.protocolVersion().asciiText().length() + 1 + response.status().statusLineBytes().length + 2;
    }

    @Override
    final int writeInitialLine(byte[] dst, int pos, HttpResponse response) {
        AsciiString version = response.protocolVersion().asciiText();
        int p = DefaultHttpHeaders.writeAscii(dst, pos, version);
        dst[p++] = ' ';
        byte[] status = response.status().statusLineBytes();
        System.arraycopy(status, 0, dst, p, status.length);
        p += status.length;
        dst[p++] = '\r';
        dst[p++] = '\n';
        return p;
    }

    /**
     * The method of the request the next final (non-1xx) response answers, or {@code null} if unknown. Called
     * exactly once per final response head, in write order, on the event loop; never for 1xx interim responses,
     * which do not end a request. Server codecs override it to poll a queue they fill as requests are decoded.
     */
    protected HttpMethod pollRequestMethod() {
        return null;
    }

    @Override
    protected boolean isContentAlwaysEmpty(HttpResponse response) {
        int code = response.status().code();
        if (code < 200) {
            // 1xx responses are interim: the final response to the same request is still to come.
            return true;
        }
        HttpMethod method = pollRequestMethod();
        if (method != null) {
            if (method.equals(HttpMethod.HEAD)) {
                return true;
            }
            if (method.equals(HttpMethod.CONNECT) && code < 300) {
                return true;
            }
        }
        return code == 204 || code == 304;
    }

    @Override
    protected void sanitizeHeadersBeforeEncode(HttpResponse response, boolean isAlwaysEmpty) {
        if (!isAlwaysEmpty) {
            return;
        }
        int code = response.status().code();
        if (code < 200 || code == 204) {
            response.headers().remove(HttpHeaderNames.TRANSFER_ENCODING);
            response.headers().remove(HttpHeaderNames.CONTENT_LENGTH);
        } else if (code == 304) {
            response.headers().remove(HttpHeaderNames.TRANSFER_ENCODING);
        }
    }
}
