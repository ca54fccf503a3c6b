package io.weir.channel;

import io.weir.util.ReferenceCountUtil;
import io.weir.util.concurrent.Future;
import io.weir.util.platform.LoopLogger;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.System.Logger.Level;
import java.net.SocketAddress;
import java.nio.channels.NotYetConnectedException;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;

/**
 * The base of Weir's channels: the pipeline, the outbound buffer, the life cycle (register, bind, connect,
 * close, deregister) and its events, leaving the actual I/O to a small set of protected transport hooks.
 *
 * <h2>For transport implementers</h2>
 * The pipeline's head calls into this class on the event loop; this class checks state, completes promises,
 * fires events, and calls the hooks below, also only on the event loop:
 * <ul>
 *   <li>{@link #ioHandle()}: what to register with the loop's {@link IoHandler} ({@code null}: nothing);
 *       {@link #doRegister()} and {@link #doDeregister()} run around that registration.</li>
 *   <li>{@link #doBind}, {@link #doConnect} (+ {@link #doFinishConnect} for connects that complete later,
 *       reported through {@link #finishConnect()}), {@link #doDisconnect}, {@link #doClose},
 *       {@link #doShutdown}.</li>
 *   <li>{@link #doBeginRead()}: start (or keep) watching for read readiness; the transport's read loop then
 *       uses {@link #recvBufAllocHandle()} and fires {@code channelRead}/{@code channelReadComplete}.</li>
 *   <li>{@link #filterOutboundMessage} converts or rejects each write as it is queued; {@link #doWrite}
 *       writes the flushed part of the {@link ChannelOutboundBuffer}. A transport that could not write
 *       everything watches for write readiness, reports {@link #isWritePending()} meanwhile, and calls
 *       {@link #writeFlushed()} once writable. A channel built write-through (an HTTP/2 stream's) queues
 *       nothing: each write goes to {@link #doWriteThrough} and each flush to {@link #doFlushThrough}.</li>
 *   <li>{@link #isOpen()}, {@link #isActive()}, {@link #localAddress0()}, {@link #remoteAddress0()},
 *       {@link #config()}, {@link #metadata()}.</li>
 * </ul>
 * A hook that throws fails the operation's promise with what it threw. The connect attempt (pending promise,
 * timeout, requested address) lives in {@link ConnectAttempt} and the close, in its order, in
 * {@link CloseSequence}.
 *
 * <p>The event loop is given to the constructor and never changes. All public methods are thread-safe.
 */
public abstract class AbstractChannel extends DefaultAttributeMap implements Channel {
    private static final String SERVER_CANNOT_WRITE = "a server channel cannot write";
    private static final LoopLogger LOGGER = LoopLogger.of(AbstractChannel.class);
    private static final VarHandle SUCCEEDED_FUTURE = findField("succeededFuture", ChannelFuture.class);
    private static final VarHandle ID = findField("id", ChannelId.class);
    private static final VarHandle CLOSE_FUTURE = findField("closeFuture", CloseFuture.class);
    private static final VarHandle OUTBOUND_BUFFER = findField("outboundBuffer", ChannelOutboundBuffer.class);
    private static final VarHandle REGISTERED = findField("registered", boolean.class);
    /** Whether an allocation failure that reached a pipeline's end was logged at WARNING already. */
    private static final java.util.concurrent.atomic.AtomicBoolean OUT_OF_MEMORY_LOGGED =
            new java.util.concurrent.atomic.AtomicBoolean();

    private final Channel parent;
    // Set by the constructor, or on first use by newId() (see the constructor that takes idOnFirstUse), then fixed.
    private ChannelId id;
    private final EventLoop eventLoop;
    private final DefaultChannelPipeline pipeline;
    // Made on first use (most HTTP/2 stream channels are never asked for theirs) and completed by the close. A
    // first closeFuture() writes it then reads closeCompleted; the close writes closeCompleted then reads it: with
    // both volatile, whichever comes second sees the other's write and completes the future.
    private volatile CloseFuture closeFuture;
    private volatile boolean closeCompleted;
    // Made with the channel: every channel closes with it and an HTTP/2 stream's child registers with it too, and a
    // final field costs no compare-and-set (code compares promises with voidPromise(), so there is one instance).
    private final VoidChannelPromise voidPromise;
    // Created on first use (most channels never ask for it) and published with a CAS, so every caller sees one.
    private volatile ChannelFuture succeededFuture;

    // Set to null when the channel closes or its output shuts down: writes then fail at once.
    private volatile ChannelOutboundBuffer outboundBuffer;
    // The loop's byte counters (null when the loop keeps none); the two totals below are loop thread only.
    final IoByteCounters ioBytes;
    // A ServerChannel: it writes nothing, and what reaches the end of its pipeline is an accepted channel.
    private final boolean serverChannel;
    // Writes go to doWriteThrough as they come and flushes to doFlushThrough (see the constructor that takes it).
    private final boolean writeThrough;
    // Bytes handed to doWriteThrough since the last flush: they count against the water marks until it. Loop only.
    private long unflushedWriteThroughBytes;
    /**
     * The part of {@link #unflushedWriteThroughBytes} added to the outbound buffer's pending total. The rest is
     * counted there only once it would take the channel past its high-water mark, so that the writability is the
     * same as if every byte were counted, without two atomic updates of the total per write and flush (an HTTP/2
     * stream's channel writes through once or twice per request).
     */
    private long countedWriteThroughBytes;
    private long bytesRead;
    private long bytesWrittenBeforeDetach;
    private volatile boolean registered;
    private volatile SocketAddress localAddress;
    private volatile SocketAddress remoteAddress;

