package io.weir.handler.codec.http;

import java.util.Objects;

/** Base of the default {@link HttpMessage}s: version and headers. Not thread-safe. */
public abstract class DefaultHttpMessage extends DefaultHttpObject implements HttpMessage {
    private HttpVersion version;
    private final HttpHeaders headers;

    /**
     * A message with {@code version} and {@code headers}, which it uses (not copies).
     *
     * @throws NullPointerException if an argument is null
     */
    protected DefaultHttpMessage(HttpVersion version, HttpHeaders headers) {
        this.version = Objects.requireNonNull(version, "version");
        this.headers = Objects.requireNonNull(headers, "headers");
    }

    @Override
    public HttpVersion protocolVersion() {
        return version;
    }

    @Override
    public HttpMessage setProtocolVersion(HttpVersion version) {
        this.version = Objects.requireNonNull(version, "version");
        return this;
    }

    @Override
    public HttpHeaders headers() {
        return headers;
    }
}
