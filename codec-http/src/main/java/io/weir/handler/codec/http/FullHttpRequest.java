package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;

/** A whole HTTP request: head, complete content and trailers (see {@link FullHttpMessage} for ownership). */
public interface FullHttpRequest extends HttpRequest, FullHttpMessage {

    @Override
    FullHttpRequest copy();

    @Override
    FullHttpRequest duplicate();

    @Override
    FullHttpRequest retainedDuplicate();

    @Override
    FullHttpRequest replace(ByteBuf content);

    @Override
    FullHttpRequest retain();

    @Override
    FullHttpRequest retain(int increment);

    @Override
    FullHttpRequest touch();

    @Override
    FullHttpRequest touch(Object hint);

    @Override
    FullHttpRequest setProtocolVersion(HttpVersion version);

    @Override
    FullHttpRequest setMethod(HttpMethod method);

    @Override
    FullHttpRequest setUri(String uri);
}
