package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufHolder;

/**
 * A piece of an HTTP message's content. It owns its {@link #content()} buffer: whoever holds the last
 * reference releases it (writing it to a channel passes that duty to the channel). The last piece of a message
 * is a {@link LastHttpContent}.
 */
public interface HttpContent extends HttpObject, ByteBufHolder {

    @Override
    HttpContent copy();

    @Override
    HttpContent duplicate();

    @Override
    HttpContent retainedDuplicate();

    @Override
    HttpContent replace(ByteBuf content);

    @Override
    HttpContent retain();

    @Override
    HttpContent retain(int increment);

    @Override
    HttpContent touch();

    @Override
    HttpContent touch(Object hint);
}
