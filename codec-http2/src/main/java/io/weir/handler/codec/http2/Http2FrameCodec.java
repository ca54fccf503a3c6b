package io.weir.handler.codec.http2;

import static io.weir.handler.codec.http2.Http2Exception.connectionError;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelDrainEvent;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.handler.codec.ByteToMessageDecoder;
import io.weir.handler.codec.WritabilityInputPause;
import io.weir.handler.codec.http2.internal.Http2Connection;
import io.weir.handler.codec.http2.internal.Http2ConnectionConfig;
import io.weir.handler.codec.http2.internal.Http2ConnectionListener;
import io.weir.handler.codec.http2.internal.Http2StreamRecord;
import io.weir.util.concurrent.Future;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;

/**
 * The HTTP/2 connection (RFC 9113) as a channel handler: bytes in, {@link Http2Frame} messages out, and the reverse.
 * It sits right after the transport (or TLS) and keeps the whole connection state: streams and their states (§5.1),
 * stream-id rules, SETTINGS with an acknowledgement timeout, PING answers, flow control in both directions, graceful
 * GOAWAY. Above it, an {@link Http2MultiplexHandler} gives each stream its own child channel; alone, it is a frame
 * API. Build one per connection with {@link Http2FrameCodecBuilder}.
 *
 * <p><b>Inbound.</b> Fired: {@link Http2HeadersFrame} (decoded and validated), {@link Http2DataFrame},
 * {@link Http2ResetFrame}, {@link Http2SettingsFrame} (already applied and acknowledged),
 * {@link Http2SettingsAckFrame}, {@link Http2PingFrame} (already answered), {@link Http2GoAwayFrame},
 * {@link Http2PriorityUpdateFrame} (RFC 9218, already applied to the stream), {@link Http2UnknownFrame}. RFC 7540
 * PRIORITY frames are validated and ignored (no work that grows with the number of streams); WINDOW_UPDATE frames
 * are applied and not fired. Malformed requests (a missing pseudo-header, a content-length that disagrees with the DATA, §8.1.1) are
 * reset with PROTOCOL_ERROR and never fired. Each stream and connection error is answered with the RFC's code.
 *
 * <p><b>Outbound.</b> Write the same frame types; DATA waits for flow-control window (per stream and connection,
 * shared round-robin) and a stream's {@linkplain #isWritable writability} says when its queue exceeds its window.
 * {@code close()} is graceful: GOAWAY with 2^31-1 and a PING, then GOAWAY with the last stream id once the PING is
 * answered, then the close once the streams are done (or {@link #DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MILLIS}).
 *
 * <p><b>Safe by default.</b> Every limit below has a setter on the builder; exceeding a connection limit ends the
 * connection with GOAWAY ENHANCE_YOUR_CALM. Every wait on the peer is bounded: its SETTINGS acknowledgement
 * ({@link #DEFAULT_SETTINGS_ACK_TIMEOUT_MILLIS}, which also ends a connection whose peer never sends its preface),
 * a connection without streams ({@link #DEFAULT_IDLE_TIMEOUT_MILLIS}, then a graceful GOAWAY), a stream the peer
 * leaves silent before its END_STREAM ({@link #DEFAULT_STREAM_READ_TIMEOUT_MILLIS}, then RST_STREAM CANCEL; a
 * stream waiting for our answer never times out), a zero send window ({@link #DEFAULT_STREAM_STALL_TIMEOUT_MILLIS}).
 *
 * <p>Only used from the channel's event loop; one instance per connection.
 */
public final class Http2FrameCodec implements ChannelHandler {

