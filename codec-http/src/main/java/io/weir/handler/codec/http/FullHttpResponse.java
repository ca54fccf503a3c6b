package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;

/** A whole HTTP response: head, complete content and trailers (see {@link FullHttpMessage} for ownership). */
public interface FullHttpResponse extends HttpResponse, FullHttpMessage {

    @Override
    FullHttpResponse copy();

    @Override
    FullHttpResponse duplicate();

    @Override
    FullHttpResponse retainedDuplicate();

    @Override
    FullHttpResponse replace(ByteBuf content);

    @Override
    FullHttpResponse retain();

    @Override
    FullHttpResponse retain(int increment);

    @Override
    FullHttpResponse touch();

    @Override
    FullHttpResponse touch(Object hint);

    @Override
    FullHttpResponse setProtocolVersion(HttpVersion version);

    @Override
    FullHttpResponse setStatus(HttpResponseStatus status);
}
