package io.weir.handler.codec.http;

/** The head of an HTTP request: method, request-target (the "URI") and version (RFC 9112 §3). */
public interface HttpRequest extends HttpMessage {

    /** The request method. */
    HttpMethod method();

    /**
     * Sets the request method; returns this.
     *
     * @throws NullPointerException if {@code method} is null
     */
    HttpRequest setMethod(HttpMethod method);

    /** The request-target as sent: origin form ({@code /path?query}), absolute form, authority form or {@code *}. */
    String uri();

    /**
     * Sets the request-target; returns this.
     *
     * @throws NullPointerException if {@code uri} is null
     */
    HttpRequest setUri(String uri);

    @Override
    HttpRequest setProtocolVersion(HttpVersion version);
}
