package io.weir.handler.ssl;

import io.weir.buffer.ByteBuf;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.handler.codec.UnsupportedMessageTypeException;
import io.weir.handler.ssl.internal.TlsRecords;
import io.weir.metrics.TlsMetrics;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.concurrent.DefaultPromise;
import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.Promise;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSession;

/**
 * Encrypts what is written and decrypts what is read through an {@link SSLEngine}; add it first in the pipeline
 * of a TLS connection (one instance per channel, from {@link SslContext#newHandler}).
 *
 * <p><b>Buffers.</b> Inbound: each {@link ByteBuf} read is released here; decrypted bytes go on as pooled
 * {@code ByteBuf}s (heap for the JDK engine, whose cipher is faster on arrays) that the next handler owns and
 * releases; held partial records are pooled direct. Outbound: written {@code ByteBuf}s are owned here
 * from {@code write} on and released once encrypted (or when the write fails); anything else written is released
 * and its promise failed with {@link UnsupportedMessageTypeException}. On {@code flush}, queued writes are
 * coalesced into records of up to 16 KiB (the engine gathers several buffers into one record). A write's promise
 * completes when the record holding its last byte was written to the transport.
 *
 * <p><b>Inbound bounds.</b> Every record header is checked before the engine sees it (RFC 8446 §5.1): an unknown
 * content type, a version other than 3.x, an SSLv2-style header or plaintext, and a record longer than
 * 2^14 + 2048 bytes (2^14 + 256 once TLS 1.3 is negotiated) fail with {@link NotSslRecordException} and close the
 * connection. Records split across reads are reassembled in a buffer that never holds more than one record;
 * many records in one read are decrypted in place. The handshake fails (and the connection closes) if it does not
 * complete within {@link #DEFAULT_HANDSHAKE_TIMEOUT_MILLIS}. Renegotiation is refused: a handshake record after a
 * completed TLS 1.2 handshake (a ClientHello or HelloRequest; TLS 1.3 has no renegotiation) closes the
 * connection.
 *
 * <p><b>Closing.</b> {@code close()} encrypts and flushes what is queued, sends close_notify, and closes the
 * channel when the peer's close_notify arrives or after {@link #DEFAULT_CLOSE_NOTIFY_READ_TIMEOUT_MILLIS}. A
 * close_notify from the peer is answered with one (on TLS 1.3 too, which the JDK engine does not do by itself)
 * and the channel closed. {@link SslHandshakeCompletionEvent} and {@link SslCloseCompletionEvent} are fired
 * through {@code fireUserEventTriggered}.
 *
 * <p><b>Delegated tasks</b> (certificate validation, key agreement) run inline on the event loop by default: a
 * handshake's tasks take tens to hundreds of microseconds, less than two thread hand-offs cost on a busy machine,
 * and running them inline keeps the handshake on one core with no extra state. Give an {@link Executor} to the
 * constructor to run them elsewhere when handshakes are slow (large RSA keys, OCSP, remote trust managers);
 * while they run, reads are held (bounded) and resumed on the event loop.
 *
 * <p><b>Threads.</b> Every handler method runs on the channel's event loop. {@link #handshakeFuture()},
 * {@link #sslCloseFuture()}, {@link #engine()} and {@link #applicationProtocol()} may be read from any thread;
 * the timeout setters should be called before the handler is added.
 */
