package io.weir.channel;

/**
 * A channel whose two directions can be shut down separately (TCP half-close). Shutting the output down
 * sends the end of the stream to the peer, fails writes still queued with
 * {@link ChannelOutputShutdownException} and fires {@link ChannelOutputShutdownEvent}; shutting the input
 * down stops reading and fires {@link ChannelInputShutdownEvent}. The shutdown operations travel through
 * the pipeline like any outbound operation ({@link ChannelHandler#shutdown}), so a handler (TLS) can say
 * goodbye first. Thread-safe.
 */
public interface DuplexChannel extends Channel {

    /** Whether the input is shut down (or the channel is not open). */
    boolean isInputShutdown();

    /** Whether the output is shut down (or the channel is not open). */
    boolean isOutputShutdown();

    /** Whether both halves are shut down. */
    default boolean isShutdown() {
        return isInputShutdown() && isOutputShutdown();
    }

    /** Shuts the input down. */
    default ChannelFuture shutdownInput() {
        return shutdown(ChannelShutdownDirection.INBOUND);
    }

    /** Shuts the input down, completing {@code promise}. */
    default ChannelFuture shutdownInput(ChannelPromise promise) {
        return shutdown(ChannelShutdownDirection.INBOUND, promise);
    }

    /** Shuts the output down. */
    default ChannelFuture shutdownOutput() {
        return shutdown(ChannelShutdownDirection.OUTBOUND);
    }

    /** Shuts the output down, completing {@code promise}. */
    default ChannelFuture shutdownOutput(ChannelPromise promise) {
        return shutdown(ChannelShutdownDirection.OUTBOUND, promise);
    }

    /** Shuts the output, then the input down. */
    default ChannelFuture shutdown() {
        return shutdown(newPromise());
    }

    /**
     * Shuts the output, then the input down, completing {@code promise} when both are done (with the first
     * failure, if any).
     */
    default ChannelFuture shutdown(ChannelPromise promise) {
        ChannelPromise target = promise.unvoid();
        shutdownOutput().addListener(out -> {
            Throwable outCause = out.cause();
            shutdownInput().addListener(in -> {
                Throwable cause = outCause != null ? outCause : in.cause();
                if (cause == null) {
                    target.trySuccess();
                } else {
                    target.tryFailure(cause);
                }
            });
        });
        return target;
    }
}
