package io.weir.channel.pool;

import io.weir.bootstrap.Bootstrap;
import io.weir.channel.Attribute;
import io.weir.channel.AttributeKey;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoop;
import io.weir.util.concurrent.EventExecutor;
import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.FutureListener;
import io.weir.util.concurrent.Promise;
import java.util.Deque;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link ChannelPool} without a limit: idle channels wait in a deque, and an acquire with none idle connects a
 * new one.
 *
 * <p><b>Acquire.</b> Takes the idle channel released last (or, built with {@code lastRecentUsed == false}, the one
 * idle longest), asks the {@link ChannelHealthChecker} about it on its event loop, and lends it out if healthy;
 * an unhealthy one is closed and the next idle channel tried. With none idle it connects a new channel with a
 * copy of the bootstrap whose handler calls {@link ChannelPoolHandler#channelCreated}. Reusing the channel
 * released last (the default) reuses the warmest connection and lets the others idle, where the peer may close
 * them; the health check then notices.
 *
 * <p><b>Release.</b> Only a channel lent out by this pool is taken back; the pool marks each channel it lends
 * out with a channel attribute naming the pool, so a channel from elsewhere is told apart and refused (and
 * closed), and a second release of a channel already idle is refused (and left alone). With
 * {@code healthCheckOnRelease} the channel is checked again and closed rather than kept if unhealthy. A channel
 * released after {@link #close()} is closed. Releasing a channel that was since lent out to someone else is a
 * bug in the caller that no pool can detect: the second release then gives back the new borrower's channel.
 *
 * <p><b>Threads.</b> Every method is thread-safe. The work on a channel (health check, callbacks, marking) runs
 * on that channel's event loop; the futures returned by {@link #acquire()} and {@link #closeAsync()} notify
 * their listeners on the pool's executor, {@code bootstrap.group().next()} taken when the pool was built.
 * Idle channels that the peer closes stay in the pool until an acquire's health check finds them.
 */
public final class SimpleChannelPool implements ChannelPool {
    /** Which pool a channel belongs to and whether it is idle in it or lent out; absent for other channels. */
    private static final AttributeKey<Mark> MARK = AttributeKey.valueOf("io.weir.channel.pool.SimpleChannelPool.mark");

    private final Bootstrap bootstrap;
    private final ChannelPoolHandler handler;
    private final ChannelHealthChecker healthChecker;
    private final boolean healthCheckOnRelease;
    private final boolean lastRecentUsed;
    private final EventExecutor executor;
    /** Idle channels; the one released last at the head. */
    private final Deque<Channel> idle = new ConcurrentLinkedDeque<>();
    // Compared by identity: each pool has its own two marks.
    private final Mark lentOut = new Mark(this, false);
    private final Mark idleHere = new Mark(this, true);
    private volatile boolean closed;

    /** The value of a pooled channel's {@link #MARK}. */
    private record Mark(SimpleChannelPool pool, boolean idle) {
    }

    /**
     * A pool that checks idle channels with {@link ChannelHealthChecker#ACTIVE} before lending them out, does
     * not check them on release, and reuses the channel released last.
     *
     * @throws NullPointerException if an argument is null
     * @throws IllegalStateException if the bootstrap has no group or channel type ({@link Bootstrap#validate()})
     * @see #SimpleChannelPool(Bootstrap, ChannelPoolHandler, ChannelHealthChecker, boolean, boolean)
     */
    public SimpleChannelPool(Bootstrap bootstrap, ChannelPoolHandler handler) {
        this(bootstrap, handler, ChannelHealthChecker.ACTIVE, false, true);
    }

    /**
     * A pool that connects new channels with a copy of {@code bootstrap}.
     *
     * @param bootstrap the group, channel type, options and remote address of new channels; copied now, so later
     *        changes do not reach the pool. Its handler is replaced by one that calls
     *        {@link ChannelPoolHandler#channelCreated}. Without a remote address every connect fails
     * @param handler told about each channel's creation, acquires and releases
     * @param healthChecker asked about each idle channel before it is lent out
     * @param healthCheckOnRelease whether to ask {@code healthChecker} on release too and close an unhealthy
     *        channel instead of keeping it
     * @param lastRecentUsed {@code true} to lend out the channel released last (LIFO), {@code false} for the one
     *        idle longest (FIFO, spreading use over every idle connection)
     * @throws NullPointerException if an argument is null
     * @throws IllegalStateException if the bootstrap has no group or channel type ({@link Bootstrap#validate()})
     */
    public SimpleChannelPool(Bootstrap bootstrap, ChannelPoolHandler handler, ChannelHealthChecker healthChecker,
                             boolean healthCheckOnRelease, boolean lastRecentUsed) {
        Objects.requireNonNull(bootstrap, "bootstrap");
        this.handler = Objects.requireNonNull(handler, "handler");
        this.healthChecker = Objects.requireNonNull(healthChecker, "healthChecker");
        this.healthCheckOnRelease = healthCheckOnRelease;
        this.lastRecentUsed = lastRecentUsed;
        this.bootstrap = bootstrap.copy().handler(new CreationNotifier(handler)).validate();
        this.executor = this.bootstrap.group().next();
    }

    /** The executor that notifies the listeners of the futures {@link #acquire()} and {@link #closeAsync()} return. */
    EventExecutor executor() {
        return executor;
    }

    /**
     * {@inheritDoc}
     *
     * <p>The future notifies its listeners on the pool's executor.
     */
    @Override
    public Future<Channel> acquire() {
        return acquire(executor.newPromise());
    }

    @Override
    public Future<Channel> acquire(Promise<Channel> promise) {
        Objects.requireNonNull(promise, "promise");
        acquireIdleOrNew(promise);
        return promise;
    }

    /** Any thread. Tries idle channels until one is healthy (or its check is under way), else connects. */
    private void acquireIdleOrNew(Promise<Channel> promise) {
        for (;;) {
            if (closed) {
                promise.tryFailure(closedException());
                return;
            }
            Channel channel = lastRecentUsed ? idle.pollFirst() : idle.pollLast();
            if (channel == null) {
                connect(promise);
                return;
            }
            EventLoop loop = channel.eventLoop();
            if (loop.inEventLoop()) {
                if (checkIdle(channel, promise)) {
                    return;
                }
                continue;
            }
            try {
                loop.execute(new IdleCheck(channel, promise));
                return;
            } catch (RejectedExecutionException e) {
                // The channel's loop has terminated, so the channel is dead: drop it and try the next.
                discard(channel);
            }
        }
    }

    /**
     * On the channel's loop. Asks the health checker about an idle channel; returns {@code false} if the channel
     * turned out unhealthy (it is then closed) and the caller should try the next one.
     */
    private boolean checkIdle(Channel channel, Promise<Channel> promise) {
        Future<Boolean> check = askHealthChecker(channel);
        if (!check.isDone()) {
            check.addListener(new IdleCheck(channel, promise, check));
            return true;
        }
        return lendIdle(channel, promise, check);
    }

    /** On the channel's loop, with the health check done. Returns {@code false} if the channel was discarded. */
    private boolean lendIdle(Channel channel, Promise<Channel> promise, Future<Boolean> check) {
        if (closed || !isHealthy(check) || !channel.attr(MARK).compareAndSet(idleHere, lentOut)) {
            discard(channel);
            return false;
        }
        lend(channel, promise);
        return true;
    }

    /** Any thread. Connects a new channel and lends it out. */
    private void connect(Promise<Channel> promise) {
        ChannelFuture connected;
        try {
            connected = bootstrap.connect();
        } catch (RuntimeException e) {
            // No remote address, or the channel could not be created.
            promise.tryFailure(e);
            return;
        }
        connected.addListener(new Connection(promise));
    }

    /** On the channel's loop, once connected. */
    private void lendNew(Channel channel, Promise<Channel> promise) {
        if (closed) {
            channel.close();
            promise.tryFailure(closedException());
            return;
        }
        channel.attr(MARK).set(lentOut);
        lend(channel, promise);
    }

    /** On the channel's loop; the channel is marked lent out. */
    private void lend(Channel channel, Promise<Channel> promise) {
        try {
            handler.channelAcquired(channel);
        } catch (Throwable t) {
            discard(channel);
            promise.tryFailure(t);
            return;
        }
        if (!promise.trySuccess(channel)) {
            // The acquirer gave up (cancelled) meanwhile: the channel is the pool's again.
            release(channel);
        }
    }

    @Override
    public Future<Void> release(Channel channel, Promise<Void> promise) {
        release(channel, promise, null);
        return promise;
    }

    /**
     * {@link #release(Channel, Promise)} that runs {@code whenAccepted}, on the channel's loop before
     * {@code promise} completes, if the channel was lent out by this pool (whatever then becomes of it). This is
     * how a pool built on this one learns that a lent-out channel came back.
     */
    void release(Channel channel, Promise<Void> promise, Runnable whenAccepted) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(promise, "promise");
        EventLoop loop = channel.eventLoop();
        if (loop.inEventLoop()) {
            takeBack(channel, promise, whenAccepted);
            return;
        }
        try {
            loop.execute(new Return(channel, promise, whenAccepted));
        } catch (RejectedExecutionException e) {
            // The loop has terminated and will run nothing again; the attribute is atomic, so take it back here.
            takeBack(channel, promise, whenAccepted);
        }
    }

    /** On the channel's loop. */
    private void takeBack(Channel channel, Promise<Void> promise, Runnable whenAccepted) {
        Attribute<Mark> mark = channel.attr(MARK);
        // Idle from here on as far as another release is concerned, though not yet in the deque, so a second
        // release during a health check is refused as one rather than taken for a stranger.
        if (!mark.compareAndSet(lentOut, idleHere)) {
            if (mark.get() == idleHere) {
                promise.tryFailure(new IllegalStateException(channel + " was released to " + this
                        + " already; release each acquired channel once"));
            } else {
                channel.close();
                promise.tryFailure(new IllegalArgumentException(channel + " was not acquired from " + this
                        + "; closed it"));
            }
            return;
        }
        if (whenAccepted != null) {
            whenAccepted.run();
        }
        if (closed || !healthCheckOnRelease) {
            keepOrClose(channel, promise, true);
            return;
        }
        Future<Boolean> check = askHealthChecker(channel);
        if (check.isDone()) {
            keepOrClose(channel, promise, isHealthy(check));
        } else {
            check.addListener(new Return(channel, promise, check));
        }
    }

    /** On the channel's loop, for an accepted release: keeps the channel idle, or closes it. */
    private void keepOrClose(Channel channel, Promise<Void> promise, boolean healthy) {
        try {
            handler.channelReleased(channel);
        } catch (Throwable t) {
            discard(channel);
            promise.tryFailure(t);
            return;
        }
        if (closed || !healthy) {
            discard(channel);
        } else {
            idle.offerFirst(channel);
            // close() may have drained the deque between the check above and the offer; whoever removes the
            // channel closes it, so it is closed exactly once.
            if (closed && idle.remove(channel)) {
                discard(channel);
            }
        }
        promise.trySuccess(null);
    }

    /** Takes a channel out of the pool for good: unmarks and closes it. */
    private static void discard(Channel channel) {
        channel.attr(MARK).set(null);
        channel.close();
    }

    private Future<Boolean> askHealthChecker(Channel channel) {
        try {
            Future<Boolean> check = healthChecker.isHealthy(channel);
            if (check != null) {
                return check;
            }
            return channel.eventLoop().newFailedFuture(new NullPointerException(healthChecker
                    + " returned no future for " + channel));
        } catch (Throwable t) {
            return channel.eventLoop().newFailedFuture(t);
        }
    }

    private static boolean isHealthy(Future<Boolean> check) {
        return check.isSuccess() && Boolean.TRUE.equals(check.getNow());
    }

    private IllegalStateException closedException() {
        return new IllegalStateException(this + " is closed");
    }

    /**
     * {@inheritDoc}
     *
     * <p>The future notifies its listeners on the pool's executor; it succeeds also when an idle channel's close
     * failed (its event loop had terminated).
     */
    @Override
    public Future<Void> closeAsync() {
        closed = true;
        Promise<Void> done = executor.newPromise();
        CloseCountdown countdown = new CloseCountdown(done);
        for (Channel channel; (channel = idle.pollFirst()) != null; ) {
            countdown.expectOneMore();
            channel.attr(MARK).set(null);
            channel.close().addListener(countdown);
        }
        countdown.arrive();
        return done;
    }

    @Override
    public void close() {
        awaitUnlessOnOwnLoop(closeAsync());
    }

    /**
     * Waits for {@code closed} unless the calling thread is an event loop of the pool's group: the channels being
     * closed may live on that very loop, so the wait could never end.
     */
    void awaitUnlessOnOwnLoop(Future<Void> closed) {
        for (EventExecutor loop : bootstrap.group()) {
            if (loop.inEventLoop()) {
                return;
            }
        }
        closed.awaitUninterruptibly();
    }

    @Override
    public String toString() {
        return "SimpleChannelPool@" + Integer.toHexString(System.identityHashCode(this));
    }

    /** The handler of every channel the pool creates. */
    private static final class CreationNotifier extends ChannelInitializer<Channel> {
        private final ChannelPoolHandler handler;

        CreationNotifier(ChannelPoolHandler handler) {
            this.handler = handler;
        }

        @Override
        protected void initChannel(Channel channel) throws Exception {
            handler.channelCreated(channel);
        }
    }

    /** An idle channel's check: the hop to its loop, then (if the checker answers later) its answer. */
    private final class IdleCheck implements Runnable, FutureListener<Boolean> {
        private final Channel channel;
        private final Promise<Channel> promise;
        private final Future<Boolean> check;

        IdleCheck(Channel channel, Promise<Channel> promise) {
            this(channel, promise, null);
        }

        IdleCheck(Channel channel, Promise<Channel> promise, Future<Boolean> check) {
            this.channel = channel;
            this.promise = promise;
            this.check = check;
        }

        @Override
        public void run() {
            boolean settled = check == null ? checkIdle(channel, promise) : lendIdle(channel, promise, check);
            if (!settled) {
                acquireIdleOrNew(promise);
            }
        }

        @Override
        public void operationComplete(Future<? extends Boolean> future) {
            onLoopOf(channel, this);
        }
    }

    /** A connect under way for an acquire. */
    private final class Connection implements FutureListener<Void> {
        private final Promise<Channel> promise;

        Connection(Promise<Channel> promise) {
            this.promise = promise;
        }

        @Override
        public void operationComplete(Future<? extends Void> future) {
            ChannelFuture connected = (ChannelFuture) future;
            if (connected.isSuccess()) {
                lendNew(connected.channel(), promise);
            } else {
                // The bootstrap has closed the channel.
                promise.tryFailure(connected.cause());
            }
        }
    }

    /** A release: the hop to the channel's loop, then (if the checker answers later) the release check. */
    private final class Return implements Runnable, FutureListener<Boolean> {
        private final Channel channel;
        private final Promise<Void> promise;
        private final Runnable whenAccepted;
        private final Future<Boolean> check;

        Return(Channel channel, Promise<Void> promise, Runnable whenAccepted) {
            this.channel = channel;
            this.promise = promise;
            this.whenAccepted = whenAccepted;
            this.check = null;
        }

        Return(Channel channel, Promise<Void> promise, Future<Boolean> check) {
            this.channel = channel;
            this.promise = promise;
            this.whenAccepted = null;
            this.check = check;
        }

        @Override
        public void run() {
            if (check == null) {
                takeBack(channel, promise, whenAccepted);
            } else {
                keepOrClose(channel, promise, isHealthy(check));
            }
        }

        @Override
        public void operationComplete(Future<? extends Boolean> future) {
            onLoopOf(channel, this);
        }
    }

    /** Runs {@code task} on {@code channel}'s loop: now if this is that loop or it has terminated, else later. */
    private static void onLoopOf(Channel channel, Runnable task) {
        EventLoop loop = channel.eventLoop();
        if (!loop.inEventLoop()) {
            try {
                loop.execute(task);
                return;
            } catch (RejectedExecutionException e) {
                // Terminated: nothing else runs for this channel any more, so running here races with nothing.
            }
        }
        task.run();
    }

    /** Completes a promise once every close it was told to expect has finished. */
    private static final class CloseCountdown implements FutureListener<Void> {
        private final AtomicInteger outstanding = new AtomicInteger(1);
        private final Promise<Void> done;

        /** Expects one arrival, from the caller of {@link #arrive()} once it has expected every close. */
        CloseCountdown(Promise<Void> done) {
            this.done = done;
        }

        void expectOneMore() {
            outstanding.incrementAndGet();
        }

        void arrive() {
            if (outstanding.decrementAndGet() == 0) {
                done.trySuccess(null);
            }
        }

        @Override
        public void operationComplete(Future<? extends Void> future) {
            arrive();
        }
    }
}
