package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.CompositeByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.compression.ContentDecoder;
import io.weir.handler.codec.compression.DecompressionException;
import io.weir.handler.codec.compression.DecompressionLimitExceededException;
import io.weir.util.ReferenceCountUtil;

/**
 * Decompresses the bodies of HTTP messages (requests on a server, responses on a client) whose
 * {@code Content-Encoding} {@link #newContentDecoder} understands, chunk by chunk, and passes on the message
 * without {@code Content-Encoding} and {@code Content-Length}: a streamed message becomes
 * {@code Transfer-Encoding: chunked} (HTTP/1.1), a {@link FullHttpMessage} stays full with the decompressed
 * {@code Content-Length}. Messages with no or an unknown encoding (including lists such as
 * {@code gzip, br}) pass through untouched.
 *
 * <p>Bounded: one body may decompress to at most {@code maxDecompressedBytes}, and, once past
 * {@value #RATIO_GRACE_BYTES} bytes, to at most {@code maxRatio} bytes per compressed byte read. Past either
 * limit decoding stops at once, with at most one 16 KiB piece beyond the limit allocated, the remaining chunks
 * of that body are dropped, and {@link DecompressionLimitExceededException} is thrown through the pipeline.
 * Corrupt or truncated data throws {@link DecompressionException} the same way. Pieces already passed on stay
 * with the handlers that received them.
 *
 * <p>Only called from the channel's event loop; one instance per channel.
 */
public abstract class HttpContentDecoder implements ChannelHandler {
    /** Default bound on one decompressed body: 64 MiB. */
    public static final long DEFAULT_MAX_DECOMPRESSED_BYTES = 64L * 1024 * 1024;
    /** Default bound on decompressed bytes per compressed byte, applied past {@link #RATIO_GRACE_BYTES}. */
    public static final int DEFAULT_MAX_RATIO = 100;
    /** Output below this size is never refused for its ratio: small, highly repetitive bodies are normal. */
    public static final long RATIO_GRACE_BYTES = 1024 * 1024;

    private final long maxDecompressedBytes;
    private final int maxRatio;
    private final LimitedSink sink = new LimitedSink();
    private ContentDecoder decoder;
    private boolean discarding;

    /** A decoder with the default limits. */
    protected HttpContentDecoder() {
        this(DEFAULT_MAX_DECOMPRESSED_BYTES, DEFAULT_MAX_RATIO);
    }

    /**
     * A decoder with the given limits.
     *
     * @throws IllegalArgumentException if a limit is not positive
     */
    protected HttpContentDecoder(long maxDecompressedBytes, int maxRatio) {
        if (maxDecompressedBytes <= 0) {
            throw new IllegalArgumentException("maxDecompressedBytes must be positive: " + maxDecompressedBytes);
        }
        if (maxRatio <= 0) {
            throw new IllegalArgumentException("maxRatio must be positive: " + maxRatio);
        }
        this.maxDecompressedBytes = maxDecompressedBytes;
        this.maxRatio = maxRatio;
    }

