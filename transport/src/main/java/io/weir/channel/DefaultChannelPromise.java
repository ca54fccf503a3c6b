package io.weir.channel;

import io.weir.util.concurrent.DefaultPromise;
import io.weir.util.concurrent.FutureListener;
import java.util.Objects;

/**
 * The standard {@link ChannelPromise}; listeners are notified on the channel's event loop. Built for
 * extension (progressive promises extend it); thread-safe.
 */
public class DefaultChannelPromise extends DefaultPromise<Void> implements ChannelPromise {
    private final Channel channel;

    /**
     * A promise for an operation on {@code channel}.
     *
     * @throws NullPointerException if {@code channel} is null
     */
    public DefaultChannelPromise(Channel channel) {
        super(Objects.requireNonNull(channel, "channel").eventLoop());
        this.channel = channel;
    }

    @Override
    public Channel channel() {
        return channel;
    }

    @Override
    public boolean isVoid() {
        return false;
    }

    @Override
    public ChannelPromise unvoid() {
        return this;
    }

    @Override
    public ChannelPromise setSuccess() {
        return setSuccess(null);
    }

    @Override
    public boolean trySuccess() {
        return trySuccess(null);
    }

    @Override
    public ChannelPromise setSuccess(Void result) {
        super.setSuccess(result);
        return this;
    }

    @Override
    public ChannelPromise setFailure(Throwable cause) {
        super.setFailure(cause);
        return this;
    }

    @Override
    public ChannelPromise addListener(FutureListener<? super Void> listener) {
        super.addListener(listener);
        return this;
    }

    @Override
    public ChannelPromise addListeners(FutureListener<? super Void> first, FutureListener<? super Void> second) {
        super.addListeners(first, second);
        return this;
    }

    @Override
    public ChannelPromise removeListener(FutureListener<? super Void> listener) {
        super.removeListener(listener);
        return this;
    }

    @Override
    public ChannelPromise removeListeners(FutureListener<? super Void> first, FutureListener<? super Void> second) {
        super.removeListeners(first, second);
        return this;
    }

    @Override
    public ChannelPromise sync() throws InterruptedException {
        super.sync();
        return this;
    }

    @Override
    public ChannelPromise syncUninterruptibly() {
        super.syncUninterruptibly();
        return this;
    }

    @Override
    public ChannelPromise await() throws InterruptedException {
        super.await();
        return this;
    }

    @Override
    public ChannelPromise awaitUninterruptibly() {
        super.awaitUninterruptibly();
        return this;
    }
}
