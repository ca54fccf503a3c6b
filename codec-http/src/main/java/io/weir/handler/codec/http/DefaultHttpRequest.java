package io.weir.handler.codec.http;

import java.util.Objects;

/** The standard {@link HttpRequest} head. Not thread-safe. */
public class DefaultHttpRequest extends DefaultHttpMessage implements HttpRequest {
    private HttpMethod method;
    private String uri;

    /** A request head with empty, validating headers. */
    public DefaultHttpRequest(HttpVersion version, HttpMethod method, String uri) {
        this(version, method, uri, new DefaultHttpHeaders());
    }

    /** A request head with empty headers that validate names and values if {@code validateHeaders}. */
    public DefaultHttpRequest(HttpVersion version, HttpMethod method, String uri, boolean validateHeaders) {
        this(version, method, uri, new DefaultHttpHeaders(validateHeaders));
    }

    /**
     * A request head using {@code headers} (not copied).
     *
     * @throws NullPointerException if an argument is null
     */
    public DefaultHttpRequest(HttpVersion version, HttpMethod method, String uri, HttpHeaders headers) {
        super(version, headers);
        this.method = Objects.requireNonNull(method, "method");
        this.uri = Objects.requireNonNull(uri, "uri");
    }

    @Override
    public HttpMethod method() {
        return method;
    }

    @Override
    public HttpRequest setMethod(HttpMethod method) {
        this.method = Objects.requireNonNull(method, "method");
        return this;
    }

    @Override
    public String uri() {
        return uri;
    }

    @Override
    public HttpRequest setUri(String uri) {
        this.uri = Objects.requireNonNull(uri, "uri");
        return this;
    }

    @Override
    public HttpRequest setProtocolVersion(HttpVersion version) {
        super.setProtocolVersion(version);
        return this;
    }

    @Override
    public int hashCode() {
        return ((method.hashCode() * 31 + uri.hashCode()) * 31 + protocolVersion().hashCode()) * 31
                + headers().size();
    }

    /** Equal to a request with the same method, URI, version, headers in order, and decoder result. */
    @Override
    public boolean equals(Object o) {
        return o instanceof DefaultHttpRequest r && o.getClass() == getClass() && method.equals(r.method)
                && uri.equals(r.uri) && protocolVersion().equals(r.protocolVersion())
                && HttpMessageUtil.headersEqual(headers(), r.headers())
                && decoderResult().equals(r.decoderResult());
    }

    @Override
    public String toString() {
        return HttpMessageUtil.appendRequest(new StringBuilder(256), this).toString();
    }
}
