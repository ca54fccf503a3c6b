package io.weir.channel.group;

import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.FutureListener;
import java.util.Iterator;

/**
 * The outcome of one {@link ChannelGroup} operation over the channels it was started on: one
 * {@link ChannelFuture} per channel, and this future, which is done once all of them are. It then succeeds if
 * every channel's operation succeeded, and otherwise fails with a {@link ChannelGroupException} naming each
 * channel that failed and why. An operation that matched no channel succeeds at once.
 *
 * <p>Listeners run on the group's executor, never on a channel's event loop unless that is the executor. Do
 * not wait for it ({@link #sync()}, {@link #await()}) on that executor's thread, nor on the event loop of a
 * channel whose operation is not done: the wait could never end, so it throws
 * {@link io.weir.util.concurrent.BlockingOperationException}. A group future cannot be cancelled (cancelling
 * would not stop the channels' operations) and cannot be completed from outside. Thread-safe.
 */
public interface ChannelGroupFuture extends Future<Void>, Iterable<ChannelFuture> {

    /** The group whose operation this is. */
    ChannelGroup group();

    /** The future of the operation on {@code channel}, or {@code null} if it was not started on that channel. */
    ChannelFuture find(Channel channel);

    /** Whether the operation is done and succeeded on every channel it was started on. */
    @Override
    boolean isSuccess();

    /**
     * {@code null} unless the future is done and the operation failed on at least one channel; then the
     * exception naming those channels.
     */
    @Override
    ChannelGroupException cause();

    /**
     * Whether the operation has succeeded on at least one channel but not (or not yet) on all of them. Read
     * before the future is done, it counts the channels done so far.
     */
    boolean isPartialSuccess();

    /**
     * Whether the operation has failed on at least one channel but not on all of them. Read before the future
     * is done, it counts the channels done so far.
     */
    boolean isPartialFailure();

    /** The futures of the channels the operation was started on, in the order it was started; unmodifiable. */
    @Override
    Iterator<ChannelFuture> iterator();

    @Override
    ChannelGroupFuture addListener(FutureListener<? super Void> listener);

    /**
     * Adds a listener that receives this future as a {@link ChannelGroupFuture}:
     * {@code f.addListener(done -> log(done.cause()))}. Otherwise as {@link #addListener(FutureListener)}.
     */
    default ChannelGroupFuture addListener(ChannelGroupFutureListener listener) {
        return addListener((FutureListener<? super Void>) listener);
    }

    @Override
    ChannelGroupFuture addListeners(FutureListener<? super Void> first, FutureListener<? super Void> second);

    @Override
    ChannelGroupFuture removeListener(FutureListener<? super Void> listener);

    @Override
    ChannelGroupFuture removeListeners(FutureListener<? super Void> first, FutureListener<? super Void> second);

    @Override
    ChannelGroupFuture sync() throws InterruptedException;

    @Override
    ChannelGroupFuture syncUninterruptibly();

    @Override
    ChannelGroupFuture await() throws InterruptedException;

    @Override
    ChannelGroupFuture awaitUninterruptibly();
}
