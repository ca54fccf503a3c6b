package io.weir.channel;

import java.io.IOException;

/** A write failed because the channel's output was shut down before it could be sent. */
public final class ChannelOutputShutdownException extends IOException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message. */
    public ChannelOutputShutdownException(String message) {
        super(message);
    }

    /** An exception with a message and the cause of the shutdown. */
    public ChannelOutputShutdownException(String message, Throwable cause) {
        super(message, cause);
    }
}
