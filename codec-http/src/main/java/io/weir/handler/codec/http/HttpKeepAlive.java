package io.weir.handler.codec.http;

/**
 * The rules of HTTP/1.x connection persistence on the server side (RFC 9112 §9.3), shared by
 * {@link HttpServerCodec} (built with an {@link HttpServerPolicy}) and {@link HttpServerKeepAliveHandler}.
 */
final class HttpKeepAlive {
    private HttpKeepAlive() {
    }

    /**
     * Whether the client may reuse the connection after {@code response}: it does not say {@code Connection: close},
     * and it is HTTP/1.1, or HTTP/1.0 with keep-alive asked for by the request ({@code http10KeepAlive}) or the
     * response.
     */
    static boolean responsePersists(HttpResponse response, boolean http10KeepAlive) {
        HttpHeaders headers = response.headers();
        return !headers.containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE, true)
                && (response.protocolVersion().isKeepAliveDefault() || http10KeepAlive
                        || headers.containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE, true));
    }

    /** Whether the client can find the end of {@code response} without the connection closing. */
    static boolean hasSelfDefinedLength(HttpResponse response) {
        int code = response.status().code();
        return code < 200 || code == 204 || code == 304
                || HttpUtil.isContentLengthSet(response) || HttpUtil.isTransferEncodingChunked(response);
    }

    /** Whether {@code request} lets the connection persist; for HTTP/1.0 only with {@code Connection: keep-alive}. */
    static boolean requestPersists(HttpRequest request) {
        return HttpUtil.isKeepAlive(request);
    }

    /** Whether {@code request} is an HTTP/1.0 one that asked for keep-alive (its response must say so too). */
    static boolean isHttp10KeepAlive(HttpRequest request, boolean persists) {
        return persists && !request.protocolVersion().isKeepAliveDefault();
    }
}
