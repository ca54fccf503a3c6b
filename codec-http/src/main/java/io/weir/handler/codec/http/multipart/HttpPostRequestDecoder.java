package io.weir.handler.codec.http.multipart;

import io.weir.handler.codec.http.HttpContent;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpHeaderValues;
import io.weir.handler.codec.http.HttpRequest;
import io.weir.handler.codec.http.HttpUtil;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * Decodes a POST body: {@code multipart/form-data} with {@link HttpPostMultipartRequestDecoder}, anything else (in
 * practice {@code application/x-www-form-urlencoded}) with {@link HttpPostStandardRequestDecoder}, chosen from the
 * request's {@code Content-Type}. Typical use on the event loop:
 *
 * <pre>{@code
 * decoder = new HttpPostRequestDecoder(factory, request);      // on the HttpRequest
 * decoder.offer(content);                                      // on each HttpContent (you still release it)
 * while (decoder.hasNext()) { InterfaceHttpData d = decoder.next(); ... }
 * decoder.destroy();                                           // after the LastHttpContent, or on error/close
 * }</pre>
 *
 * Same contract as {@link InterfaceHttpPostRequestDecoder}: single-threaded, the decoder owns the items.
 */
public final class HttpPostRequestDecoder implements InterfaceHttpPostRequestDecoder {
    private final InterfaceHttpPostRequestDecoder delegate;

    /** A decoder for {@code request} with a {@link DefaultHttpDataFactory} (mixed mode), UTF-8 and default limits. */
    public HttpPostRequestDecoder(HttpRequest request) {
        this(new DefaultHttpDataFactory(), request, StandardCharsets.UTF_8, new HttpPostDecoderConfig());
    }

    /** A decoder using {@code factory}, UTF-8 and default limits. */
    public HttpPostRequestDecoder(HttpDataFactory factory, HttpRequest request) {
        this(factory, request, StandardCharsets.UTF_8, new HttpPostDecoderConfig());
    }

    /**
     * A decoder. If {@code request} also carries content (a {@code FullHttpRequest}), that content is offered now.
     *
     * @param charset the charset of fields that do not name one
     * @throws ErrorDataDecoderException if the {@code Content-Type} is multipart without a valid boundary
     */
    public HttpPostRequestDecoder(HttpDataFactory factory, HttpRequest request, Charset charset,
                                  HttpPostDecoderConfig config) {
        Objects.requireNonNull(factory, "factory");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(charset, "charset");
        Objects.requireNonNull(config, "config");
        delegate = isMultipart(request) ? new HttpPostMultipartRequestDecoder(factory, request, charset, config)
                : new HttpPostStandardRequestDecoder(factory, request, charset, config);
    }

    /** Whether {@code request}'s {@code Content-Type} is {@code multipart/form-data}. */
    public static boolean isMultipart(HttpRequest request) {
        String contentType = request.headers().get(HttpHeaderNames.CONTENT_TYPE);
        if (contentType == null) {
            return false;
        }
        CharSequence mime = HttpUtil.getMimeType(contentType);
        return mime != null && HttpHeaderValues.MULTIPART_FORM_DATA.contentEqualsIgnoreCase(mime);
    }

    @Override
    public boolean isMultipart() {
        return delegate.isMultipart();
    }

    @Override
    public HttpPostRequestDecoder offer(HttpContent content) {
        delegate.offer(content);
        return this;
    }

    @Override
    public boolean hasNext() {
        return delegate.hasNext();
    }

    @Override
    public InterfaceHttpData next() {
        return delegate.next();
    }

    @Override
    public InterfaceHttpData currentPartialHttpData() {
        return delegate.currentPartialHttpData();
    }

    @Override
    public List<InterfaceHttpData> getBodyHttpDatas() {
        return delegate.getBodyHttpDatas();
    }

    @Override
    public List<InterfaceHttpData> getBodyHttpDatas(String name) {
        return delegate.getBodyHttpDatas(name);
    }

    @Override
    public InterfaceHttpData getBodyHttpData(String name) {
        return delegate.getBodyHttpData(name);
    }

    @Override
    public void removeHttpDataFromClean(InterfaceHttpData data) {
        delegate.removeHttpDataFromClean(data);
    }

    @Override
    public void cleanFiles() {
        delegate.cleanFiles();
    }

    @Override
    public void destroy() {
        delegate.destroy();
    }

    /** A malformed body, or a failure storing it. */
    public static class ErrorDataDecoderException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /** An error described by {@code message}. */
        public ErrorDataDecoderException(String message) {
            super(message);
        }

        /** An error described by {@code message}, caused by {@code cause}. */
        public ErrorDataDecoderException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The body has more fields than {@link HttpPostDecoderConfig#maxFields()}. */
    public static final class TooManyFormFieldsException extends ErrorDataDecoderException {
        private static final long serialVersionUID = 1L;

        /** An error described by {@code message}. */
        public TooManyFormFieldsException(String message) {
            super(message);
        }
    }

    /** A field (or a part's headers) grew beyond its limit before its delimiter arrived. */
    public static final class TooLongFormFieldException extends ErrorDataDecoderException {
        private static final long serialVersionUID = 1L;

        /** An error described by {@code message}. */
        public TooLongFormFieldException(String message) {
            super(message);
        }
    }

    /** More undecoded bytes would be buffered than {@link HttpPostDecoderConfig#maxBufferedBytes()}. */
    public static final class TooLongBodyException extends ErrorDataDecoderException {
        private static final long serialVersionUID = 1L;

        /** An error described by {@code message}. */
        public TooLongBodyException(String message) {
            super(message);
        }
    }

    /** The whole body was asked for before its last content was offered. */
    public static final class NotEnoughDataDecoderException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        /** An error described by {@code message}. */
        public NotEnoughDataDecoderException(String message) {
            super(message);
        }
    }
}