public final class SslHandler implements ChannelHandler {
    /** How long a handshake may take before the connection is closed: 10 s. */
    public static final long DEFAULT_HANDSHAKE_TIMEOUT_MILLIS = 10_000;
    /** How long {@code close()} waits for its close_notify to be written: 3 s. */
    public static final long DEFAULT_CLOSE_NOTIFY_FLUSH_TIMEOUT_MILLIS = 3_000;
    /** How long {@code close()} waits for the peer's close_notify once its own was written: 3 s. */
    public static final long DEFAULT_CLOSE_NOTIFY_READ_TIMEOUT_MILLIS = 3_000;
    /** How many inbound bytes are held while delegated tasks run on an executor: 64 KiB. */
    public static final int MAX_HELD_BYTES_DURING_TASKS = 64 * 1024;
    /** The most decrypted bytes gathered into one buffer before it is passed on: 64 KiB. */
    static final int MAX_DECRYPTED_CHUNK_BYTES = 64 * 1024;
    /**
     * The user-defined writability bit ({@link Channel#setUserDefinedWritability}) this handler clears while more
     * plaintext than the channel's high water mark waits to be encrypted (before a flush or during the
     * handshake), and sets again below the low water mark, so writers above it see back-pressure.
     */
    public static final int PENDING_PLAINTEXT_WRITABILITY_INDEX = 31;
    /** The empty plaintext wrapped to make the engine produce handshake and alert records. */
    static final ByteBuffer[] EMPTY_SOURCES = {ByteBuffer.allocate(0)};

    private final SSLEngine engine;
    private final boolean startTls;
    private final Executor delegatedTaskExecutor;
    private final RecordEncryptor encryptor = new RecordEncryptor();
    private final HeldRecord held = new HeldRecord();
    private final CloseNotifySequence closeSequence = new CloseNotifySequence();

    private final HandshakeTimer handshakeTimer = new HandshakeTimer();

    /** Whether the engine's output goes to direct buffers; false for the JDK's engine (see engineBuffer). */
    private final boolean engineWantsDirectBuffers;
    private ChannelHandlerContext ctx;
    private volatile Promise<Channel> handshakePromise;
    private volatile Promise<Channel> sslClosePromise;
    private ByteBuf decrypted;
    private Throwable taskFailure;

    private boolean handshakeStarted;
    private boolean sentFirstMessage;
    private boolean flushRequested;
    private boolean needsFlush;
    private boolean taskPending;
    private boolean failed;
    /** Why this handler failed (the handshake's or the engine's failure); set with {@link #failed}. */
    private Throwable failure;
    private boolean readDuringHandshake;
    private boolean tls13;
    /** Where handshakes are counted; null when nobody asked. */
    private TlsMetrics metrics;
    private long handshakeStartNanos;
    private long handshakeStartMillis;

    /** A handler over {@code engine}, whose client or server mode is already set. */
    public SslHandler(SSLEngine engine) {
        this(engine, false, null);
    }

