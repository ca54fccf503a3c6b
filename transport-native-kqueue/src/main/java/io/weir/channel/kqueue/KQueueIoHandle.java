package io.weir.channel.kqueue;

import io.weir.channel.IoHandle;
import io.weir.channel.unix.FileDescriptor;
import java.io.IOException;

/**
 * An {@link IoHandle} backed by a file descriptor, whose read and write filters a {@link KQueueIoHandler} keeps.
 * {@link #handle} receives {@link KQueueIoEvent}s, on the event loop. The descriptor must be non-blocking (with
 * edge-triggering a blocking read would stall the loop) and stay open while registered: close it only after
 * {@link io.weir.channel.IoRegistration#cancel()} (on libkqueue a descriptor closed first leaves its filters
 * behind, see {@link KQueueIoHandler}), or let the handler close it in {@link #close()} when the loop shuts down.
 */
public interface KQueueIoHandle extends IoHandle {

    /** The descriptor to watch; the same one for the life of the handle. */
    FileDescriptor fd();

    /**
     * {@inheritDoc} Closing a descriptor fails, if at all, with an {@link IOException}.
     */
    @Override
    void close() throws IOException;
}
