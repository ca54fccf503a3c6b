package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;

/**
 * A whole HTTP message in one object: head, complete content and trailers. It owns its content buffer; the
 * holder of the last reference releases it. Built by applications or by {@link HttpObjectAggregator}.
 */
public interface FullHttpMessage extends HttpMessage, LastHttpContent {

    @Override
    FullHttpMessage copy();

    @Override
    FullHttpMessage duplicate();

    @Override
    FullHttpMessage retainedDuplicate();

    /** A message with this one's head (headers copied) and {@code content}, whose ownership passes to it. */
    @Override
    FullHttpMessage replace(ByteBuf content);

    @Override
    FullHttpMessage retain();

    @Override
    FullHttpMessage retain(int increment);

    @Override
    FullHttpMessage touch();

    @Override
    FullHttpMessage touch(Object hint);
}
