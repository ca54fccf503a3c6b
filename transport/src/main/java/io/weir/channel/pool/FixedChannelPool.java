package io.weir.channel.pool;

import io.weir.bootstrap.Bootstrap;
import io.weir.channel.Channel;
import io.weir.util.concurrent.EventExecutor;
import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.FutureListener;
import io.weir.util.concurrent.GlobalEventExecutor;
import io.weir.util.concurrent.Promise;
import io.weir.util.concurrent.ScheduledFuture;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ChannelPool} that lends out at most {@code maxConnections} channels at once; acquires beyond that wait
 * for a release, in arrival order.
 *
 * <p><b>Waiting.</b> At most {@code maxPendingAcquires} acquires wait; one more fails at once with a
 * {@link TooManyPendingAcquiresException}. A waiting acquire that gets no channel within
 * {@code acquireTimeoutMillis} fails with an {@link AcquireTimeoutException} ({@link AcquireTimeoutAction#FAIL},
 * the default) or connects a channel beyond the limit ({@link AcquireTimeoutAction#NEW}). The timeout covers only
 * the wait for a free slot; connecting is bounded by the bootstrap's
 * {@link io.weir.channel.ChannelOption#CONNECT_TIMEOUT_MILLIS}. Cancelling a waiting acquire's future takes it out
 * of the queue.
 *
 * <p><b>Freeing a slot.</b> A channel counts as acquired from the moment its acquire is started until it is
 * released, and its slot then goes to the acquire that has waited longest, which takes the next channel the pool
 * lends out: with the default LIFO order, the one just released. An acquire whose connect or health checks fail
 * frees its slot the same way, so one unreachable peer does not strand the waiters. A release the pool refuses
 * (a foreign channel, a second release) frees nothing.
 *
 * <p><b>Threads.</b> Every method is thread-safe. The count of acquired channels, the queue of waiters and the
 * closed state change only on the pool's executor, {@code bootstrap.group().next()} taken when the pool was
 * built; calls from other threads hop there, so counts never race and timeouts fire there. The work on each
 * channel (health checks, {@link ChannelPoolHandler} callbacks) runs on that channel's event loop, as in
 * {@link SimpleChannelPool}, which this pool uses for everything but the limit. The futures {@link #acquire()}
 * returns notify their listeners on the pool's executor. Close the pool before shutting its event loop group
 * down: once the executor has terminated, acquires still waiting can no longer be failed.
 */
public final class FixedChannelPool implements ChannelPool {
    /** Default of {@code acquireTimeoutMillis}: how long an acquire waits for a free slot, in milliseconds. */
    public static final long DEFAULT_ACQUIRE_TIMEOUT_MILLIS = 30_000;
    /**
     * Default of {@code maxPendingAcquires}: how many acquires may wait at once. Each costs a promise and a timer
     * entry; the bound keeps callers from piling up without end behind a stuck peer.
     */
    public static final int DEFAULT_MAX_PENDING_ACQUIRES = 1024;

    /** What a waiting acquire does when its acquire timeout passes. */
    public enum AcquireTimeoutAction {
        /** Fail the acquire with an {@link AcquireTimeoutException}. */
        FAIL,
        /** Connect a new channel anyway, over {@code maxConnections} (which it counts against until released). */
        NEW
    }

    private final SimpleChannelPool pool;
    private final EventExecutor executor;
    private final int maxConnections;
    private final int maxPendingAcquires;
    private final long acquireTimeoutMillis;
    private final AcquireTimeoutAction timeoutAction;

    // Executor only.
    private final ArrayDeque<Acquire> waiting = new ArrayDeque<>();
    private boolean closed;
    // Written on the executor only; volatile so that any thread can read them.
    private volatile int acquiredChannelCount;
    private volatile int pendingAcquireCount;

    /**
     * A pool of at most {@code maxConnections} acquired channels, with up to
     * {@value #DEFAULT_MAX_PENDING_ACQUIRES} acquires waiting at most {@value #DEFAULT_ACQUIRE_TIMEOUT_MILLIS} ms
     * each before they fail, idle channels checked with {@link ChannelHealthChecker#ACTIVE} before reuse, and the
     * channel released last reused first.
     *
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code maxConnections < 1}
     * @throws IllegalStateException if the bootstrap has no group or channel type ({@link Bootstrap#validate()})
     * @see #FixedChannelPool(Bootstrap, ChannelPoolHandler, ChannelHealthChecker, AcquireTimeoutAction, long, int,
     *      int, boolean, boolean)
     */
    public FixedChannelPool(Bootstrap bootstrap, ChannelPoolHandler handler, int maxConnections) {
        this(bootstrap, handler, maxConnections, DEFAULT_MAX_PENDING_ACQUIRES);
    }

    /**
     * {@link #FixedChannelPool(Bootstrap, ChannelPoolHandler, int)} with up to {@code maxPendingAcquires} waiting
     * acquires.
     *
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code maxConnections < 1} or {@code maxPendingAcquires < 1}
     * @throws IllegalStateException if the bootstrap has no group or channel type ({@link Bootstrap#validate()})
     */
    public FixedChannelPool(Bootstrap bootstrap, ChannelPoolHandler handler, int maxConnections,
                            int maxPendingAcquires) {
        this(bootstrap, handler, ChannelHealthChecker.ACTIVE, AcquireTimeoutAction.FAIL,
                DEFAULT_ACQUIRE_TIMEOUT_MILLIS, maxConnections, maxPendingAcquires, false, true);
    }

    /**
     * A pool of at most {@code maxConnections} acquired channels.
     *
     * @param bootstrap the group, channel type, options and remote address of new channels; copied now (see
     *        {@link SimpleChannelPool#SimpleChannelPool(Bootstrap, ChannelPoolHandler, ChannelHealthChecker,
     *        boolean, boolean)})
     * @param handler told about each channel's creation, acquires and releases
     * @param healthChecker asked about each idle channel before it is lent out
     * @param timeoutAction what a waiting acquire does when {@code acquireTimeoutMillis} has passed
     * @param acquireTimeoutMillis how long an acquire waits for a free slot, in milliseconds
     * @param maxConnections how many channels may be acquired at once (exceeded only by
     *        {@link AcquireTimeoutAction#NEW})
     * @param maxPendingAcquires how many acquires may wait at once
     * @param healthCheckOnRelease whether to check channels on release too and close unhealthy ones
     * @param lastRecentUsed {@code true} to lend out the channel released last (LIFO), {@code false} for the one
     *        idle longest (FIFO)
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code acquireTimeoutMillis < 1}, {@code maxConnections < 1} or
     *         {@code maxPendingAcquires < 1}
     * @throws IllegalStateException if the bootstrap has no group or channel type ({@link Bootstrap#validate()})
     */
    public FixedChannelPool(Bootstrap bootstrap, ChannelPoolHandler handler, ChannelHealthChecker healthChecker,
                            AcquireTimeoutAction timeoutAction, long acquireTimeoutMillis, int maxConnections,
                            int maxPendingAcquires, boolean healthCheckOnRelease, boolean lastRecentUsed) {
        this.timeoutAction = Objects.requireNonNull(timeoutAction, "timeoutAction");
        if (acquireTimeoutMillis < 1) {
            throw new IllegalArgumentException("acquireTimeoutMillis: " + acquireTimeoutMillis + " (expected >= 1)");
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections: " + maxConnections + " (expected >= 1)");
        }
        if (maxPendingAcquires < 1) {
            throw new IllegalArgumentException("maxPendingAcquires: " + maxPendingAcquires + " (expected >= 1)");
        }
        this.acquireTimeoutMillis = acquireTimeoutMillis;
        this.maxConnections = maxConnections;
        this.maxPendingAcquires = maxPendingAcquires;
        this.pool = new SimpleChannelPool(bootstrap, handler, healthChecker, healthCheckOnRelease, lastRecentUsed);
        this.executor = pool.executor();
    }

    /**
     * How many channels are acquired now: lent out, or being connected or checked for an acquire. At most
     * {@code maxConnections} unless {@link AcquireTimeoutAction#NEW} went over. Any thread; the value may be
     * stale by the time it is used.
     */
    public int acquiredChannelCount() {
        return acquiredChannelCount;
    }

    /** How many acquires wait for a free slot now. Any thread; the value may be stale by the time it is used. */
    public int pendingAcquireCount() {
        return pendingAcquireCount;
    }

    /**
     * {@inheritDoc}
     *
     * <p>The future notifies its listeners on the pool's executor. Besides the failures of any pool it fails
     * with a {@link TooManyPendingAcquiresException} if it would have to wait and too many acquires wait
     * already, with an {@link AcquireTimeoutException} if it waited longer than the acquire timeout (with
     * {@link AcquireTimeoutAction#FAIL}), and with an {@link IllegalStateException} if the pool closes while it
     * waits.
     */
    @Override
    public Future<Channel> acquire() {
        return acquire(executor.newPromise());
    }

    /**
     * {@inheritDoc}
     *
     * <p>Fails {@code promise} as {@link #acquire()} describes.
     */
    @Override
    public Future<Channel> acquire(Promise<Channel> promise) {
        Acquire acquire = new Acquire(Objects.requireNonNull(promise, "promise"));
        if (executor.inEventLoop()) {
            acquire.run();
        } else {
            try {
                executor.execute(acquire);
            } catch (RejectedExecutionException e) {
                promise.tryFailure(e);
            }
        }
        return promise;
    }

    /** Executor only. */
    private void admit(Acquire acquire) {
        if (closed) {
            acquire.promise.tryFailure(closedException());
        } else if (acquire.promise.isDone()) {
            // Cancelled before it got here.
        } else if (acquiredChannelCount < maxConnections) {
            // Nobody waits: slotFreed() lets waiters in whenever a slot frees up.
            start(acquire);
        } else if (waiting.size() >= maxPendingAcquires) {
            acquire.promise.tryFailure(new TooManyPendingAcquiresException(maxPendingAcquires, maxConnections));
        } else {
            waiting.addLast(acquire);
            pendingAcquireCount = waiting.size();
            acquire.timeout = executor.schedule(acquire::timedOut, acquireTimeoutMillis, TimeUnit.MILLISECONDS);
            acquire.promise.addListener(acquire::forgetIfCancelled);
        }
    }

    /** Executor only. Takes a slot (perhaps beyond the limit) and acquires from the underlying pool. */
    private void start(Acquire acquire) {
        acquiredChannelCount++;
        Promise<Channel> fromPool = executor.newPromise();
        fromPool.addListener(acquire);
        pool.acquire(fromPool);
    }

    /** Executor only. A slot came free: the longest waiters get it. */
    private void slotFreed() {
        acquiredChannelCount--;
        while (acquiredChannelCount < maxConnections) {
            Acquire next = waiting.pollFirst();
            if (next == null) {
                break;
            }
            pendingAcquireCount = waiting.size();
            next.timeout.cancel(false);
            if (!next.promise.isDone()) {
                start(next);
            }
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>By the time {@code promise} completes, the channel's slot has been freed and handed to the longest
     * waiter, if the release was accepted.
     */
    @Override
    public Future<Void> release(Channel channel, Promise<Void> promise) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(promise, "promise");
        Release release = new Release(promise);
        Promise<Void> toPool = executor.newPromise();
        toPool.addListener(release);
        pool.release(channel, toPool, release);
        return promise;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Acquires still waiting fail with an {@link IllegalStateException}; channels lent out keep counting until
     * they are released (and closed). The future notifies its listeners on the pool's executor.
     */
    @Override
    public Future<Void> closeAsync() {
        if (executor.inEventLoop()) {
            return closeOnExecutor();
        }
        Promise<Void> done = executor.newPromise();
        try {
            executor.execute(() -> closeOnExecutor().addListener(f -> done.trySuccess(null)));
        } catch (RejectedExecutionException e) {
            // The executor has terminated: no acquire can wait any more, since their timers are gone with it.
            // Still close the idle channels, which the underlying pool does from any thread.
            Promise<Void> idleClosed = GlobalEventExecutor.INSTANCE.newPromise();
            pool.closeAsync().addListener(f -> idleClosed.trySuccess(null));
            return idleClosed;
        }
        return done;
    }

    /** Executor only. */
    private Future<Void> closeOnExecutor() {
        if (!closed) {
            closed = true;
            for (Acquire acquire; (acquire = waiting.pollFirst()) != null; ) {
                acquire.timeout.cancel(false);
                acquire.promise.tryFailure(closedException());
            }
            pendingAcquireCount = 0;
        }
        return pool.closeAsync();
    }

    @Override
    public void close() {
        pool.awaitUnlessOnOwnLoop(closeAsync());
    }

    private IllegalStateException closedException() {
        return new IllegalStateException(this + " is closed");
    }

    @Override
    public String toString() {
        return "FixedChannelPool@" + Integer.toHexString(System.identityHashCode(this)) + "(acquired: "
                + acquiredChannelCount + '/' + maxConnections + ", pending: " + pendingAcquireCount + '/'
                + maxPendingAcquires + ')';
    }

    /** One acquire: the hop to the executor, then the underlying pool's answer. */
    private final class Acquire implements Runnable, FutureListener<Channel> {
        final Promise<Channel> promise;
        /** While waiting for a slot: its timeout. Executor only. */
        ScheduledFuture<?> timeout;

        Acquire(Promise<Channel> promise) {
            this.promise = promise;
        }

        @Override
        public void run() {
            admit(this);
        }

        /** Executor only. */
        void timedOut() {
            if (!waiting.remove(this)) {
                return;
            }
            pendingAcquireCount = waiting.size();
            if (timeoutAction == AcquireTimeoutAction.NEW) {
                start(this);
            } else {
                promise.tryFailure(new AcquireTimeoutException(acquireTimeoutMillis, maxConnections));
            }
        }

        /** Any thread, when the caller's promise completes: a cancelled waiter leaves the queue. */
        void forgetIfCancelled(Future<? extends Channel> future) {
            if (!future.isCancelled()) {
                return;
            }
            try {
                executor.execute(() -> {
                    if (waiting.remove(this)) {
                        timeout.cancel(false);
                        pendingAcquireCount = waiting.size();
                    }
                });
            } catch (RejectedExecutionException e) {
                // Terminated: the queue is never looked at again.
            }
        }

        /** On the executor: the underlying pool lent a channel out, or failed to. */
        @Override
        public void operationComplete(Future<? extends Channel> future) {
            if (!future.isSuccess()) {
                slotFreed();
                promise.tryFailure(future.cause());
                return;
            }
            Channel channel = future.getNow();
            if (closed) {
                // The underlying pool is closed too, so it closes the channel.
                giveBack(channel);
                promise.tryFailure(closedException());
            } else if (!promise.trySuccess(channel)) {
                // Cancelled while the channel was on its way.
                giveBack(channel);
            }
        }
    }

    private void giveBack(Channel channel) {
        release(channel, channel.eventLoop().newPromise());
    }

    /** One release: learns whether the underlying pool accepted it, then reports on the executor. */
    private final class Release implements Runnable, FutureListener<Void> {
        private final Promise<Void> promise;
        // Written on the channel's loop before the underlying pool completes its promise, read in the listener
        // below after that completion: the promise's publication orders the two.
        private boolean accepted;

        Release(Promise<Void> promise) {
            this.promise = promise;
        }

        /** The underlying pool accepted the release. */
        @Override
        public void run() {
            accepted = true;
        }

        /** On the executor, once the underlying pool is done with the release. */
        @Override
        public void operationComplete(Future<? extends Void> future) {
            if (accepted) {
                slotFreed();
            }
            if (future.isSuccess()) {
                promise.trySuccess(null);
            } else {
                promise.tryFailure(future.cause());
            }
        }
    }
}