    /**
     * A handler over {@code engine}.
     *
     * @param startTls whether the first write passes through unencrypted (STARTTLS: the reply that announces TLS)
     * @param delegatedTaskExecutor where the engine's delegated tasks run; null runs them inline on the event loop
     */
    public SslHandler(SSLEngine engine, boolean startTls, Executor delegatedTaskExecutor) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.engineWantsDirectBuffers = engine instanceof io.weir.handler.ssl.internal.NativeBufferEngine;
        this.startTls = startTls;
        this.delegatedTaskExecutor = delegatedTaskExecutor;
    }

    /** The engine; its session describes the negotiated protocol, cipher suite and peer. */
    public SSLEngine engine() {
        return engine;
    }

    /** The ALPN protocol the handshake selected, or null if none was (or the handshake has not completed). */
    public String applicationProtocol() {
        String p = engine.getApplicationProtocol();
        return p == null || p.isEmpty() ? null : p;
    }

    /**
     * Completes with the channel when the handshake succeeds, or fails with the reason it did not.
     *
     * @throws IllegalStateException before the handler was added to a pipeline
     */
    public Future<Channel> handshakeFuture() {
        return requireAdded(handshakePromise);
    }

    /**
     * Completes when the peer's close_notify arrived, or fails when the connection ended without one.
     *
     * @throws IllegalStateException before the handler was added to a pipeline
     */
    public Future<Channel> sslCloseFuture() {
        return requireAdded(sslClosePromise);
    }

    private static Future<Channel> requireAdded(Promise<Channel> p) {
        if (p == null) {
            throw new IllegalStateException("the SslHandler has not been added to a pipeline yet");
        }
        return p;
    }

    /**
     * Counts this handler's handshake (completed, resumed, or failed and why) in {@code metrics}, usually shared by
     * every connection of a server. Call before the handler is added to a pipeline. Returns this.
     */
    public SslHandler metrics(TlsMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        return this;
    }

    /** The handshake timeout in milliseconds; 0 waits forever (not recommended with untrusted peers). */
    public long getHandshakeTimeoutMillis() {
        return handshakeTimer.timeoutMillis();
    }

    /** Sets the handshake timeout; 0 disables it. Takes effect for a handshake not yet started. */
    public void setHandshakeTimeout(long timeout, TimeUnit unit) {
        handshakeTimer.timeoutMillis(HandshakeTimer.checkedMillis(timeout, unit, "handshakeTimeout"));
    }

    /** How long {@code close()} waits for its close_notify to be written, in milliseconds. */
    public long getCloseNotifyFlushTimeoutMillis() {
        return closeSequence.flushTimeoutMillis();
    }

    /** Sets how long {@code close()} waits for its close_notify to be written; 0 closes at once. */
    public void setCloseNotifyFlushTimeout(long timeout, TimeUnit unit) {
        closeSequence.flushTimeoutMillis(HandshakeTimer.checkedMillis(timeout, unit, "closeNotifyFlushTimeout"));
    }

    /** How long {@code close()} waits for the peer's close_notify, in milliseconds. */
    public long getCloseNotifyReadTimeoutMillis() {
        return closeSequence.readTimeoutMillis();
    }

    /** Sets how long {@code close()} waits for the peer's close_notify; 0 closes once its own was written. */
    public void setCloseNotifyReadTimeout(long timeout, TimeUnit unit) {
        closeSequence.readTimeoutMillis(HandshakeTimer.checkedMillis(timeout, unit, "closeNotifyReadTimeout"));
    }

    // ------------------------------------------------------------------------------------------ life cycle

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        this.ctx = ctx;
        handshakePromise = new DefaultPromise<>(ctx.executor());
        sslClosePromise = new DefaultPromise<>(ctx.executor());
        if (ctx.channel().isActive()) {
            startHandshake(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        startHandshake(ctx);
        ctx.fireChannelActive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        releaseAll(new SSLException("the SslHandler was removed from the pipeline"));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        ClosedChannelException closed = new ClosedChannelException();
        handshakeFailed(ctx, closed, false);
        if (sslClosePromise.tryFailure(closed)) {
            ctx.fireUserEventTriggered(new SslCloseCompletionEvent(closed));
        }
        releaseAll(closed);
        engine.closeOutbound();
        try {
            engine.closeInbound();
        } catch (SSLException truncated) {
            // Expected when the peer closed without close_notify; the close event above already says so.
        }
        ctx.fireChannelInactive();
    }

    private void releaseAll(Throwable cause) {
        handshakeTimer.cancel();
        closeSequence.cancel();
        encryptor.releaseAndFail(cause);
        if (ctx != null) {
            encryptor.updateWritability(ctx);
        }
        held.release();
        if (decrypted != null) {
            decrypted.release();
            decrypted = null;
        }
    }

    // ------------------------------------------------------------------------------------------ handshake

    private void startHandshake(ChannelHandlerContext ctx) {
        if (handshakeStarted || failed) {
            return;
        }
        handshakeStarted = true;
        handshakeStartNanos = System.nanoTime();
        handshakeStartMillis = System.currentTimeMillis();
        handshakeTimer.start(ctx.executor(), this::handshakeTimedOut);
        if (engine.getUseClientMode() && !(startTls && !sentFirstMessage)) {
            beginClientHandshake(ctx);
        }
    }

    private void beginClientHandshake(ChannelHandlerContext ctx) {
        try {
            engine.beginHandshake();
            driveHandshake(ctx, engine.getHandshakeStatus());
        } catch (Throwable t) {
            handshakeFailed(ctx, t, true);
        }
        flushIfNeeded(ctx);
    }

    private void handshakeTimedOut() {
        if (!handshakePromise.isDone()) {
            handshakeFailed(ctx, new SslHandshakeTimeoutException(handshakeTimer.timeoutMillis()), false);
        }
    }

    /**
     * Steps the engine's handshake until it needs input, and returns false if processing must stop (tasks run on
     * the executor, or the engine failed or closed).
     */
    private boolean driveHandshake(ChannelHandlerContext ctx, HandshakeStatus status) throws SSLException {
        int idleWraps = 0;
        for (;;) {
            switch (status) {
                case NEED_TASK:
                    if (!runDelegatedTasks(ctx)) {
                        return false;
                    }
                    status = engine.getHandshakeStatus();
                    break;
                case NEED_WRAP: {
                    SSLEngineResult result = wrapNonApplicationData(ctx);
                    if (result.bytesProduced() == 0 && ++idleWraps > 1) {
                        throw new SSLException("the engine asks to wrap but produces nothing");
                    }
                    if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                        return false;
                    }
                    status = result.getHandshakeStatus();
                    break;
                }
                case FINISHED:
                    handshakeSucceeded(ctx);
                    return true;
                case NOT_HANDSHAKING:
                    // The JDK reports the end of a handshake as NOT_HANDSHAKING when it is read after delegated
                    // tasks, rather than as FINISHED in a result.
                    if (handshakeStarted && !handshakePromise.isDone()) {
                        handshakeSucceeded(ctx);
                    }
                    return true;
                default:
                    return true;
            }
        }
    }

    private SSLEngineResult wrapNonApplicationData(ChannelHandlerContext ctx) throws SSLException {
        ByteBuf out = ctx.alloc().directBuffer(engine.getSession().getPacketBufferSize());
        try {
            SSLEngineResult result = engine.wrap(EMPTY_SOURCES, out.internalNioBuffer(out.writerIndex(),
                    out.writableBytes()));
            if (result.bytesProduced() > 0) {
                out.writerIndex(out.writerIndex() + result.bytesProduced());
                ctx.write(out);
                out = null;
                needsFlush = true;
            }
            return result;
        } finally {
            if (out != null) {
                out.release();
            }
        }
    }

    /** Runs the engine's delegated tasks; returns false if they were handed to the executor. */
    private boolean runDelegatedTasks(ChannelHandlerContext ctx) {
        if (delegatedTaskExecutor == null) {
            for (Runnable task; (task = engine.getDelegatedTask()) != null; ) {
                task.run();
            }
            return true;
        }
        taskPending = true;
        try {
            delegatedTaskExecutor.execute(this::runTasksOffLoop);
        } catch (Throwable rejected) {
            taskPending = false;
            handshakeFailed(ctx, rejected, true);
        }
        return false;
    }

    private void runTasksOffLoop() {
        try {
            for (Runnable task; (task = engine.getDelegatedTask()) != null; ) {
                task.run();
            }
        } catch (Throwable t) {
            taskFailure = t;
        }
        // The executor's write of taskFailure happens-before the loop runs resume (the queue hand-off orders it).
        ctx.executor().execute(this::resumeAfterTasks);
    }

    private void resumeAfterTasks() {
        taskPending = false;
        Throwable t = taskFailure;
        if (t != null) {
            taskFailure = null;
            handshakeFailed(ctx, t, true);
            return;
        }
        if (failed || !ctx.channel().isOpen()) {
            return;
        }
        try {
            if (driveHandshake(ctx, engine.getHandshakeStatus()) && held.isHolding()) {
                ByteBuf h = held.take();
                try {
                    decodeRecords(ctx, h);
                    keepRemainder(ctx, h);
                } finally {
                    h.release();
                }
            }
            fireDecrypted(ctx);
            if (flushRequested && handshakePromise.isSuccess()) {
                wrapPending(ctx);
            }
        } catch (Throwable e) {
            onEngineFailure(ctx, e);
        }
        flushIfNeeded(ctx);
        if (!handshakePromise.isDone() && !ctx.channel().config().isAutoRead()) {
            ctx.read();
        }
    }

    private void handshakeSucceeded(ChannelHandlerContext ctx) {
        if (handshakePromise.isDone()) {
            return;
        }
        handshakeTimer.cancel();
        tls13 = "TLSv1.3".equals(engine.getSession().getProtocol());
        HandshakeMetrics.completed(metrics, engine, ctx.channel().remoteAddress(), handshakeStartNanos,
                handshakeStartMillis);
        encryptor.resetRecordBufferSize();
        handshakePromise.trySuccess(ctx.channel());
        ctx.fireUserEventTriggered(SslHandshakeCompletionEvent.SUCCESS);
        if (flushRequested) {
            try {
                wrapPending(ctx);
            } catch (Throwable t) {
                onEngineFailure(ctx, t);
            }
        }
    }

    /**
     * Fails the handshake (once), fails queued writes, optionally flushes the engine's alert, and closes.
     */
    private void handshakeFailed(ChannelHandlerContext ctx, Throwable cause, boolean sendAlert) {
        if (!markFailed(ctx, cause) || !ctx.channel().isOpen()) {
            return;
        }
        engine.closeOutbound();
        if (sendAlert) {
            try {
                wrapNonApplicationData(ctx);
            } catch (Throwable alreadyBroken) {
                // The engine may refuse to produce its alert after a failure; the close below is what matters.
            }
        }
        if (needsFlush) {
            needsFlush = false;
            ctx.flush();
        }
        ctx.close();
    }

    /** Marks this handler failed (once: returns false if it already was) and fails the handshake if pending. */
    private boolean markFailed(ChannelHandlerContext ctx, Throwable cause) {
        if (failed) {
            return false;
        }
        failed = true;
        failure = cause;
        handshakeTimer.cancel();
        encryptor.releaseAndFail(cause);
        if (handshakePromise.tryFailure(cause)) {
            HandshakeMetrics.failed(metrics, engine, ctx.channel().remoteAddress(), cause, handshakeStartNanos);
            ctx.fireUserEventTriggered(new SslHandshakeCompletionEvent(cause));
        }
        return true;
    }

    private void onEngineFailure(ChannelHandlerContext ctx, Throwable cause) {
        if (!handshakePromise.isDone()) {
            handshakeFailed(ctx, cause, !(cause instanceof NotSslRecordException));
            return;
        }
        if (failed) {
            return;
        }
        failed = true;
        failure = cause;
        encryptor.releaseAndFail(cause);
        ctx.fireExceptionCaught(cause);
        if (ctx.channel().isOpen()) {
            engine.closeOutbound();
            if (!(cause instanceof NotSslRecordException)) {
                try {
                    wrapNonApplicationData(ctx);
                } catch (Throwable alreadyBroken) {
                    // As in handshakeFailed: the alert is best effort.
                }
            }
            flushIfNeeded(ctx);
            ctx.close();
        }
    }

    // ------------------------------------------------------------------------------------------ inbound

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (!(msg instanceof ByteBuf)) {
            ctx.fireChannelRead(msg);
            return;
        }
        ByteBuf in = (ByteBuf) msg;
        if (failed) {
            in.release();
            return;
        }
        if (!handshakePromise.isDone()) {
            readDuringHandshake = true;
        }
        try {
            if (taskPending) {
                held.hold(ctx.alloc(), in);
                return;
            }
            if (held.isHolding() && !completeHeldRecord(ctx, in)) {
                return;
            }
            decodeRecords(ctx, in);
            keepRemainder(ctx, in);
        } catch (Throwable t) {
            onEngineFailure(ctx, t);
        } finally {
            in.release();
            fireDecrypted(ctx);
            flushIfNeeded(ctx);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        if (readDuringHandshake && !handshakePromise.isDone() && !ctx.channel().config().isAutoRead()) {
            // The handshake must go on even when the application reads on demand.
            ctx.read();
        }
        readDuringHandshake = false;
        ctx.fireChannelReadComplete();
    }

    /**
     * Completes the held partial record from {@code in} and decrypts it; returns false if {@code in} ran out first
     * (everything it had is now held) or processing must stop.
     */
    private boolean completeHeldRecord(ChannelHandlerContext ctx, ByteBuf in) throws SSLException {
        ByteBuf record = held.completeRecord(in, tls13);
        if (record == null) {
            return false;
        }
        try {
            decodeRecords(ctx, record);
            if (record.isReadable()) {
                // Delegated tasks went to the executor mid-record (cannot happen: a record is decoded whole) or
                // the engine closed; hold what is left only in the first case.
                if (taskPending) {
                    held.restore(record);
                    record = null;
                    held.hold(ctx.alloc(), in);
                    in.skipBytes(in.readableBytes());
                }
                return false;
            }
            return !taskPending && !failed;
        } finally {
            if (record != null) {
                record.release();
            }
        }
    }

    /** Keeps the partial record left in {@code in} (or everything, while tasks run) for the next read. */
    private void keepRemainder(ChannelHandlerContext ctx, ByteBuf in) throws SSLException {
        if (!in.isReadable() || failed) {
            return;
        }
        if (taskPending) {
            held.hold(ctx.alloc(), in);
        } else {
            held.keep(ctx.alloc(), in, tls13);
        }
    }

    /** Decrypts every complete record of {@code in}, leaving a partial one (or what tasks hold up) readable. */
    private void decodeRecords(ChannelHandlerContext ctx, ByteBuf in) throws SSLException {
        while (!failed && !taskPending) {
            int readable = in.readableBytes();
            if (readable < TlsRecords.HEADER_LENGTH) {
                return;
            }
            int offset = in.readerIndex();
            int length = HeldRecord.checkedRecordLength(in, offset, tls13);
            if (readable < length) {
                return;
            }
            if (handshakePromise.isDone() && !tls13
                    && in.getUnsignedByte(offset) == TlsRecords.HANDSHAKE) {
                // RFC 5746 renegotiation, client-initiated (ClientHello) or server-requested (HelloRequest): refused,
                // as a TLS 1.2 connection carries no other handshake message once the handshake has completed.
                throw new SSLHandshakeException("renegotiation refused: a handshake record arrived after the "
                        + engine.getSession().getProtocol() + " handshake completed");
            }
            if (!unwrapRecord(ctx, in, offset, length)) {
                return;
            }
        }
    }

    /** Hands one complete record to the engine; returns false if processing must stop. */
    private boolean unwrapRecord(ChannelHandlerContext ctx, ByteBuf in, int offset, int length) throws SSLException {
        ByteBuffer src = in.internalNioBuffer(offset, length);
        int srcStart = src.position();
        for (;;) {
            ByteBuf out = decryptedBuffer(ctx, length, in.writerIndex() - offset);
            SSLEngineResult result = engine.unwrap(src, out.internalNioBuffer(out.writerIndex(), out.writableBytes()));
            out.writerIndex(out.writerIndex() + result.bytesProduced());
            switch (result.getStatus()) {
                case BUFFER_OVERFLOW:
                    fireDecrypted(ctx);
                    decrypted = engineBuffer(ctx, engine.getSession().getApplicationBufferSize());
                    continue;
                case BUFFER_UNDERFLOW:
                    throw new SSLException("the engine wants more than the complete record of " + length + " bytes");
                case CLOSED:
                    in.skipBytes(src.position() - srcStart);
                    inboundClosed(ctx);
                    return false;
                default:
                    break;
            }
            HandshakeStatus status = result.getHandshakeStatus();
            boolean proceed = status == HandshakeStatus.NOT_HANDSHAKING
                    || driveHandshake(ctx, status);
            if (!src.hasRemaining() || !proceed) {
                in.skipBytes(src.position() - srcStart);
                return proceed && !failed;
            }
            if (result.bytesConsumed() == 0 && result.bytesProduced() == 0 && status == HandshakeStatus.NEED_UNWRAP) {
                throw new SSLException("the engine made no progress on a complete record of " + length + " bytes");
            }
            if (src.position() - srcStart > 0) {
                // The engine read part of the record and wants the rest as a fresh view (internal views are reused).
                in.skipBytes(src.position() - srcStart);
                length -= src.position() - srcStart;
                offset = in.readerIndex();
                src = in.internalNioBuffer(offset, length);
                srcStart = src.position();
            }
        }
    }

    /**
     * A buffer the engine writes records or plaintext into. Heap for the JDK engine: its AES-GCM works on arrays
     * and, given direct buffers, copies through temporary arrays it allocates per record (measured: twice the
     * garbage per 1 KiB round trip and about half the throughput, SslHandlerBenchmark). The transport copies a heap
     * record into pooled direct memory once on its way to the socket. An engine working on native memory (the
     * OpenSSL provider, a NativeBufferEngine) gets direct buffers here.
     */
    private ByteBuf engineBuffer(ChannelHandlerContext ctx, int capacity) {
        return engineWantsDirectBuffers ? ctx.alloc().directBuffer(capacity) : ctx.alloc().heapBuffer(capacity);
    }

    private ByteBuf decryptedBuffer(ChannelHandlerContext ctx, int recordLength, int available) {
        ByteBuf out = decrypted;
        if (out != null && out.writableBytes() >= recordLength) {
            return out;
        }
        fireDecrypted(ctx);
        // Plaintext is never longer than its ciphertext, so a record always fits in a buffer of its own length.
        // Sized for the records already read (bounded), so that one read gives one decrypted buffer.
        out = engineBuffer(ctx, Math.max(recordLength, Math.min(MAX_DECRYPTED_CHUNK_BYTES, available)));
        decrypted = out;
        return out;
    }

    private void fireDecrypted(ChannelHandlerContext ctx) {
        ByteBuf out = decrypted;
        if (out == null) {
            return;
        }
        decrypted = null;
        if (out.isReadable()) {
            ctx.fireChannelRead(out);
        } else {
            out.release();
        }
    }

    private void inboundClosed(ChannelHandlerContext ctx) {
        // RFC 8446 §6.1: close_notify received.
        if (sslClosePromise.trySuccess(ctx.channel())) {
            ctx.fireUserEventTriggered(SslCloseCompletionEvent.SUCCESS);
        }
        if (!handshakePromise.isDone()) {
            handshakeFailed(ctx, new SSLHandshakeException("the peer closed during the handshake"), false);
            return;
        }
        if (closeSequence.isClosing()) {
            // Our own close() is waiting for this close_notify.
            fireDecrypted(ctx);
            closeSequence.peerClosed(ctx);
            return;
        }
        // Answer with our close_notify (the JDK does not on TLS 1.3, RFC 8446 §6.1 wants it), then close.
        fireDecrypted(ctx);
        closeOutboundAndChannel(ctx, ctx.newPromise(), false);
    }

    // ------------------------------------------------------------------------------------------ outbound

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (!(msg instanceof ByteBuf)) {
            ReferenceCountUtil.release(msg);
            promise.setFailure(new UnsupportedMessageTypeException(msg, ByteBuf.class));
            return;
        }
        if (startTls && !sentFirstMessage) {
            sentFirstMessage = true;
            ctx.write(msg, promise);
            return;
        }
        if (failed || closeSequence.isClosing()) {
            ((ByteBuf) msg).release();
            promise.setFailure(writeRefused());
            return;
        }
        encryptor.add(ctx, (ByteBuf) msg, promise);
    }

    /**
     * Why a write that arrives once the session failed or began closing is refused. A write racing a failed
     * handshake carries that failure as its cause (and in its message), so the writer learns the real reason.
     */
    private SSLException writeRefused() {
        Throwable cause = failure;
        if (cause == null) {
            return new SSLException("write refused: the TLS session is closed");
        }
        return new SSLException("write refused: the TLS " + (handshakePromise.isSuccess() ? "session" : "handshake")
                + " failed: " + cause, cause);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) throws Exception {
        if (startTls && engine.getUseClientMode() && sentFirstMessage && !handshakePromise.isDone()
                && engine.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING && !failed) {
            ctx.flush();
            beginClientHandshake(ctx);
            return;
        }
        flushRequested = true;
        if (handshakePromise.isSuccess() && !taskPending) {
            try {
                wrapPending(ctx);
            } catch (Throwable t) {
                onEngineFailure(ctx, t);
            }
        }
        needsFlush = false;
        ctx.flush();
    }

    /** Encrypts the queued writes into records of up to 16 KiB and writes them (without flushing). */
    private void wrapPending(ChannelHandlerContext ctx) throws SSLException {
        flushRequested = false;
        try {
            wrapPendingRecords(ctx);
        } finally {
            encryptor.updateWritability(ctx);
        }
    }

    private void wrapPendingRecords(ChannelHandlerContext ctx) throws SSLException {
        while (!encryptor.isEmpty() && !encryptor.completeEmptyWrites()) {
            SSLEngineResult result = encryptor.wrapRecord(ctx, engine,
                    engineBuffer(ctx, encryptor.recordBufferSize(engine)));
            if (result == null) {
                return;
            }
            needsFlush = true;
            HandshakeStatus status = result.getHandshakeStatus();
            if (status != HandshakeStatus.NOT_HANDSHAKING && status != HandshakeStatus.FINISHED
                    && !driveHandshake(ctx, status)) {
                return;
            }
        }
    }

    private void flushIfNeeded(ChannelHandlerContext ctx) {
        if (needsFlush) {
            needsFlush = false;
            ctx.flush();
        }
    }

    // ------------------------------------------------------------------------------------------ closing

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
        if (closeSequence.isClosing()) {
            // A close is already under way; this one completes with the channel's.
            ctx.channel().closeFuture().addListener(f -> promise.trySuccess());
            return;
        }
        if (!handshakePromise.isSuccess() || failed || !ctx.channel().isActive()) {
            closeSequence.markClosing();
            markFailed(ctx, new ClosedChannelException());
            ctx.close(promise);
            return;
        }
        try {
            if (!encryptor.isEmpty()) {
                wrapPending(ctx);
            }
        } catch (Throwable t) {
            encryptor.releaseAndFail(t);
        }
        closeOutboundAndChannel(ctx, promise, closeSequence.readTimeoutMillis() > 0);
    }

    /** Sends close_notify and closes the channel as {@link CloseNotifySequence#start} describes. */
    private void closeOutboundAndChannel(ChannelHandlerContext ctx, ChannelPromise promise, boolean awaitPeer) {
        closeSequence.start(ctx, engine, promise, awaitPeer);
        needsFlush = false;
    }

    /**
     * Server side, OpenSSL provider: staples {@code response} (a DER OCSP response, RFC 6960) in this
     * connection's handshake (RFC 6066 §8) instead of the context's {@link SslContext#setOcspResponse(byte[])
     * current one}; the array is copied. Call before the handshake starts, e.g. right after creating the handler.
     *
     * @throws UnsupportedOperationException if the engine is not the OpenSSL provider's
     * @throws IllegalStateException on a client, with stapling off, or once the handshake started
     * @throws IllegalArgumentException if the response is empty or over the context's limit
     */
    public void setOcspResponse(byte[] response) {
        if (!(engine instanceof io.weir.handler.ssl.internal.openssl.OpenSslEngine openSsl)) {
            throw new UnsupportedOperationException("OCSP stapling needs the OPENSSL provider, not "
                    + engine.getClass().getName());
        }
        openSsl.setOcspResponse(response);
    }

    /**
     * Client side: the DER OCSP response the server stapled (a copy), or null if none was stapled or requested
     * ({@link SslContextBuilder#enableOcsp(boolean)}) or the session was resumed (no certificate, so no status, is
     * sent then); read it once {@link #handshakeFuture()} succeeded. The response is not checked here: a
     * revocation-checking trust manager reads it during the handshake, or the application parses it.
     */
    public byte[] ocspResponse() {
        if (engine instanceof io.weir.handler.ssl.internal.openssl.OpenSslEngine openSsl) {
            return openSsl.getOcspResponse();
        }
        SSLSession s = engine.getSession();
        if (s instanceof javax.net.ssl.ExtendedSSLSession extended && !extended.getStatusResponses().isEmpty()) {
            return extended.getStatusResponses().get(0).clone();
        }
        return null;
    }

    /** The negotiated session; valid once {@link #handshakeFuture()} succeeded. */
    public SSLSession session() {
        return engine.getSession();
    }
}