    /**
     * A decoder for {@code contentEncoding} (trimmed, as sent), or {@code null} to pass the message on as it is.
     */
    protected abstract ContentDecoder newContentDecoder(String contentEncoding) throws Exception;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpMessage message) {
            closeDecoder();
            discarding = false;
            if (message instanceof HttpResponse res && res.status().code() < 200) {
                ctx.fireChannelRead(msg);
                return;
            }
            String encoding = message.headers().get(HttpHeaderNames.CONTENT_ENCODING);
            ContentDecoder d = null;
            if (encoding != null) {
                try {
                    d = newContentDecoder(encoding.trim());
                } catch (Throwable t) {
                    ReferenceCountUtil.release(msg);
                    throw t;
                }
            }
            if (d == null) {
                ctx.fireChannelRead(msg);
                return;
            }
            decoder = d;
            sink.reset();
            HttpHeaders headers = message.headers();
            headers.remove(HttpHeaderNames.CONTENT_ENCODING);
            headers.remove(HttpHeaderNames.CONTENT_LENGTH);
            if (message instanceof FullHttpMessage full) {
                decodeFull(ctx, full);
                return;
            }
            if (!message.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
                HttpUtil.setTransferEncodingChunked(message, true);
            }
            ctx.fireChannelRead(msg);
            return;
        }
        if (msg instanceof HttpContent content) {
            boolean last = content instanceof LastHttpContent;
            if (discarding) {
                discarding = !last;
                content.release();
                return;
            }
            if (decoder == null) {
                ctx.fireChannelRead(msg);
                return;
            }
            decodeContent(ctx, content, last);
            return;
        }
        ctx.fireChannelRead(msg);
    }

    private void decodeContent(ChannelHandlerContext ctx, HttpContent content, boolean last) {
        try {
            sink.streamTo(ctx);
            sink.compressedBytes += content.content().readableBytes();
            decoder.decode(content.content(), ctx.alloc(), sink);
            if (last) {
                decoder.finish();
            }
        } catch (Throwable t) {
            closeDecoder();
            discarding = !last;
            content.release();
            throw t;
        }
        if (last) {
            closeDecoder();
            LastHttpContent in = (LastHttpContent) content;
            LastHttpContent out = LastHttpContent.EMPTY_LAST_CONTENT;
            if (!in.trailingHeaders().isEmpty()) {
                DefaultLastHttpContent withTrailers = new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER);
                withTrailers.trailingHeaders().set(in.trailingHeaders());
                out = withTrailers;
            }
            content.release();
            ctx.fireChannelRead(out);
        } else {
            content.release();
        }
    }

    private void decodeFull(ChannelHandlerContext ctx, FullHttpMessage full) {
        CompositeByteBuf body = ctx.alloc().compositeBuffer(Integer.MAX_VALUE);
        try {
            sink.collectInto(body);
            sink.compressedBytes = full.content().readableBytes();
            decoder.decode(full.content(), ctx.alloc(), sink);
            decoder.finish();
        } catch (Throwable t) {
            body.release();
            full.release();
            closeDecoder();
            throw t;
        }
        closeDecoder();
        FullHttpMessage decoded = full.replace(body);
        full.release();
        HttpUtil.setContentLength(decoded, body.readableBytes());
        ctx.fireChannelRead(decoded);
    }

    private void closeDecoder() {
        if (decoder != null) {
            decoder.close();
            decoder = null;
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        closeDecoder();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        closeDecoder();
        ctx.fireChannelInactive();
    }

    /** Counts output against the limits, then streams it on or collects it for a full message. */
    private final class LimitedSink implements ContentDecoder.Sink {
        long compressedBytes;
        long decompressedBytes;
        private ChannelHandlerContext target;
        private CompositeByteBuf collector;

        void reset() {
            compressedBytes = 0;
            decompressedBytes = 0;
        }

        void streamTo(ChannelHandlerContext ctx) {
            target = ctx;
            collector = null;
        }

        void collectInto(CompositeByteBuf body) {
            target = null;
            collector = body;
        }

        @Override
        public void add(ByteBuf decoded) {
            decompressedBytes += decoded.readableBytes();
            if (decompressedBytes > maxDecompressedBytes) {
                decoded.release();
                throw new DecompressionLimitExceededException("decompressed body exceeds " + maxDecompressedBytes
                        + " bytes", decompressedBytes, compressedBytes);
            }
            if (decompressedBytes > RATIO_GRACE_BYTES && decompressedBytes / maxRatio > compressedBytes) {
                decoded.release();
                throw new DecompressionLimitExceededException("decompressed body exceeds " + maxRatio
                        + " times its compressed size", decompressedBytes, compressedBytes);
            }
            if (collector != null) {
                collector.addComponent(true, decoded);
            } else {
                target.fireChannelRead(new DefaultHttpContent(decoded));
            }
        }
    }
}