    /** Streams the peer may open at once (SETTINGS_MAX_CONCURRENT_STREAMS); more are refused (REFUSED_STREAM). */
    public static final long DEFAULT_MAX_CONCURRENT_STREAMS = 100;
    /** Largest header list accepted (SETTINGS_MAX_HEADER_LIST_SIZE), in octets. */
    public static final long DEFAULT_MAX_HEADER_LIST_SIZE_BYTES = 8192;
    /**
     * How far above the advertised SETTINGS_MAX_HEADER_LIST_SIZE a header list may go before its stream is refused,
     * in percent of the setting (the setting is advisory, RFC 9113 §6.5.2).
     */
    public static final int HEADER_LIST_TOLERANCE_PERCENT = 25;
    /**
     * Most fields in one header section (more is a stream error, twice as many a connection error): the number of
     * 32-octet field overheads that fit in {@link #DEFAULT_MAX_HEADER_LIST_SIZE_BYTES}, so the size limit decides
     * for lists of small fields.
     */
    public static final int DEFAULT_MAX_HEADER_COUNT = 256;
    /** The connection receive window we offer, in octets (streams keep the 65,535 of RFC 9113 §6.9.2). */
    public static final int DEFAULT_CONNECTION_WINDOW_SIZE_BYTES = 1 << 20;
    /** Resets received plus sent allowed per {@link #DEFAULT_RESET_WINDOW_MILLIS} (Rapid Reset, MadeYouReset). */
    public static final int DEFAULT_MAX_RESETS_PER_WINDOW = 200;
    /** The window in which resets are counted, in milliseconds. */
    public static final long DEFAULT_RESET_WINDOW_MILLIS = 30_000;
    /** Control-frame answers allowed to wait unwritten (PING and SETTINGS floods whose answers are not read). */
    public static final int DEFAULT_MAX_QUEUED_CONTROL_FRAMES = 10_000;
    /** Consecutive empty DATA frames without END_STREAM allowed (CVE-2019-9518). */
    public static final int DEFAULT_MAX_CONSECUTIVE_EMPTY_DATA_FRAMES = 10;
    /** Time the peer has to acknowledge our SETTINGS, in milliseconds (then GOAWAY SETTINGS_TIMEOUT). */
    public static final long DEFAULT_SETTINGS_ACK_TIMEOUT_MILLIS = 10_000;
    /** Time a stream may hold queued DATA on a zero window, in milliseconds (then RST_STREAM CANCEL). */
    public static final long DEFAULT_STREAM_STALL_TIMEOUT_MILLIS = 30_000;
    /**
     * The connection's output bound: outbound DATA octets held back by the peer's windows before every stream turns
     * unwritable and new streams are refused (see {@link Http2FrameCodecBuilder#maxQueuedOutboundBytes}).
     */
    public static final long DEFAULT_MAX_QUEUED_OUTBOUND_BYTES = 4L << 20;
    /** The hard limit on queued output, as a multiple of the bound: past it streams are reset, connections closed. */
    public static final int OUTBOUND_HARD_LIMIT_FACTOR = 2;
    /**
     * Time a connection that owes output may make no progress sending it, in milliseconds, before it is closed
     * (see {@link Http2FrameCodecBuilder#writeProgressTimeoutMillis}): as long as a stream's stall timeout.
     */
    public static final long DEFAULT_WRITE_PROGRESS_TIMEOUT_MILLIS = 30_000;
    /**
     * Time a server connection may stay without an open stream, in milliseconds, counted from its start or from
     * its last stream's end, before it is closed gracefully (GOAWAY NO_ERROR): nginx's {@code keepalive_timeout}
     * and the HTTP/1.1 keep-alive idle timeout. Frames that open no stream (PING, SETTINGS, WINDOW_UPDATE) do not
     * restart it, so a peer cannot hold an idle connection with them. 0 disables.
     */
    public static final long DEFAULT_IDLE_TIMEOUT_MILLIS = 75_000;
    /**
     * Time a server stream still waiting for the client (it has not sent END_STREAM) may receive nothing, in
     * milliseconds, before it is reset with RST_STREAM CANCEL: HTTP/2 slowloris (HEADERS without END_STREAM, then
     * silence). An inactivity timeout, not a rate, so a slow upload that keeps sending is served; the same time as
     * {@link #DEFAULT_STREAM_STALL_TIMEOUT_MILLIS}, the limit on the opposite direction. 0 disables (needed for
     * bidirectional streaming, where a client may stay silent on an open stream while the server answers).
     */
    public static final long DEFAULT_STREAM_READ_TIMEOUT_MILLIS = 30_000;
    /**
     * Longest RFC 9218 Priority Field Value parsed, in octets; longer ones are ignored (default priority). Real
     * signals are a few octets ({@code u=1, i}).
     */
    public static final int DEFAULT_MAX_PRIORITY_FIELD_VALUE_BYTES = 64;
    /** Time a graceful close waits for open streams, in milliseconds. */
    public static final long DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MILLIS = 30_000;

