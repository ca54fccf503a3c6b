package io.weir.handler.codec.http2;

import static io.weir.handler.codec.http2.Http2Exception.connectionError;
import static io.weir.handler.codec.http2.Http2Exception.streamError;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
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
import io.weir.util.ReferenceCountUtil;
import io.weir.util.Ticker;
import io.weir.util.collection.IntObjectHashMap;
import io.weir.util.collection.IntObjectMap;
import io.weir.util.concurrent.AbstractScheduledEventExecutor;
import io.weir.util.concurrent.ScheduledFuture;
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
 * {@link Http2UnknownFrame}. PRIORITY frames are validated and ignored; WINDOW_UPDATE frames are applied and not
 * fired. Malformed requests (a missing pseudo-header, a content-length that disagrees with the DATA, §8.1.1) are
 * reset with PROTOCOL_ERROR and never fired. Each stream and connection error is answered with the RFC's code.
 *
 * <p><b>Outbound.</b> Write the same frame types; DATA waits for flow-control window (per stream and connection,
 * shared round-robin) and a stream's {@linkplain #isWritable writability} says when its queue exceeds its window.
 * {@code close()} is graceful: GOAWAY with 2^31-1 and a PING, then GOAWAY with the last stream id once the PING is
 * answered, then the close once the streams are done (or {@link #DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MILLIS}).
 *
 * <p><b>Safe by default.</b> Every limit below has a setter on the builder; exceeding a connection limit ends the
 * connection with GOAWAY ENHANCE_YOUR_CALM.
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
    /** Outbound DATA octets a connection may hold for flow control before reading pauses. */
    public static final long DEFAULT_MAX_QUEUED_OUTBOUND_BYTES = 4L << 20;
    /** Time a graceful close waits for open streams, in milliseconds. */
    public static final long DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MILLIS = 30_000;

    /** The opaque data of the PING that separates the two GOAWAY frames of a graceful close. */
    static final long GRACEFUL_SHUTDOWN_PING = 0x5765_6972_4741_5921L;
    /** Recently closed streams remembered, so that frames still in flight get the right reaction. */
    private static final int RECENTLY_CLOSED = 64;
    private static final int MAX_DEBUG_DATA_CHARS = 256;

    private final boolean server;
    private final Http2FrameCodecBuilder config;
    private final Http2Settings localSettings;
    private final Http2FrameReader reader;
    private final Http2FrameWriter writer = new Http2FrameWriter();
    private final HpackDecoder decoder;
    private final HpackEncoder encoder = new HpackEncoder();
    private final Http2StreamIds ids;
    private final IntObjectMap<DefaultHttp2FrameStream> streams = new IntObjectHashMap<>();
    private final Http2LocalFlowWindow connectionWindow = new Http2LocalFlowWindow(0, 65_535);
    private final Http2OutboundFlow flow;
    private final ArrayDeque<Http2Settings> unackedSettings = new ArrayDeque<>(2);
    private final Inbound inbound = new Inbound();
    private final int[] recentlyClosedIds = new int[RECENTLY_CLOSED];
    private final boolean[] recentlyResetByUs = new boolean[RECENTLY_CLOSED];
    private int recentlyClosedNext;

    private final ChannelFutureListener controlFrameWritten = f -> controlFrameWritten();

    private ChannelHandlerContext ctx;
    private Ticker ticker;
    private Http2EventLimiter resets;
    private ByteBuf cumulation;
    private int activeRemoteStreams;
    private int activeLocalStreams;
    private long remoteMaxConcurrentStreams = Long.MAX_VALUE;
    private int localInitialWindowSize = Http2Frames.DEFAULT_WINDOW_SIZE_BYTES;
    private int remoteInitialWindowSize = Http2Frames.DEFAULT_WINDOW_SIZE_BYTES;
    private int queuedControlFrames;
    private int consecutiveEmptyData;
    private boolean started;
    private boolean failed;
    private boolean inRead;
    private boolean flushNeeded;
    private boolean readingPaused;
    private int goAwaySentLastStreamId = -1;
    private int goAwayReceivedLastStreamId = -1;
    private ChannelPromise closePromise;
    private boolean graceful2ndGoAwaySent;
    private ScheduledFuture<?> settingsTimeout;
    private ScheduledFuture<?> stallCheck;
    private ScheduledFuture<?> gracefulTimeout;
    private Http2StreamObserver observer;

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

    /**
     * Stream 1 of an HTTP/1.1 Upgrade to h2c (RFC 7540 §3.2): applies the client's HTTP2-Settings and fires the
     * request as a HEADERS frame with END_STREAM on a stream that is half-closed (remote).
     */
    void upgradedFromHttp1(Http2Settings clientSettings, Http2Headers request) throws Http2Exception {
        inbound.onSettingsApply(clientSettings);
        ids.acceptRemote(1);
        DefaultHttp2FrameStream stream = openStream(1, Http2StreamState.HALF_CLOSED_REMOTE);
        stream.headersReceived = true;
        stream.headMethod = "HEAD".contentEquals(request.method() == null ? "" : request.method());
        ctx.fireChannelRead(new Http2HeadersFrame(stream, request, true));
        ctx.fireChannelReadComplete();
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
        cancel(settingsTimeout);
        cancel(stallCheck);
        cancel(gracefulTimeout);
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

    private static void cancel(ScheduledFuture<?> f) {
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
        ByteBuf buf = in;
        ByteBuf c = cumulation;
        if (c != null) {
            cumulation = null;
            buf = c.alloc().buffer(c.readableBytes() + in.readableBytes());
            buf.writeBytes(c);
            buf.writeBytes(in);
            c.release();
            in.release();
        }
        inRead = true;
        try {
            readFrames(buf);
        } finally {
            inRead = false;
            if (buf.isReadable() && !failed) {
                cumulation = buf;
            } else {
                buf.release();
            }
        }
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

    private void connectionFailed(Http2Exception e) {
        if (failed) {
            return;
        }
        failed = true;
        writeGoAway(ids.lastRemoteStreamId(), e.error().code(), debugData(e.getMessage()));
        ctx.flush();
        ctx.close();
    }

    private ByteBuf debugData(String message) {
        if (message == null || message.isEmpty()) {
            return Unpooled.EMPTY_BUFFER;
        }
        String m = message.length() > MAX_DEBUG_DATA_CHARS ? message.substring(0, MAX_DEBUG_DATA_CHARS) : message;
        return Unpooled.copiedBuffer(m, StandardCharsets.UTF_8);
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
    private void resetStream(int id, DefaultHttp2FrameStream stream, long errorCode) {
        if (!countReset()) {
            return;
        }
        writeControl(writer.writeRstStream(ctx, id, errorCode, ctx.newPromise()));
        flushNeeded = true;
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

    /** Counts a reset; on too many, ends the connection (ENHANCE_YOUR_CALM) and returns false. */
    private boolean countReset() {
        if (resets.tryRecord()) {
            return true;
        }
        connectionFailed(connectionError(Http2Error.ENHANCE_YOUR_CALM, "more than " + resets.maxEvents()
                + " streams reset within " + config.resetWindowMillis + " ms (Rapid Reset / MadeYouReset)"));
        return false;
    }

    /** Tracks an unwritten control-frame answer; too many end the connection. */
    private void writeControl(ChannelFuture future) {
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

    private DefaultHttp2FrameStream openStream(int id, Http2StreamState state) {
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
        streams.put(id, stream);
        if (ids.isRemote(id)) {
            activeRemoteStreams++;
        } else {
            activeLocalStreams++;
        }
    }

    /** Removes a stream whose state became closed: fails its queue, returns its unread bytes, tells the observer. */
    private void closeStream(DefaultHttp2FrameStream stream, Throwable cause) {
        if (streams.remove(stream.id) == null) {
            return;
        }
        if (ids.isRemote(stream.id)) {
            activeRemoteStreams--;
        } else {
            activeLocalStreams--;
        }
        rememberClosed(stream.id, stream.state == Http2StreamState.CLOSED_RESET_SENT);
        flow.streamClosed(stream, cause);
        int unread = stream.localWindow.consumeAll();
        if (unread > 0 && !failed) {
            int increment = connectionWindow.consume(unread);
            if (increment > 0) {
                writer.writeWindowUpdate(ctx, 0, increment, ctx.voidPromise());
                flushNeeded = true;
            }
        }
        Http2StreamObserver o = observer;
        if (o != null) {
            o.streamClosed(stream);
        }
        maybeFinishGracefulClose();
    }

    private void closeIfBothEnded(DefaultHttp2FrameStream stream) {
        if (stream.state.isClosed()) {
            closeStream(stream, streamError(stream.id, Http2Error.STREAM_CLOSED, "stream closed"));
        }
    }

    private void rememberClosed(int id, boolean resetByUs) {
        int i = recentlyClosedNext;
        recentlyClosedIds[i] = id;
        recentlyResetByUs[i] = resetByUs;
        recentlyClosedNext = (i + 1) % RECENTLY_CLOSED;
    }

    /** -1 when not remembered, 1 when we reset it, 0 when it closed otherwise. */
    private int recentlyClosed(int id) {
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
        } else if (msg instanceof Http2UnknownFrame unknown) {
            writer.writeFrame(ctx, unknown.frameType(), unknown.flags(), unknown.streamId(), unknown.content(),
                    promise);
        } else {
            ReferenceCountUtil.release(msg);
            promise.tryFailure(new IllegalArgumentException("not an HTTP/2 frame this codec writes: "
                    + (msg == null ? "null" : msg.getClass().getName())));
        }
    }

    private void writeHeaders(Http2HeadersFrame frame, ChannelPromise promise) {
        DefaultHttp2FrameStream stream = (DefaultHttp2FrameStream) frame.stream();
        if (stream == null) {
            promise.tryFailure(new IllegalArgumentException("HEADERS without a stream (use newStream())"));
            return;
        }
        if (stream.id == -1) {
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

    void writeHeadersNow(ChannelHandlerContext ctx, DefaultHttp2FrameStream stream, Http2HeadersFrame frame,
            ChannelPromise promise) {
        ByteBuf block = ctx.alloc().buffer(128);
        encoder.encode(frame.headers(), block);
        writer.writeHeaders(ctx, stream.id, block, 0, frame.endStream(), promise);
        stream.state = stream.state.onSend(Http2Frames.HEADERS, frame.endStream());
        flow.updateWritability(stream);
        closeIfBothEnded(stream);
    }

    private void writeData(Http2DataFrame frame, ChannelPromise promise) {
        DefaultHttp2FrameStream stream = (DefaultHttp2FrameStream) frame.stream();
        if (stream == null || stream.outboundEnded || stream.id <= 0 || streams.get(stream.id) != stream
                || !stream.state.localMaySendData()) {
            frame.release();
            promise.tryFailure(new IllegalStateException("cannot send DATA on " + stream));
            return;
        }
        if (frame.endStream()) {
            stream.outboundEnded = true;
        }
        flow.enqueueData(ctx, stream, frame, promise);
        checkQueuedBytes();
        armStallCheck();
    }

    void writeDataNow(ChannelHandlerContext ctx, DefaultHttp2FrameStream stream, ByteBuf data, int padding,
            boolean endStream, ChannelPromise promise) {
        writer.writeData(ctx, stream.id, data, padding, endStream, promise);
        if (endStream) {
            stream.state = stream.state.onSend(Http2Frames.DATA, true);
            flow.updateWritability(stream);
            closeIfBothEnded(stream);
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
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        flushNeeded = false;
        ctx.flush();
    }

    /** Pauses reading while too much outbound DATA waits for window; resumes below half. */
    private void checkQueuedBytes() {
        long queued = flow.queuedBytes;
        if (!readingPaused && queued > config.maxQueuedOutboundBytes) {
            readingPaused = true;
            ctx.channel().config().setAutoRead(false);
        } else if (readingPaused && queued <= config.maxQueuedOutboundBytes / 2) {
            readingPaused = false;
            ctx.channel().config().setAutoRead(true);
        }
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

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        if (failed || !ctx.channel().isActive() || !started) {
            ctx.close(promise);
            return;
        }
        startGracefulClose(promise);
    }

    private void startGracefulClose(ChannelPromise promise) {
        if (closePromise != null) {
            if (promise != null) {
                closePromise.addListener(f -> promise.trySuccess());
            }
            return;
        }
        closePromise = promise != null ? promise : ctx.newPromise();
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

    private void sendFinalGoAway() {
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

    // ---------------------------------------------------------------- inbound frames

    private final class Inbound implements io.weir.handler.codec.http2.internal.Http2FrameListener {

        @Override
        public void onData(int streamId, ByteBuf data, int index, int length, int padding, boolean endStream)
                throws Http2Exception {
            int size = length + padding;
            connectionWindow.receive(size);
            DefaultHttp2FrameStream stream = streams.get(streamId);
            if (stream == null) {
                giveBackToConnection(size);
                if (ids.isIdle(streamId)) {
                    // RFC 9113 §5.1 idle: DATA is a connection PROTOCOL_ERROR.
                    throw connectionError(Http2Error.PROTOCOL_ERROR, "DATA on idle stream " + streamId);
                }
                if (recentlyClosed(streamId) == 1) {
                    return; // §5.1: frames in flight after our RST_STREAM are ignored
                }
                throw streamError(streamId, Http2Error.STREAM_CLOSED, "DATA on closed stream " + streamId
                        + " (RFC 9113 §5.1)");
            }
            Http2StreamState next;
            try {
                next = stream.state.onReceive(Http2Frames.DATA, endStream, streamId);
                stream.localWindow.receive(size);
            } catch (Http2Exception e) {
                giveBackToConnection(size);
                throw e;
            }
            if (padding > 0) {
                stream.localWindow.consume(padding);
                giveBackToConnection(padding);
            }
            if (length == 0 && !endStream) {
                if (++consecutiveEmptyData > config.maxConsecutiveEmptyDataFrames) {
                    throw connectionError(Http2Error.ENHANCE_YOUR_CALM, "more than "
                            + config.maxConsecutiveEmptyDataFrames + " consecutive empty DATA frames");
                }
            } else {
                consecutiveEmptyData = 0;
            }
            stream.receivedDataBytes += length;
            long expected = stream.expectedContentLength;
            if (expected >= 0 && (stream.receivedDataBytes > expected
                    || endStream && stream.receivedDataBytes != expected)) {
                // RFC 9113 §8.1.1: malformed; it never reaches the application.
                throw streamError(streamId, Http2Error.PROTOCOL_ERROR, "DATA of " + stream.receivedDataBytes
                        + " octets on stream " + streamId + " disagrees with content-length " + expected);
            }
            stream.state = next;
            ctx.fireChannelRead(new Http2DataFrame(stream, data.retainedSlice(index, length), endStream, padding));
            if (endStream) {
                closeIfBothEnded(stream);
            }
        }

        private void giveBackToConnection(int size) {
            int increment = connectionWindow.consume(size);
            if (increment > 0) {
                writer.writeWindowUpdate(ctx, 0, increment, ctx.voidPromise());
                flushNeeded = true;
            }
        }

        @Override
        public void onHeaders(int streamId, ByteBuf headerBlock, int padding, boolean endStream,
                boolean hasPriority, int streamDependency, int weight, boolean exclusive) throws Http2Exception {
            consecutiveEmptyData = 0;
            DefaultHttp2FrameStream stream = streams.get(streamId);
            if (stream == null) {
                openRemoteStream(streamId, headerBlock, endStream);
                return;
            }
            boolean trailers = stream.headersReceived;
            Http2StreamState next;
            try {
                next = stream.state.onReceive(Http2Frames.HEADERS, endStream, streamId);
            } catch (Http2Exception e) {
                // The block still goes through HPACK, or the tables fall out of sync (RFC 9113 §4.3).
                decodeIgnoringStreamErrors(streamId, headerBlock, trailers);
                throw e;
            }
            if (trailers && !endStream) {
                decodeIgnoringStreamErrors(streamId, headerBlock, true);
                // RFC 9113 §8.1: trailers must end the stream.
                throw streamError(streamId, Http2Error.PROTOCOL_ERROR, "trailers without END_STREAM on stream "
                        + streamId);
            }
            Http2Headers headers = decoder.decode(streamId, headerBlock, trailers);
            if (!trailers) {
                CharSequence status = headers.status();
                boolean informational = status != null && status.length() == 3 && status.charAt(0) == '1';
                if (!informational) {
                    stream.headersReceived = true;
                    contentLength(stream, headers, endStream);
                }
            } else if (stream.expectedContentLength >= 0
                    && stream.receivedDataBytes != stream.expectedContentLength) {
                throw streamError(streamId, Http2Error.PROTOCOL_ERROR, "stream " + streamId + " ended after "
                        + stream.receivedDataBytes + " octets, content-length " + stream.expectedContentLength);
            }
            stream.state = next;
            ctx.fireChannelRead(new Http2HeadersFrame(stream, headers, endStream));
            if (endStream) {
                closeIfBothEnded(stream);
            }
        }

        private void openRemoteStream(int streamId, ByteBuf headerBlock, boolean endStream) throws Http2Exception {
            if (!ids.isIdle(streamId) || !ids.isRemote(streamId)) {
                decodeIgnoringStreamErrors(streamId, headerBlock, false);
                if (ids.isRemote(streamId) && recentlyClosed(streamId) == 1) {
                    return; // in flight after our RST_STREAM
                }
                if (ids.isRemote(streamId) && streamId <= ids.lastRemoteStreamId()) {
                    // §5.1 closed: a new header section on a stream that ended is a connection STREAM_CLOSED.
                    throw connectionError(Http2Error.STREAM_CLOSED, "HEADERS on closed stream " + streamId);
                }
                ids.acceptRemote(streamId); // throws the §5.1.1 PROTOCOL_ERROR
                return;
            }
            ids.acceptRemote(streamId);
            if (goAwaySentLastStreamId >= 0 && streamId > goAwaySentLastStreamId) {
                decodeIgnoringStreamErrors(streamId, headerBlock, false);
                return; // §6.8: streams above our GOAWAY are ignored
            }
            if (activeRemoteStreams >= localSettings.get(Http2Settings.MAX_CONCURRENT_STREAMS, Long.MAX_VALUE)) {
                decodeIgnoringStreamErrors(streamId, headerBlock, false);
                // §5.1.2: beyond SETTINGS_MAX_CONCURRENT_STREAMS.
                throw streamError(streamId, Http2Error.REFUSED_STREAM, "more than "
                        + localSettings.get(Http2Settings.MAX_CONCURRENT_STREAMS, Long.MAX_VALUE)
                        + " concurrent streams");
            }
            Http2Headers headers;
            try {
                headers = decoder.decode(streamId, headerBlock, false);
            } catch (Http2Exception e) {
                if (!e.isConnectionError()) {
                    rememberClosed(streamId, true);
                }
                throw e;
            }
            DefaultHttp2FrameStream stream = openStream(streamId,
                    endStream ? Http2StreamState.HALF_CLOSED_REMOTE : Http2StreamState.OPEN);
            stream.headersReceived = true;
            try {
                contentLength(stream, headers, endStream);
            } catch (Http2Exception e) {
                stream.state = Http2StreamState.CLOSED_RESET_SENT;
                resetStream(streamId, stream, e.error().code());
                return;
            }
            if (server) {
                CharSequence method = headers.method();
                stream.headMethod = method != null && "HEAD".contentEquals(method);
                CharSequence priority = headers.get("priority");
                if (priority != null) {
                    Http2Priorities.apply(stream, priority);
                }
            }
            ctx.fireChannelRead(new Http2HeadersFrame(stream, headers, endStream));
            if (streamId == Http2Frames.MAX_STREAM_ID) {
                // §5.1.1: the client has no identifier left; end the connection cleanly once this stream is done.
                startGracefulClose(null);
            }
        }

        private void contentLength(DefaultHttp2FrameStream stream, Http2Headers headers, boolean endStream)
                throws Http2Exception {
            long length = Http2Priorities.contentLength(stream.id, headers);
            if (length < 0) {
                return;
            }
            if (!server && stream.headMethod) {
                return;
            }
            CharSequence status = headers.status();
            if (status != null && ("204".contentEquals(status) || "304".contentEquals(status))) {
                return;
            }
            if (endStream && length != 0) {
                throw streamError(stream.id, Http2Error.PROTOCOL_ERROR, "content-length " + length
                        + " on a header section that ends stream " + stream.id + " (RFC 9113 §8.1.1)");
            }
            stream.expectedContentLength = length;
        }

        private void decodeIgnoringStreamErrors(int streamId, ByteBuf headerBlock, boolean trailers)
                throws Http2Exception {
            try {
                decoder.decode(streamId, headerBlock, trailers);
            } catch (Http2Exception e) {
                if (e.isConnectionError()) {
                    throw e;
                }
            }
        }

        @Override
        public void onDiscardedHeaderBlock(int streamId, ByteBuf headerBlock) throws Http2Exception {
            decodeIgnoringStreamErrors(streamId, headerBlock, streams.get(streamId) != null);
            if (ids.isRemote(streamId) && ids.isIdle(streamId)) {
                ids.acceptRemote(streamId);
            }
        }

        @Override
        public void onPriority(int streamId, int streamDependency, int weight, boolean exclusive) {
            // RFC 9113 §5.3.2: RFC 7540 priorities are deprecated; validated by the reader, otherwise ignored.
        }

        @Override
        public void onRstStream(int streamId, long errorCode) throws Http2Exception {
            DefaultHttp2FrameStream stream = streams.get(streamId);
            if (stream == null) {
                if (ids.isIdle(streamId)) {
                    throw connectionError(Http2Error.PROTOCOL_ERROR, "RST_STREAM on idle stream " + streamId
                            + " (RFC 9113 §6.4)");
                }
                return;
            }
            if (!resets.tryRecord()) {
                throw connectionError(Http2Error.ENHANCE_YOUR_CALM, "more than " + resets.maxEvents()
                        + " streams reset within " + config.resetWindowMillis + " ms (Rapid Reset)");
            }
            stream.state = stream.state.onReceive(Http2Frames.RST_STREAM, false, streamId);
            ctx.fireChannelRead(new Http2ResetFrame(stream, errorCode));
            closeStream(stream, streamError(streamId, Http2Error.CANCEL, "stream reset by the peer"));
        }

        @Override
        public void onSettings(Http2Settings settings) throws Http2Exception {
            onSettingsApply(settings);
            writeControl(writer.writeSettingsAck(ctx, ctx.newPromise()));
            flushNeeded = true;
            ctx.fireChannelRead(new Http2SettingsFrame(settings));
        }

        void onSettingsApply(Http2Settings settings) throws Http2Exception {
            if (settings.has(Http2Settings.HEADER_TABLE_SIZE)) {
                encoder.remoteMaxHeaderTableSize(settings.get(Http2Settings.HEADER_TABLE_SIZE, 4096));
            }
            if (settings.has(Http2Settings.MAX_FRAME_SIZE)) {
                writer.maxFrameSize((int) settings.get(Http2Settings.MAX_FRAME_SIZE, 16384));
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
                        DefaultHttp2FrameStream stream = streams.get(id);
                        // §6.9.2: every stream window moves by the difference, possibly below zero.
                        stream.remoteWindow.applyInitialWindowSizeDelta(delta);
                        if (ctx != null) {
                            flow.streamWindowChanged(ctx, stream);
                        }
                    }
                }
            }
        }

        @Override
        public void onSettingsAck() {
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
                cancel(settingsTimeout);
                settingsTimeout = null;
            }
            ctx.fireChannelRead(Http2SettingsAckFrame.INSTANCE);
        }

        @Override
        public void onPing(long data) {
            writeControl(writer.writePing(ctx, true, data, ctx.newPromise()));
            flushNeeded = true;
            ctx.fireChannelRead(new Http2PingFrame(data, false));
        }

        @Override
        public void onPingAck(long data) {
            if (data == GRACEFUL_SHUTDOWN_PING && closePromise != null) {
                sendFinalGoAway();
                return;
            }
            ctx.fireChannelRead(new Http2PingFrame(data, true));
        }

        @Override
        public void onPushPromise(int streamId, int promisedStreamId, ByteBuf headerBlock, int padding)
                throws Http2Exception {
            // We advertise SETTINGS_ENABLE_PUSH 0 as a client (§8.4): a promise is a connection error.
            throw connectionError(Http2Error.PROTOCOL_ERROR, "PUSH_PROMISE received although push is disabled");
        }

        @Override
        public void onGoAway(int lastStreamId, long errorCode, ByteBuf debugData) {
            goAwayReceivedLastStreamId = lastStreamId;
            ctx.fireChannelRead(new Http2GoAwayFrame(lastStreamId, errorCode, debugData.retainedSlice()));
            for (int id : streams.keys()) {
                DefaultHttp2FrameStream stream = streams.get(id);
                if (stream != null && ids.isLocal(id) && id > lastStreamId) {
                    // §6.8: streams above the last id were not processed; they may be retried elsewhere.
                    stream.state = Http2StreamState.CLOSED_RESET_RECEIVED;
                    closeStream(stream, streamError(id, Http2Error.REFUSED_STREAM, "GOAWAY from the peer"));
                }
            }
        }

        @Override
        public void onWindowUpdate(int streamId, int windowSizeIncrement) throws Http2Exception {
            if (streamId == 0) {
                flow.connectionWindow.increment(windowSizeIncrement);
                flow.writePending(ctx);
                flushNeeded = true;
                return;
            }
            DefaultHttp2FrameStream stream = streams.get(streamId);
            if (stream == null) {
                if (ids.isIdle(streamId)) {
                    throw connectionError(Http2Error.PROTOCOL_ERROR, "WINDOW_UPDATE on idle stream " + streamId);
                }
                return;
            }
            stream.state = stream.state.onReceive(Http2Frames.WINDOW_UPDATE, false, streamId);
            stream.remoteWindow.increment(windowSizeIncrement);
            flow.streamWindowChanged(ctx, stream);
            flushNeeded = true;
        }

        @Override
        public void onPriorityUpdate(int prioritizedStreamId, ByteBuf priorityFieldValue) {
            DefaultHttp2FrameStream stream = streams.get(prioritizedStreamId);
            if (stream != null) {
                Http2Priorities.apply(stream, priorityFieldValue.toString(StandardCharsets.US_ASCII));
            }
        }

        @Override
        public void onUnknownFrame(int frameType, int streamId, int flags, ByteBuf payload) {
            ctx.fireChannelRead(new Http2UnknownFrame(frameType, flags, streamId, payload.retainedSlice()));
        }
    }
}
