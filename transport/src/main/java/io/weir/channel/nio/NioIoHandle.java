package io.weir.channel.nio;

import io.weir.channel.IoHandle;
import java.nio.channels.SelectableChannel;

/**
 * An {@link IoHandle} backed by a JDK {@link SelectableChannel}, which a {@link NioIoHandler} registers with
 * its selector. The channel must be in non-blocking mode when it is registered. {@link #handle} receives
 * {@link NioIoEvent}s, on the event loop.
 */
public interface NioIoHandle extends IoHandle {

    /** The channel to register; the same one for the life of the handle. */
    SelectableChannel selectableChannel();
}
