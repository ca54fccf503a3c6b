package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;

/**
 * The last piece of an HTTP message's content, with the trailer fields sent after a chunked body
 * (RFC 9112 §7.1.2). Writing one ends the message; a decoder emits one at the end of every message, even one
 * with no content.
 */
public interface LastHttpContent extends HttpContent {

    /**
     * An empty last piece with no trailers: shared, immutable, and not reference-counted (retain and release
     * have no effect), so it may be written any number of times from any thread.
     */
    LastHttpContent EMPTY_LAST_CONTENT = new EmptyLastHttpContent();

    /** The trailer fields, mutable unless this is {@link #EMPTY_LAST_CONTENT}. */
    HttpHeaders trailingHeaders();

    @Override
    LastHttpContent copy();

    @Override
    LastHttpContent duplicate();

    @Override
    LastHttpContent retainedDuplicate();

    @Override
    LastHttpContent replace(ByteBuf content);

    @Override
    LastHttpContent retain();

    @Override
    LastHttpContent retain(int increment);

    @Override
    LastHttpContent touch();

    @Override
    LastHttpContent touch(Object hint);
}
