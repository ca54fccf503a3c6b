package io.weir.channel;

import io.weir.util.concurrent.FutureListener;
import io.weir.util.platform.LoopLogger;
import java.lang.System.Logger.Level;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The standard {@link ChannelProgressivePromise}. Progress listeners are the
 * {@link ChannelProgressiveFutureListener}s added through {@link #addListener}; they are told about progress
 * on the channel's event loop, and about completion like any listener. Thread-safe.
 */
public class DefaultChannelProgressivePromise extends DefaultChannelPromise implements ChannelProgressivePromise {
    private static final LoopLogger LOGGER = LoopLogger.of(DefaultChannelProgressivePromise.class);

    // Rarely more than one; copy-on-write keeps progress notification lock-free.
    private final CopyOnWriteArrayList<ChannelProgressiveFutureListener> progressListeners =
            new CopyOnWriteArrayList<>();

    /** A progressive promise for an operation on {@code channel}. */
    public DefaultChannelProgressivePromise(Channel channel) {
        super(channel);
    }

    @Override
    public ChannelProgressivePromise setProgress(long progress, long total) {
        checkProgress(progress, total);
        if (isDone()) {
            throw new IllegalStateException("complete already: " + this);
        }
        notifyProgress(progress, total);
        return this;
    }

    @Override
    public boolean tryProgress(long progress, long total) {
        if (progress < 0 || total >= 0 && progress > total || isDone()) {
            return false;
        }
        notifyProgress(progress, total);
        return true;
    }

    private static void checkProgress(long progress, long total) {
        if (progress < 0) {
            throw new IllegalArgumentException("progress: " + progress + " (expected: >= 0)");
        }
        if (total >= 0 && progress > total) {
            throw new IllegalArgumentException("progress: " + progress + " (expected: <= total (" + total + "))");
        }
    }

    private void notifyProgress(long progress, long total) {
        if (progressListeners.isEmpty()) {
            return;
        }
        if (channel().eventLoop().inEventLoop()) {
            notifyProgressNow(progress, total);
        } else {
            channel().eventLoop().execute(() -> notifyProgressNow(progress, total));
        }
    }

    private void notifyProgressNow(long progress, long total) {
        for (ChannelProgressiveFutureListener l : progressListeners) {
            try {
                l.operationProgressed(this, progress, total);
            } catch (Throwable t) {
                LOGGER.log(Level.WARNING, "An exception was thrown by ", l.getClass().getName(),
                        ".operationProgressed()", t);
            }
        }
    }

    @Override
    public ChannelProgressivePromise setSuccess() {
        super.setSuccess();
        return this;
    }

    @Override
    public ChannelProgressivePromise setSuccess(Void result) {
        super.setSuccess(result);
        return this;
    }

    @Override
    public ChannelProgressivePromise setFailure(Throwable cause) {
        super.setFailure(cause);
        return this;
    }

    @Override
    public ChannelProgressivePromise unvoid() {
        return this;
    }

    @Override
    public ChannelProgressivePromise addListener(FutureListener<? super Void> listener) {
        if (listener instanceof ChannelProgressiveFutureListener p) {
            progressListeners.add(p);
        }
        super.addListener(listener);
        return this;
    }

    @Override
    public ChannelProgressivePromise addListeners(FutureListener<? super Void> first,
                                                  FutureListener<? super Void> second) {
        addListener(first);
        addListener(second);
        return this;
    }

    @Override
    public ChannelProgressivePromise removeListener(FutureListener<? super Void> listener) {
        if (listener instanceof ChannelProgressiveFutureListener p) {
            progressListeners.remove(p);
        }
        super.removeListener(listener);
        return this;
    }

    @Override
    public ChannelProgressivePromise removeListeners(FutureListener<? super Void> first,
                                                     FutureListener<? super Void> second) {
        removeListener(first);
        removeListener(second);
        return this;
    }

    @Override
    public ChannelProgressivePromise sync() throws InterruptedException {
        super.sync();
        return this;
    }

    @Override
    public ChannelProgressivePromise syncUninterruptibly() {
        super.syncUninterruptibly();
        return this;
    }

    @Override
    public ChannelProgressivePromise await() throws InterruptedException {
        super.await();
        return this;
    }

    @Override
    public ChannelProgressivePromise awaitUninterruptibly() {
        super.awaitUninterruptibly();
        return this;
    }
}
