package io.weir.channel;

import io.weir.util.concurrent.FutureListener;
import java.util.concurrent.TimeUnit;

/**
 * The promise behind {@link Channel#voidPromise()}: for callers that do not care about the outcome, so no
 * promise is allocated per operation. It never completes; a failure is fired through the pipeline as an
 * exception event instead. It takes no listeners and cannot be waited on (both throw
 * {@link IllegalStateException}). Thread-safe and stateless.
 */
final class VoidChannelPromise extends DefaultChannelPromise {

    VoidChannelPromise(Channel channel) {
        super(channel);
    }

    private static IllegalStateException refuse(String what) {
        return new IllegalStateException(what + " is not allowed on a void promise; use unvoid()");
    }

    @Override
    public boolean isVoid() {
        return true;
    }

    @Override
    public ChannelPromise unvoid() {
        ChannelPromise promise = new DefaultChannelPromise(channel());
        promise.addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
        return promise;
    }

    @Override
    public ChannelPromise addListener(FutureListener<? super Void> listener) {
        throw refuse("addListener");
    }

    @Override
    public ChannelPromise addListeners(FutureListener<? super Void> first, FutureListener<? super Void> second) {
        throw refuse("addListener");
    }

    @Override
    public ChannelPromise removeListener(FutureListener<? super Void> listener) {
        return this;
    }

    @Override
    public ChannelPromise removeListeners(FutureListener<? super Void> first, FutureListener<? super Void> second) {
        return this;
    }

    @Override
    public ChannelPromise await() {
        throw refuse("await");
    }

    @Override
    public ChannelPromise awaitUninterruptibly() {
        throw refuse("await");
    }

    @Override
    public boolean await(long timeout, TimeUnit unit) {
        throw refuse("await");
    }

    @Override
    public boolean await(long timeoutMillis) {
        throw refuse("await");
    }

    @Override
    public boolean awaitUninterruptibly(long timeout, TimeUnit unit) {
        throw refuse("await");
    }

    @Override
    public boolean awaitUninterruptibly(long timeoutMillis) {
        throw refuse("await");
    }

    @Override
    public ChannelPromise sync() {
        throw refuse("sync");
    }

    @Override
    public ChannelPromise syncUninterruptibly() {
        throw refuse("sync");
    }

    @Override
    public Void get() {
        throw refuse("get");
    }

    @Override
    public Void get(long timeout, TimeUnit unit) {
        throw refuse("get");
    }

    @Override
    public boolean isDone() {
        return false;
    }

    @Override
    public boolean isSuccess() {
        return false;
    }

    @Override
    public boolean isCancelled() {
        return false;
    }

    @Override
    public boolean isCancellable() {
        return false;
    }

    @Override
    public boolean setUncancellable() {
        return true;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return false;
    }

    @Override
    public Throwable cause() {
        return null;
    }

    @Override
    public Void getNow() {
        return null;
    }

    @Override
    public ChannelPromise setSuccess(Void result) {
        return this;
    }

    @Override
    public boolean trySuccess(Void result) {
        return false;
    }

    @Override
    public ChannelPromise setFailure(Throwable cause) {
        fireException(cause);
        return this;
    }

    @Override
    public boolean tryFailure(Throwable cause) {
        fireException(cause);
        return false;
    }

    private void fireException(Throwable cause) {
        // A failure after the channel was deregistered has no pipeline to go to that could still act on it.
        if (channel().isRegistered()) {
            channel().pipeline().fireExceptionCaught(cause);
        }
    }

    @Override
    public String toString() {
        return "VoidChannelPromise(" + channel() + ')';
    }
}
