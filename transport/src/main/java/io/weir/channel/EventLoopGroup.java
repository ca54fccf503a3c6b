package io.weir.channel;

import io.weir.util.concurrent.EventExecutorGroup;

/**
 * A group of {@link EventLoop}s. Channels are created on the loop {@link #next()} hands out and stay on it
 * for life. Thread-safe.
 */
public interface EventLoopGroup extends EventExecutorGroup {

    /** The loop to give the next channel. */
    @Override
    EventLoop next();
}