    // Event loop only.
    private IoRegistration ioRegistration;
    private RecvByteBufAllocator.Handle recvHandle;
    private MessageSizeEstimator.Handle estimatorHandle;
    private boolean neverRegistered = true;
    // Whether the registration put this channel in the loop's set of handle-less channels to close at shutdown.
    private boolean trackedByLoop;
    private boolean closeInitiated;
    private boolean inFlush;
    private Throwable initialCloseCause;
    // Created by the first connect.
    private ConnectAttempt connect;

    /**
     * A channel on {@code eventLoop} with a new {@link DefaultChannelId}.
     *
     * @param parent the channel that created this one, or {@code null}
     * @throws NullPointerException if {@code eventLoop} is null
     */
    protected AbstractChannel(Channel parent, EventLoop eventLoop) {
        this(parent, eventLoop, DefaultChannelId.newInstance());
    }

    /**
     * A channel on {@code eventLoop} with the given id.
     *
     * @throws NullPointerException if {@code eventLoop} or {@code id} is null
     */
    protected AbstractChannel(Channel parent, EventLoop eventLoop, ChannelId id) {
        this(Objects.requireNonNull(id, "id"), parent, eventLoop);
    }

    /**
     * A channel on {@code eventLoop} whose id, if {@code idOnFirstUse}, is made by {@link #newId()} the first time
     * it is asked for ({@link #id()}, {@link #hashCode()}, {@link #compareTo}, {@link #toString()}); otherwise it
     * gets a new {@link DefaultChannelId} now. For channels made in large numbers whose ids are seldom read, such as
     * an HTTP/2 stream's, one per request: an object fewer each.
     *
     * @param parent the channel that created this one, or {@code null}
     * @throws NullPointerException if {@code eventLoop} is null
     */
    protected AbstractChannel(Channel parent, EventLoop eventLoop, boolean idOnFirstUse) {
        this(idOnFirstUse ? null : DefaultChannelId.newInstance(), parent, eventLoop, false);
    }

    /**
     * As {@link #AbstractChannel(Channel, EventLoop, boolean)}; if {@code writeThrough}, writes are not queued in
     * this channel until a flush but handed to {@link #doWriteThrough} as they come, and a flush calls
     * {@link #doFlushThrough()}, even once the channel closed (its last writes are already on their way). For a
     * channel whose writes go into another channel that queues them itself, such as an HTTP/2 stream's into its
     * connection: a write then costs no entry in an outbound buffer of its own. Such a channel's
     * {@link ChannelOutboundBuffer} only keeps its writability: the bytes written since the last flush count
     * against its {@link WriteBufferWaterMark}, as queued writes would.
     */
    protected AbstractChannel(Channel parent, EventLoop eventLoop, boolean idOnFirstUse, boolean writeThrough) {
        this(idOnFirstUse ? null : DefaultChannelId.newInstance(), parent, eventLoop, writeThrough);
    }

    private AbstractChannel(ChannelId id, Channel parent, EventLoop eventLoop) {
        this(id, parent, eventLoop, false);
    }

    /** The constructors' common part; {@code id} is null when it is made on first use. */
    private AbstractChannel(ChannelId id, Channel parent, EventLoop eventLoop, boolean writeThrough) {
        this.writeThrough = writeThrough;
        this.parent = parent;
        this.eventLoop = Objects.requireNonNull(eventLoop, "eventLoop");
        this.id = id;
        this.ioBytes = eventLoop instanceof SingleThreadIoEventLoop loop ? loop.ioBytes : null;
        this.serverChannel = this instanceof ServerChannel;
        this.voidPromise = new VoidChannelPromise(this);
        // A plain store (a volatile one costs a fence, and an HTTP/2 stream's channel is made per request): the
        // final fields written here make the constructor end with a release, which orders it before publication.
        OUTBOUND_BUFFER.set(this, new ChannelOutboundBuffer(this));
        this.pipeline = new DefaultChannelPipeline(this);
    }

