package io.weir.util.concurrent;

/**
 * Thrown when a thread would block on a {@link Future} that only its own event executor can complete, such
 * as calling {@link Future#sync()} on an event loop for an operation that loop still has to perform. Blocking
 * there would deadlock forever, so Weir refuses at once.
 */
public final class BlockingOperationException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** An exception naming the future whose wait was refused. */
    public BlockingOperationException(String message) {
        super(message);
    }
}
