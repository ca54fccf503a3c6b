package io.weir.channel;

import java.nio.channels.ClosedChannelException;

/**
 * The {@link ClosedChannelException} of operations on a closed channel. Peers can close connections at will,
 * so it carries no stack trace; it names the refused operation and, as its cause, why the channel closed
 * when that is known.
 */
final class StacklessClosedChannelException extends ClosedChannelException {
    private static final long serialVersionUID = 1L;

    private final String operation;

    StacklessClosedChannelException(String operation, Throwable closeCause) {
        this.operation = operation;
        if (closeCause != null) {
            initCause(closeCause);
        }
    }

    @Override
    public String getMessage() {
        return operation + "() on a closed channel";
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