    private static final System.Logger LOGGER = System.getLogger(Http2FrameCodec.class.getName());

    /** The connection state and its rules; this handler only feeds it bytes, frames and channel events. */
    private final Http2Connection connection;
    private ChannelHandlerContext ctx;
    private ByteBuf cumulation;
    /** The cumulation was made or grown by the cumulator, not a buffer from the transport taken as it came. */
    private boolean cumulationOwned;
    /** No frame is read while the channel is unwritable (its peer is not reading our output). */
    private final WritabilityInputPause inputPause = new WritabilityInputPause();
    private final Runnable resumeTask = this::resumeInput;
    private Http2StreamObserver observer;

    Http2FrameCodec(Http2FrameCodecBuilder config) {
        Http2ResetBudget budget = config.sharedResetBudget;
        this.connection = new Http2Connection(new Http2ConnectionConfig(config.server, config.initialSettings,
                config.connectionWindowSize, config.maxResetsPerWindow, config.resetWindowMillis,
                budget == null ? null : budget::tryRecord, budget == null ? 0 : budget.maxResets(),
                budget == null ? 0 : budget.windowMillis(), config.maxQueuedControlFrames,
                config.maxConsecutiveEmptyDataFrames, config.settingsAckTimeoutMillis, config.streamStallTimeoutMillis,
                config.maxQueuedOutboundBytes, config.outboundHardLimitBytes, config.writeProgressTimeoutMillis,
                config.gracefulShutdownTimeoutMillis, config.maxHeaderCount, config.maxContinuationFrames,
                config.maxPriorityFieldValueLength, config.idleTimeoutMillis(), config.streamReadTimeoutMillis(),
                config.minBodyRate(), config.bodyRateWindowNanos, config.bodyRateGracePeriodNanos, config.ticker,
                config.metrics), new Events());
    }

    /** A server codec with the default settings and limits. */
    public static Http2FrameCodec forServer() {
        return Http2FrameCodecBuilder.forServer().build();
    }

    // ---------------------------------------------------------------- public API

    /**
     * A new outbound stream (client side, or a server's own stream): it gets its id when its first
     * {@link Http2HeadersFrame} is written. Event loop only.
     */
    public Http2FrameStream newStream() {
        return new DefaultHttp2FrameStream();
    }

    /**
     * Gives {@code octets} of received DATA on {@code stream} back to the receive windows (the application consumed
     * them), sending WINDOW_UPDATE frames when due. Does nothing for a closed stream (its bytes went back when it
     * closed). Event loop only.
     *
     * @throws IllegalArgumentException when more is consumed than was received and not yet consumed
     */
    public void consumeBytes(Http2FrameStream stream, int octets) {
        connection.consumeBytes(stream, octets);
    }

    /** Whether {@code stream} can take more DATA without queuing beyond its send window. Event loop only. */
    public boolean isWritable(Http2FrameStream stream) {
        return Http2Connection.isWritable(stream);
    }

    /**
     * Completes, on the event loop, once the peer's first SETTINGS arrived: true when it set
     * SETTINGS_ENABLE_CONNECT_PROTOCOL to 1 (RFC 8441 §3), so that an extended CONNECT ({@code :protocol}, e.g. a
     * WebSocket) may be sent. Until then, and when it is false, writing HEADERS with {@code :protocol} fails.
     * Fails if the connection closes first. Event loop only.
     */
    public Future<Boolean> peerExtendedConnect() {
        return connection.peerExtendedConnect();
    }

