package io.weir.channel.epoll;

import io.weir.channel.IoHandle;
import io.weir.channel.unix.FileDescriptor;
import java.io.IOException;

/**
 * An {@link IoHandle} backed by a file descriptor, which an {@link EpollIoHandler} adds to its epoll set.
 * {@link #handle} receives {@link EpollIoEvent}s, on the event loop. The descriptor must be non-blocking (with
 * edge-triggering a blocking read would stall the loop) and stay open while registered; close it only after
 * {@link io.weir.channel.IoRegistration#cancel()}, or let the handler close it in {@link #close()} when the loop
 * shuts down.
 */
public interface EpollIoHandle extends IoHandle {

    /** The descriptor to watch; the same one for the life of the handle. */
    FileDescriptor fd();

    /**
     * {@inheritDoc} Closing a descriptor fails, if at all, with an {@link IOException}.
     */
    @Override
    void close() throws IOException;
}
