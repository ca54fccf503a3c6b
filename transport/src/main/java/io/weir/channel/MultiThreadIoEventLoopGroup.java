package io.weir.channel;

import io.weir.util.Ticker;
import io.weir.util.concurrent.DefaultEventExecutorChooserFactory;
import io.weir.util.concurrent.DefaultThreadFactory;
import io.weir.util.concurrent.EventExecutor;
import io.weir.util.concurrent.EventExecutorChooserFactory;
import io.weir.util.concurrent.MultithreadEventExecutorGroup;
import io.weir.util.concurrent.RejectedExecutionHandler;
import io.weir.util.concurrent.SingleThreadEventExecutor;
import io.weir.util.platform.SystemProperties;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.function.UnaryOperator;

/**
 * A fixed set of {@link SingleThreadIoEventLoop}s, each driving its own {@link IoHandler} made by the same
 * {@link IoHandlerFactory}. NIO, epoll and kqueue are just different factories:
 *
 * <pre>{@code
 * EventLoopGroup group = new MultiThreadIoEventLoopGroup(0, NioIoHandler.newFactory());
 * try {
 *     EventLoop loop = group.next();   // give it to a channel
 * } finally {
 *     group.shutdownGracefully();
 * }
 * }</pre>
 *
 * <p>Loop threads are {@link io.weir.util.concurrent.FastThreadLocalThread}s from a {@link DefaultThreadFactory}
 * unless a thread factory or executor is given; each starts on its loop's first task or registration.
 * {@link #next()} hands loops out through a pluggable {@link EventExecutorChooserFactory} (round-robin by
 * default). Thread-safe.
 */
public final class MultiThreadIoEventLoopGroup extends MultithreadEventExecutorGroup implements EventLoopGroup {
    /**
     * Loops in a group created with {@code nThreads == 0}: twice the number of processors, or the value of
     * {@code io.weir.eventLoopThreads} if set (at least 1).
     */
    public static final int DEFAULT_EVENT_LOOP_THREADS = Math.max(1,
            SystemProperties.getInt("io.weir.eventLoopThreads", 2 * Runtime.getRuntime().availableProcessors()));

    /**
     * {@code nThreads} loops on {@link DefaultThreadFactory} threads.
     *
     * @param nThreads how many loops; 0 means {@link #DEFAULT_EVENT_LOOP_THREADS}
     * @throws IllegalArgumentException if {@code nThreads} is negative
     * @throws NullPointerException if {@code ioHandlerFactory} is null
     * @throws IllegalStateException if a loop could not be created (its I/O handler failed to open; the loops
     *         already created are shut down)
     */
    public MultiThreadIoEventLoopGroup(int nThreads, IoHandlerFactory ioHandlerFactory) {
        this(nThreads, (Executor) null, ioHandlerFactory, DefaultEventExecutorChooserFactory.INSTANCE);
    }

    /**
     * {@code nThreads} loops whose threads come from {@code threadFactory} ({@code null}: a
     * {@link DefaultThreadFactory}).
     *
     * @see #MultiThreadIoEventLoopGroup(int, IoHandlerFactory)
     */
    public MultiThreadIoEventLoopGroup(int nThreads, ThreadFactory threadFactory, IoHandlerFactory ioHandlerFactory) {
        this(nThreads, threadFactory == null ? null : new ThreadPerLoopExecutor(threadFactory), ioHandlerFactory,
                DefaultEventExecutorChooserFactory.INSTANCE);
    }

    /**
     * {@code nThreads} loops started by {@code executor} and handed out by {@code chooserFactory}'s choosers.
     *
     * @param executor starts each loop on a new or otherwise idle thread ({@code null}: a
     *        {@link DefaultThreadFactory}); it must be able to run {@code nThreads} loops at once
     * @see #MultiThreadIoEventLoopGroup(int, IoHandlerFactory)
     */
    public MultiThreadIoEventLoopGroup(int nThreads, Executor executor, IoHandlerFactory ioHandlerFactory,
                                       EventExecutorChooserFactory chooserFactory) {
        this(nThreads, executor, ioHandlerFactory, chooserFactory, Ticker.system(),
                SingleThreadEventExecutor.DEFAULT_MAX_PENDING_TASKS, RejectedExecutionHandler.REJECT, null);
    }

    /**
     * A group with every option; each loop gets the same settings, see
     * {@link SingleThreadIoEventLoop#SingleThreadIoEventLoop(EventLoopGroup, Executor, IoHandlerFactory, Ticker,
     * int, RejectedExecutionHandler, UnaryOperator)}.
     *
     * @see #MultiThreadIoEventLoopGroup(int, IoHandlerFactory)
     */
    public MultiThreadIoEventLoopGroup(int nThreads, Executor executor, IoHandlerFactory ioHandlerFactory,
                                       EventExecutorChooserFactory chooserFactory, Ticker ticker,
                                       int maxPendingTasks, RejectedExecutionHandler rejectedHandler,
                                       UnaryOperator<Runnable> taskDecorator) {
        super(nThreads == 0 ? DEFAULT_EVENT_LOOP_THREADS : nThreads, executor, chooserFactory,
                Objects.requireNonNull(ioHandlerFactory, "ioHandlerFactory"), ticker, maxPendingTasks,
                rejectedHandler, taskDecorator);
    }

    @SuppressWarnings("unchecked")
    @Override
    protected EventExecutor newChild(Executor executor, Object... args) {
        return new SingleThreadIoEventLoop(this, executor, (IoHandlerFactory) args[0], (Ticker) args[1],
                (Integer) args[2], (RejectedExecutionHandler) args[3], (UnaryOperator<Runnable>) args[4]);
    }

    /** {@inheritDoc} Chosen by this group's chooser. */
    @Override
    public EventLoop next() {
        return (EventLoop) super.next();
    }

    /**
     * Sets the {@linkplain SingleThreadIoEventLoop#setIoRatio I/O ratio} of every loop of this group.
     *
     * @throws IllegalArgumentException if {@code ioRatio} is outside 1..100
     */
    public void setIoRatio(int ioRatio) {
        if (ioRatio <= 0 || ioRatio > 100) {
            throw new IllegalArgumentException("ioRatio: " + ioRatio + " (expected: 1-100)");
        }
        for (EventExecutor loop : this) {
            ((SingleThreadIoEventLoop) loop).setIoRatio(ioRatio);
        }
    }

    /** Starts one thread per loop from a factory. */
    private static final class ThreadPerLoopExecutor implements Executor {
        private final ThreadFactory threadFactory;

        ThreadPerLoopExecutor(ThreadFactory threadFactory) {
            this.threadFactory = threadFactory;
        }

        @Override
        public void execute(Runnable command) {
            threadFactory.newThread(command).start();
        }
    }
}
