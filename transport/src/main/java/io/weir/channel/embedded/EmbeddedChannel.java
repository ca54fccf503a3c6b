package io.weir.channel.embedded;

import io.weir.channel.AbstractChannel;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelId;
import io.weir.channel.ChannelMetadata;
import io.weir.channel.ChannelOutboundBuffer;
import io.weir.channel.ChannelPipeline;
import io.weir.channel.ChannelPromise;
import io.weir.channel.DefaultChannelConfig;
import io.weir.util.ManualTicker;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.Ticker;
import io.weir.util.platform.LoopLogger;
import java.lang.System.Logger.Level;
import java.net.SocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.TimeUnit;

/**
 * A channel for testing handlers without a network: inbound messages are fed in with {@link #writeInbound}
 * and whatever reaches the end of the pipeline is collected for {@link #readInbound()}; outbound messages
 * written with {@link #writeOutbound} (or by handlers) are collected for {@link #readOutbound()} once
 * flushed. Tasks handlers submit to the event loop run when {@link #runPendingTasks()} is called (the
 * {@code write*} methods call it), and scheduled tasks follow a {@link ManualTicker} moved by
 * {@link #advanceTimeBy}, so timeouts are tested without waiting.
 *
 * <p>An exception that reaches the end of the pipeline, or fails a write started by {@link #writeOutbound},
 * is kept and rethrown by {@link #checkException()} (which the {@code write*} methods and {@link #finish()}
 * call): the first one is kept, later ones are logged.
 *
 * <p><b>Ownership.</b> Messages taken with {@code readInbound}/{@code readOutbound} belong to the caller;
 * {@link #finishAndReleaseAll()} releases whatever was not taken.
 *
 * <p>Not thread-safe: drive it from one thread, as a test does. The channel is registered and active as soon
 * as it is constructed (unless constructed with {@code register == false}).
 */
public final class EmbeddedChannel extends AbstractChannel {
    private static final LoopLogger LOGGER = LoopLogger.of(EmbeddedChannel.class);
    private static final ChannelHandler[] NO_HANDLERS = new ChannelHandler[0];

    private enum State { OPEN, ACTIVE, CLOSED }

    private final EmbeddedEventLoop loop;
    private final ManualTicker ticker;
    private final ChannelConfig config;
    private final ChannelMetadata metadata;
    private Queue<Object> inboundMessages;
    private Queue<Object> outboundMessages;
    private Throwable lastException;
    private State state = State.OPEN;

    /** A registered, active channel with no handlers and the {@link EmbeddedChannelId}. */
    public EmbeddedChannel() {
        this(NO_HANDLERS);
    }

    /** A registered, active channel with {@code handlers} added in order. */
    public EmbeddedChannel(ChannelHandler... handlers) {
        this(EmbeddedChannelId.INSTANCE, handlers);
    }

    /** A registered, active channel with the given id and {@code handlers}. */
    public EmbeddedChannel(ChannelId id, ChannelHandler... handlers) {
        this(id, false, true, handlers);
    }

    /**
     * A channel with every option.
     *
     * @param id the channel's id
     * @param hasDisconnect whether {@link #disconnect()} disconnects (as a datagram channel would) rather than
     *        closes
     * @param register whether to register now; if {@code false}, call {@link #register()} before use
     * @param handlers added in order; a {@code null} element ends the list
     */
    public EmbeddedChannel(ChannelId id, boolean hasDisconnect, boolean register, ChannelHandler... handlers) {
        this(new EmbeddedEventLoop(Ticker.manual()), id, hasDisconnect, register, handlers);
    }

    private EmbeddedChannel(EmbeddedEventLoop loop, ChannelId id, boolean hasDisconnect, boolean register,
                            ChannelHandler... handlers) {
        super(null, loop, id);
        this.loop = loop;
        this.ticker = (ManualTicker) loop.ticker();
        this.metadata = new ChannelMetadata(hasDisconnect, DefaultChannelConfig.DEFAULT_MAX_MESSAGES_PER_READ);
        this.config = new DefaultChannelConfig(this);
        Objects.requireNonNull(handlers, "handlers");
        ChannelPipeline p = pipeline();
        for (ChannelHandler h : handlers) {
            if (h == null) {
                break;
            }
            p.addLast(h);
        }
        if (register) {
            ChannelFuture future = register();
            runPendingTasks();
            if (future.cause() != null) {
                recordException(future.cause());
            }
        }
    }

    /** The channel's event loop, with its embedded-only methods. */
    public EmbeddedEventLoop embeddedEventLoop() {
        return loop;
    }

    /** The clock of the channel's scheduled tasks. */
    public ManualTicker ticker() {
        return ticker;
    }

    @Override
    public ChannelConfig config() {
        return config;
    }

    @Override
    public ChannelMetadata metadata() {
        return metadata;
    }

    @Override
    public boolean isOpen() {
        return state != State.CLOSED;
    }

    @Override
    public boolean isActive() {
        return state == State.ACTIVE;
    }

    // ---------------------------------------------------------------- message queues

