package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;

import java.util.Objects;

/**
 * The standard {@link FullHttpResponse}. It owns its content buffer: {@link #release()} releases the buffer, and
 * the reference-count methods act on it. Not thread-safe.
 */
public class DefaultFullHttpResponse extends DefaultHttpResponse implements FullHttpResponse {
    private final ByteBuf content;
    private final HttpHeaders trailingHeaders;

    /** A response with no content and empty, validating headers and trailers. */
    public DefaultFullHttpResponse(HttpVersion version, HttpResponseStatus status) {
        this(version, status, Unpooled.EMPTY_BUFFER);
    }

    /** A response over {@code content} (its reference passes here) with empty, validating headers and trailers. */
    public DefaultFullHttpResponse(HttpVersion version, HttpResponseStatus status, ByteBuf content) {
        this(version, status, content, true);
    }

    /** A response over {@code content} with empty headers and trailers that validate if {@code validateHeaders}. */
    public DefaultFullHttpResponse(HttpVersion version, HttpResponseStatus status, ByteBuf content,
                                   boolean validateHeaders) {
        this(version, status, content, new DefaultHttpHeaders(validateHeaders),
                new DefaultHttpHeaders(validateHeaders));
    }

    /**
     * A response over {@code content} using {@code headers} and {@code trailingHeaders} (not copied).
     *
     * @throws NullPointerException if an argument is null
     */
    public DefaultFullHttpResponse(HttpVersion version, HttpResponseStatus status, ByteBuf content,
                                   HttpHeaders headers, HttpHeaders trailingHeaders) {
        super(version, status, headers);
        this.content = Objects.requireNonNull(content, "content");
        this.trailingHeaders = Objects.requireNonNull(trailingHeaders, "trailingHeaders");
    }

    @Override
    public ByteBuf content() {
        return content;
    }

    @Override
    public HttpHeaders trailingHeaders() {
        return trailingHeaders;
    }

    @Override
    public int refCnt() {
        return content.refCnt();
    }

    @Override
    public FullHttpResponse retain() {
        content.retain();
        return this;
    }

    @Override
    public FullHttpResponse retain(int increment) {
        content.retain(increment);
        return this;
    }

    @Override
    public FullHttpResponse touch() {
        content.touch();
        return this;
    }

    @Override
    public FullHttpResponse touch(Object hint) {
        content.touch(hint);
        return this;
    }

    @Override
    public boolean release() {
        return content.release();
    }

    @Override
    public boolean release(int decrement) {
        return content.release(decrement);
    }

    @Override
    public FullHttpResponse copy() {
        return replace(content.copy());
    }

    @Override
    public FullHttpResponse duplicate() {
        return replace(content.duplicate());
    }

    @Override
    public FullHttpResponse retainedDuplicate() {
        return replace(content.retainedDuplicate());
    }

    @Override
    public FullHttpResponse setProtocolVersion(HttpVersion version) {
        super.setProtocolVersion(version);
        return this;
    }

    @Override
    public FullHttpResponse setStatus(HttpResponseStatus status) {
        super.setStatus(status);
        return this;
    }

    /** A response with this one's status, version, a copy of its headers and trailers, over {@code content}. */
    @Override
    public FullHttpResponse replace(ByteBuf content) {
        DefaultFullHttpResponse r = new DefaultFullHttpResponse(protocolVersion(), status(), content,
                headers().copy(), trailingHeaders.copy());
        r.setDecoderResult(decoderResult());
        return r;
    }

    @Override
    public int hashCode() {
        return super.hashCode() * 31 + content.hashCode();
    }

    /** Equal to a response with an equal head, equal trailers and the same readable content bytes. */
    @Override
    public boolean equals(Object o) {
        return super.equals(o) && o instanceof DefaultFullHttpResponse r && content.equals(r.content)
                && HttpMessageUtil.headersEqual(trailingHeaders, r.trailingHeaders);
    }

    @Override
    public String toString() {
        return HttpMessageUtil.appendFullResponse(new StringBuilder(256), this).toString();
    }
}
