package io.weir.handler.offload;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Runs blocking work (a JDBC call, a file read, a legacy client) off the event loop without losing backpressure:
 * each message of type {@code I} is handed to an {@link Executor}, virtual threads being the natural choice on
 * JDK 21+ ({@code Executors.newVirtualThreadPerTaskExecutor()}), and what the work returns is written back on the
 * event loop. While {@code maxInFlight} messages of this channel are being worked on, the channel stops reading
 * (auto-read off), so a client that sends faster than the work completes is held by TCP instead of by a queue
 * that grows; reading resumes as work completes.
 *
 * <pre>{@code
 * ExecutorService virtualThreads = Executors.newVirtualThreadPerTaskExecutor(); // one for the whole server
 * ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20),
 *         new OffloadHandler<>(FullHttpRequest.class, virtualThreads, request -> answer(request), 1));
 * }</pre>
 *
 * <ul>
 * <li><b>Order.</b> With {@code maxInFlight} 1 (the right value for request/response protocols such as HTTP/1.1)
 *     one message is worked on at a time and results are written in the order the messages arrived; with more,
 *     in the order the work completes. Messages a read already brought beyond the bound (pipelined requests)
 *     wait here, in order, until work completes; they are released if the channel closes first.</li>
 * <li><b>Ownership.</b> The message passes to the work and is released after it returns (or throws): the work
 *     retains it to keep it longer. The result is written and flushed (a {@code null} result writes nothing); if
 *     the channel has closed meanwhile it is released instead.</li>
 * <li><b>Failures.</b> An exception from the work, or an executor that refuses the task, reaches
 *     {@code exceptionCaught} on the event loop, after this handler.</li>
 * <li><b>Auto-read.</b> Turned off only by this handler's own bound and turned back on only if this handler turned it
 *     off; an application that turned auto-read off itself keeps it off.</li>
 * </ul>
 * Messages of other types pass on untouched. One instance per channel; called on the channel's event loop, the
 * work on the executor's threads.
 *
 * @param <I> the messages the work takes
 * @param <O> what the work returns, to be written
 */
public final class OffloadHandler<I, O> implements ChannelHandler {
    /** The blocking work: runs on the executor, may block, returns what to write (or null). */
    @FunctionalInterface
    public interface Work<I, O> {
        /**
         * Works on {@code input}, on an executor thread.
         *
         * @throws Exception to report a failure through the pipeline's {@code exceptionCaught}
         */
        O apply(I input) throws Exception;
    }

    private final Class<I> type;
    private final Executor executor;
    private final Work<I, O> work;
    private final int maxInFlight;
    private int inFlight;
    private boolean pausedReading;
    /** Messages beyond the bound, from a read that had already brought them. */
    private final ArrayDeque<I> waiting = new ArrayDeque<>(2);

    /**
     * A handler offloading messages of {@code type} to {@code executor}, at most {@code maxInFlight} at a time
     * per channel.
     *
     * @throws IllegalArgumentException if {@code maxInFlight} is not positive
     */
    public OffloadHandler(Class<I> type, Executor executor, Work<I, O> work, int maxInFlight) {
        this.type = Objects.requireNonNull(type, "type");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.work = Objects.requireNonNull(work, "work");
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight: " + maxInFlight + " (expected: >= 1)");
        }
        this.maxInFlight = maxInFlight;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!type.isInstance(msg)) {
            ctx.fireChannelRead(msg);
            return;
        }
        I input = type.cast(msg);
        if (inFlight < maxInFlight) {
            dispatch(ctx, input);
        } else {
            waiting.add(input);
        }
        if (inFlight >= maxInFlight && !pausedReading && ctx.channel().config().isAutoRead()) {
            // Backpressure: the client's next bytes stay in the socket until work completes.
            pausedReading = true;
            ctx.channel().config().setAutoRead(false);
        }
    }

    private void dispatch(ChannelHandlerContext ctx, I input) {
        inFlight++;
        try {
            executor.execute(() -> run(ctx, input));
        } catch (RejectedExecutionException e) {
            ReferenceCountUtil.release(input);
            completed(ctx);
            ctx.fireExceptionCaught(e);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        releaseWaiting();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseWaiting();
    }

    private void releaseWaiting() {
        for (I input; (input = waiting.poll()) != null; ) {
            ReferenceCountUtil.release(input);
        }
    }

    /** On the executor. */
    private void run(ChannelHandlerContext ctx, I input) {
        O result;
        try {
            result = work.apply(input);
        } catch (Throwable t) {
            onLoop(ctx, null, () -> {
                completed(ctx);
                ctx.fireExceptionCaught(t);
            });
            return;
        } finally {
            ReferenceCountUtil.release(input);
        }
        onLoop(ctx, result, () -> {
            completed(ctx);
            if (result == null) {
                return;
            }
            if (ctx.channel().isActive()) {
                ctx.writeAndFlush(result);
            } else {
                ReferenceCountUtil.release(result);
            }
        });
    }

    /** Runs {@code task} on the channel's event loop; a loop that has shut down releases {@code result}. */
    private static void onLoop(ChannelHandlerContext ctx, Object result, Runnable task) {
        try {
            ctx.executor().execute(task);
        } catch (RejectedExecutionException loopGone) {
            ReferenceCountUtil.release(result);
        }
    }

    /** On the event loop: one piece of work is over; the next waiting one starts, or reading resumes. */
    private void completed(ChannelHandlerContext ctx) {
        inFlight--;
        I next = ctx.channel().isActive() ? waiting.poll() : null;
        if (next != null) {
            dispatch(ctx, next);
            return;
        }
        if (pausedReading && inFlight < maxInFlight) {
            pausedReading = false;
            ctx.channel().config().setAutoRead(true);
        }
    }
}
