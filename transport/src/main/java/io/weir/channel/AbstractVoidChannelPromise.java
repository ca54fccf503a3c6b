package io.weir.channel;

import io.weir.util.concurrent.FutureListener;
import java.util.concurrent.TimeUnit;

/**
 * A promise that never completes: for writes whose callers do not wait on them, so no promise is allocated per
 * operation. It takes no listeners and cannot be waited on (both throw {@link IllegalStateException}); a failure
 * reported to it goes where the subclass says ({@link #failed}), and {@link #unvoid()} gives a real promise for
 * a handler that needs one. {@link Channel#voidPromise()} is one (its failures are fired through the pipeline); a
 * codec may share one among many writes, as an HTTP/2 stream channel does with the frames it hands its connection.
 * It hears of failures only: the outbound buffer does not touch it when its write succeeds.
 */
public abstract class AbstractVoidChannelPromise extends DefaultChannelPromise {

    /** A void promise of {@code channel}. */
    protected AbstractVoidChannelPromise(Channel channel) {
        super(channel);
    }

    /** Where a failure reported to this promise goes. Called on whatever thread reports it. */
    protected abstract void failed(Throwable cause);

    /** A real promise of the same channel whose failure is reported as this promise's would be. */
    @Override
    public abstract ChannelPromise unvoid();

    private IllegalStateException refuse(String what) {
        return new IllegalStateException(what + " is not allowed on a void promise (" + this + "); use unvoid()");
    }

    @Override
    public final boolean isVoid() {
        return true;
    }

    @Override
    public final ChannelPromise addListener(FutureListener<? super Void> listener) {
        throw refuse("addListener");
    }

    @Override
    public final ChannelPromise addListeners(FutureListener<? super Void> first, FutureListener<? super Void> second) {
        throw refuse("addListener");
    }

    @Override
    public final ChannelPromise removeListener(FutureListener<? super Void> listener) {
        return this;
    }

    @Override
    public final ChannelPromise removeListeners(FutureListener<? super Void> first, FutureListener<? super Void> second) {
        return this;
    }

    @Override
    public final ChannelPromise await() {
        throw refuse("await");
    }

    @Override
    public final ChannelPromise awaitUninterruptibly() {
        throw refuse("await");
    }

    @Override
    public final boolean await(long timeout, TimeUnit unit) {
        throw refuse("await");
    }

    @Override
    public final boolean await(long timeoutMillis) {
        throw refuse("await");
    }

    @Override
    public final boolean awaitUninterruptibly(long timeout, TimeUnit unit) {
        throw refuse("await");
    }

    @Override
    public final boolean awaitUninterruptibly(long timeoutMillis) {
        throw refuse("await");
    }

    @Override
    public final ChannelPromise sync() {
        throw refuse("sync");
    }

    @Override
    public final ChannelPromise syncUninterruptibly() {
        throw refuse("sync");
    }

    @Override
    public final Void get() {
        throw refuse("get");
    }

    @Override
    public final Void get(long timeout, TimeUnit unit) {
        throw refuse("get");
    }

    @Override
    public final boolean isDone() {
        return false;
    }

    @Override
    public final boolean isSuccess() {
        return false;
    }

    @Override
    public final boolean isCancelled() {
        return false;
    }

    @Override
    public final boolean isCancellable() {
        return false;
    }

    @Override
    public final boolean setUncancellable() {
        return true;
    }

    @Override
    public final boolean cancel(boolean mayInterruptIfRunning) {
        return false;
    }

    @Override
    public final Throwable cause() {
        return null;
    }

    @Override
    public final Void getNow() {
        return null;
    }

    @Override
    public final ChannelPromise setSuccess(Void result) {
        return this;
    }

    @Override
    public final boolean trySuccess(Void result) {
        return false;
    }

    @Override
    public final ChannelPromise setFailure(Throwable cause) {
        failed(cause);
        return this;
    }

    @Override
    public final boolean tryFailure(Throwable cause) {
        failed(cause);
        return false;
    }
}
