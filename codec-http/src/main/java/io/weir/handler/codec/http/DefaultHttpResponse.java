package io.weir.handler.codec.http;

import java.util.Objects;

/** The standard {@link HttpResponse} head. Not thread-safe. */
public class DefaultHttpResponse extends DefaultHttpMessage implements HttpResponse {
    private HttpResponseStatus status;

    /** A response head with empty, validating headers. */
    public DefaultHttpResponse(HttpVersion version, HttpResponseStatus status) {
        this(version, status, new DefaultHttpHeaders());
    }

    /** A response head with empty headers that validate names and values if {@code validateHeaders}. */
    public DefaultHttpResponse(HttpVersion version, HttpResponseStatus status, boolean validateHeaders) {
        this(version, status, new DefaultHttpHeaders(validateHeaders));
    }

    /**
     * A response head using {@code headers} (not copied).
     *
     * @throws NullPointerException if an argument is null
     */
    public DefaultHttpResponse(HttpVersion version, HttpResponseStatus status, HttpHeaders headers) {
        super(version, headers);
        this.status = Objects.requireNonNull(status, "status");
    }

    @Override
    public HttpResponseStatus status() {
        return status;
    }

    @Override
    public HttpResponse setStatus(HttpResponseStatus status) {
        this.status = Objects.requireNonNull(status, "status");
        return this;
    }

    @Override
    public HttpResponse setProtocolVersion(HttpVersion version) {
        super.setProtocolVersion(version);
        return this;
    }

    @Override
    public int hashCode() {
        return (status.hashCode() * 31 + protocolVersion().hashCode()) * 31 + headers().size();
    }

    /** Equal to a response with the same status code, version, headers in order, and decoder result. */
    @Override
    public boolean equals(Object o) {
        return o instanceof DefaultHttpResponse r && o.getClass() == getClass() && status.equals(r.status)
                && protocolVersion().equals(r.protocolVersion())
                && HttpMessageUtil.headersEqual(headers(), r.headers())
                && decoderResult().equals(r.decoderResult());
    }

    @Override
    public String toString() {
        return HttpMessageUtil.appendResponse(new StringBuilder(256), this).toString();
    }
}
