package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.handler.codec.DecoderResult;

/** The {@link LastHttpContent#EMPTY_LAST_CONTENT} singleton: immutable, never freed, thread-safe. */
final class EmptyLastHttpContent implements LastHttpContent {

    EmptyLastHttpContent() {
    }

    @Override
    public ByteBuf content() {
        return Unpooled.EMPTY_BUFFER;
    }

    @Override
    public HttpHeaders trailingHeaders() {
        return EmptyHttpHeaders.INSTANCE;
    }

    @Override
    public LastHttpContent copy() {
        return this;
    }

    @Override
    public LastHttpContent duplicate() {
        return this;
    }

    @Override
    public LastHttpContent retainedDuplicate() {
        return this;
    }

    @Override
    public LastHttpContent replace(ByteBuf content) {
        return new DefaultLastHttpContent(content);
    }

    @Override
    public LastHttpContent retain() {
        return this;
    }

    @Override
    public LastHttpContent retain(int increment) {
        return this;
    }

    @Override
    public LastHttpContent touch() {
        return this;
    }

    @Override
    public LastHttpContent touch(Object hint) {
        return this;
    }

    @Override
    public int refCnt() {
        return 1;
    }

    @Override
    public boolean release() {
        return false;
    }

    @Override
    public boolean release(int decrement) {
        return false;
    }

    @Override
    public DecoderResult decoderResult() {
        return DecoderResult.SUCCESS;
    }

    /**
     * @throws UnsupportedOperationException always: the shared instance is immutable
     */
    @Override
    public void setDecoderResult(DecoderResult result) {
        throw new UnsupportedOperationException("EMPTY_LAST_CONTENT is immutable");
    }

    @Override
    public String toString() {
        return "EmptyLastHttpContent";
    }
}
