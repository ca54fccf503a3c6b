package io.weir.handler.codec.http2.internal;

import static io.weir.handler.codec.http2.Http2Exception.connectionError;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.channel.WriteBufferWaterMark;
import io.weir.handler.codec.http2.Http2DataFrame;
import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;
import io.weir.handler.codec.http2.Http2FrameCodec;
import io.weir.handler.codec.http2.Http2FrameStream;
import io.weir.handler.codec.http2.Http2GoAwayFrame;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.handler.codec.http2.Http2HeadersFrame;
import io.weir.handler.codec.http2.Http2OutboundHeaderListSizeException;
import io.weir.handler.codec.http2.Http2PingFrame;
import io.weir.handler.codec.http2.Http2PriorityUpdateFrame;
import io.weir.handler.codec.http2.Http2ResetFrame;
import io.weir.handler.codec.http2.Http2Settings;
import io.weir.handler.codec.http2.Http2SettingsFrame;
import io.weir.handler.codec.http2.Http2UnknownFrame;
import io.weir.handler.codec.http2.Http2WindowUpdateFrame;
import io.weir.handler.codec.http2.internal.hpack.HpackDecoder;
import io.weir.handler.codec.http2.internal.hpack.HpackEncoder;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.Ticker;
import io.weir.util.collection.IntObjectHashMap;
import io.weir.util.collection.IntObjectMap;
import io.weir.util.concurrent.AbstractScheduledEventExecutor;
import io.weir.util.concurrent.Future;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One HTTP/2 connection's state (RFC 9113) and its only owner: streams and their states (§5.1), stream ids, both
 * directions' flow-control windows, SETTINGS in both directions, GOAWAY state, the ring of recently closed streams,
 * the limits against the published attacks (counted by its {@link Http2ConnectionLimits}), and every timer
 * (SETTINGS acknowledgement, stalled streams, write progress, idle connection, stream read and body rate, graceful
 * close), armed and cancelled by its {@link Http2ConnectionTimeouts}.
 *
 * <p>The {@code Http2FrameCodec} is the channel handler around it: it keeps the bytes of partial frames and hands
 * whole reads to {@link #readFrames}, hands written frames to {@link #write}, and relays the channel's lifecycle.
 * The frames read are applied by {@link Http2ConnectionInbound}, which fires what the application sees; outbound
 * DATA goes through {@link Http2OutboundFlow}, which sends through this connection's {@link Http2DataSink}. What
 * the codec must relay to the stream channels comes through its {@link Http2ConnectionListener}.
 *
 * <p>Only used from the channel's event loop; one instance per connection.
 */
public final class Http2Connection {

    /** The opaque data of the PING that separates the two GOAWAY frames of a graceful close. */
    public static final long GRACEFUL_SHUTDOWN_PING = 0x5765_6972_4741_5921L;
    /** Recently closed streams remembered, so that frames still in flight get the right reaction. */
    private static final int RECENTLY_CLOSED = 64;
    /** The codec's logger name, kept so that existing logging configuration still applies. */
    private static final System.Logger LOGGER = System.getLogger("io.weir.handler.codec.http2.Http2FrameCodec");
    /** Set once an allocation failure was logged: a JVM short of memory would otherwise log one per connection. */
    private static final AtomicBoolean ALLOCATION_FAILURE_LOGGED = new AtomicBoolean();

    final boolean server;
    final Http2ConnectionConfig config;
    final Http2Settings localSettings;
    final Http2FrameReader reader;
    final Http2FrameWriter writer = new Http2FrameWriter().coalesce(true);
    final HpackDecoder decoder;
    final HpackEncoder encoder = new HpackEncoder();
    final Http2StreamIds ids;
    final IntObjectMap<Http2StreamRecord> streams = new IntObjectHashMap<>();
    final Http2LocalFlowWindow connectionWindow = new Http2LocalFlowWindow(0, 65_535);
    final Http2OutboundFlow flow;
    final ArrayDeque<Http2Settings> unackedSettings = new ArrayDeque<>(2);
    final Http2ConnectionInbound inbound;
    private final Http2ConnectionListener listener;
    private final int[] recentlyClosedIds = new int[RECENTLY_CLOSED];
    private final boolean[] recentlyResetByUs = new boolean[RECENTLY_CLOSED];
    private int recentlyClosedNext;

    ChannelHandlerContext ctx;
    private Ticker ticker;
    int activeRemoteStreams;
    private int activeLocalStreams;
    long remoteMaxConcurrentStreams = Long.MAX_VALUE;
    /** The peer's SETTINGS_MAX_HEADER_LIST_SIZE; unlimited until it sends one (RFC 9113 §6.5.2). */
    long remoteMaxHeaderListSize = Long.MAX_VALUE;
    int localInitialWindowSize = Http2Frames.DEFAULT_WINDOW_SIZE_BYTES;
    int remoteInitialWindowSize = Http2Frames.DEFAULT_WINDOW_SIZE_BYTES;
    private boolean started;
    private boolean failed;
    /** The request of an h2c Upgrade, waiting for the client's connection preface; null otherwise. */
    private Http2HeadersFrame upgradeRequest;
    private boolean inRead;
    boolean flushNeeded;
    /** Outbound DATA held back by flow control is above the bound: streams unwritable, new streams refused. */
    boolean outputFull;
    int goAwaySentLastStreamId = -1;
    int goAwayReceivedLastStreamId = -1;
    ChannelPromise closePromise;
    private boolean graceful2ndGoAwaySent;
    /** Ticker time of the last read from the socket, stamped on the streams its frames reach. */
    long readNanos;
    /** The frames of the socket read stamped in {@link #readNanos} are being read: {@link #now()} is that time. */
    private boolean readClock;
    private final Http2ConnectionTimeouts timeouts;
    /** RFC 8441: SETTINGS_ENABLE_CONNECT_PROTOCOL on both sides and the {@code :protocol} rules it sets. */
    final Http2ExtendedConnect extendedConnect;
    /** Where streams, resets, GOAWAYs and timeouts are reported. */
    final Http2ConnectionEvents events;
    private final Http2ConnectionLimits limits;

    /**
     * A connection not started yet; {@link #attach} gives it its channel.
     *
     * @param config its limits and timeouts
     * @param listener where stream records come from and stream events go
     */
    public Http2Connection(Http2ConnectionConfig config, Http2ConnectionListener listener) {
        this.config = config;
        this.listener = listener;
        this.server = config.server();
        this.localSettings = new Http2Settings().putAll(config.initialSettings());
        this.ids = new Http2StreamIds(server);
        this.inbound = new Http2ConnectionInbound(this, config);
        long listSize = localSettings.get(Http2Settings.MAX_HEADER_LIST_SIZE,
                Http2FrameCodec.DEFAULT_MAX_HEADER_LIST_SIZE_BYTES);
        this.reader = new Http2FrameReader(server, inbound)
                .maxContinuationFrames(config.maxContinuationFrames())
                .maxHeaderBlockBytes(Http2FrameReader.headerBlockLimitFor(listSize));
        this.decoder = new HpackDecoder(server);
        long tolerated = listSize + listSize * Http2FrameCodec.HEADER_LIST_TOLERANCE_PERCENT / 100;
        // RFC 9113 §6.5.2: the advertised size is advisory; lists a little above it are still served (h2spec's own
        // requests exceed 8 KiB), a list twice the size ends the connection.
        decoder.maxHeaderListSize(tolerated, Math.max(listSize * 2, tolerated));
        decoder.maxHeaderCount(config.maxHeaderCount(), Math.max(config.maxHeaderCount(),
                config.maxHeaderCount() * HpackDecoder.DEFAULT_CONNECTION_ERROR_FACTOR));
        this.flow = new Http2OutboundFlow(new DataSink(), writer);
        this.timeouts = new Http2ConnectionTimeouts(this, config);
        this.extendedConnect = new Http2ExtendedConnect(localSettings);
        this.events = new Http2ConnectionEvents(config.metrics());
        this.limits = new Http2ConnectionLimits(config);
    }

    /** Takes the channel: from now on the connection writes to and schedules on {@code ctx}. */
    public void attach(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        Ticker t = config.ticker();
        if (t == null) {
            t = ctx.executor() instanceof AbstractScheduledEventExecutor loop ? loop.ticker() : Ticker.system();
        }
        ticker = t;
        limits.start(t);
        events.attach(ctx.channel());
        inbound.attach(ctx);
    }

    /** Whether {@link #start} ran. */
    public boolean isStarted() {
        return started;
    }

    /** Whether the connection failed or was closed: nothing more is read or written. */
    public boolean isFailed() {
        return failed;
    }

    /**
     * Stamps a read from the socket: the time the streams its frames reach last heard from the peer. The codec calls
     * it right before {@link #readFrames} reads them, which run with this time as {@link #now()}.
     */
    public void bytesReceived() {
        readNanos = ticker.nanoTime();
        readClock = true;
    }

    /**
     * Now, for the clocks of silence: while the frames of a socket read are handled, that read's time (they arrived
     * then, and what is written in answer follows within microseconds, far inside any timeout's precision), else the
     * ticker's. A clock read costs 20 ns and more on some machines; this spares two per request (the stream's
     * opening and the response's head), leaving one per socket read.
     */
    long now() {
        return readClock ? readNanos : ticker.nanoTime();
    }

    /** Whether {@code stream} can take more DATA without queuing beyond its send window. */
    public static boolean isWritable(Http2FrameStream stream) {
        return ((Http2StreamRecord) stream).writable;
    }

    /** Asked by the reader (through the inbound half) before each frame; see {@link Http2ConnectionListener}. */
    boolean pauseBeforeNextFrame() {
        return listener.pauseBeforeNextFrame();
    }

    /** Flushes the channel (an outbound flush from the application). */
    public void flush() {
        flushNeeded = false;
        flushChannel();
    }

    /** Every flush of the connection: the frames the writer coalesced go down the pipeline first. */
    private void flushChannel() {
        writer.drain();
        ctx.flush();
    }

    /** Sends through the frame writer what {@link Http2OutboundFlow} lets through. */
    private final class DataSink implements Http2DataSink {
        @Override
        public void sendData(Http2StreamRecord stream, ByteBuf data, int padding, boolean endStream,
                ChannelPromise promise) {
            writeDataNow(stream, data, padding, endStream, promise);
        }

        @Override
        public void sendTrailers(Http2StreamRecord stream, Http2HeadersFrame trailers, ChannelPromise promise) {
            writeHeadersNow(stream, trailers, promise);
        }

        @Override
        public ChannelPromise newPromise() {
            return ctx.newPromise();
        }

        @Override
        public void writabilityChanged(Http2StreamRecord stream) {
            listener.streamWritabilityChanged(stream);
        }

        @Override
        public long nanoTime() {
            return ticker.nanoTime();
        }
    }

    // ---------------------------------------------------------------- public API

    /**
     * Gives {@code octets} of received DATA on {@code stream} back to the receive windows (the application consumed
     * them), sending WINDOW_UPDATE frames when due. Does nothing for a closed stream (its bytes went back when it
     * closed). Event loop only.
     *
     * @throws IllegalArgumentException when more is consumed than was received and not yet consumed
     */
    public void consumeBytes(Http2FrameStream stream, int octets) {
        Http2StreamRecord s = (Http2StreamRecord) stream;
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

    public boolean isServer() {
        return server;
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
    public Http2StreamRecord upgradedAsHttp1Client(boolean headRequest) {
        ids.markLocalUsedUpTo(1);
        Http2StreamRecord stream = openStream(1, Http2StreamState.HALF_CLOSED_LOCAL);
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
    public void upgradedFromHttp1(Http2Settings clientSettings, Http2Headers request) throws Http2Exception {
        applyPeerSettings(clientSettings, false);
        ids.acceptRemote(1);
        Http2StreamRecord stream = openStream(1, Http2StreamState.HALF_CLOSED_REMOTE);
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

    public void start() {
        if (started) {
            return;
        }
        started = true;
        long now = ticker.nanoTime();
        readNanos = now;
        timeouts.start(now);
        if (!server) {
            writer.drain();
            ctx.write(Unpooled.wrappedBuffer(Http2Frames.connectionPreface()), ctx.voidPromise());
        }
        writeSettings(localSettings, ctx.voidPromise());
        int connectionIncrement = connectionWindow.targetWindowSize(config.connectionWindowSize());
        if (connectionIncrement > 0) {
            writer.writeWindowUpdate(ctx, 0, connectionIncrement, ctx.voidPromise());
        }
        flushChannel();
    }

    public void closed(Throwable cause) {
        failed = true;
        upgradeRequest = null;
        extendedConnect.connectionClosed();
        timeouts.cancelAll();
        reader.close();
        // Frames coalesced and not yet passed on: written if the channel is still open (the codec was taken out
        // of the pipeline), since their owner may flush later; else they die with the channel.
        if (ctx.channel().isActive()) {
            writer.drain();
        } else {
            writer.discard(cause);
        }
        if (!streams.isEmpty()) {
            for (int id : streams.keys()) {
                Http2StreamRecord stream = streams.get(id);
                if (stream != null) {
                    stream.state = Http2StreamState.CLOSED_RESET_RECEIVED;
                    closeStream(stream, cause, null, null);
                }
            }
        }
        ChannelPromise p = closePromise;
        if (p != null) {
            closePromise = null;
            ctx.close(p);
        }
    }

    // ---------------------------------------------------------------- inbound bytes

    /**
     * A buffer could not be allocated for this connection (direct memory or the pool exhausted). The connection
     * that asked ends with GOAWAY(INTERNAL_ERROR), other connections are not touched, and the first failure in
     * the JVM is logged once.
     */
    public void allocationFailed(OutOfMemoryError e) {
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

    public void readFrames(ByteBuf buf) {
        // One method, not a wrapper around the loop: the frames fired from here run deep pipelines (a stream
        // channel per stream), and each level spent here is one the JIT cannot spend inlining them.
        inRead = true;
        try {
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
                    connectionFailed(new Http2Exception(Http2Error.INTERNAL_ERROR,
                            Http2Exception.CONNECTION_STREAM_ID, "internal error: " + e, true));
                    ctx.fireExceptionCaught(e);
                    return;
                }
            }
        } finally {
            readClock = false;
            inRead = false;
        }
    }

    public void flushIfNeeded() {
        if (flushNeeded) {
            flushNeeded = false;
            flushChannel();
        }
    }

    // ---------------------------------------------------------------- errors

    public void connectionFailed(Http2Exception e) {
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
            writeGoAway(ids.lastRemoteStreamId(), e.error().code(), Http2GoAwayDebugText.of(e.error()));
            flushChannel();
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
    public void frameWriteFailed(Throwable cause) {
        if (!failed && ctx != null && ctx.channel().isOpen()) {
            connectionFailed(Http2Exception.connectionError(Http2Error.INTERNAL_ERROR,
                    "a frame could not be written: " + cause));
        }
    }

    private void streamFailed(Http2Exception e) {
        int id = e.streamId();
        Http2StreamRecord stream = streams.get(id);
        if (stream != null && stream.state == Http2StreamState.CLOSED_RESET_SENT) {
            return;
        }
        resetStream(id, stream, e.error().code());
    }

    /** Sends RST_STREAM (counted by the reset limiter) and closes the stream if we know it. */
    void resetStream(int id, Http2StreamRecord stream, long errorCode) {
        if (!countReset()) {
            return;
        }
        writeControl(writer.writeRstStream(ctx, id, errorCode, ctx.newPromise()));
        flushNeeded = true;
        events.resetSent(id, errorCode);
        if (stream != null) {
            stream.state = Http2StreamState.CLOSED_RESET_SENT;
            Http2Error error = Http2Error.of(errorCode);
            closeStream(stream, null, error == null ? Http2Error.CANCEL : error, "stream reset");
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
        events.resetSent(id, Http2Error.REFUSED_STREAM.code());
        rememberClosed(id, true);
    }

    /** The peer reset a stream (counted against the limits by {@link #recordReset}). */
    void resetReceived(int streamId, long errorCode) {
        events.resetReceived(streamId, errorCode);
    }

    /** The peer sent GOAWAY: no new stream of ours from now on. */
    void goAwayReceived(int lastStreamId, long errorCode) {
        goAwayReceivedLastStreamId = lastStreamId;
        events.goAwayReceived(lastStreamId, errorCode);
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

    /** Records a reset, received or sent; the connection error to end with when too many, null otherwise. */
    Http2Exception recordReset() {
        return limits.recordReset();
    }

    /** Tracks an unwritten control-frame answer; too many end the connection. */
    void writeControl(ChannelFuture future) {
        Http2Exception tooMany = limits.controlFrameQueued(future);
        if (tooMany != null) {
            connectionFailed(tooMany);
        }
    }

    // ---------------------------------------------------------------- applying what the peer sent (inbound)

    /** The stream record of {@code id}, null when it is not open. */
    Http2StreamRecord stream(int id) {
        return streams.get(id);
    }

    boolean isIdle(int id) {
        return ids.isIdle(id);
    }

    boolean isRemote(int id) {
        return ids.isRemote(id);
    }

    boolean isLocal(int id) {
        return ids.isLocal(id);
    }

    /** Accepts the peer's new stream id (RFC 9113 §5.1.1: increasing, of the peer's parity). */
    void acceptRemote(int id) throws Http2Exception {
        ids.acceptRemote(id);
    }

    int lastRemoteStreamId() {
        return ids.lastRemoteStreamId();
    }

    /** Decodes a header block with the connection's HPACK decoder (always, so that its table stays in step). */
    Http2Headers decodeHeaders(int streamId, ByteBuf block, boolean trailers) throws Http2Exception {
        return decoder.decode(streamId, block, trailers);
    }

    /** Ticker time of the last read from the socket. */
    long readNanos() {
        return readNanos;
    }

    /** The last stream id of the GOAWAY we sent, -1 before one. */
    int goAwaySentLastStreamId() {
        return goAwaySentLastStreamId;
    }

    /** Outbound DATA held back by flow control is above the bound: new streams are refused. */
    boolean isOutputFull() {
        return outputFull;
    }

    /** Our SETTINGS_MAX_CONCURRENT_STREAMS. */
    long localMaxConcurrentStreams() {
        return localSettings.get(Http2Settings.MAX_CONCURRENT_STREAMS, Long.MAX_VALUE);
    }

    /** Streams the peer opened that are open or half-closed. */
    int activeRemoteStreams() {
        return activeRemoteStreams;
    }

    /** RFC 8441's rules for a received request's {@code :protocol}; null when the request may go on. */
    Http2Exception checkExtendedConnect(int streamId, Http2Headers headers) {
        return extendedConnect.checkReceived(streamId, headers);
    }

    /** Takes {@code size} flow-controlled octets from the connection's receive window. */
    void receiveOnConnection(int size) throws Http2Exception {
        connectionWindow.receive(size);
    }

    /** Gives received octets nobody will consume back to the connection window (WINDOW_UPDATE when due). */
    void giveBackToConnection(int size) {
        int increment = connectionWindow.consume(size);
        if (increment > 0) {
            writer.writeWindowUpdate(ctx, 0, increment, ctx.voidPromise());
            flushNeeded = true;
        }
    }

    /**
     * Applies the peer's settings; {@code acknowledge} for a SETTINGS frame (an h2c Upgrade's HTTP2-Settings are
     * not acknowledged). The ACK goes out before any DATA the new values let through (a larger
     * SETTINGS_INITIAL_WINDOW_SIZE), so the peer sees its settings acknowledged before the frames that depend on
     * them (RFC 9113 §6.5.3).
     */
    void applyPeerSettings(Http2Settings settings, boolean acknowledge) throws Http2Exception {
        boolean windowsMoved = applySettings(settings);
        if (acknowledge) {
            writeControl(writer.writeSettingsAck(ctx, ctx.newPromise()));
            flushNeeded = true;
        }
        if (windowsMoved) {
            streamWindowsMoved();
        }
    }

    /** Lets every stream whose send window a new initial window size moved write what it now may. */
    private void streamWindowsMoved() {
        if (ctx == null) {
            return;
        }
        for (int id : streams.keys()) {
            // A write below may end and remove a stream further on in the copy of the keys.
            Http2StreamRecord stream = streams.get(id);
            if (stream != null) {
                flow.streamWindowChanged(stream);
            }
        }
    }

    /** Applies {@code settings}; true if stream send windows moved (a changed initial window size, open streams). */
    private boolean applySettings(Http2Settings settings) throws Http2Exception {
        extendedConnect.onPeerSettings(settings);
        if (settings.has(Http2Settings.HEADER_TABLE_SIZE)) {
            encoder.remoteMaxHeaderTableSize(settings.get(Http2Settings.HEADER_TABLE_SIZE, 4096));
        }
        if (settings.has(Http2Settings.MAX_FRAME_SIZE)) {
            writer.maxFrameSize((int) settings.get(Http2Settings.MAX_FRAME_SIZE, 16384));
        }
        if (settings.has(Http2Settings.MAX_HEADER_LIST_SIZE)) {
            remoteMaxHeaderListSize = settings.get(Http2Settings.MAX_HEADER_LIST_SIZE, Long.MAX_VALUE);
        }
        if (settings.has(Http2Settings.MAX_CONCURRENT_STREAMS)) {
            remoteMaxConcurrentStreams = settings.get(Http2Settings.MAX_CONCURRENT_STREAMS, Long.MAX_VALUE);
        }
        if (settings.has(Http2Settings.INITIAL_WINDOW_SIZE)) {
            int size = (int) settings.get(Http2Settings.INITIAL_WINDOW_SIZE, 65_535);
            int delta = size - remoteInitialWindowSize;
            remoteInitialWindowSize = size;
            if (delta != 0 && !streams.isEmpty()) {
                for (int id : streams.keys()) {
                    // §6.9.2: every stream window moves by the difference, possibly below zero.
                    streams.get(id).remoteWindow.applyInitialWindowSizeDelta(delta);
                }
                return true;
            }
        }
        return false;
    }

    /** The peer acknowledged our oldest unacknowledged SETTINGS: its values apply to what we receive from now. */
    void localSettingsAcknowledged() {
        Http2Settings acked = unackedSettings.pollFirst();
        if (acked != null) {
            if (acked.has(Http2Settings.HEADER_TABLE_SIZE)) {
                decoder.maxHeaderTableSize(acked.get(Http2Settings.HEADER_TABLE_SIZE, 4096));
            }
            if (acked.has(Http2Settings.MAX_FRAME_SIZE)) {
                reader.maxFrameSize((int) acked.get(Http2Settings.MAX_FRAME_SIZE, 16384));
            }
            if (acked.has(Http2Settings.INITIAL_WINDOW_SIZE)) {
                int size = (int) acked.get(Http2Settings.INITIAL_WINDOW_SIZE, 65_535);
                int delta = size - localInitialWindowSize;
                localInitialWindowSize = size;
                if (delta != 0) {
                    for (int id : streams.keys()) {
                        streams.get(id).localWindow.applyInitialWindowSizeDelta(delta);
                    }
                }
            }
        }
        if (unackedSettings.isEmpty()) {
            timeouts.cancelSettingsAck();
        }
    }

    /** Answers a PING (a control frame, bounded like the others). */
    void answerPing(long data) {
        writeControl(writer.writePing(ctx, true, data, ctx.newPromise()));
        flushNeeded = true;
    }

    /** True when {@code data} answers the PING of a graceful close, which then sends its final GOAWAY. */
    boolean gracefulClosePingAnswered(long data) {
        if (data == GRACEFUL_SHUTDOWN_PING && closePromise != null) {
            sendFinalGoAway();
            return true;
        }
        return false;
    }

    /** RFC 9113 §6.8: our streams above the peer's last stream id were not processed; they may be retried. */
    void refuseLocalStreamsAbove(int lastStreamId) {
        for (int id : streams.keys()) {
            Http2StreamRecord stream = streams.get(id);
            if (stream != null && ids.isLocal(id) && id > lastStreamId) {
                stream.state = Http2StreamState.CLOSED_RESET_RECEIVED;
                closeStream(stream, null, Http2Error.REFUSED_STREAM, "GOAWAY from the peer");
            }
        }
    }

    /** A WINDOW_UPDATE on stream 0: queued DATA of every stream may move. */
    void connectionWindowUpdate(int increment) throws Http2Exception {
        flow.connectionWindow.increment(increment);
        flow.writePending();
        flushNeeded = true;
    }

    /** A WINDOW_UPDATE on an open stream: its queued DATA may move. */
    void streamWindowUpdate(Http2StreamRecord stream, int increment) throws Http2Exception {
        stream.remoteWindow.increment(increment);
        flow.streamWindowChanged(stream);
        flushNeeded = true;
    }

    // ---------------------------------------------------------------- streams

    Http2StreamRecord openStream(int id, Http2StreamState state) {
        Http2StreamRecord stream = listener.newStream();
        activate(stream, id, state);
        return stream;
    }

    private void activate(Http2StreamRecord stream, int id, Http2StreamState state) {
        stream.id = id;
        stream.state = state;
        stream.localWindow = new Http2LocalFlowWindow(id, localInitialWindowSize);
        stream.remoteWindow = new Http2FlowWindow(id, remoteInitialWindowSize);
        stream.writable = Http2OutboundFlow.isWritable(stream);
        stream.lastReadNanos = now();
        streams.put(id, stream);
        events.streamOpened();
        if (ids.isRemote(id)) {
            activeRemoteStreams++;
        } else {
            activeLocalStreams++;
        }
    }

    /**
     * Removes a stream whose state became closed: fails its queue, returns its unread bytes, tells the listener.
     * Queued frames fail with {@code cause}, or when it is null with a stream error of {@code error} and
     * {@code reason} made only then: a normal end or a reset builds no exception. One method, not overloads, to
     * keep the close path's call depth (the JIT inlines it into the stream channel's write).
     */
    void closeStream(Http2StreamRecord stream, Throwable cause, Http2Error error, String reason) {
        if (streams.remove(stream.id) == null) {
            return;
        }
        events.streamClosed();
        if (ids.isRemote(stream.id)) {
            activeRemoteStreams--;
        } else {
            activeLocalStreams--;
        }
        rememberClosed(stream.id, stream.state == Http2StreamState.CLOSED_RESET_SENT);
        flow.streamClosed(stream, cause, error, reason);
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
            timeouts.connectionBecameIdle(now());
        }
        listener.streamClosed(stream);
        maybeFinishGracefulClose();
    }

    public void closeIfBothEnded(Http2StreamRecord stream) {
        if (stream.state.isClosed()) {
            closeStream(stream, null, Http2Error.STREAM_CLOSED, "stream closed");
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

    void streamWritabilityChanged(Http2StreamRecord stream) {
        listener.streamWritabilityChanged(stream);
    }

    // ---------------------------------------------------------------- outbound

    /**
     * Writes a frame the application wrote (taking it): DATA through flow control, HEADERS opening or continuing
     * a stream, RST_STREAM, WINDOW_UPDATE as consumed bytes, SETTINGS, PING, GOAWAY, PRIORITY_UPDATE, unknown
     * frames; anything else fails {@code promise}.
     */
    public void write(Object msg, ChannelPromise promise) {
        if (msg instanceof Http2DataFrame data) {
            writeData(data, promise);
        } else if (msg instanceof Http2HeadersFrame headers) {
            writeHeaders(headers, promise);
        } else if (msg instanceof Http2ResetFrame reset) {
            Http2StreamRecord stream = (Http2StreamRecord) reset.stream();
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
        Http2StreamRecord stream = (Http2StreamRecord) update.stream();
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

    /** Writes HEADERS the application wrote: opens the stream on its first, queues trailers behind its DATA. */
    public void writeHeaders(Http2HeadersFrame frame, ChannelPromise promise) {
        Http2StreamRecord stream = (Http2StreamRecord) frame.stream();
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
            flow.enqueueTrailers(stream, frame, promise);
        } else {
            writeHeadersNow(stream, frame, promise);
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
    private void headerListTooLarge(Http2StreamRecord stream, long size, long limit, ChannelPromise promise) {
        boolean open = stream.id > 0 && streams.get(stream.id) == stream && !stream.state.isClosed();
        promise.tryFailure(new Http2OutboundHeaderListSizeException(open ? stream.id : 0, size, limit));
        if (open) {
            resetStream(stream.id, stream, Http2Error.INTERNAL_ERROR.code());
        }
    }

    private void writeHeadersNow(Http2StreamRecord stream, Http2HeadersFrame frame, ChannelPromise promise) {
        writer.writeHeaders(ctx, stream.id, frame.headers(), encoder, frame.endStream(), promise);
        // A head we send (a 100 Continue above all) invites the body: the peer's read clock starts over.
        stream.lastReadNanos = now();
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

    /** Writes DATA the application wrote (taking it) through flow control. */
    public void writeData(Http2DataFrame frame, ChannelPromise promise) {
        Http2StreamRecord stream = (Http2StreamRecord) frame.stream();
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
        flow.enqueueData(stream, frame, promise);
        if (flow.queuedBytes > config.outboundHardLimitBytes() && stream.hasPending()
                && streams.get(stream.id) == stream) {
            // The handler wrote on past the bound without looking at writability: this stream stops here.
            resetStream(stream.id, stream, Http2Error.CANCEL.code());
        }
        checkQueuedBytes();
        if (flow.queuedBytes > 0) {
            timeouts.armStallCheck();
            armProgressCheck();
        }
    }

    private void writeDataNow(Http2StreamRecord stream, ByteBuf data, int padding, boolean endStream,
            ChannelPromise promise) {
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
        timeouts.armSettingsAck();
    }

    /** The SETTINGS acknowledgement timer fired: ends the connection if a SETTINGS is still unacknowledged. */
    void settingsAckTimedOut() {
        if (!unackedSettings.isEmpty()) {
            connectionFailed(connectionError(Http2Error.SETTINGS_TIMEOUT, "SETTINGS not acknowledged within "
                    + config.settingsAckTimeoutMillis() + " ms (RFC 9113 §6.5.3)"));
        }
    }

    private void writeGoAway(int lastStreamId, long errorCode, ByteBuf debugData) {
        int last = goAwaySentLastStreamId >= 0 ? Math.min(goAwaySentLastStreamId, lastStreamId) : lastStreamId;
        goAwaySentLastStreamId = last;
        writer.writeGoAway(ctx, last, errorCode, debugData, ctx.newPromise());
        events.goAwaySent(last, errorCode);
    }

    /**
     * Keeps {@link #outputFull} in step with the DATA held back by flow control (above the bound; clear again below
     * half) and tells the stream channels, which are unwritable while it is set.
     */
    void checkQueuedBytes() {
        long queued = flow.queuedBytes;
        boolean full = outputFull ? queued > config.maxQueuedOutboundBytes() / 2 : queued > config.maxQueuedOutboundBytes();
        if (full != outputFull) {
            outputFull = full;
            listener.connectionWritabilityChanged();
        }
    }

    /** Whether the stream channels may write: the socket takes bytes and flow control holds less than the bound. */
    public boolean isConnectionWritable() {
        return !outputFull && ctx.channel().isWritable();
    }

    /**
     * Octets owed to the socket: those waiting in the channel ({@link #socketBacklogBytes}) and the frames the writer
     * coalesced and has not passed on yet.
     */
    long backlogBytes() {
        return socketBacklogBytes(ctx.channel()) + writer.coalescedBytes();
    }

    /**
     * Octets waiting in the channel for the socket, from its writability accounting: the high water mark less
     * what may still be queued while writable, or the low water mark plus what must drain while not.
     */
    static long socketBacklogBytes(Channel ch) {
        WriteBufferWaterMark marks = ch.config().getWriteBufferWaterMark();
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
        Channel ch = ctx.channel();
        if (ch.isWritable() || failed || backlogBytes() <= config.outboundHardLimitBytes()) {
            return false;
        }
        Http2Exception e = connectionError(Http2Error.ENHANCE_YOUR_CALM, "more than "
                + config.outboundHardLimitBytes() + " octets queued for a peer that does not read");
        promise.tryFailure(e);
        connectionFailed(e);
        return true;
    }

    // ---------------------------------------------------------------- timers (run by Http2ConnectionTimeouts)

    /** Starts the write-progress clock if it is not running (output is owed from now on). */
    public void armProgressCheck() {
        if (!failed) {
            timeouts.armWriteProgress();
        }
    }

    /** Resets the streams whose queued DATA made no progress for {@code limitNanos} (the peer opens no window). */
    void resetStalledStreams(long now, long limitNanos) {
        for (int id : streams.keys()) {
            Http2StreamRecord stream = streams.get(id);
            if (stream != null && stream.stalledSinceNanos != 0 && now - stream.stalledSinceNanos >= limitNanos) {
                resetStream(id, stream, Http2Error.CANCEL.code());
            }
        }
        flushIfNeeded();
    }

    // ---------------------------------------------------------------- graceful close

    public void startGracefulClose(ChannelPromise promise) {
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
        flushChannel();
        timeouts.armGracefulClose();
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

    /** Closes the channel once a graceful close is done (or its timer gave up waiting). */
    void finishClose() {
        ChannelPromise p = closePromise;
        if (p == null) {
            return;
        }
        closePromise = null;
        timeouts.cancelGracefulClose();
        flushChannel();
        ctx.close(p);
    }
}
