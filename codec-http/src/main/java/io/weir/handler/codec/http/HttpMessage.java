package io.weir.handler.codec.http;

/**
 * The head of an HTTP message: protocol version and header fields. Its content, if any, follows as
 * {@link HttpContent} objects (or is part of a {@link FullHttpMessage}).
 *
 * <p>Not thread-safe; a message belongs to the thread handling it.
 */
public interface HttpMessage extends HttpObject {

    /** The protocol version. */
    HttpVersion protocolVersion();

    /**
     * Sets the protocol version; returns this.
     *
     * @throws NullPointerException if {@code version} is null
     */
    HttpMessage setProtocolVersion(HttpVersion version);

    /** The header fields, mutable in place. */
    HttpHeaders headers();
}