    /** The messages that reached the end of the pipeline, oldest first; the live queue. */
    public Queue<Object> inboundMessages() {
        Queue<Object> q = inboundMessages;
        if (q == null) {
            q = new ArrayDeque<>();
            inboundMessages = q;
        }
        return q;
    }

    /** The messages flushed to the transport, oldest first; the live queue. */
    public Queue<Object> outboundMessages() {
        Queue<Object> q = outboundMessages;
        if (q == null) {
            q = new ArrayDeque<>();
            outboundMessages = q;
        }
        return q;
    }

    /** Takes the oldest inbound message, or returns {@code null}; the caller owns it. */
    @SuppressWarnings("unchecked")
    public <T> T readInbound() {
        return (T) poll(inboundMessages);
    }

    /** Takes the oldest outbound message, or returns {@code null}; the caller owns it. */
    @SuppressWarnings("unchecked")
    public <T> T readOutbound() {
        return (T) poll(outboundMessages);
    }

    private static Object poll(Queue<Object> queue) {
        if (queue == null) {
            return null;
        }
        Object msg = queue.poll();
        return msg == null ? null : ReferenceCountUtil.touch(msg, "taken by the caller of readInbound/readOutbound");
    }

    /**
     * Fires each message through the pipeline as read, then {@code channelReadComplete}, and runs pending
     * tasks. Ownership of the messages passes to the pipeline. On a closed channel it fires nothing and throws the
     * exception recorded while closing, if any, undeclared (see {@link #checkException()}).
     *
     * @return whether inbound messages are waiting to be read
     */
    public boolean writeInbound(Object... msgs) {
        ensureOpen();
        if (msgs.length == 0) {
            return !isEmpty(inboundMessages);
        }
        ChannelPipeline p = pipeline();
        for (Object m : msgs) {
            p.fireChannelRead(m);
        }
        flushInbound(false);
        return !isEmpty(inboundMessages);
    }

    /** Fires one message as read without {@code channelReadComplete}; the future reports recorded exceptions. */
    public ChannelFuture writeOneInbound(Object msg) {
        return writeOneInbound(msg, newPromise());
    }

    /** Fires one message as read, completing {@code promise} with the outcome. */
    public ChannelFuture writeOneInbound(Object msg, ChannelPromise promise) {
        if (checkOpen(true)) {
            pipeline().fireChannelRead(msg);
        }
        return checkException(promise);
    }

    /** Fires {@code channelReadComplete} and runs pending tasks. */
    public EmbeddedChannel flushInbound() {
        flushInbound(true);
        return this;
    }

    private void flushInbound(boolean recordException) {
        if (checkOpen(recordException)) {
            pipeline().fireChannelReadComplete();
            runPendingTasks();
        }
        checkException();
    }

    /**
     * Writes each message through the pipeline from the tail, flushes, and runs pending tasks. A write
     * failure is recorded and rethrown.
     *
     * @return whether outbound messages are waiting to be read
     */
    public boolean writeOutbound(Object... msgs) {
        ensureOpen();
        if (msgs.length == 0) {
            return !isEmpty(outboundMessages);
        }
        List<ChannelFuture> futures = new ArrayList<>(msgs.length);
        for (Object m : msgs) {
            futures.add(write(m));
        }
        flushOutbound0();
        for (ChannelFuture f : futures) {
            if (f.isDone()) {
                recordFailure(f);
            } else {
                f.addListener(this::recordFailure);
            }
        }
        checkException();
        return !isEmpty(outboundMessages);
    }

    private void recordFailure(io.weir.util.concurrent.Future<?> future) {
        if (!future.isSuccess()) {
            recordException(future.cause());
        }
    }

    /** Writes one message without flushing. */
    public ChannelFuture writeOneOutbound(Object msg) {
        return writeOneOutbound(msg, newPromise());
    }

    /** Writes one message without flushing, completing {@code promise} once it is flushed and taken. */
    public ChannelFuture writeOneOutbound(Object msg, ChannelPromise promise) {
        if (checkOpen(true)) {
            return write(msg, promise);
        }
        return checkException(promise);
    }

    /** Runs pending tasks and flushes. */
    public EmbeddedChannel flushOutbound() {
        if (checkOpen(true)) {
            flushOutbound0();
        }
        checkException();
        return this;
    }

    private void flushOutbound0() {
        runPendingTasks();
        flush();
    }

    /** Releases every message waiting in the inbound queue; returns whether there was any. */
    public boolean releaseInbound() {
        return releaseAll(inboundMessages);
    }

    /** Releases every message waiting in the outbound queue; returns whether there was any. */
    public boolean releaseOutbound() {
        return releaseAll(outboundMessages);
    }

    private static boolean releaseAll(Queue<Object> queue) {
        if (isEmpty(queue)) {
            return false;
        }
        Object msg;
        while ((msg = queue.poll()) != null) {
            ReferenceCountUtil.release(msg);
        }
        return true;
    }

    private static boolean isEmpty(Queue<Object> queue) {
        return queue == null || queue.isEmpty();
    }

    /**
     * Closes the channel, runs what is pending and rethrows a recorded exception.
     *
     * @return whether messages are waiting in either queue (they stay for the caller)
     */
    public boolean finish() {
        return finish(false);
    }

