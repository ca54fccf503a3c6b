package io.weir.handler.codec.http2;

import static io.weir.handler.codec.http2.Http2Exception.connectionError;
import static io.weir.handler.codec.http2.Http2Exception.streamError;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelDrainEvent;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.handler.codec.ByteToMessageDecoder;
import io.weir.handler.codec.WritabilityInputPause;
import io.weir.handler.codec.http2.internal.Http2EventLimiter;
import io.weir.handler.codec.http2.internal.Http2FlowWindow;
import io.weir.handler.codec.http2.internal.Http2FrameReader;
import io.weir.handler.codec.http2.internal.Http2FrameWriter;
import io.weir.handler.codec.http2.internal.Http2Frames;
import io.weir.handler.codec.http2.internal.Http2LocalFlowWindow;
import io.weir.handler.codec.http2.internal.Http2StreamIds;
import io.weir.handler.codec.http2.internal.Http2StreamState;
import io.weir.handler.codec.http2.internal.hpack.HpackDecoder;
import io.weir.handler.codec.http2.internal.hpack.HpackEncoder;
import io.weir.metrics.HttpMetrics;
import io.weir.metrics.WeirEvents;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.Ticker;
import io.weir.util.collection.IntObjectHashMap;
import io.weir.util.collection.IntObjectMap;
import io.weir.util.concurrent.AbstractScheduledEventExecutor;
import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

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

    /** The opaque data of the PING that separates the two GOAWAY frames of a graceful close. */
    static final long GRACEFUL_SHUTDOWN_PING = 0x5765_6972_4741_5921L;
    /** Recently closed streams remembered, so that frames still in flight get the right reaction. */
    private static final int RECENTLY_CLOSED = 64;
    /** GOAWAY debug data by {@link Http2Error} ordinal (see {@link #goAwayDebugData}); empty means none. */
    private static final byte[][] GOAWAY_DEBUG_TEXT = goAwayDebugTexts();
    private static final System.Logger LOGGER = System.getLogger(Http2FrameCodec.class.getName());
    /** Set once an allocation failure was logged: a JVM short of memory would otherwise log one per connection. */
    private static final java.util.concurrent.atomic.AtomicBoolean ALLOCATION_FAILURE_LOGGED =
            new java.util.concurrent.atomic.AtomicBoolean();

    final boolean server;
    final Http2FrameCodecBuilder config;
    final Http2Settings localSettings;
    final Http2FrameReader reader;
    final Http2FrameWriter writer = new Http2FrameWriter();
    final HpackDecoder decoder;
    final HpackEncoder encoder = new HpackEncoder();
    final Http2StreamIds ids;
    final IntObjectMap<DefaultHttp2FrameStream> streams = new IntObjectHashMap<>();
    final Http2LocalFlowWindow connectionWindow = new Http2LocalFlowWindow(0, 65_535);
    final Http2OutboundFlow flow;
    final ArrayDeque<Http2Settings> unackedSettings = new ArrayDeque<>(2);
    final Http2IdleStreamPriorities idlePriorities = new Http2IdleStreamPriorities();
    final Http2ConnectionInbound inbound = new Http2ConnectionInbound(this);
    private final int[] recentlyClosedIds = new int[RECENTLY_CLOSED];
    private final boolean[] recentlyResetByUs = new boolean[RECENTLY_CLOSED];
    private int recentlyClosedNext;

    private final ChannelFutureListener controlFrameWritten = f -> controlFrameWritten();

    ChannelHandlerContext ctx;
    private Ticker ticker;
    Http2EventLimiter resets;
    private ByteBuf cumulation;
    /** The cumulation was made or grown by the cumulator, not a buffer from the transport taken as it came. */
    private boolean cumulationOwned;
    int activeRemoteStreams;
    private int activeLocalStreams;
    long remoteMaxConcurrentStreams = Long.MAX_VALUE;
    /** The peer's SETTINGS_MAX_HEADER_LIST_SIZE; unlimited until it sends one (RFC 9113 §6.5.2). */
    long remoteMaxHeaderListSize = Long.MAX_VALUE;
    int localInitialWindowSize = Http2Frames.DEFAULT_WINDOW_SIZE_BYTES;
    int remoteInitialWindowSize = Http2Frames.DEFAULT_WINDOW_SIZE_BYTES;
    private int queuedControlFrames;
    int consecutiveEmptyData;
    private boolean started;
    private boolean failed;
    /** The request of an h2c Upgrade, waiting for the client's connection preface; null otherwise. */
    private Http2HeadersFrame upgradeRequest;
    private boolean inRead;
    boolean flushNeeded;
    /** No frame is read while the channel is unwritable (its peer is not reading our output). */
    private final WritabilityInputPause inputPause = new WritabilityInputPause();
    /** Outbound DATA held back by flow control is above the bound: streams unwritable, new streams refused. */
    boolean outputFull;
    private ScheduledFuture<?> progressCheck;
    private long progressNanos;
    private long progressSentBytes;
    private long progressBacklogBytes;
    private final Runnable resumeTask = this::resumeInput;
    int goAwaySentLastStreamId = -1;
    int goAwayReceivedLastStreamId = -1;
    ChannelPromise closePromise;
    private boolean graceful2ndGoAwaySent;
    ScheduledFuture<?> settingsTimeout;
    private ScheduledFuture<?> stallCheck;
    private ScheduledFuture<?> gracefulTimeout;
    private Http2StreamObserver observer;
    /** Ticker time of the last read from the socket, stamped on the streams its frames reach. */
    long readNanos;
    private final Http2ConnectionTimeouts timeouts;
    /** RFC 8441: SETTINGS_ENABLE_CONNECT_PROTOCOL on both sides and the {@code :protocol} rules it sets. */
    final Http2ExtendedConnect extendedConnect;
    /** Where streams, resets, GOAWAYs and timeouts are counted; null when nobody asked. */
    final HttpMetrics metrics;

    Http2FrameCodec(Http2FrameCodecBuilder config) {
        this.config = config;
        this.server = config.server;
        this.localSettings = new Http2Settings().putAll(config.initialSettings);
        this.ids = new Http2StreamIds(server);
        this.reader = new Http2FrameReader(server, inbound)
                .maxContinuationFrames(config.maxContinuationFrames)
                .maxHeaderBlockBytes(Http2FrameReader.headerBlockLimitFor(
                        localSettings.get(Http2Settings.MAX_HEADER_LIST_SIZE, DEFAULT_MAX_HEADER_LIST_SIZE_BYTES)));
        this.decoder = new HpackDecoder(server);
        long listSize = localSettings.get(Http2Settings.MAX_HEADER_LIST_SIZE, DEFAULT_MAX_HEADER_LIST_SIZE_BYTES);
        // RFC 9113 §6.5.2: the advertised size is advisory; lists a little above it are still served (h2spec's own
        // requests exceed 8 KiB), a list twice the size ends the connection.
        decoder.maxHeaderListSize(listSize + listSize * HEADER_LIST_TOLERANCE_PERCENT / 100,
                Math.max(listSize * 2, listSize + listSize * HEADER_LIST_TOLERANCE_PERCENT / 100));
        decoder.maxHeaderCount(config.maxHeaderCount, Math.max(config.maxHeaderCount,
                config.maxHeaderCount * HpackDecoder.DEFAULT_CONNECTION_ERROR_FACTOR));
        this.flow = new Http2OutboundFlow(this, writer);
        this.timeouts = new Http2ConnectionTimeouts(this, config.idleTimeoutMillis(), config.streamReadTimeoutMillis(),
                config.minBodyRate());
        this.extendedConnect = new Http2ExtendedConnect(localSettings);
        this.metrics = config.metrics;
    }

    private static byte[][] goAwayDebugTexts() {
        byte[][] texts = new byte[Http2Error.values().length][];
        java.util.Arrays.fill(texts, new byte[0]);
        texts[Http2Error.PROTOCOL_ERROR.ordinal()] = ascii("protocol error");
        texts[Http2Error.FLOW_CONTROL_ERROR.ordinal()] = ascii("flow-control window exceeded");
        texts[Http2Error.SETTINGS_TIMEOUT.ordinal()] = ascii("SETTINGS not acknowledged in time");
        texts[Http2Error.STREAM_CLOSED.ordinal()] = ascii("frame on a closed stream");
        texts[Http2Error.FRAME_SIZE_ERROR.ordinal()] = ascii("bad frame size");
        texts[Http2Error.COMPRESSION_ERROR.ordinal()] = ascii("header block could not be decoded");
        texts[Http2Error.ENHANCE_YOUR_CALM.ordinal()] = ascii("connection limit exceeded");
        return texts;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
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
        DefaultHttp2FrameStream s = (DefaultHttp2FrameStream) stream;
        if (octets <= 0 || s.localWindow == null || s.state.isClosed() || failed) {
            return;
        }
        int streamIncrement = s.localWindow.consume(octets);
        int connectionIncrement = connectionWindow.consume(octets);
        if (connectionIncrement > 0) {
            writer.writeWindowUpdate(ctx, 0, connectionIncrement, ctx.voidPromise());
            flushNeeded = true;
        }
        if (streamIncrement > 0 && s.state.remoteMaySendData()) {
            writer.writeWindowUpdate(ctx, s.id, streamIncrement, ctx.voidPromise());
            flushNeeded = true;
        }
        if (!inRead) {
            flushIfNeeded();
        }
    }

    /** Whether {@code stream} can take more DATA without queuing beyond its send window. Event loop only. */
    public boolean isWritable(Http2FrameStream stream) {
        return ((DefaultHttp2FrameStream) stream).writable;
    }

    /**
     * Completes, on the event loop, once the peer's first SETTINGS arrived: true when it set
     * SETTINGS_ENABLE_CONNECT_PROTOCOL to 1 (RFC 8441 §3), so that an extended CONNECT ({@code :protocol}, e.g. a
     * WebSocket) may be sent. Until then, and when it is false, writing HEADERS with {@code :protocol} fails.
     * Fails if the connection closes first. Event loop only.
     */
    public Future<Boolean> peerExtendedConnect() {
        return extendedConnect.peerSupport(ctx.executor());
    }

    /** Streams currently open or half-closed. Event loop only. */
    public int activeStreams() {
        return activeRemoteStreams + activeLocalStreams;
    }

    // ---------------------------------------------------------------- package API (multiplexer, upgrade)

    void observer(Http2StreamObserver observer) {
        this.observer = observer;
    }

    boolean isServer() {
        return server;
    }

    ChannelHandlerContext context() {
        return ctx;
    }

    long nanoTime() {
        return ticker.nanoTime();
    }

    /** Whether the connection failed or a graceful close began. */
    boolean isClosing() {
        return failed || closePromise != null;
    }

    boolean isRemoteStream(int id) {
        return ids.isRemote(id);
    }

    void flushPending() {
        flushIfNeeded();
    }

    /**
     * Stream 1 of an HTTP/1.1 Upgrade to h2c on the client side (RFC 7540 §3.2): the request went out as HTTP/1.1
     * and the server answered 101, so stream 1 is half-closed (local) and its response comes as HTTP/2 frames.
     */
    DefaultHttp2FrameStream upgradedAsHttp1Client(boolean headRequest) {
        ids.markLocalUsedUpTo(1);
        DefaultHttp2FrameStream stream = openStream(1, Http2StreamState.HALF_CLOSED_LOCAL);
        stream.headMethod = headRequest;
        stream.outboundEnded = true;
        return stream;
    }

    /**
     * Stream 1 of an HTTP/1.1 Upgrade to h2c (RFC 7540 §3.2): applies the client's HTTP2-Settings and opens the
     * stream half-closed (remote). The request is fired as a HEADERS frame with END_STREAM once the client's
     * connection preface (its first SETTINGS) has arrived, not at once: a client switching its reader from HTTP/1.1
     * to HTTP/2 may not take a whole window of response bytes behind the 101 (curl 7.88 gives up on more than
     * 32 KiB there, the JDK's HttpClient has been seen to lose frame alignment), and by its preface it has switched.
     * The wait costs the upgrade one round trip and is bounded by the SETTINGS timeout, which ends a connection
     * whose client never sends its preface.
     */
    void upgradedFromHttp1(Http2Settings clientSettings, Http2Headers request) throws Http2Exception {
        inbound.onSettingsApply(clientSettings);
        ids.acceptRemote(1);
        DefaultHttp2FrameStream stream = openStream(1, Http2StreamState.HALF_CLOSED_REMOTE);
        stream.headersReceived = true;
        stream.headMethod = "HEAD".contentEquals(request.method() == null ? "" : request.method());
        upgradeRequest = new Http2HeadersFrame(stream, request, true);
    }

    /** Fires the h2c Upgrade's request (see {@link #upgradedFromHttp1}) once the client's preface is in. */
    void clientPrefaceReceived() {
        Http2HeadersFrame request = upgradeRequest;
        if (request != null) {
            upgradeRequest = null;
            if (streams.get(1) == request.stream()) {
                ctx.fireChannelRead(request);
            }
        }
    }

    // ---------------------------------------------------------------- lifecycle

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        Ticker t = config.ticker;
        if (t == null) {
            t = ctx.executor() instanceof AbstractScheduledEventExecutor loop ? loop.ticker() : Ticker.system();
        }
        ticker = t;
        resets = new Http2EventLimiter(config.maxResetsPerWindow,
                TimeUnit.MILLISECONDS.toNanos(config.resetWindowMillis), t);
        if (ctx.channel().isActive()) {
            start();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        start();
        ctx.fireChannelActive();
    }

    private void start() {
        if (started) {
            return;
        }
        started = true;
        long now = ticker.nanoTime();
        readNanos = now;
        timeouts.start(now);
        if (!server) {
            ctx.write(Unpooled.wrappedBuffer(Http2Frames.connectionPreface()), ctx.voidPromise());
        }
        writeSettings(localSettings, ctx.voidPromise());
        int connectionIncrement = connectionWindow.targetWindowSize(config.connectionWindowSize);
        if (connectionIncrement > 0) {
            writer.writeWindowUpdate(ctx, 0, connectionIncrement, ctx.voidPromise());
        }
        ctx.flush();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cleanUp(new ClosedChannelException());
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        cleanUp(new ClosedChannelException());
        ctx.fireChannelInactive();
    }

    private void cleanUp(Throwable cause) {
        failed = true;
        upgradeRequest = null;
        extendedConnect.connectionClosed();
        timeouts.stop();
        cancel(settingsTimeout);
        cancel(stallCheck);
        cancel(gracefulTimeout);
        cancel(progressCheck);
        ByteBuf c = cumulation;
        cumulation = null;
        if (c != null) {
            c.release();
        }
        reader.close();
        if (!streams.isEmpty()) {
            for (int id : streams.keys()) {
                DefaultHttp2FrameStream stream = streams.get(id);
                if (stream != null) {
                    stream.state = Http2StreamState.CLOSED_RESET_RECEIVED;
                    closeStream(stream, cause);
                }
            }
        }
        ChannelPromise p = closePromise;
        if (p != null) {
            closePromise = null;
            ctx.close(p);
        }
    }

    static void cancel(ScheduledFuture<?> f) {
        if (f != null) {
            f.cancel(false);
        }
    }

    // ---------------------------------------------------------------- inbound bytes

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf in)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (failed) {
            in.release();
            return;
        }
        readNanos = ticker.nanoTime();
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
                allocationFailed(e);
                return;
            }
        }
        decode(buf, buf != in);
    }

    /**
     * Reads the frames in {@code buf} (taking it) and keeps what is left for the next read. The read part of a kept
     * buffer is discarded when the buffer is ours alone ({@code owned}: the cumulator made or grew it, and no DATA
     * frame still holds a slice of it), so a connection that always ends a read inside a frame does not grow it.
     */
    private void decode(ByteBuf buf, boolean owned) {
        inRead = true;
        try {
            readFrames(buf);
        } finally {
            inRead = false;
            if (buf.isReadable() && !failed) {
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

    /**
     * A buffer could not be allocated for this connection (direct memory or the pool exhausted). The connection
     * that asked ends with GOAWAY(INTERNAL_ERROR), other connections are not touched, and the first failure in
     * the JVM is logged once.
     */
    private void allocationFailed(OutOfMemoryError e) {
        if (!ALLOCATION_FAILURE_LOGGED.get() && ALLOCATION_FAILURE_LOGGED.compareAndSet(false, true)) {
            try {
                LOGGER.log(System.Logger.Level.WARNING, "closing HTTP/2 connection " + ctx.channel()
                        + ": a buffer could not be allocated (logged once)", e);
            } catch (Throwable ignored) {
                // A logger that fails (out of memory itself) must not take the event loop with it.
            }
        }
        connectionFailed(connectionError(Http2Error.INTERNAL_ERROR, "out of memory"));
    }

    private void readFrames(ByteBuf buf) {
        while (!failed) {
            try {
                reader.read(buf);
                return;
            } catch (Http2Exception e) {
                if (e.isConnectionError()) {
                    connectionFailed(e);
                    return;
                }
                streamFailed(e);
            } catch (OutOfMemoryError e) {
                allocationFailed(e);
                return;
            } catch (RuntimeException e) {
                connectionFailed(new Http2Exception(Http2Error.INTERNAL_ERROR, Http2Exception.CONNECTION_STREAM_ID,
                        "internal error: " + e, true));
                ctx.fireExceptionCaught(e);
                return;
            }
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        flushIfNeeded();
        ctx.fireChannelReadComplete();
    }

    private void flushIfNeeded() {
        if (flushNeeded) {
            flushNeeded = false;
            ctx.flush();
        }
    }

    // ---------------------------------------------------------------- errors

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
        if (cause instanceof IOException || failed) {
            ctx.close();
        } else {
            connectionFailed(connectionError(Http2Error.INTERNAL_ERROR, "connection error: " + cause));
        }
    }

    private void connectionFailed(Http2Exception e) {
        if (failed) {
            return;
        }
        failed = true;
        timeouts.stop();
        try {
            if (LOGGER.isLoggable(System.Logger.Level.DEBUG)) {
                LOGGER.log(System.Logger.Level.DEBUG, "HTTP/2 connection " + ctx.channel() + " failed: "
                        + e.getMessage());
            }
            writeGoAway(ids.lastRemoteStreamId(), e.error().code(), goAwayDebugData(e.error()));
            ctx.flush();
        } catch (OutOfMemoryError oom) {
            // No memory for the GOAWAY: the close below still ends the connection.
        }
        ctx.close();
    }

    /**
     * A frame accepted for writing failed before reaching the socket while the connection stayed open (the
     * transport refused its buffer, say). The peer's HPACK and flow-control state no longer match ours, so the
     * connection ends with GOAWAY(INTERNAL_ERROR) rather than carrying on with a gap in its byte stream.
     */
    void frameWriteFailed(Throwable cause) {
        if (!failed && ctx != null && ctx.channel().isOpen()) {
            connectionFailed(Http2Exception.connectionError(Http2Error.INTERNAL_ERROR,
                    "a frame could not be written: " + cause));
        }
    }

    /**
     * The GOAWAY debug data for a connection error: a short fixed text per error code, never the exception's
     * message, which may name internal state (a field, a class, a helpful NullPointerException's expression) that a
     * peer has no business seeing. An internal error says nothing at all. The message goes to the DEBUG log.
     */
    private static ByteBuf goAwayDebugData(Http2Error error) {
        byte[] text = GOAWAY_DEBUG_TEXT[error.ordinal()];
        return text.length == 0 ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(text);
    }

    private void streamFailed(Http2Exception e) {
        int id = e.streamId();
        DefaultHttp2FrameStream stream = streams.get(id);
        if (stream != null && stream.state == Http2StreamState.CLOSED_RESET_SENT) {
            return;
        }
        resetStream(id, stream, e.error().code());
    }

    /** Sends RST_STREAM (counted by the reset limiter) and closes the stream if we know it. */
    void resetStream(int id, DefaultHttp2FrameStream stream, long errorCode) {
        if (!countReset()) {
            return;
        }
        writeControl(writer.writeRstStream(ctx, id, errorCode, ctx.newPromise()));
        flushNeeded = true;
        resetSent(id, errorCode);
        if (stream != null) {
            stream.state = Http2StreamState.CLOSED_RESET_SENT;
            closeStream(stream, streamError(id, Http2Error.of(errorCode) == null ? Http2Error.CANCEL
                    : Http2Error.of(errorCode), "stream reset"));
        } else {
            rememberClosed(id, true);
        }
        if (!inRead) {
            flushIfNeeded();
        }
    }

    /**
     * Refuses a stream the peer opened while the output bound is exceeded (RST_STREAM REFUSED_STREAM, RFC 9113
     * §8.7): a control frame like the others, bounded by {@link #DEFAULT_MAX_QUEUED_CONTROL_FRAMES}.
     */
    void refuseStream(int id) {
        writeControl(writer.writeRstStream(ctx, id, Http2Error.REFUSED_STREAM.code(), ctx.newPromise()));
        flushNeeded = true;
        resetSent(id, Http2Error.REFUSED_STREAM.code());
        rememberClosed(id, true);
    }

    /** Counts a RST_STREAM sent (if metrics are on) and records its JFR event. */
    private void resetSent(int id, long errorCode) {
        if (metrics != null) {
            metrics.resetsSent().increment(HttpMetrics.http2ErrorIndex(errorCode));
        }
        WeirEvents.http2Reset(ctx.channel().remoteAddress(), WeirEvents.SENT, id, errorCode);
    }

    /** Counts a RST_STREAM received (if metrics are on) and records its JFR event. */
    void resetReceived(int id, long errorCode) {
        if (metrics != null) {
            metrics.resetsReceived().increment(HttpMetrics.http2ErrorIndex(errorCode));
        }
        WeirEvents.http2Reset(ctx.channel().remoteAddress(), WeirEvents.RECEIVED, id, errorCode);
    }

    /** Counts a GOAWAY received (if metrics are on) and records its JFR event. */
    void goAwayReceived(int lastStreamId, long errorCode) {
        if (metrics != null) {
            metrics.goAwaysReceived().increment(HttpMetrics.http2ErrorIndex(errorCode));
        }
        WeirEvents.http2GoAway(ctx.channel().remoteAddress(), WeirEvents.RECEIVED, lastStreamId, errorCode);
    }

    /** Counts a timeout that fired, if metrics are on. */
    void timedOut(HttpMetrics.Timeout kind) {
        if (metrics != null) {
            metrics.timeout(kind);
        }
    }

    /** Counts a reset; on too many, ends the connection (ENHANCE_YOUR_CALM) and returns false. */
    private boolean countReset() {
        Http2Exception tooMany = recordReset();
        if (tooMany == null) {
            return true;
        }
        connectionFailed(tooMany);
        return false;
    }

    /**
     * Records a reset, received or sent, against this connection's limit and the shared budget if there is one;
     * the connection error to end with when either is spent, null otherwise.
     */
    Http2Exception recordReset() {
        if (!resets.tryRecord()) {
            return connectionError(Http2Error.ENHANCE_YOUR_CALM, "more than " + resets.maxEvents()
                    + " streams reset within " + config.resetWindowMillis + " ms (Rapid Reset / MadeYouReset)");
        }
        Http2ResetBudget shared = config.sharedResetBudget;
        if (shared != null && !shared.tryRecord(System.nanoTime())) {
            return connectionError(Http2Error.ENHANCE_YOUR_CALM, "more than " + shared.maxResets()
                    + " streams reset within " + shared.windowMillis() + " ms across connections (Rapid Reset)");
        }
        return null;
    }

    /** Tracks an unwritten control-frame answer; too many end the connection. */
    void writeControl(ChannelFuture future) {
        if (future.isDone()) {
            return;
        }
        if (++queuedControlFrames > config.maxQueuedControlFrames) {
            connectionFailed(connectionError(Http2Error.ENHANCE_YOUR_CALM, "more than "
                    + config.maxQueuedControlFrames + " control frames queued unread by the peer"));
            return;
        }
        future.addListener(controlFrameWritten);
    }

    private void controlFrameWritten() {
        queuedControlFrames--;
    }

    // ---------------------------------------------------------------- streams

    DefaultHttp2FrameStream openStream(int id, Http2StreamState state) {
        DefaultHttp2FrameStream stream = new DefaultHttp2FrameStream();
        activate(stream, id, state);
        return stream;
    }

    private void activate(DefaultHttp2FrameStream stream, int id, Http2StreamState state) {
        stream.id = id;
        stream.state = state;
        stream.localWindow = new Http2LocalFlowWindow(id, localInitialWindowSize);
        stream.remoteWindow = new Http2FlowWindow(id, remoteInitialWindowSize);
        stream.writable = Http2OutboundFlow.isWritable(stream);
        stream.lastReadNanos = ticker.nanoTime();
        streams.put(id, stream);
        if (metrics != null) {
            metrics.activeStreams().increment();
        }
        if (ids.isRemote(id)) {
            activeRemoteStreams++;
        } else {
            activeLocalStreams++;
        }
    }

    /** Removes a stream whose state became closed: fails its queue, returns its unread bytes, tells the observer. */
    void closeStream(DefaultHttp2FrameStream stream, Throwable cause) {
        if (streams.remove(stream.id) == null) {
            return;
        }
        if (metrics != null) {
            metrics.activeStreams().decrement();
        }
        if (ids.isRemote(stream.id)) {
            activeRemoteStreams--;
        } else {
            activeLocalStreams--;
        }
        rememberClosed(stream.id, stream.state == Http2StreamState.CLOSED_RESET_SENT);
        flow.streamClosed(stream, cause);
        if (outputFull) {
            checkQueuedBytes();
        }
        int unread = stream.localWindow.consumeAll();
        if (unread > 0 && !failed) {
            int increment = connectionWindow.consume(unread);
            if (increment > 0) {
                writer.writeWindowUpdate(ctx, 0, increment, ctx.voidPromise());
                flushNeeded = true;
            }
        }
        if (activeStreams() == 0) {
            timeouts.connectionBecameIdle(ticker.nanoTime());
        }
        Http2StreamObserver o = observer;
        if (o != null) {
            o.streamClosed(stream);
        }
        maybeFinishGracefulClose();
    }

    void closeIfBothEnded(DefaultHttp2FrameStream stream) {
        if (stream.state.isClosed()) {
            closeStream(stream, streamError(stream.id, Http2Error.STREAM_CLOSED, "stream closed"));
        }
    }

    void rememberClosed(int id, boolean resetByUs) {
        int i = recentlyClosedNext;
        recentlyClosedIds[i] = id;
        recentlyResetByUs[i] = resetByUs;
        recentlyClosedNext = (i + 1) % RECENTLY_CLOSED;
    }

    /** -1 when not remembered, 1 when we reset it, 0 when it closed otherwise. */
    int recentlyClosed(int id) {
        for (int i = 0; i < RECENTLY_CLOSED; i++) {
            if (recentlyClosedIds[i] == id) {
                return recentlyResetByUs[i] ? 1 : 0;
            }
        }
        return -1;
    }

    void streamWritabilityChanged(DefaultHttp2FrameStream stream) {
        Http2StreamObserver o = observer;
        if (o != null) {
            o.streamWritabilityChanged(stream);
        }
    }

    // ---------------------------------------------------------------- outbound

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof Http2DataFrame data) {
            writeData(data, promise);
        } else if (msg instanceof Http2HeadersFrame headers) {
            writeHeaders(headers, promise);
        } else if (msg instanceof Http2ResetFrame reset) {
            DefaultHttp2FrameStream stream = (DefaultHttp2FrameStream) reset.stream();
            if (stream == null || stream.id <= 0 || stream.state.isClosed() || streams.get(stream.id) != stream) {
                promise.trySuccess();
                return;
            }
            resetStream(stream.id, stream, reset.errorCode());
            promise.trySuccess();
        } else if (msg instanceof Http2WindowUpdateFrame update) {
            if (update.stream() == null) {
                promise.tryFailure(new IllegalArgumentException("the connection window is refilled by consuming"
                        + " stream data; write WINDOW_UPDATE on a stream"));
                return;
            }
            consumeBytes(update.stream(), update.increment());
            promise.trySuccess();
        } else if (msg instanceof Http2SettingsFrame settings) {
            writeSettings(settings.settings(), promise);
        } else if (msg instanceof Http2PingFrame ping) {
            writer.writePing(ctx, ping.ack(), ping.content(), promise);
        } else if (msg instanceof Http2GoAwayFrame goAway) {
            try {
                writeGoAway(ids.lastRemoteStreamId(), goAway.errorCode(), goAway.content().retain());
                promise.trySuccess();
            } finally {
                goAway.release();
            }
        } else if (msg instanceof Http2PriorityUpdateFrame update) {
            writePriorityUpdate(update, promise);
        } else if (msg instanceof Http2UnknownFrame unknown) {
            writer.writeFrame(ctx, unknown.frameType(), unknown.flags(), unknown.streamId(), unknown.content(),
                    promise);
        } else {
            ReferenceCountUtil.release(msg);
            promise.tryFailure(new IllegalArgumentException("not an HTTP/2 frame this codec writes: "
                    + (msg == null ? "null" : msg.getClass().getName())));
        }
    }

    private void writePriorityUpdate(Http2PriorityUpdateFrame update, ChannelPromise promise) {
        DefaultHttp2FrameStream stream = (DefaultHttp2FrameStream) update.stream();
        if (server) {
            promise.tryFailure(new IllegalStateException("a server never sends PRIORITY_UPDATE (RFC 9218 §7.1)"));
        } else if (stream == null || stream.id <= 0) {
            promise.tryFailure(new IllegalStateException("PRIORITY_UPDATE before the stream's HEADERS: put the "
                    + "first signal in the request's priority field (RFC 9218 §5)"));
        } else {
            writer.writePriorityUpdate(ctx, stream.id, Http2Priorities.format(
                    Http2Priorities.pack(update.urgency(), update.incremental())), promise);
        }
    }

    private void writeHeaders(Http2HeadersFrame frame, ChannelPromise promise) {
        DefaultHttp2FrameStream stream = (DefaultHttp2FrameStream) frame.stream();
        if (stream == null) {
            promise.tryFailure(new IllegalArgumentException("HEADERS without a stream (use newStream())"));
            return;
        }
        if (socketBacklogOverHardLimit(promise)) {
            return;
        }
        long listLimit = remoteMaxHeaderListSize;
        if (listLimit != Long.MAX_VALUE) {
            long size = headerListSize(frame.headers());
            if (size > listLimit) {
                headerListTooLarge(stream, size, listLimit, promise);
                return;
            }
        }
        if (stream.id == -1) {
            String refused = server ? null : extendedConnect.checkSending(frame.headers());
            if (refused != null) {
                promise.tryFailure(new IllegalStateException(refused));
                return;
            }
            if (goAwayReceivedLastStreamId >= 0 || goAwaySentLastStreamId >= 0) {
                promise.tryFailure(connectionError(Http2Error.REFUSED_STREAM, "the connection is going away"));
                return;
            }
            if (activeLocalStreams >= remoteMaxConcurrentStreams) {
                promise.tryFailure(connectionError(Http2Error.REFUSED_STREAM, "the peer allows "
                        + remoteMaxConcurrentStreams + " concurrent streams"));
                return;
            }
            int id = ids.nextLocalStreamId();
            if (id == Http2StreamIds.EXHAUSTED) {
                // RFC 9113 §5.1.1: no identifier left; a new connection is needed.
                promise.tryFailure(connectionError(Http2Error.REFUSED_STREAM, "stream identifiers exhausted"));
                startGracefulClose(null);
                return;
            }
            activate(stream, id, Http2StreamState.IDLE);
        }
        if (stream.outboundEnded || !stream.state.canSend(Http2Frames.HEADERS) || streams.get(stream.id) != stream) {
            promise.tryFailure(new IllegalStateException("cannot send HEADERS on " + stream));
            return;
        }
        if (frame.endStream()) {
            stream.outboundEnded = true;
        }
        if (stream.hasPending()) {
            flow.enqueueTrailers(ctx, stream, frame, promise);
        } else {
            writeHeadersNow(ctx, stream, frame, promise);
        }
    }

    private static boolean isSuccess(CharSequence status) {
        return status != null && status.length() == 3 && status.charAt(0) == '2';
    }

    /** RFC 9113 §6.5.2: the uncompressed size, name + value + 32 octets per field. */
    private static long headerListSize(Http2Headers headers) {
        long size = 0;
        for (int i = 0; i < headers.size(); i++) {
            size += headers.name(i).length() + headers.value(i).length() + 32L;
        }
        return size;
    }

    /**
     * A section above the peer's limit is not sent: the peer said it would not process it. A stream not yet open
     * stays closed; an open one is reset so that the peer does not wait for a response that never comes.
     */
    private void headerListTooLarge(DefaultHttp2FrameStream stream, long size, long limit, ChannelPromise promise) {
        boolean open = stream.id > 0 && streams.get(stream.id) == stream && !stream.state.isClosed();
        promise.tryFailure(new Http2OutboundHeaderListSizeException(open ? stream.id : 0, size, limit));
        if (open) {
            resetStream(stream.id, stream, Http2Error.INTERNAL_ERROR.code());
        }
    }

    void writeHeadersNow(ChannelHandlerContext ctx, DefaultHttp2FrameStream stream, Http2HeadersFrame frame,
            ChannelPromise promise) {
        ByteBuf block = ctx.alloc().buffer(128);
        encoder.encode(frame.headers(), block);
        writer.writeHeaders(ctx, stream.id, block, 0, frame.endStream(), promise);
        // A head we send (a 100 Continue above all) invites the body: the peer's read clock starts over.
        stream.lastReadNanos = ticker.nanoTime();
        if (stream.connectProtocol && !frame.endStream() && isSuccess(frame.headers().status())) {
            // RFC 8441 §5: a 2xx to an extended CONNECT opens the tunnel.
            stream.tunnel = true;
        }
        stream.state = stream.state.onSend(Http2Frames.HEADERS, frame.endStream());
        flow.updateWritability(stream);
        closeIfBothEnded(stream);
        if (frame.endStream() && stream.resetWhenSent && !stream.state.isClosed() && streams.get(stream.id) == stream) {
            resetStream(stream.id, stream, Http2Error.NO_ERROR.code());
        }
    }

    private void writeData(Http2DataFrame frame, ChannelPromise promise) {
        DefaultHttp2FrameStream stream = (DefaultHttp2FrameStream) frame.stream();
        if (stream == null || stream.outboundEnded || stream.id <= 0 || streams.get(stream.id) != stream
                || !stream.state.localMaySendData()) {
            frame.release();
            promise.tryFailure(new IllegalStateException("cannot send DATA on " + stream));
            return;
        }
        if (socketBacklogOverHardLimit(promise)) {
            frame.release();
            return;
        }
        if (frame.endStream()) {
            stream.outboundEnded = true;
        }
        flow.enqueueData(ctx, stream, frame, promise);
        if (flow.queuedBytes > config.outboundHardLimitBytes && stream.hasPending()
                && streams.get(stream.id) == stream) {
            // The handler wrote on past the bound without looking at writability: this stream stops here.
            resetStream(stream.id, stream, Http2Error.CANCEL.code());
        }
        checkQueuedBytes();
        armStallCheck();
        if (flow.queuedBytes > 0) {
            armProgressCheck();
        }
    }

    void writeDataNow(ChannelHandlerContext ctx, DefaultHttp2FrameStream stream, ByteBuf data, int padding,
            boolean endStream, ChannelPromise promise) {
        writer.writeData(ctx, stream.id, data, padding, endStream, promise);
        if (endStream) {
            stream.state = stream.state.onSend(Http2Frames.DATA, true);
            flow.updateWritability(stream);
            closeIfBothEnded(stream);
            if (stream.resetWhenSent && !stream.state.isClosed() && streams.get(stream.id) == stream) {
                resetStream(stream.id, stream, Http2Error.NO_ERROR.code());
            }
        }
        checkQueuedBytes();
    }

    private void writeSettings(Http2Settings settings, ChannelPromise promise) {
        unackedSettings.addLast(new Http2Settings().putAll(settings));
        writer.writeSettings(ctx, settings, promise);
        if (settingsTimeout == null) {
            settingsTimeout = ctx.executor().schedule(this::settingsAckTimedOut, config.settingsAckTimeoutMillis,
                    TimeUnit.MILLISECONDS);
        }
    }

    private void settingsAckTimedOut() {
        settingsTimeout = null;
        if (!unackedSettings.isEmpty()) {
            connectionFailed(connectionError(Http2Error.SETTINGS_TIMEOUT, "SETTINGS not acknowledged within "
                    + config.settingsAckTimeoutMillis + " ms (RFC 9113 §6.5.3)"));
        }
    }

    private void writeGoAway(int lastStreamId, long errorCode, ByteBuf debugData) {
        int last = goAwaySentLastStreamId >= 0 ? Math.min(goAwaySentLastStreamId, lastStreamId) : lastStreamId;
        goAwaySentLastStreamId = last;
        writer.writeGoAway(ctx, last, errorCode, debugData, ctx.newPromise());
        if (metrics != null) {
            metrics.goAwaysSent().increment(HttpMetrics.http2ErrorIndex(errorCode));
        }
        WeirEvents.http2GoAway(ctx.channel().remoteAddress(), WeirEvents.SENT, last, errorCode);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        flushNeeded = false;
        ctx.flush();
    }

    /**
     * Keeps {@link #outputFull} in step with the DATA held back by flow control (above the bound; clear again below
     * half) and tells the stream channels, which are unwritable while it is set.
     */
    void checkQueuedBytes() {
        long queued = flow.queuedBytes;
        boolean full = outputFull ? queued > config.maxQueuedOutboundBytes / 2 : queued > config.maxQueuedOutboundBytes;
        if (full != outputFull) {
            outputFull = full;
            Http2StreamObserver o = observer;
            if (o != null) {
                o.connectionWritabilityChanged();
            }
        }
    }

    /** Whether the stream channels may write: the socket takes bytes and flow control holds less than the bound. */
    boolean isConnectionWritable() {
        return !outputFull && ctx.channel().isWritable();
    }

    /**
     * Octets waiting in the channel for the socket, from its writability accounting: the high water mark less
     * what may still be queued while writable, or the low water mark plus what must drain while not.
     */
    private static long socketBacklogBytes(io.weir.channel.Channel ch) {
        io.weir.channel.WriteBufferWaterMark marks = ch.config().getWriteBufferWaterMark();
        long beforeWritable = ch.bytesBeforeWritable();
        if (beforeWritable > 0) {
            return beforeWritable + marks.low() - 1;
        }
        return Math.max(0, marks.high() + 1 - ch.bytesBeforeUnwritable());
    }

    /**
     * A handler writing on while the socket does not drain: a frame written while the channel is unwritable and
     * the backlog is past the hard limit ends the connection (the peer is not reading; its GOAWAY is best effort)
     * and fails {@code promise}. Checked where the application writes, not where flow control sends what it
     * already accepted, so one large response written while the channel was writable is never cut.
     */
    private boolean socketBacklogOverHardLimit(ChannelPromise promise) {
        io.weir.channel.Channel ch = ctx.channel();
        if (ch.isWritable() || failed || socketBacklogBytes(ch) <= config.outboundHardLimitBytes) {
            return false;
        }
        Http2Exception e = connectionError(Http2Error.ENHANCE_YOUR_CALM, "more than "
                + config.outboundHardLimitBytes + " octets queued for a peer that does not read");
        promise.tryFailure(e);
        connectionFailed(e);
        return true;
    }

    // ---------------------------------------------------------------- input backpressure

    /**
     * Asked by the frame reader before each frame: while the channel is unwritable (the peer does not read what we
     * send) no frame is read, so no new stream, DATA or control answer adds to the backlog; the bytes stay in the
     * cumulation and the socket, and reading resumes once the channel is writable again.
     */
    boolean pauseBeforeNextFrame() {
        if (inputPause.isPaused()) {
            return true;
        }
        if (ctx.channel().isWritable()) {
            return false;
        }
        inputPause.pause(ctx);
        armProgressCheck();
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
        if (failed || !inputPause.beginResume(ctx)) {
            return;
        }
        ByteBuf kept = cumulation;
        if (kept != null) {
            cumulation = null;
            decode(kept, cumulationOwned);
            channelReadComplete(ctx);
        }
        if (!failed) {
            inputPause.endResume(ctx);
        }
    }

    // ---------------------------------------------------------------- write progress

    /** Starts the write-progress clock if it is not running (output is owed from now on). */
    private void armProgressCheck() {
        long timeout = config.writeProgressTimeoutMillis;
        if (progressCheck != null || timeout == 0 || failed) {
            return;
        }
        progressNanos = ticker.nanoTime();
        progressSentBytes = flow.sentBytes;
        progressBacklogBytes = socketBacklogBytes(ctx.channel());
        progressCheck = ctx.executor().schedule(this::checkWriteProgress, Math.max(1, timeout / 4),
                TimeUnit.MILLISECONDS);
    }

    /**
     * Closes a connection that owes output and sent none of it for the write-progress timeout: DATA waiting for a
     * window that never opens (however many streams wait on it), or a socket backlog the peer never reads.
     */
    private void checkWriteProgress() {
        progressCheck = null;
        if (failed) {
            return;
        }
        long backlog = socketBacklogBytes(ctx.channel());
        if (flow.queuedBytes == 0 && backlog == 0) {
            return; // nothing owed: the clock stops until output is owed again
        }
        long now = ticker.nanoTime();
        if (flow.sentBytes != progressSentBytes || backlog < progressBacklogBytes) {
            progressNanos = now;
        }
        progressSentBytes = flow.sentBytes;
        progressBacklogBytes = backlog;
        long timeout = config.writeProgressTimeoutMillis;
        if (now - progressNanos >= TimeUnit.MILLISECONDS.toNanos(timeout)) {
            connectionFailed(connectionError(Http2Error.INTERNAL_ERROR, "no output progress for " + timeout
                    + " ms with " + (flow.queuedBytes + backlog) + " octets owed to the peer"));
            return;
        }
        progressCheck = ctx.executor().schedule(this::checkWriteProgress, Math.max(1, timeout / 4),
                TimeUnit.MILLISECONDS);
    }

    private void armStallCheck() {
        if (stallCheck == null && flow.queuedBytes > 0) {
            stallCheck = ctx.executor().schedule(this::checkStalledStreams, Math.max(1,
                    config.streamStallTimeoutMillis / 4), TimeUnit.MILLISECONDS);
        }
    }

    /** Resets streams whose queued DATA made no progress for the stall timeout (a peer that never opens windows). */
    private void checkStalledStreams() {
        stallCheck = null;
        if (failed) {
            return;
        }
        long now = ticker.nanoTime();
        long limit = TimeUnit.MILLISECONDS.toNanos(config.streamStallTimeoutMillis);
        for (int id : streams.keys()) {
            DefaultHttp2FrameStream stream = streams.get(id);
            if (stream != null && stream.stalledSinceNanos != 0 && now - stream.stalledSinceNanos >= limit) {
                resetStream(id, stream, Http2Error.CANCEL.code());
            }
        }
        flushIfNeeded();
        armStallCheck();
    }

    // ---------------------------------------------------------------- graceful close

    /**
     * A {@link ChannelDrainEvent}: the graceful close (GOAWAY, the open streams finish, the final GOAWAY, then the
     * close), and the event goes on to the streams (the multiplexer hands it to each child).
     */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelDrainEvent && started && !failed && ctx.channel().isActive()) {
            startGracefulClose(null);
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        if (failed || !ctx.channel().isActive() || !started) {
            ctx.close(promise);
            return;
        }
        startGracefulClose(promise);
    }

    void startGracefulClose(ChannelPromise promise) {
        // A void promise (a close from the transport after a failed read, say) takes no listener: it is dropped
        // and the close goes on with a promise of our own.
        ChannelPromise caller = promise == null || promise.isVoid() ? null : promise;
        if (closePromise != null) {
            if (caller != null) {
                closePromise.addListener(f -> caller.trySuccess());
            }
            return;
        }
        closePromise = caller != null ? caller : ctx.newPromise();
        timeouts.stop();
        if (server && goAwaySentLastStreamId < 0) {
            // RFC 9113 §6.8: a first GOAWAY with 2^31-1, then a PING so that the second names every stream the
            // client opened before it saw the first.
            writeGoAway(Http2Frames.MAX_STREAM_ID, Http2Error.NO_ERROR.code(), Unpooled.EMPTY_BUFFER);
            writer.writePing(ctx, false, GRACEFUL_SHUTDOWN_PING, ctx.newPromise());
        } else {
            sendFinalGoAway();
        }
        ctx.flush();
        gracefulTimeout = ctx.executor().schedule(() -> {
            gracefulTimeout = null;
            finishClose();
        }, config.gracefulShutdownTimeoutMillis, TimeUnit.MILLISECONDS);
    }

    void sendFinalGoAway() {
        if (graceful2ndGoAwaySent) {
            return;
        }
        graceful2ndGoAwaySent = true;
        writeGoAway(ids.lastRemoteStreamId(), Http2Error.NO_ERROR.code(), Unpooled.EMPTY_BUFFER);
        flushNeeded = true;
        maybeFinishGracefulClose();
    }

    private void maybeFinishGracefulClose() {
        if (closePromise != null && graceful2ndGoAwaySent && activeStreams() == 0) {
            ctx.executor().execute(this::finishClose);
        }
    }

    private void finishClose() {
        ChannelPromise p = closePromise;
        if (p == null) {
            return;
        }
        closePromise = null;
        cancel(gracefulTimeout);
        ctx.flush();
        ctx.close(p);
    }
}