    private static VarHandle findField(String name, Class<?> type) {
        try {
            return MethodHandles.lookup().findVarHandle(AbstractChannel.class, name, type);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // ---------------------------------------------------------------- Channel

    @Override
    public final ChannelId id() {
        ChannelId current = id;
        if (current == null) {
            current = Objects.requireNonNull(newId(), "newId()");
            // Threads that race here keep the first id set, so every caller sees one id. A plain read above is
            // enough: a ChannelId's state is final, so whoever sees the reference sees the whole id.
            if (!ID.compareAndSet(this, null, current)) {
                current = (ChannelId) ID.getVolatile(this);
            }
        }
        return current;
    }

    /**
     * Makes this channel's id, for a channel built to make it on first use; called at most once per caller of
     * {@link #id()} that finds none yet (concurrent callers may each call it; one result is kept). The id's fields
     * must be final. The default makes a new {@link DefaultChannelId}. Any thread.
     */
    protected ChannelId newId() {
        return DefaultChannelId.newInstance();
    }

    @Override
    public final EventLoop eventLoop() {
        return eventLoop;
    }

    @Override
    public Channel parent() {
        return parent;
    }

    @Override
    public final ChannelPipeline pipeline() {
        return pipeline;
    }

    @Override
    public final boolean isRegistered() {
        return registered;
    }

    @Override
    public final ChannelFuture closeFuture() {
        CloseFuture future = closeFuture;
        return future != null ? future : newCloseFuture();
    }

    private CloseFuture newCloseFuture() {
        CloseFuture created = new CloseFuture(this);
        if (!CLOSE_FUTURE.compareAndSet(this, null, created)) {
            return closeFuture;
        }
        if (closeCompleted) {
            // The close finished before the future was set and did not see it; completing twice is harmless.
            created.setClosed();
        }
        return created;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Cached once known, and taken into the cache just before the channel closes, so that a closed channel
     * still names its addresses; a closed channel never asks the transport (which could only fail, and failing
     * costs an exception per call: {@code toString()} of closed channels is called a lot, by logging).
     */
    @Override
    public SocketAddress localAddress() {
        SocketAddress address = localAddress;
        if (address == null && isOpen()) {
            try {
                address = localAddress0();
            } catch (Throwable e) {
                return null;
            }
            localAddress = address;
        }
        return address;
    }

    /** {@inheritDoc} Cached like {@link #localAddress()}. */
    @Override
    public SocketAddress remoteAddress() {
        SocketAddress address = remoteAddress;
        if (address == null && isOpen()) {
            try {
                address = remoteAddress0();
            } catch (Throwable e) {
                return null;
            }
            remoteAddress = address;
        }
        return address;
    }

    @Override
    public boolean isWritable() {
        ChannelOutboundBuffer buf = outboundBuffer;
        return buf != null && buf.isWritable();
    }

    @Override
    public boolean getUserDefinedWritability(int index) {
        // Validated even once the buffer is gone, so a bad index fails the same way at any time.
        ChannelOutboundBuffer.writabilityMask(index);
        ChannelOutboundBuffer buf = outboundBuffer;
        return buf != null && buf.getUserDefinedWritability(index);
    }

    @Override
    public void setUserDefinedWritability(int index, boolean writable) {
        ChannelOutboundBuffer.writabilityMask(index);
        ChannelOutboundBuffer buf = outboundBuffer;
        if (buf != null) {
            buf.setUserDefinedWritability(index, writable);
        }
    }

    @Override
    public long bytesBeforeUnwritable() {
        ChannelOutboundBuffer buf = outboundBuffer;
        if (buf == null) {
            return 0;
        }
        // Plain reads of the write-through counts: off the loop this is an estimate, as the total is anyway.
        return Math.max(0, buf.bytesBeforeUnwritable() - (unflushedWriteThroughBytes - countedWriteThroughBytes));
    }

    @Override
    public long bytesBeforeWritable() {
        ChannelOutboundBuffer buf = outboundBuffer;
        return buf == null ? 0 : buf.bytesBeforeWritable();
    }

    @Override
    public long writtenBytes() {
        ChannelOutboundBuffer buf = outboundBuffer;
        return buf == null ? 0 : buf.writtenBytes();
    }

    /**
     * For transports: counts {@code bytes} read from the peer into this channel's total and its loop's
     * ({@link SingleThreadIoEventLoop#bytesRead()}). A socket transport calls it once per successful read, before
     * it fires the read. Event loop only.
     */
    public final void countBytesRead(int bytes) {
        bytesRead += bytes;
        IoByteCounters counters = ioBytes;
        if (counters != null) {
            counters.addRead(bytes);
        }
    }

    /** Bytes counted by {@link #countBytesRead} since the channel was created, also after it closed. Loop only. */
    final long totalBytesRead() {
        return bytesRead;
    }

    /** {@link #writtenBytes()}, but keeping its last value once the output was shut down or the channel closed. */
    final long totalBytesWritten() {
        ChannelOutboundBuffer buf = outboundBuffer;
        return buf == null ? bytesWrittenBeforeDetach : buf.writtenBytes();
    }

    @Override
    public ChannelFuture bind(SocketAddress localAddress, ChannelPromise promise) {
        return pipeline.bind(localAddress, promise);
    }

    @Override
    public ChannelFuture connect(SocketAddress remoteAddress, SocketAddress localAddress, ChannelPromise promise) {
        return pipeline.connect(remoteAddress, localAddress, promise);
    }

    @Override
    public ChannelFuture disconnect(ChannelPromise promise) {
        return pipeline.disconnect(promise);
    }

    @Override
    public ChannelFuture close(ChannelPromise promise) {
        return pipeline.close(promise);
    }

    @Override
    public ChannelFuture register(ChannelPromise promise) {
        return pipeline.register(promise);
    }

    @Override
    public ChannelFuture deregister(ChannelPromise promise) {
        return pipeline.deregister(promise);
    }

    @Override
    public ChannelFuture shutdown(ChannelShutdownDirection direction, ChannelPromise promise) {
        return pipeline.shutdown(direction, promise);
    }

    @Override
    public Channel read() {
        pipeline.read();
        return this;
    }

    @Override
    public ChannelFuture write(Object msg, ChannelPromise promise) {
        return pipeline.write(msg, promise);
    }

    @Override
    public Channel flush() {
        pipeline.flush();
        return this;
    }

    @Override
    public ChannelFuture writeAndFlush(Object msg, ChannelPromise promise) {
        return pipeline.writeAndFlush(msg, promise);
    }

    @Override
    public ChannelPromise newPromise() {
        return new DefaultChannelPromise(this);
    }

    @Override
    public ChannelProgressivePromise newProgressivePromise() {
        return new DefaultChannelProgressivePromise(this);
    }

    @Override
    public ChannelFuture newSucceededFuture() {
        ChannelFuture future = succeededFuture;
        if (future == null) {
            DefaultChannelPromise succeeded = new DefaultChannelPromise(this);
            succeeded.trySuccess();
            future = SUCCEEDED_FUTURE.compareAndSet(this, null, succeeded) ? succeeded : succeededFuture;
        }
        return future;
    }

    @Override
    public ChannelFuture newFailedFuture(Throwable cause) {
        DefaultChannelPromise failed = new DefaultChannelPromise(this);
        failed.tryFailure(Objects.requireNonNull(cause, "cause"));
        return failed;
    }

    @Override
    public final ChannelPromise voidPromise() {
        return voidPromise0();
    }

    private VoidChannelPromise voidPromise0() {
        return voidPromise;
    }

    /** Orders channels by id; channels sharing an id (embedded ones) by identity hash, so only {@code this} is 0. */
    @Override
    public final int compareTo(Channel o) {
        if (this == o) {
            return 0;
        }
        int byId = id().compareTo(o.id());
        if (byId != 0) {
            return byId;
        }
        int byHash = Integer.compare(System.identityHashCode(this), System.identityHashCode(o));
        return byHash != 0 ? byHash : 1;
    }

    @Override
    public final int hashCode() {
        return id().hashCode();
    }

    /** Channels are equal only to themselves. */
    @Override
    public final boolean equals(Object o) {
        return this == o;
    }

    @Override
    public String toString() {
        SocketAddress local = localAddress();
        SocketAddress remote = remoteAddress();
        StringBuilder buf = new StringBuilder(64).append("[id: 0x").append(id().asShortText());
        if (local != null) {
            buf.append(", L:").append(local);
        }
        if (remote != null) {
            buf.append(isActive() ? " - " : " ! ").append("R:").append(remote);
        }
        return buf.append(']').toString();
    }

    // ---------------------------------------------------------------- for transports

    /** The outbound buffer, or {@code null} once the channel closed or its output shut down. */
    protected final ChannelOutboundBuffer outboundBuffer() {
        return outboundBuffer;
    }

    final ChannelOutboundBuffer outboundBufferOrNull() {
        return outboundBuffer;
    }

    /** The registration with the loop's I/O handler while registered (and {@link #ioHandle()} is not null). */
    protected final IoRegistration ioRegistration() {
        return ioRegistration;
    }

    /** The read loop's allocator handle, created from the config on first use. Event loop only. */
    protected final RecvByteBufAllocator.Handle recvBufAllocHandle() {
        RecvByteBufAllocator.Handle handle = recvHandle;
        if (handle == null) {
            handle = config().getRecvByteBufAllocator().newHandle();
            recvHandle = handle;
        }
        return handle;
    }

    final MessageSizeEstimator.Handle estimatorHandle() {
        MessageSizeEstimator.Handle handle = estimatorHandle;
        if (handle == null) {
            // Racy but benign: handles are interchangeable, the last one written wins.
            handle = config().getMessageSizeEstimator().newHandle();
            estimatorHandle = handle;
        }
        return handle;
    }

    /** Forgets the cached local address, for transports whose address changes (rebinding). */
    protected final void invalidateLocalAddress() {
        localAddress = null;
    }

    /** Forgets the cached remote address. */
    protected final void invalidateRemoteAddress() {
        remoteAddress = null;
    }

    /** The address a pending or completed connect asked for; {@code null} otherwise. Event loop only. */
    protected final SocketAddress requestedRemoteAddress() {
        ConnectAttempt attempt = connect;
        return attempt == null ? null : attempt.requestedRemoteAddress();
    }

    /**
     * Writes the flushed messages now, unless a write is already in progress, the transport waits for
     * writability ({@link #isWritePending()}) or nothing is flushed. Transports call it when the channel
     * becomes writable again. A write that fails with an {@link IOException} closes the channel if
     * {@link ChannelOption#AUTO_CLOSE} is on; other failures fail the flushed writes. Event loop only.
     */
    protected final void writeFlushed() {
        if (inFlush) {
            return;
        }
        ChannelOutboundBuffer buffer = outboundBuffer;
        if (buffer == null || buffer.isEmpty() || isWritePending()) {
            return;
        }
        inFlush = true;
        try {
            if (!isActive()) {
                if (isOpen()) {
                    buffer.failFlushed(new NotYetConnectedException(), true);
                } else {
                    buffer.failFlushed(new StacklessClosedChannelException("flush", initialCloseCause), false);
                }
                return;
            }
            try {
                doWrite(buffer);
            } catch (Throwable t) {
                handleWriteError(t, buffer);
            }
        } finally {
            inFlush = false;
        }
    }

    private void handleWriteError(Throwable t, ChannelOutboundBuffer buffer) {
        if (t instanceof IOException && config().isAutoClose()) {
            initialCloseCause = t;
            close(voidPromise0(), t);
        } else {
            buffer.failFlushed(t, true);
        }
    }

    /**
     * Completes a connect that {@link #doConnect} left pending: calls {@link #doFinishConnect()} and then
     * succeeds or fails the connect promise, firing {@code channelActive} on success. Does nothing if no
     * connect is pending (it timed out meanwhile). Event loop only.
     */
    protected final void finishConnect() {
        ConnectAttempt attempt = connect;
        if (attempt != null) {
            attempt.finish();
        }
    }

    /**
     * Reacts to the end of the peer's stream during a read: a {@link DuplexChannel} with
     * {@link ChannelOption#ALLOW_HALF_CLOSURE} shuts its input down and fires
     * {@link ChannelInputShutdownEvent}; any other channel closes. Closes started by the channel itself (end
     * of stream, failed read, connect timeout) act on the transport directly: handlers learn about them from
     * {@code channelInactive}, not from their {@code close} method. Event loop only.
     */
    protected final void inputEnded() {
        if (this instanceof DuplexChannel duplex && config().isAllowHalfClosure()) {
            if (duplex.isInputShutdown()) {
                return;
            }
            try {
                doShutdown(ChannelShutdownDirection.INBOUND);
            } catch (Throwable t) {
                close(voidPromise0(), t);
                return;
            }
            pipeline.fireChannelShutdown(ChannelInputShutdownEvent.INSTANCE);
        } else {
            close(voidPromise0(), null);
        }
    }

    /** Closes without events or promises, ignoring failures; for cleaning up after a failed registration. */
    protected final void closeForcibly() {
        try {
            doClose();
        } catch (Throwable e) {
            LOGGER.log(Level.WARNING, "Failed to close a channel: ", this, e);
        }
    }

    // ---------------------------------------------------------------- transport hooks

    /** The kind of channel; the default has no disconnect and reads 16 messages per event. */
    @Override
    public ChannelMetadata metadata() {
        return DEFAULT_METADATA;
    }

    private static final ChannelMetadata DEFAULT_METADATA =
            new ChannelMetadata(false, DefaultChannelConfig.DEFAULT_MAX_MESSAGES_PER_READ);

    /**
     * The handle to register with the event loop's {@link IoHandler} on each {@link #register()}, or
     * {@code null} for transports that need none (local, embedded). The default returns {@code null}.
     */
    protected IoHandle ioHandle() {
        return null;
    }

    /**
     * Whether this channel's {@link #parent()} closes it when the parent closes, as a multiplexed stream's channel
     * is closed by its connection. Such a channel, if it has no {@link #ioHandle()}, is not tracked by its
     * {@link SingleThreadIoEventLoop} to be closed at shutdown: the loop closes the parent, and the parent closes
     * it, so registering and deregistering it costs the loop nothing. The default is {@code false}: a channel
     * without a handle is closed by its loop on shutdown. Called once per registration, on the event loop.
     */
    protected boolean isClosedByParent() {
        return false;
    }

    /** Called after the I/O handler accepted the registration, before {@code channelRegistered}. */
    protected void doRegister() throws Exception {
    }

    /** Called before the registration with the I/O handler is cancelled on deregister or close. */
    protected void doDeregister() throws Exception {
    }

    /** The bound local address, or {@code null}. May be called from any thread. */
    protected abstract SocketAddress localAddress0();

    /** The connected remote address, or {@code null}. May be called from any thread. */
    protected abstract SocketAddress remoteAddress0();

    /** Binds to {@code localAddress}. */
    protected abstract void doBind(SocketAddress localAddress) throws Exception;

    /**
     * Starts connecting to {@code remoteAddress} from {@code localAddress} ({@code null}: any).
     *
     * @return {@code true} if connected already; {@code false} if the connect completes later, in which case
     *         the transport calls {@link #finishConnect()} once it does (a timeout is armed meanwhile)
     * @throws UnsupportedOperationException by default: the channel cannot connect
     */
    protected boolean doConnect(SocketAddress remoteAddress, SocketAddress localAddress) throws Exception {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot connect");
    }

    /** Completes a pending connect; throws if it failed. The default throws {@link UnsupportedOperationException}. */
    protected void doFinishConnect() throws Exception {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot connect");
    }

    /** Disconnects; only called when {@link ChannelMetadata#hasDisconnect()}. The default closes. */
    protected void doDisconnect() throws Exception {
        doClose();
    }

    /** Closes the underlying resource; called once. */
    protected abstract void doClose() throws Exception;

    /**
     * Shuts one direction down. The default throws {@link UnsupportedOperationException}: only
     * {@link DuplexChannel}s support it.
     */
    protected void doShutdown(ChannelShutdownDirection direction) throws Exception {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot shut down " + direction);
    }

    /** Starts or continues reading; only called while active and registered. */
    protected abstract void doBeginRead() throws Exception;

    /**
     * Writes flushed messages from {@code in}, removing each one written ({@link ChannelOutboundBuffer#remove()},
     * {@link ChannelOutboundBuffer#removeBytes}) and leaving the rest for a later {@link #writeFlushed()}. Every
     * channel that writes overrides it. The default is a {@link ServerChannel}'s: it never gets here, since
     * {@link #filterOutboundMessage} refuses every write first, and throws {@link UnsupportedOperationException}.
     */
    protected void doWrite(ChannelOutboundBuffer in) throws Exception {
        throw new UnsupportedOperationException(serverChannel ? SERVER_CANNOT_WRITE
                : getClass().getName() + " does not implement doWrite");
    }

    /**
     * For a channel built write-through: hands on {@code msg} (as {@link #filterOutboundMessage} returned it) and
     * completes or fails {@code promise}. It owns {@code msg} from the call on, even when it throws; the promise is
     * then failed with what it threw. Only called while the channel is active with its output open. Event loop
     * only.
     */
    protected void doWriteThrough(Object msg, ChannelPromise promise) throws Exception {
        ReferenceCountUtil.release(msg);
        throw new UnsupportedOperationException(getClass().getName() + " does not implement doWriteThrough");
    }

    /** For a channel built write-through: a flush, open or closed. Event loop only. */
    protected void doFlushThrough() throws Exception {
    }

    /**
     * Converts a message as it is written (a heap buffer into a direct one) or rejects a type the transport
     * cannot write by throwing (the message is then released and the write fails). The default accepts
     * everything, except on a {@link ServerChannel}, which refuses every write with
     * {@link UnsupportedOperationException}. If it returns another object, it must have released {@code msg}
     * itself.
     */
    protected Object filterOutboundMessage(Object msg) throws Exception {
        if (serverChannel) {
            throw new UnsupportedOperationException(SERVER_CANNOT_WRITE + ": " + msg.getClass().getName());
        }
        return msg;
    }

    /** Whether the transport waits for write readiness, so a flush should not try to write now. Event loop only. */
    protected boolean isWritePending() {
        return false;
    }

    // ---------------------------------------------------------------- unhandled events (called by the tail)

    /**
     * A message reached the end of the pipeline: the default logs it at DEBUG and releases it. On a
     * {@link ServerChannel}, an accepted channel that no handler took is closed, or its socket would stay open with
     * no one to read it.
     */
    protected void onUnhandledInboundMessage(Object msg) {
        if (serverChannel && msg instanceof Channel child) {
            LOGGER.log(Level.DEBUG, () -> "Closing an accepted channel that no handler took: " + child);
            child.close();
            return;
        }
        try {
            LOGGER.log(Level.DEBUG, () -> "Discarded an inbound message that reached the end of the pipeline "
                    + "(add a handler that consumes it): " + msg.getClass().getName() + " on " + this);
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    /**
     * An exception reached the end of the pipeline: the default logs it at WARNING, except a
     * {@link java.nio.channels.ClosedChannelException} on a channel that is already closed (a write that lost the
     * race with the close, as when a peer connects and leaves at once), which it logs at DEBUG: such writes are
     * expected, and a peer must not be able to fill the log with warnings by connecting and closing.
     */
    protected void onUnhandledInboundException(Throwable cause) {
        if (cause instanceof OutOfMemoryError && !(this instanceof ServerChannel)) {
            outOfMemory(cause);
            return;
        }
        Level level = cause instanceof java.nio.channels.ClosedChannelException && !isOpen()
                ? Level.DEBUG : Level.WARNING;
        LOGGER.log(level, "An exception reached the end of the pipeline of ", this,
                " without being handled (add a handler that overrides exceptionCaught)", cause);
    }

    /**
     * A buffer could not be allocated for this connection (direct memory or the pool ran out) and no handler took
     * care of it: the connection that asked is closed, so that what it holds goes back and the others carry on.
     * Only the first such failure in the JVM is logged at WARNING; the rest at DEBUG, since a JVM short of memory
     * would otherwise log once per connection, and a log call must not fail the loop.
     */
    private void outOfMemory(Throwable cause) {
        try {
            boolean first = !OUT_OF_MEMORY_LOGGED.get() && OUT_OF_MEMORY_LOGGED.compareAndSet(false, true);
            LOGGER.log(first ? Level.WARNING : Level.DEBUG, "closing ", this,
                    ": a buffer could not be allocated for it"
                    + (first ? " (logged once; later ones at DEBUG)" : ""), cause);
        } catch (Throwable ignored) {
            // Logging itself ran out of memory: the close below matters more.
        }
        close();
    }

    /** A user event reached the end of the pipeline: the default releases it. */
    protected void onUnhandledInboundUserEvent(Object evt) {
        ReferenceCountUtil.release(evt);
    }

    // ---------------------------------------------------------------- operations, called by the head on the loop

    private boolean ensureOpen(ChannelPromise promise, String operation) {
        if (isOpen()) {
            return true;
        }
        promise.tryFailure(new StacklessClosedChannelException(operation, initialCloseCause));
        return false;
    }

    /**
     * Runs {@code deregistration}, the second half of a close or a deregister (the I/O handle's cancellation,
     * {@code channelInactive}, {@code channelUnregistered}), after the handler call that asked for it has
     * returned: deregistering inside it would pull the channel from under the current event. The default queues
     * it as a task on the event loop. A channel whose events are delivered by code it controls (an HTTP/2
     * stream's, by its multiplexer) may run it as soon as the current delivery returns instead, while the
     * channel's objects are still in cache and without a task per close. Event loop only; {@code deregistration}
     * must run exactly once.
     */
    protected void executeDeregistration(Runnable deregistration) {
        invokeLater(deregistration);
    }

    final void invokeLater(Runnable task) {
        try {
            eventLoop.execute(task);
        } catch (RejectedExecutionException e) {
            LOGGER.log(Level.WARNING, "The event loop refused a task of ", this, e);
        }
    }

    final void register0(ChannelPromise promise) {
        if (!promise.setUncancellable() || !ensureOpen(promise, "register")) {
            return;
        }
        if (registered) {
            promise.tryFailure(new IllegalStateException("registered already: " + this));
            return;
        }
        IoHandle handle = ioHandle();
        if (handle == null) {
            registered0(null, promise);
            return;
        }
        Future<IoRegistration> registration;
        try {
            registration = eventLoop.register(handle);
        } catch (Throwable t) {
            registrationFailed(promise, t);
            return;
        }
        registration.addListener(f -> {
            if (f.isSuccess()) {
                registered0(f.getNow(), promise);
            } else {
                registrationFailed(promise, f.cause());
            }
        });
    }

    /** A channel that cannot be registered is of no use: close it (failing queued writes), then report. */
    private void registrationFailed(ChannelPromise promise, Throwable cause) {
        close(voidPromise0(), cause);
        promise.tryFailure(cause);
    }

    private void registered0(IoRegistration registration, ChannelPromise promise) {
        try {
            ioRegistration = registration;
            doRegister();
        } catch (Throwable t) {
            if (registration != null) {
                registration.cancel();
            }
            ioRegistration = null;
            registrationFailed(promise, t);
            return;
        }
        boolean firstRegistration = neverRegistered;
        neverRegistered = false;
        // Release stores, here and at deregistration: readers on other threads need no more than to see the
        // channel's state as of the change, and a volatile store's fence costs every stream channel two.
        REGISTERED.setRelease(this, true);
        if (registration == null && eventLoop instanceof SingleThreadIoEventLoop loop && !isClosedByParent()) {
            // No handle for the I/O handler to close at shutdown: the loop closes the channel itself.
            trackedByLoop = true;
            loop.handlelessChannelRegistered(this);
        }
        // Read before the promise's listeners run: one of them may bind or connect, and that operation
        // fires channelActive itself; this one must not fire it a second time. Read again after
        // channelRegistered: a handler may have closed the channel there (a filter rejecting it).
        boolean activeAtRegistration = isActive();
        promise.trySuccess();
        pipeline.fireChannelRegistered();
        if (activeAtRegistration && isActive()) {
            if (firstRegistration) {
                // Only once: a channel deregistered and registered again is not newly active.
                pipeline.fireChannelActive();
            } else if (config().isAutoRead()) {
                read();
            }
        }
    }

    final void bind0(SocketAddress localAddress, ChannelPromise promise) {
        if (!promise.setUncancellable() || !ensureOpen(promise, "bind")) {
            return;
        }
        boolean wasActive = isActive();
        try {
            doBind(localAddress);
        } catch (Throwable t) {
            promise.tryFailure(t);
            closeIfClosed();
            return;
        }
        invalidateLocalAddress();
        if (!wasActive && isActive()) {
            invokeLater(pipeline::fireChannelActive);
        }
        promise.trySuccess();
    }

    final void connect0(SocketAddress remoteAddress, SocketAddress localAddress, ChannelPromise promise) {
        if (!promise.setUncancellable() || !ensureOpen(promise, "connect")) {
            return;
        }
        ConnectAttempt attempt = connect;
        if (attempt == null) {
            attempt = new ConnectAttempt(this);
            connect = attempt;
        }
        attempt.start(remoteAddress, localAddress, promise);
    }

    final void disconnect0(ChannelPromise promise) {
        if (!promise.setUncancellable()) {
            return;
        }
        boolean wasActive = isActive();
        try {
            doDisconnect();
            if (connect != null) {
                connect.disconnected();
            }
            invalidateLocalAddress();
            invalidateRemoteAddress();
        } catch (Throwable t) {
            promise.tryFailure(t);
            closeIfClosed();
            return;
        }
        if (wasActive && !isActive()) {
            invokeLater(pipeline::fireChannelInactive);
        }
        promise.trySuccess();
        closeIfClosed();
    }

    final void close0(ChannelPromise promise) {
        close(promise, null);
    }

    final void closeIfClosed() {
        if (!isOpen()) {
            close(voidPromise0(), null);
        }
    }

    /** Closes from inside the channel (a failed connect, a timeout): no promise to report to. */
    final void closeOnLoop(Throwable cause) {
        close(voidPromise0(), cause);
    }

    private void close(ChannelPromise promise, Throwable cause) {
        CloseSequence.run(this, promise, cause);
    }

    /**
     * Settles what a close on the loop would have settled, for a channel that no loop will close any more: one
     * without an I/O handle (local) whose loop terminated before closing it (it registered after the loop began
     * to shut down), or that never registered. Fails the pending connect and the queued writes, releasing their
     * messages, and completes the close future; fires no events, since no loop runs them. The transport marks
     * itself closed first, so that {@link #isOpen()} is false. Any thread, but only once no loop can run anything
     * of this channel; does nothing if the channel was closed already.
     */
    protected final void settleCloseAfterLoopTerminated() {
        CloseSequence.settleAfterLoopTerminated(this);
    }

    // ---------------------------------------------------------------- for CloseSequence (event loop only)

    /** Marks the close as begun; {@code false} if it had begun already. */
    final boolean markCloseInitiated() {
        if (closeInitiated) {
            return false;
        }
        closeInitiated = true;
        return true;
    }

    /** The close is complete: completes the close future, if one was made (else it is made complete). */
    final void completeClose() {
        closeCompleted = true;
        CloseFuture future = closeFuture;
        if (future != null) {
            future.setClosed();
        }
    }

    /** Whether {@link #completeClose()} ran: the close future is (or will be made) complete. */
    final boolean closeCompleted() {
        return closeCompleted;
    }

    /** Detaches the outbound buffer (null if detached already): writes from now on fail at once. */
    final ChannelOutboundBuffer takeOutboundBuffer() {
        ChannelOutboundBuffer buffer = outboundBuffer;
        // A release store: readers on other threads (isWritable, the writability setters) need only see the buffer
        // gone soon; one that still reads it acts on a detached buffer, harmless, as it could with a volatile store.
        OUTBOUND_BUFFER.setRelease(this, null);
        if (buffer != null) {
            bytesWrittenBeforeDetach = buffer.writtenBytes();
        }
        return buffer;
    }

    /** The pending connect's promise, taken from the attempt (its timeout cancelled); null if none. */
    final ChannelPromise takeConnectPromise() {
        ConnectAttempt attempt = connect;
        return attempt == null ? null : attempt.takePromise();
    }

    final void deregister0(ChannelPromise promise) {
        deregister(promise, false);
    }

    final void deregister(ChannelPromise promise, boolean fireChannelInactive) {
        if (!promise.setUncancellable()) {
            return;
        }
        if (!registered) {
            if (fireChannelInactive) {
                invokeLater(pipeline::fireChannelInactive);
            }
            promise.trySuccess();
            return;
        }
        // Later: deregistering from inside a handler must not pull the channel from under the current event.
        executeDeregistration(() -> {
            try {
                doDeregister();
            } catch (Throwable t) {
                LOGGER.log(Level.WARNING, "Unexpected exception while deregistering ", this, t);
            } finally {
                IoRegistration registration = ioRegistration;
                ioRegistration = null;
                if (registration != null) {
                    registration.cancel();
                } else if (trackedByLoop && eventLoop instanceof SingleThreadIoEventLoop loop) {
                    trackedByLoop = false;
                    loop.handlelessChannelDeregistered(this);
                }
                if (fireChannelInactive) {
                    pipeline.fireChannelInactive();
                }
                if (registered) {
                    REGISTERED.setRelease(this, false);
                    pipeline.fireChannelUnregistered();
                }
                promise.trySuccess();
            }
        });
    }

    final void shutdown0(ChannelShutdownDirection direction, ChannelPromise promise) {
        if (!promise.setUncancellable() || !ensureOpen(promise, "shutdown")) {
            return;
        }
        try {
            doShutdown(direction);
        } catch (Throwable t) {
            promise.tryFailure(t);
            return;
        }
        if (direction == ChannelShutdownDirection.OUTBOUND) {
            ChannelOutboundBuffer buffer = takeOutboundBuffer();
            if (buffer != null) {
                ChannelOutputShutdownException cause = new ChannelOutputShutdownException("output shut down");
                buffer.failFlushed(cause, false);
                buffer.close(cause);
            }
            // Event first: whoever waits on the promise may rely on the handlers having seen the shutdown.
            pipeline.fireChannelShutdown(ChannelOutputShutdownEvent.INSTANCE);
        } else {
            pipeline.fireChannelShutdown(ChannelInputShutdownEvent.INSTANCE);
        }
        promise.trySuccess();
    }

    final void read0() {
        // Deregistered, a transport has no readiness to watch; registering again resumes auto-read.
        if (!isActive() || !registered) {
            return;
        }
        try {
            doBeginRead();
        } catch (Throwable t) {
            invokeLater(() -> pipeline.fireExceptionCaught(t));
            close(voidPromise0(), t);
        }
    }

    final void write0(Object msg, ChannelPromise promise) {
        ChannelOutboundBuffer buffer = outboundBuffer;
        if (buffer == null) {
            try {
                ReferenceCountUtil.release(msg);
            } finally {
                promise.tryFailure(closeInitiated || !isOpen()
                        ? new StacklessClosedChannelException("write", initialCloseCause)
                        : new ChannelOutputShutdownException("write() after the output was shut down"));
            }
            return;
        }
        int size;
        try {
            if (writeThrough && !isActive()) {
                // Nothing queues here to wait for the connection, so the write fails as a flush would fail it.
                throw new NotYetConnectedException();
            }
            msg = filterOutboundMessage(msg);
            size = Math.max(0, estimatorHandle().size(msg));
        } catch (Throwable t) {
            try {
                ReferenceCountUtil.release(msg);
            } finally {
                promise.tryFailure(t);
            }
            return;
        }
        if (writeThrough) {
            writeThrough0(buffer, msg, size, promise);
        } else {
            buffer.addMessage(msg, size, promise);
        }
    }

    private void writeThrough0(ChannelOutboundBuffer buffer, Object msg, int size, ChannelPromise promise) {
        if (size > 0) {
            // Counted against this channel's water marks until flushed, as a queued write would be; added to the
            // buffer's total once they would make the channel unwritable (see countedWriteThroughBytes).
            long unflushed = unflushedWriteThroughBytes + size;
            unflushedWriteThroughBytes = unflushed;
            long uncounted = unflushed - countedWriteThroughBytes;
            if (uncounted >= buffer.bytesBeforeUnwritable()) {
                countedWriteThroughBytes = unflushed;
                buffer.incrementPendingOutboundBytes(uncounted);
            }
        }
        try {
            doWriteThrough(msg, promise);
        } catch (Throwable t) {
            promise.tryFailure(t);
        }
    }

    final void flush0() {
        if (writeThrough) {
            long counted = countedWriteThroughBytes;
            ChannelOutboundBuffer buffer = outboundBuffer;
            unflushedWriteThroughBytes = 0;
            if (counted > 0) {
                countedWriteThroughBytes = 0;
                if (buffer != null) {
                    buffer.decrementPendingOutboundBytes(counted);
                }
            }
            try {
                doFlushThrough();
            } catch (Throwable t) {
                pipeline.fireExceptionCaught(t);
            }
            return;
        }
        ChannelOutboundBuffer buffer = outboundBuffer;
        if (buffer == null) {
            return;
        }
        buffer.addFlush();
        writeFlushed();
    }
}
