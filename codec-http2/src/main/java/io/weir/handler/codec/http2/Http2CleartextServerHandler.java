package io.weir.handler.codec.http2;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.Channel;
import io.weir.handler.codec.ByteToMessageDecoder;
import io.weir.handler.codec.http.HttpServerCodec;
import io.weir.handler.codec.http2.internal.Http2Frames;
import io.weir.metrics.HttpMetrics;
import io.weir.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * h2c on a plaintext port, the first bytes deciding (RFC 9113 §3.3, RFC 7540 §3.2): a connection that starts with
 * the HTTP/2 client preface gets the HTTP/2 handlers ({@link Http2ServerInitializer}); any other gets the HTTP/1.1
 * pipeline from {@code http1Initializer}, with an {@link Http2ServerUpgradeHandler} placed right after its
 * {@link HttpServerCodec} so that a request carrying {@code Upgrade: h2c} switches the connection to HTTP/2 and is
 * served as stream 1. The handler replaces itself once the preface is complete, or once a byte differs from it and
 * the first line is an HTTP/1.x request line, handing the bytes read so far to the pipeline it installed. A first
 * line that is neither (an invalid preface, RFC 9113 §3.4) closes the connection.
 *
 * <p>The decision has a deadline ({@link #DEFAULT_DECISION_TIMEOUT_MILLIS}): a connection that sends nothing, or
 * part of the preface or of a first line and then stops, is closed quietly when it passes, before any protocol
 * handler is installed. Once the handler has decided, the chosen protocol's own timeouts take over.
 *
 * <p>Not sharable: one per connection. Event loop only.
 */
public final class Http2CleartextServerHandler implements ChannelHandler {
    private static final System.Logger LOGGER = System.getLogger(Http2CleartextServerHandler.class.getName());

    /**
     * Bytes of a first line the handler waits for before it decides; a longer line goes to the HTTP/1.1 decoder,
     * which refuses it by its own limit.
     */
    public static final int MAX_FIRST_LINE_BYTES = 8192;
    /**
     * Time a new connection has to send enough bytes for the protocol to be chosen, in milliseconds: the HTTP/1.1
     * request head timeout ({@code HttpServerTimeouts.DEFAULT_REQUEST_HEAD_TIMEOUT_MILLIS}), since a real client
     * sends its preface or request line in its first packet.
     */
    public static final long DEFAULT_DECISION_TIMEOUT_MILLIS = 10_000;
    private static final byte[] HTTP1_VERSION_PREFIX = {'H', 'T', 'T', 'P', '/', '1', '.'};
    private static final int HTTP1_VERSION_BYTES = 8;

    private final Http2ServerInitializer http2;
    private final ChannelInitializer<Channel> http1Initializer;
    private final long decisionTimeoutMillis;
    private final Runnable decisionTimedOut = this::decisionTimedOut;
    private ChannelHandlerContext ctx;
    private ByteBuf buffered;
    private ScheduledFuture<?> decisionTimeout;
    private boolean decided;

    /**
     * A handler with the default decision timeout, {@value #DEFAULT_DECISION_TIMEOUT_MILLIS} ms.
     *
     * @param http2 installs the HTTP/2 handlers (also used after an Upgrade)
     * @param http1Initializer installs the HTTP/1.1 handlers; its pipeline must contain an {@link HttpServerCodec}
     *        for the Upgrade to be offered
     */
    public Http2CleartextServerHandler(Http2ServerInitializer http2, ChannelInitializer<Channel> http1Initializer) {
        this(http2, http1Initializer, DEFAULT_DECISION_TIMEOUT_MILLIS);
    }

    /**
     * @param http2 installs the HTTP/2 handlers (also used after an Upgrade)
     * @param http1Initializer installs the HTTP/1.1 handlers; its pipeline must contain an {@link HttpServerCodec}
     *        for the Upgrade to be offered
     * @param decisionTimeoutMillis how long the connection has, from when it becomes active, to send enough bytes
     *        for the protocol to be chosen before it is closed; 0 disables
     * @throws IllegalArgumentException if {@code decisionTimeoutMillis} is negative
     */
    public Http2CleartextServerHandler(Http2ServerInitializer http2, ChannelInitializer<Channel> http1Initializer,
            long decisionTimeoutMillis) {
        this.http2 = Objects.requireNonNull(http2, "http2");
        this.http1Initializer = Objects.requireNonNull(http1Initializer, "http1Initializer");
        if (decisionTimeoutMillis < 0) {
            throw new IllegalArgumentException("decisionTimeoutMillis: " + decisionTimeoutMillis
                    + " (expected >= 0, 0 disables)");
        }
        this.decisionTimeoutMillis = decisionTimeoutMillis;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        if (ctx.channel().isActive()) {
            armDecisionTimeout();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        armDecisionTimeout();
        ctx.fireChannelActive();
    }

    private void armDecisionTimeout() {
        if (decisionTimeoutMillis > 0 && decisionTimeout == null && !decided) {
            decisionTimeout = ctx.executor().schedule(decisionTimedOut, decisionTimeoutMillis,
                    TimeUnit.MILLISECONDS);
        }
    }

    private void decisionTimedOut() {
        decisionTimeout = null;
        if (decided) {
            return;
        }
        // Nothing decided within the limit: a silent client or a partial preface or first line. Closed quietly;
        // no protocol was chosen to answer in.
        decided = true;
        HttpMetrics metrics = http2.metrics();
        if (metrics != null) {
            metrics.timeout(HttpMetrics.Timeout.REQUEST_HEAD);
        }
        releaseBuffered();
        ctx.close();
    }

    /**
     * An I/O error before the protocol is chosen (a client that connects and resets) closes the connection quietly,
     * logged at DEBUG: there is no protocol handler yet to take it, and a client must not be able to fill the
     * server's log. Other errors go on down the pipeline.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof IOException) {
            if (LOGGER.isLoggable(System.Logger.Level.DEBUG)) {
                LOGGER.log(System.Logger.Level.DEBUG, "closing " + ctx.channel() + " before its protocol was chosen",
                        cause);
            }
            ctx.close();
        } else {
            ctx.fireExceptionCaught(cause);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf in)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (decided) {
            // Timed out and closing: what still arrives is dropped.
            in.release();
            return;
        }
        ByteBuf buf = in;
        ByteBuf kept = buffered;
        if (kept != null) {
            // The cumulator owns both buffers from here on (and releases both if it fails).
            buffered = null;
            buf = ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(ctx.alloc(), kept, in);
        }
        int n = Math.min(buf.readableBytes(), Http2Frames.CONNECTION_PREFACE_LENGTH_BYTES);
        boolean preface = true;
        for (int i = 0; i < n; i++) {
            if (buf.getByte(buf.readerIndex() + i) != Http2Frames.connectionPrefaceByte(i)) {
                preface = false;
                break;
            }
        }
        if (preface && n < Http2Frames.CONNECTION_PREFACE_LENGTH_BYTES) {
            // Undecided: keep the bytes until the preface is complete or a byte differs.
            buffered = buf;
            return;
        }
        if (preface) {
            http2.install(ctx.pipeline());
        } else {
            int firstLine = firstLineKind(buf);
            if (firstLine == UNDECIDED) {
                buffered = buf;
                return;
            }
            if (firstLine == NEITHER) {
                // Neither the HTTP/2 preface nor an HTTP/1.x request line: an invalid preface (RFC 9113 §3.4).
                buf.release();
                decided = true;
                cancelDecisionTimeout();
                ctx.close();
                return;
            }
            ctx.pipeline().addLast(http1Initializer);
            ChannelHandlerContext codec = ctx.pipeline().context(HttpServerCodec.class);
            if (codec != null) {
                ctx.pipeline().addAfter(codec.name(), null, new Http2ServerUpgradeHandler(http2));
            }
        }
        decided = true;
        cancelDecisionTimeout();
        ctx.pipeline().remove(this);
        ctx.fireChannelRead(buf);
        ctx.fireChannelReadComplete();
    }

    private static final int UNDECIDED = 0;
    private static final int HTTP1 = 1;
    private static final int NEITHER = 2;

    /**
     * Whether the bytes begin with an HTTP/1.x request line: {@link #UNDECIDED} until its line feed arrived (or
     * {@link #MAX_FIRST_LINE_BYTES} are in, then the HTTP/1.1 decoder judges it).
     */
    private static int firstLineKind(ByteBuf buf) {
        int start = buf.readerIndex();
        int end = buf.writerIndex();
        // RFC 9112 §2.2: empty lines before a request line are ignored; the HTTP/1.1 decoder bounds how many.
        while (start < end && (buf.getByte(start) == '\r' || buf.getByte(start) == '\n')) {
            start++;
        }
        if (start - buf.readerIndex() >= MAX_FIRST_LINE_BYTES) {
            return HTTP1;
        }
        int lf = buf.indexOf(start, Math.min(end, start + MAX_FIRST_LINE_BYTES), (byte) '\n');
        if (lf < 0) {
            return buf.readableBytes() >= MAX_FIRST_LINE_BYTES ? HTTP1 : UNDECIDED;
        }
        int lineEnd = lf > start && buf.getByte(lf - 1) == '\r' ? lf - 1 : lf;
        int versionStart = lineEnd - HTTP1_VERSION_BYTES;
        if (versionStart <= start || buf.getByte(versionStart - 1) != ' ') {
            return NEITHER;
        }
        for (int i = 0; i < HTTP1_VERSION_PREFIX.length; i++) {
            if (buf.getByte(versionStart + i) != HTTP1_VERSION_PREFIX[i]) {
                return NEITHER;
            }
        }
        byte minor = buf.getByte(lineEnd - 1);
        return minor == '0' || minor == '1' ? HTTP1 : NEITHER;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        cancelDecisionTimeout();
        releaseBuffered();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancelDecisionTimeout();
        releaseBuffered();
    }

    private void cancelDecisionTimeout() {
        ScheduledFuture<?> t = decisionTimeout;
        decisionTimeout = null;
        if (t != null) {
            t.cancel(false);
        }
    }

    private void releaseBuffered() {
        if (buffered != null) {
            buffered.release();
            buffered = null;
        }
    }
}
