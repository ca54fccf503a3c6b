package io.weir.channel;

/**
 * The close of an {@link AbstractChannel}, in its order: mark the close as begun (later closes only wait for
 * it), detach the outbound buffer (later writes fail at once), take the pending connect, remember the
 * addresses, {@link AbstractChannel#doClose()}, complete the close future and the promise, fail the pending
 * connect and the queued writes (one exception for the whole queue, never one per message), then deregister,
 * firing {@code channelInactive} if the channel was active. Event loop only, except
 * {@link #settleAfterLoopTerminated}.
 */
final class CloseSequence {
    private CloseSequence() {
    }

    /** Closes {@code channel}; {@code cause} (may be null) is what the queued writes fail with. */
    static void run(AbstractChannel channel, ChannelPromise promise, Throwable cause) {
        if (!promise.setUncancellable()) {
            return;
        }
        if (!channel.markCloseInitiated()) {
            if (channel.closeCompleted()) {
                promise.trySuccess();
            } else if (!promise.isVoid()) {
                channel.closeFuture().addListener(f -> promise.trySuccess());
            }
            return;
        }
        boolean wasActive = channel.isActive();
        // No more writes from here on: they fail at once instead of queueing behind the close.
        ChannelOutboundBuffer buffer = channel.takeOutboundBuffer();
        ChannelPromise pendingConnect = channel.takeConnectPromise();
        // Last chance to learn the addresses: a closed channel only reports what was cached.
        channel.localAddress();
        channel.remoteAddress();
        try {
            channel.doClose();
            channel.completeClose();
            promise.trySuccess();
        } catch (Throwable t) {
            channel.completeClose();
            promise.tryFailure(t);
        }
        failPendingWork(pendingConnect, buffer, cause);
        // Also when still inside doWrite (a stream's channel closed by its own last frame): deregister fires
        // channelInactive and channelUnregistered from a task, so doWrite unwinds before handlers hear about the
        // close, without a second task to defer the first.
        channel.deregister(channel.voidPromise(), wasActive && !channel.isActive());
    }

    /** See {@link AbstractChannel#settleCloseAfterLoopTerminated()}. */
    static void settleAfterLoopTerminated(AbstractChannel channel) {
        if (channel.closeCompleted() || !channel.markCloseInitiated()) {
            return;
        }
        ChannelOutboundBuffer buffer = channel.takeOutboundBuffer();
        ChannelPromise pendingConnect = channel.takeConnectPromise();
        channel.completeClose();
        failPendingWork(pendingConnect, buffer, null);
    }

    /** After a close: fails the pending connect (if any) and the queued writes, releasing their messages. */
    private static void failPendingWork(ChannelPromise pendingConnect, ChannelOutboundBuffer buffer, Throwable cause) {
        if (pendingConnect != null) {
            pendingConnect.tryFailure(new StacklessClosedChannelException("connect", cause));
        }
        // Most channels close with nothing queued (an HTTP/2 stream per request): build no exception for them.
        if (buffer != null && !buffer.holdsNothing()) {
            buffer.failFlushed(cause != null ? cause : new StacklessClosedChannelException("write", null), false);
            buffer.close(new StacklessClosedChannelException("write", cause));
        }
    }
}