    /** Streams currently open or half-closed. Event loop only. */
    public int activeStreams() {
        return connection.activeStreams();
    }

    // ---------------------------------------------------------------- package API (multiplexer, upgrade)

    void observer(Http2StreamObserver observer) {
        this.observer = observer;
    }

    boolean isServer() {
        return connection.isServer();
    }

    /** Whether the stream channels may write: the socket takes bytes and flow control holds less than the bound. */
    boolean isConnectionWritable() {
        return connection.isConnectionWritable();
    }

    /** A frame a stream channel wrote was lost on its way to the socket: the connection is out of step and ends. */
    void frameWriteFailed(Throwable cause) {
        if (ctx != null) {
            connection.frameWriteFailed(cause);
        }
    }

    /** Retires a stream whose both sides ended (its child closed while reading the frame that ended it). */
    void closeIfBothEnded(DefaultHttp2FrameStream stream) {
        connection.closeIfBothEnded(stream);
    }

    /**
     * Stream 1 of an HTTP/1.1 Upgrade to h2c on the client side (RFC 7540 §3.2): the request went out as HTTP/1.1
     * and the server answered 101, so stream 1 is half-closed (local) and its response comes as HTTP/2 frames.
     */
    DefaultHttp2FrameStream upgradedAsHttp1Client(boolean headRequest) {
        return (DefaultHttp2FrameStream) connection.upgradedAsHttp1Client(headRequest);
    }

    /**
     * Stream 1 of an HTTP/1.1 Upgrade to h2c (RFC 7540 §3.2): applies the client's HTTP2-Settings and opens the
     * stream half-closed (remote); its request is fired once the client's connection preface has arrived.
     */
    void upgradedFromHttp1(Http2Settings clientSettings, Http2Headers request) throws Http2Exception {
        connection.upgradedFromHttp1(clientSettings, request);
    }

    /** Relays the connection's stream events to the multiplexer, and pauses reading for it. */
    private final class Events implements Http2ConnectionListener {
        @Override
        public Http2StreamRecord newStream() {
            return new DefaultHttp2FrameStream();
        }

        @Override
        public void streamClosed(Http2StreamRecord stream) {
            Http2StreamObserver o = observer;
            if (o != null) {
                o.streamClosed((DefaultHttp2FrameStream) stream);
            }
        }

        @Override
        public void streamWritabilityChanged(Http2StreamRecord stream) {
            Http2StreamObserver o = observer;
            if (o != null) {
                o.streamWritabilityChanged((DefaultHttp2FrameStream) stream);
            }
        }

        @Override
        public void connectionWritabilityChanged() {
            Http2StreamObserver o = observer;
            if (o != null) {
                o.connectionWritabilityChanged();
            }
        }

        @Override
        public boolean pauseBeforeNextFrame() {
            return Http2FrameCodec.this.pauseBeforeNextFrame();
        }
    }

    // ---------------------------------------------------------------- lifecycle

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        connection.attach(ctx);
        if (ctx.channel().isActive()) {
            connection.start();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        connection.start();
        ctx.fireChannelActive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cleanUp();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        cleanUp();
        ctx.fireChannelInactive();
    }

    private void cleanUp() {
        ByteBuf c = cumulation;
        cumulation = null;
        if (c != null) {
            c.release();
        }
        connection.closed(new ClosedChannelException());
    }

