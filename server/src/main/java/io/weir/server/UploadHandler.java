package io.weir.server;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.http.DefaultFullHttpResponse;
import io.weir.handler.codec.http.FullHttpResponse;
import io.weir.handler.codec.http.HttpContent;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpHeaderValues;
import io.weir.handler.codec.http.HttpMethod;
import io.weir.handler.codec.http.HttpRequest;
import io.weir.handler.codec.http.HttpResponse;
import io.weir.handler.codec.http.HttpResponseStatus;
import io.weir.handler.codec.http.HttpServerExpectContinueHandler;
import io.weir.handler.codec.http.HttpUtil;
import io.weir.handler.codec.http.HttpVersion;
import io.weir.handler.codec.http.LastHttpContent;
import io.weir.handler.codec.http.multipart.DefaultHttpDataFactory;
import io.weir.handler.codec.http.multipart.FileUpload;
import io.weir.handler.codec.http.multipart.HttpData;
import io.weir.handler.codec.http.multipart.HttpDataSizeExceededException;
import io.weir.handler.codec.http.multipart.HttpPostDecoderConfig;
import io.weir.handler.codec.http.multipart.HttpPostRequestDecoder;
import io.weir.handler.codec.http.multipart.HttpPostRequestDecoder.ErrorDataDecoderException;
import io.weir.handler.codec.http.multipart.HttpPostRequestDecoder.TooLongBodyException;
import io.weir.handler.codec.http.multipart.HttpPostRequestDecoder.TooLongFormFieldException;
import io.weir.handler.codec.http.multipart.HttpPostRequestDecoder.TooManyFormFieldsException;
import io.weir.handler.codec.http.multipart.InterfaceHttpData;
import io.weir.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Answers {@code POST /upload} ({@code multipart/form-data}) by decoding the body as it arrives, chunk by chunk,
 * with {@link HttpPostRequestDecoder}: fields and files above {@value #MEMORY_THRESHOLD_BYTES} bytes go to
 * temporary files in the upload directory. The answer is JSON listing each part in order:
 * {@code {"fields":[{"name":"a","file":false,"size":3},{"name":"f","file":true,"filename":"x.bin","size":9}]}}.
 * Every temporary file is deleted ({@link HttpPostRequestDecoder#destroy()}) before the answer is written, and
 * when the connection closes mid-upload.
 *
 * <p>Limits: those of the {@link HttpPostDecoderConfig} given (field count, undelimited field size, buffered body)
 * and {@code maxFileSizeBytes} per part; exceeding one answers {@code 413}, a malformed body {@code 400}, a body
 * that is not multipart {@code 415}, each with {@code {"error":"..."}}. The rest of a refused body is read and
 * dropped so the connection stays usable.
 *
 * <p>{@code Expect: 100-continue} (what curl sends with uploads above 1 MiB) is answered as the aggregator answers
 * it ({@link HttpServerExpectContinueHandler#expectationResponse}): {@code 100 Continue} once the request is known
 * to be acceptable, so the client sends its body at once instead of waiting, or a final status without reading the
 * body, {@code 413} when the declared length is above what the limits could ever accept (each of
 * {@link HttpPostDecoderConfig#maxFields()} parts at the per-part limit). A client told "no" before sending its
 * body would otherwise leave the connection out of step, so those refusals close it.
 *
 * <p>Sits before the aggregator; every other request passes on with its content. One instance per connection;
 * event loop only.
 */
public final class UploadHandler implements ChannelHandler {
    /** The path this handler answers. */
    public static final String PATH = "/upload";
    /** Parts up to this size stay in memory; larger ones are written to the upload directory. */
    public static final long MEMORY_THRESHOLD_BYTES = 16 * 1024;
    /** The largest part accepted by default: 64 MiB. */
    public static final long DEFAULT_MAX_FILE_SIZE_BYTES = 64L << 20;

    private final DefaultHttpDataFactory factory;
    private final HttpPostDecoderConfig config;
    /** The largest body the limits could accept: declared lengths above it are refused before the body is sent. */
    private final long maxRequestBytes;
    private HttpPostRequestDecoder decoder;
    /** The answer's part list while an upload is decoded; null otherwise, so idle connections do not carry it. */
    private StringBuilder parts;
    /** Whether the request being read is one this handler already answered, so its content is dropped. */
    private boolean dropping;

    /**
     * A handler storing large parts in {@code uploadDirectory} ({@code null}: the system temp directory).
     *
     * @param config the decoder's limits; not modified
     * @param maxFileSizeBytes the largest part accepted
     * @throws IllegalArgumentException if {@code maxFileSizeBytes} is not positive
     */
    public UploadHandler(Path uploadDirectory, HttpPostDecoderConfig config, long maxFileSizeBytes) {
        this(newFactory(uploadDirectory, maxFileSizeBytes), config);
    }

    private UploadHandler(DefaultHttpDataFactory factory, HttpPostDecoderConfig config) {
        this.factory = factory;
        this.config = Objects.requireNonNull(config, "config");
        long perPart = factory.maxLimit() < 0 ? Long.MAX_VALUE
                : saturatedAdd(factory.maxLimit(), config.maxPartHeaderSizeBytes());
        this.maxRequestBytes = perPart > Long.MAX_VALUE / config.maxFields() ? Long.MAX_VALUE
                : perPart * config.maxFields();
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    /** The factory for {@link #newConnectionHandler}: thread-safe, so every connection can share it. */
    static DefaultHttpDataFactory newFactory(Path uploadDirectory, long maxFileSizeBytes) {
        if (maxFileSizeBytes <= 0) {
            throw new IllegalArgumentException("maxFileSizeBytes: " + maxFileSizeBytes + " (expected: > 0)");
        }
        DefaultHttpDataFactory factory = new DefaultHttpDataFactory(DefaultHttpDataFactory.Mode.MIXED,
                MEMORY_THRESHOLD_BYTES, StandardCharsets.UTF_8).setBaseDirectory(uploadDirectory);
        factory.setMaxLimit(maxFileSizeBytes);
        return factory;
    }

    /** A handler for one connection sharing {@code factory}. */
    static UploadHandler newConnectionHandler(DefaultHttpDataFactory factory, HttpPostDecoderConfig config) {
        return new UploadHandler(Objects.requireNonNull(factory, "factory"), config);
    }

    private static boolean matches(String uri) {
        return uri.equals(PATH) || uri.startsWith(PATH + '?');
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpRequest req) {
            if (!matches(req.uri())) {
                dropping = false;
                ctx.fireChannelRead(msg);
                return;
            }
            dropping = false;
            try {
                start(ctx, req);
            } catch (RuntimeException e) {
                ReferenceCountUtil.release(msg);
                throw e;
            }
            if (msg instanceof HttpContent content) {
                receive(ctx, content);
            }
        } else if (msg instanceof HttpContent content && (decoder != null || dropping)) {
            receive(ctx, content);
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    private void start(ChannelHandlerContext ctx, HttpRequest req) {
        if (!req.method().equals(HttpMethod.POST)) {
            FullHttpResponse response = json(HttpResponseStatus.METHOD_NOT_ALLOWED, error("use POST"));
            response.headers().set(HttpHeaderNames.ALLOW, "POST");
            refuse(ctx, req, response);
            return;
        }
        if (!HttpPostRequestDecoder.isMultipart(req)) {
            refuse(ctx, req, json(HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE, error("expected multipart/form-data")));
            return;
        }
        HttpResponse expectation = HttpServerExpectContinueHandler.expectationResponse(req, maxRequestBytes);
        if (expectation != null && expectation.status().code() != HttpResponseStatus.CONTINUE.code()) {
            ReferenceCountUtil.release(expectation);
            HttpResponseStatus status = expectation.status();
            refuse(ctx, req, json(status, error(status.code() == HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE.code()
                    ? "the declared length is above the upload limits" : "unsupported expectation")));
            return;
        }
        try {
            decoder = new HttpPostRequestDecoder(factory, req, StandardCharsets.UTF_8, config);
        } catch (ErrorDataDecoderException e) {
            ReferenceCountUtil.release(expectation);
            refuse(ctx, req, json(HttpResponseStatus.BAD_REQUEST, error(e.getMessage())));
            return;
        }
        parts = new StringBuilder();
        if (expectation != null) {
            // Accepted: invite the body now rather than let the client wait (curl waits 1 s) for a silence.
            ctx.writeAndFlush(expectation);
            req.headers().remove(HttpHeaderNames.EXPECT);
        }
    }

    private void receive(ChannelHandlerContext ctx, HttpContent content) {
        boolean last = content instanceof LastHttpContent;
        try {
            if (decoder != null) {
                decoder.offer(content);
                drain();
                if (last) {
                    String body = "{\"fields\":[" + parts + "]}";
                    // Sizes are all the answer needs: the files go before the response does.
                    destroyDecoder();
                    ctx.writeAndFlush(json(HttpResponseStatus.OK, body));
                }
            }
        } catch (ErrorDataDecoderException e) {
            destroyDecoder();
            refuse(ctx, json(statusFor(e), error(e.getMessage())));
        } finally {
            content.release();
            if (last) {
                dropping = false;
            }
        }
    }

    private void drain() {
        while (decoder.hasNext()) {
            InterfaceHttpData data = decoder.next();
            if (parts.length() > 0) {
                parts.append(',');
            }
            parts.append("{\"name\":");
            HttpServerHandler.appendJsonString(parts, data.getName());
            if (data instanceof FileUpload upload) {
                parts.append(",\"file\":true,\"filename\":");
                HttpServerHandler.appendJsonString(parts, upload.getFilename());
            } else {
                parts.append(",\"file\":false");
            }
            long size = data instanceof HttpData d ? d.length() : 0;
            parts.append(",\"size\":").append(size).append('}');
        }
    }

    /** 413 for the limits, 400 for a malformed body. */
    static HttpResponseStatus statusFor(ErrorDataDecoderException e) {
        if (e instanceof TooManyFormFieldsException || e instanceof TooLongFormFieldException
                || e instanceof TooLongBodyException) {
            return HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE;
        }
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            // The data factory's per-part limit surfaces as the cause of the decoder's exception.
            if (cause instanceof HttpDataSizeExceededException) {
                return HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE;
            }
        }
        return HttpResponseStatus.BAD_REQUEST;
    }

    /** Answers {@code req} with {@code response} and drops the rest of its body. */
    private void refuse(ChannelHandlerContext ctx, HttpRequest req, FullHttpResponse response) {
        if (HttpUtil.is100ContinueExpected(req) || HttpUtil.isUnsupportedExpectation(req)) {
            // RFC 9110 §10.1.1: the client may never send the body it announced; only a close resynchronises.
            HttpUtil.setKeepAlive(response, false);
        }
        refuse(ctx, response);
    }

    private void refuse(ChannelHandlerContext ctx, FullHttpResponse response) {
        dropping = true;
        ctx.writeAndFlush(response);
    }

    private void destroyDecoder() {
        HttpPostRequestDecoder d = decoder;
        decoder = null;
        parts = null;
        if (d != null) {
            d.destroy();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        destroyDecoder();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        destroyDecoder();
    }

    private static String error(String message) {
        StringBuilder json = new StringBuilder("{\"error\":");
        HttpServerHandler.appendJsonString(json, message == null ? "malformed body" : message);
        return json.append('}').toString();
    }

    private static FullHttpResponse json(HttpResponseStatus status, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ByteBuf content = Unpooled.wrappedBuffer(bytes);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        HttpUtil.setContentLength(response, bytes.length);
        return response;
    }
}
