package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;

import java.util.Objects;

/**
 * The standard {@link FullHttpRequest}. It owns its content buffer: {@link #release()} releases the buffer, and
 * the reference-count methods act on it. Not thread-safe.
 */
public class DefaultFullHttpRequest extends DefaultHttpRequest implements FullHttpRequest {
    private final ByteBuf content;
    private final HttpHeaders trailingHeaders;

    /** A request with no content and empty, validating headers and trailers. */
    public DefaultFullHttpRequest(HttpVersion version, HttpMethod method, String uri) {
        this(version, method, uri, Unpooled.EMPTY_BUFFER);
    }

    /** A request over {@code content} (its reference passes here) with empty, validating headers and trailers. */
    public DefaultFullHttpRequest(HttpVersion version, HttpMethod method, String uri, ByteBuf content) {
        this(version, method, uri, content, true);
    }

    /** A request over {@code content} with empty headers and trailers that validate if {@code validateHeaders}. */
    public DefaultFullHttpRequest(HttpVersion version, HttpMethod method, String uri, ByteBuf content,
                                  boolean validateHeaders) {
        this(version, method, uri, content, new DefaultHttpHeaders(validateHeaders),
                new DefaultHttpHeaders(validateHeaders));
    }

    /**
     * A request over {@code content} using {@code headers} and {@code trailingHeaders} (not copied).
     *
     * @throws NullPointerException if an argument is null
     */
    public DefaultFullHttpRequest(HttpVersion version, HttpMethod method, String uri, ByteBuf content,
                                  HttpHeaders headers, HttpHeaders trailingHeaders) {
        super(version, method, uri, headers);
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
    public FullHttpRequest retain() {
        content.retain();
        return this;
    }

    @Override
    public FullHttpRequest retain(int increment) {
        content.retain(increment);
        return this;
    }

    @Override
    public FullHttpRequest touch() {
        content.touch();
        return this;
    }

    @Override
    public FullHttpRequest touch(Object hint) {
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
    public FullHttpRequest copy() {
        return replace(content.copy());
    }

    @Override
    public FullHttpRequest duplicate() {
        return replace(content.duplicate());
    }

    @Override
    public FullHttpRequest retainedDuplicate() {
        return replace(content.retainedDuplicate());
    }

    @Override
    public FullHttpRequest setProtocolVersion(HttpVersion version) {
        super.setProtocolVersion(version);
        return this;
    }

    @Override
    public FullHttpRequest setMethod(HttpMethod method) {
        super.setMethod(method);
        return this;
    }

    @Override
    public FullHttpRequest setUri(String uri) {
        super.setUri(uri);
        return this;
    }

    /** A request with this one's method, URI, version, a copy of its headers and trailers, over {@code content}. */
    @Override
    public FullHttpRequest replace(ByteBuf content) {
        DefaultFullHttpRequest r = new DefaultFullHttpRequest(protocolVersion(), method(), uri(), content,
                headers().copy(), trailingHeaders.copy());
        r.setDecoderResult(decoderResult());
        return r;
    }

    @Override
    public int hashCode() {
        return super.hashCode() * 31 + content.hashCode();
    }

    /** Equal to a request with an equal head, equal trailers and the same readable content bytes. */
    @Override
    public boolean equals(Object o) {
        return super.equals(o) && o instanceof DefaultFullHttpRequest r && content.equals(r.content)
                && HttpMessageUtil.headersEqual(trailingHeaders, r.trailingHeaders);
    }

    @Override
    public String toString() {
        return HttpMessageUtil.appendFullRequest(new StringBuilder(256), this).toString();
    }
}