    /** Like {@link #finish()} but releases every message still waiting in either queue. */
    public boolean finishAndReleaseAll() {
        return finish(true);
    }

    private boolean finish(boolean releaseAll) {
        close();
        try {
            checkException();
            return !isEmpty(inboundMessages) || !isEmpty(outboundMessages);
        } finally {
            if (releaseAll) {
                releaseAll(inboundMessages);
                releaseAll(outboundMessages);
            }
        }
    }

    // ---------------------------------------------------------------- tasks and time

    /** Runs queued tasks (and those they queue) and due scheduled tasks, recording what they throw. */
    public void runPendingTasks() {
        Runnable task;
        while ((task = loop.pollPendingTask()) != null) {
            try {
                task.run();
            } catch (Throwable t) {
                recordException(t);
            }
        }
        runScheduledPendingTasks();
    }

    /**
     * Runs the scheduled tasks that are due by the {@linkplain #ticker() ticker}.
     *
     * @return nanoseconds until the next scheduled task is due, or {@code -1} if none is scheduled
     */
    public long runScheduledPendingTasks() {
        Runnable task;
        while ((task = loop.pollDueScheduledTask()) != null) {
            try {
                task.run();
            } catch (Throwable t) {
                recordException(t);
            }
        }
        return loop.nextScheduledTaskNanos();
    }

    /** Whether tasks are queued or scheduled. */
    public boolean hasPendingTasks() {
        return loop.hasPendingTasks() || loop.nextScheduledTaskNanos() >= 0;
    }

    /**
     * Moves the channel's clock forward. Tasks that become due run at the next {@link #runPendingTasks()} or
     * {@link #runScheduledPendingTasks()}.
     *
     * @throws IllegalArgumentException if {@code amount} is negative
     */
    public void advanceTimeBy(long amount, TimeUnit unit) {
        ticker.advance(amount, unit);
    }

    // ---------------------------------------------------------------- exceptions

    private void recordException(Throwable cause) {
        if (lastException == null) {
            lastException = cause;
        } else {
            LOGGER.log(Level.WARNING, "More than one exception was raised; only the first is rethrown by "
                    + "checkException(). This one is only logged:", cause);
        }
    }

    /** Rethrows (as is, even if checked) the first exception recorded since the last call, and forgets it. */
    public void checkException() {
        Throwable t = lastException;
        if (t != null) {
            lastException = null;
            throwUnchecked(t);
        }
    }

    private ChannelFuture checkException(ChannelPromise promise) {
        Throwable t = lastException;
        if (t != null) {
            lastException = null;
            if (promise.isVoid()) {
                throwUnchecked(t);
            }
            return promise.setFailure(t);
        }
        return promise.setSuccess();
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> void throwUnchecked(Throwable t) throws E {
        throw (E) t;
    }

    private boolean checkOpen(boolean recordException) {
        if (!isOpen()) {
            if (recordException) {
                recordException(new ClosedChannelException());
            }
            return false;
        }
        return true;
    }

    private void ensureOpen() {
        if (!checkOpen(true)) {
            checkException();
        }
    }

    // ---------------------------------------------------------------- closing

    /** Closes, then runs pending tasks so that close events have been delivered when this returns. */
    @Override
    public ChannelFuture close(ChannelPromise promise) {
        runPendingTasks();
        ChannelFuture future = super.close(promise);
        runPendingTasks();
        loop.cancelPendingScheduledTasks();
        return future;
    }

    /** Disconnects (or closes), then runs pending tasks. */
    @Override
    public ChannelFuture disconnect(ChannelPromise promise) {
        ChannelFuture future = super.disconnect(promise);
        runPendingTasks();
        if (!metadata.hasDisconnect()) {
            loop.cancelPendingScheduledTasks();
        }
        return future;
    }

    // ---------------------------------------------------------------- transport

    @Override
    protected void onUnhandledInboundMessage(Object msg) {
        inboundMessages().add(msg);
    }

    @Override
    protected void onUnhandledInboundException(Throwable cause) {
        recordException(cause);
    }

    @Override
    protected SocketAddress localAddress0() {
        return isActive() ? EmbeddedSocketAddress.INSTANCE : null;
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return isActive() ? EmbeddedSocketAddress.INSTANCE : null;
    }

    @Override
    protected void doRegister() {
        state = State.ACTIVE;
    }

    @Override
    protected void doBind(SocketAddress localAddress) {
        // An embedded channel is bound to its one address from the start.
    }

    @Override
    protected void doDisconnect() {
        if (!metadata.hasDisconnect()) {
            doClose();
        }
    }

    @Override
    protected void doClose() {
        state = State.CLOSED;
    }

    @Override
    protected void doBeginRead() {
        // Inbound data arrives only through writeInbound.
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) {
        for (;;) {
            Object msg = in.current();
            if (msg == null) {
                break;
            }
            // The buffer releases on remove; the retain hands the message to the outbound queue instead.
            ReferenceCountUtil.retain(msg);
            outboundMessages().add(msg);
            in.remove();
        }
    }
}
