package io.weir.handler.codec.http;

/** The head of an HTTP response: version and status (RFC 9112 §4). */
public interface HttpResponse extends HttpMessage {

    /** The response status. */
    HttpResponseStatus status();

    /**
     * Sets the response status; returns this.
     *
     * @throws NullPointerException if {@code status} is null
     */
    HttpResponse setStatus(HttpResponseStatus status);

    @Override
    HttpResponse setProtocolVersion(HttpVersion version);
}
