package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;

import java.util.Objects;

/** The standard {@link LastHttpContent}: a buffer it owns plus trailer fields. Not thread-safe. */
public class DefaultLastHttpContent extends DefaultHttpContent implements LastHttpContent {
    private final HttpHeaders trailingHeaders;

    /** An empty last piece with empty, validating trailers. */
    public DefaultLastHttpContent() {
        this(Unpooled.EMPTY_BUFFER);
    }

    /** A last piece over {@code content} (its reference passes here) with empty, validating trailers. */
    public DefaultLastHttpContent(ByteBuf content) {
        this(content, new DefaultHttpHeaders());
    }

    /** A last piece over {@code content} with empty trailers that validate if {@code validateHeaders}. */
    public DefaultLastHttpContent(ByteBuf content, boolean validateHeaders) {
        this(content, new DefaultHttpHeaders(validateHeaders));
    }

    /**
     * A last piece over {@code content} using {@code trailingHeaders} (not copied).
     *
     * @throws NullPointerException if an argument is null
     */
    public DefaultLastHttpContent(ByteBuf content, HttpHeaders trailingHeaders) {
        super(content);
        this.trailingHeaders = Objects.requireNonNull(trailingHeaders, "trailingHeaders");
    }

    @Override
    public HttpHeaders trailingHeaders() {
        return trailingHeaders;
    }

    @Override
    public LastHttpContent copy() {
        return replace(content().copy());
    }

    @Override
    public LastHttpContent duplicate() {
        return replace(content().duplicate());
    }

    @Override
    public LastHttpContent retainedDuplicate() {
        return replace(content().retainedDuplicate());
    }

    /** A last piece over {@code content} with a copy of these trailers. */
    @Override
    public LastHttpContent replace(ByteBuf content) {
        DefaultLastHttpContent c = new DefaultLastHttpContent(content, trailingHeaders.copy());
        c.setDecoderResult(decoderResult());
        return c;
    }

    @Override
    public LastHttpContent retain() {
        super.retain();
        return this;
    }

    @Override
    public LastHttpContent retain(int increment) {
        super.retain(increment);
        return this;
    }

    @Override
    public LastHttpContent touch() {
        super.touch();
        return this;
    }

    @Override
    public LastHttpContent touch(Object hint) {
        super.touch(hint);
        return this;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(getClass().getSimpleName()).append("(data: ").append(content())
                .append(", decoderResult: ").append(decoderResult()).append(')');
        HttpMessageUtil.appendHeaders(sb, trailingHeaders);
        return sb.toString();
    }
}
