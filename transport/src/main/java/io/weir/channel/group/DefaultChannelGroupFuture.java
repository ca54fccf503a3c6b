package io.weir.channel.group;

import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.util.concurrent.BlockingOperationException;
import io.weir.util.concurrent.DefaultPromise;
import io.weir.util.concurrent.EventExecutor;
import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.FutureListener;
import io.weir.util.concurrent.ImmediateEventExecutor;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@link ChannelGroupFuture} of {@link DefaultChannelGroup}: a promise only this class completes, counting
 * down as the channels' futures complete on their event loops. Thread-safe.
 */
final class DefaultChannelGroupFuture extends DefaultPromise<Void> implements ChannelGroupFuture {
    private final ChannelGroup group;
    // Keys are channels, which are equal only to themselves; the map is never changed after construction.
    private final Map<Channel, ChannelFuture> futures;
    private final AtomicInteger pending;
    private final FutureListener<Void> childListener = this::childDone;

    private DefaultChannelGroupFuture(ChannelGroup group, Map<Channel, ChannelFuture> futures,
                                      EventExecutor executor) {
        super(executor);
        this.group = group;
        this.futures = Collections.unmodifiableMap(futures);
        this.pending = new AtomicInteger(futures.size());
    }

    /**
     * A future over {@code futures} (channel to the future of its operation, in the order started; the map is
     * taken over, not copied), notifying its listeners on {@code executor}.
     */
    static ChannelGroupFuture of(ChannelGroup group, LinkedHashMap<Channel, ChannelFuture> futures,
                                 EventExecutor executor) {
        DefaultChannelGroupFuture future = new DefaultChannelGroupFuture(group, futures, executor);
        if (futures.isEmpty()) {
            future.complete();
        } else {
            // Listening starts only once the object is built: a child that is already done reports at once.
            for (ChannelFuture f : futures.values()) {
                f.addListener(future.childListener);
            }
        }
        return future;
    }

    private void childDone(Future<? extends Void> child) {
        // The last child to finish completes the group; the atomic count orders every child's outcome before
        // the scan in complete().
        if (pending.decrementAndGet() == 0) {
            complete();
        }
    }

    private void complete() {
        Map<Channel, Throwable> failures = null;
        for (Map.Entry<Channel, ChannelFuture> e : futures.entrySet()) {
            ChannelFuture f = e.getValue();
            if (!f.isSuccess()) {
                if (failures == null) {
                    failures = new LinkedHashMap<>();
                }
                failures.put(e.getKey(), f.cause());
            }
        }
        if (failures == null) {
            super.trySuccess(null);
        } else {
            super.tryFailure(new ChannelGroupException(failures, futures.size()));
        }
    }

    @Override
    public ChannelGroup group() {
        return group;
    }

    @Override
    public ChannelFuture find(Channel channel) {
        return futures.get(channel);
    }

    @Override
    public Iterator<ChannelFuture> iterator() {
        return futures.values().iterator();
    }

    @Override
    public ChannelGroupException cause() {
        // Never cancelled, so the only cause is the one complete() set.
        return (ChannelGroupException) super.cause();
    }

    @Override
    public boolean isPartialSuccess() {
        int succeeded = 0;
        for (ChannelFuture f : futures.values()) {
            if (f.isSuccess()) {
                succeeded++;
            }
        }
        return succeeded != 0 && succeeded != futures.size();
    }

    @Override
    public boolean isPartialFailure() {
        int failed = 0;
        for (ChannelFuture f : futures.values()) {
            if (f.isDone() && !f.isSuccess()) {
                failed++;
            }
        }
        return failed != 0 && failed != futures.size();
    }

    /**
     * Besides the executor's thread, refuses to wait on the event loop of a channel whose operation is not
     * done: that loop is blocked, so the operation could never finish.
     */
    @Override
    protected void checkDeadLock() {
        // Every thread is "in" the immediate executor, yet listeners may run on any of them: waiting is safe.
        if (executor() != ImmediateEventExecutor.INSTANCE) {
            super.checkDeadLock();
        }
        for (ChannelFuture f : futures.values()) {
            if (!f.isDone() && f.channel().eventLoop().inEventLoop()) {
                throw new BlockingOperationException("waiting on the event loop of " + f.channel()
                        + ", whose operation the wait would block: " + this);
            }
        }
    }

    // ---------------------------------------------------------------- only the channels complete this future

    private static IllegalStateException refuse() {
        return new IllegalStateException("a channel group future is completed by its channels only");
    }

    @Override
    public DefaultChannelGroupFuture setSuccess(Void result) {
        throw refuse();
    }

    @Override
    public boolean trySuccess(Void result) {
        throw refuse();
    }

    @Override
    public DefaultChannelGroupFuture setFailure(Throwable cause) {
        throw refuse();
    }

    @Override
    public boolean tryFailure(Throwable cause) {
        throw refuse();
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return false;
    }

    @Override
    public boolean isCancellable() {
        return false;
    }

    // ---------------------------------------------------------------- covariant returns

    @Override
    public DefaultChannelGroupFuture addListener(FutureListener<? super Void> listener) {
        super.addListener(listener);
        return this;
    }

    @Override
    public DefaultChannelGroupFuture addListeners(FutureListener<? super Void> first,
                                                  FutureListener<? super Void> second) {
        super.addListeners(first, second);
        return this;
    }

    @Override
    public DefaultChannelGroupFuture removeListener(FutureListener<? super Void> listener) {
        super.removeListener(listener);
        return this;
    }

    @Override
    public DefaultChannelGroupFuture removeListeners(FutureListener<? super Void> first,
                                                     FutureListener<? super Void> second) {
        super.removeListeners(first, second);
        return this;
    }

    @Override
    public DefaultChannelGroupFuture sync() throws InterruptedException {
        super.sync();
        return this;
    }

    @Override
    public DefaultChannelGroupFuture syncUninterruptibly() {
        super.syncUninterruptibly();
        return this;
    }

    @Override
    public DefaultChannelGroupFuture await() throws InterruptedException {
        super.await();
        return this;
    }

    @Override
    public DefaultChannelGroupFuture awaitUninterruptibly() {
        super.awaitUninterruptibly();
        return this;
    }
}
