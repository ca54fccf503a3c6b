package io.weir.handler.timeout;

import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Closes a channel when a write is not completed within the timeout, after firing
 * {@link WriteTimeoutException} (once) as an exception event. Each write gets its own timer, started when
 * the write passes this handler and cancelled when its promise completes; timers still running when the
 * handler is removed are cancelled. Timers use the channel's event loop (and its clock). Not
 * {@link Sharable}. Called on the event loop only.
 */
public class WriteTimeoutHandler implements ChannelHandler {
    private static final long MIN_TIMEOUT_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final long timeoutNanos;
    // Doubly linked so that a completed write unlinks its task in O(1) and handlerRemoved finds the rest.
    private WriteTimeoutTask lastTask;
    private boolean closed;

    /** Times out writes after {@code timeoutSeconds} seconds. */
    public WriteTimeoutHandler(int timeoutSeconds) {
        this(timeoutSeconds, TimeUnit.SECONDS);
    }

    /**
     * Times out writes after {@code timeout} {@code unit}s (at least one millisecond).
     *
     * @throws IllegalArgumentException if {@code timeout} is not positive
     */
    public WriteTimeoutHandler(long timeout, TimeUnit unit) {
        if (timeout <= 0) {
            throw new IllegalArgumentException("timeout: " + timeout + " (expected: > 0)");
        }
        this.timeoutNanos = Math.max(unit.toNanos(timeout), MIN_TIMEOUT_NANOS);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        ChannelPromise unvoided = promise.unvoid();
        ctx.write(msg, unvoided);
        if (!unvoided.isDone()) {
            WriteTimeoutTask task = new WriteTimeoutTask(ctx, unvoided);
            task.timeout = ctx.executor().schedule(task, timeoutNanos, TimeUnit.NANOSECONDS);
            if (!task.timeout.isDone()) {
                link(task);
                unvoided.addListener(task);
            }
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        WriteTimeoutTask task = lastTask;
        lastTask = null;
        while (task != null) {
            task.timeout.cancel(false);
            WriteTimeoutTask prev = task.prev;
            task.prev = null;
            task.next = null;
            task = prev;
        }
    }

    /** Fires {@link WriteTimeoutException} and closes the channel, the first time only. */
    protected void writeTimedOut(ChannelHandlerContext ctx) throws Exception {
        if (!closed) {
            closed = true;
            ctx.fireExceptionCaught(WriteTimeoutException.INSTANCE);
            ctx.close();
        }
    }

    private void link(WriteTimeoutTask task) {
        if (lastTask != null) {
            lastTask.next = task;
            task.prev = lastTask;
        }
        lastTask = task;
    }

    private void unlink(WriteTimeoutTask task) {
        if (task == lastTask) {
            lastTask = task.prev;
            if (lastTask != null) {
                lastTask.next = null;
            }
        } else if (task.prev != null || task.next != null) {
            if (task.prev != null) {
                task.prev.next = task.next;
            }
            if (task.next != null) {
                task.next.prev = task.prev;
            }
        }
        task.prev = null;
        task.next = null;
    }

    private final class WriteTimeoutTask implements Runnable, ChannelFutureListener {
        private final ChannelHandlerContext ctx;
        private final ChannelPromise promise;
        Future<?> timeout;
        WriteTimeoutTask prev;
        WriteTimeoutTask next;

        WriteTimeoutTask(ChannelHandlerContext ctx, ChannelPromise promise) {
            this.ctx = ctx;
            this.promise = promise;
        }

        @Override
        public void run() {
            // The promise may have completed meanwhile but its listener not run yet (notified later).
            if (!promise.isDone()) {
                try {
                    writeTimedOut(ctx);
                } catch (Throwable t) {
                    ctx.fireExceptionCaught(t);
                }
            }
            unlink(this);
        }

        @Override
        public void operationComplete(ChannelFuture future) {
            timeout.cancel(false);
            // Listeners may run off the loop for a promise completed elsewhere; the list is loop-confined.
            if (ctx.executor().inEventLoop()) {
                unlink(this);
            } else {
                ctx.executor().execute(() -> unlink(this));
            }
        }
    }
}