    // ---------------------------------------------------------------- inbound bytes

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf in)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (connection.isFailed()) {
            in.release();
            return;
        }
        ByteBuf buf;
        ByteBuf kept = cumulation;
        if (kept == null) {
            buf = in;
        } else {
            // The cumulator owns both buffers from here on, and releases both if it fails.
            cumulation = null;
            try {
                buf = ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(ctx.alloc(), kept, in);
            } catch (OutOfMemoryError e) {
                // The connection cannot go on without the bytes, so it ends here, and only here.
                connection.allocationFailed(e);
                return;
            }
        }
        // Right before the frames are read: they run with this read's time as their clock (see Http2Connection).
        connection.bytesReceived();
        decode(buf, buf != in);
    }

    /**
     * Reads the frames in {@code buf} (taking it) and keeps what is left for the next read. The read part of a kept
     * buffer is discarded when the buffer is ours alone ({@code owned}: the cumulator made or grew it, and no DATA
     * frame still holds a slice of it), so a connection that always ends a read inside a frame does not grow it.
     */
    private void decode(ByteBuf buf, boolean owned) {
        try {
            connection.readFrames(buf);
        } finally {
            if (buf.isReadable() && !connection.isFailed()) {
                if (owned && buf.refCnt() == 1) {
                    buf.discardSomeReadBytes();
                }
                cumulation = buf;
                cumulationOwned = owned;
            } else {
                buf.release();
            }
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        // The answers this read owes (PING and SETTINGS acknowledgements, WINDOW_UPDATE) wait for what the handlers
        // after the codec write at the read's end: one flush, one socket write, unless no handler flushed.
        ctx.fireChannelReadComplete();
        connection.flushIfNeeded();
    }

    /**
     * An error on the connection below the frames (a reset by the peer, a TLS record that did not decrypt) ends
     * it here, the way HTTP/1.1's handlers do: an {@link IOException} closes it quietly (a peer that resets its
     * connections must not fill the log), anything else with GOAWAY(INTERNAL_ERROR). Either way the stream channels
     * see their streams close. Logged at DEBUG.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (LOGGER.isLoggable(System.Logger.Level.DEBUG)) {
            LOGGER.log(System.Logger.Level.DEBUG, "closing HTTP/2 connection " + ctx.channel() + " after an error",
                    cause);
        }
        if (cause instanceof IOException || connection.isFailed()) {
            ctx.close();
        } else {
            connection.connectionFailed(connectionError(Http2Error.INTERNAL_ERROR, "connection error: " + cause));
        }
    }

    // ---------------------------------------------------------------- outbound

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        // DATA and HEADERS go straight to their writer, a call level fewer on the deepest path (a stream channel
        // answering from inside the parent's read).
        if (msg instanceof Http2DataFrame data) {
            connection.writeData(data, promise);
        } else if (msg instanceof Http2HeadersFrame headers) {
            connection.writeHeaders(headers, promise);
        } else {
            connection.write(msg, promise);
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        connection.flush();
    }

    // ---------------------------------------------------------------- input backpressure

    /**
     * Asked by the frame reader before each frame: while the channel is unwritable (the peer does not read what we
     * send) no frame is read, so no new stream, DATA or control answer adds to the backlog; the bytes stay in the
     * cumulation and the socket, and reading resumes once the channel is writable again.
     */
    private boolean pauseBeforeNextFrame() {
        if (inputPause.isPaused()) {
            return true;
        }
        if (ctx.channel().isWritable()) {
            return false;
        }
        inputPause.pause(ctx);
        connection.armProgressCheck();
        return true;
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        inputPause.scheduleResume(ctx, resumeTask);
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        if (!inputPause.holdRead()) {
            ctx.read();
        }
    }

    /** On the event loop once the channel became writable: reads the frames kept, then reads on. */
    private void resumeInput() {
        if (connection.isFailed() || !inputPause.beginResume(ctx)) {
            return;
        }
        ByteBuf kept = cumulation;
        if (kept != null) {
            cumulation = null;
            decode(kept, cumulationOwned);
            channelReadComplete(ctx);
        }
        if (!connection.isFailed()) {
            inputPause.endResume(ctx);
        }
    }

    // ---------------------------------------------------------------- graceful close

    /**
     * A {@link ChannelDrainEvent}: the graceful close (GOAWAY, the open streams finish, the final GOAWAY, then the
     * close), and the event goes on to the streams (the multiplexer hands it to each child).
     */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelDrainEvent && connection.isStarted() && !connection.isFailed()
                && ctx.channel().isActive()) {
            connection.startGracefulClose(null);
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        if (connection.isFailed() || !ctx.channel().isActive() || !connection.isStarted()) {
            ctx.close(promise);
            return;
        }
        connection.startGracefulClose(promise);
    }
}
