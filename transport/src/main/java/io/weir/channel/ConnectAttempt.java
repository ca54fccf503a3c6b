package io.weir.channel;

import io.weir.util.concurrent.ScheduledFuture;
import java.net.ConnectException;
import java.net.SocketAddress;
import java.nio.channels.AlreadyConnectedException;
import java.nio.channels.ConnectionPendingException;
import java.util.concurrent.TimeUnit;

/**
 * The connect of an {@link AbstractChannel}: started by {@code connect()}, completed at once by
 * {@link AbstractChannel#doConnect} or later through {@link AbstractChannel#finishConnect()}, failed by its
 * timeout ({@link ChannelOption#CONNECT_TIMEOUT_MILLIS}, which then closes the channel) or taken over by a close.
 * Created on a channel's first connect, so channels that never connect (accepted ones) do not pay for it.
 * Event loop only.
 */
final class ConnectAttempt {
    private final AbstractChannel channel;
    // The promise of the connect under way; null when none is.
    private ChannelPromise promise;
    private ScheduledFuture<?> timeoutFuture;
    // What the last connect asked for, kept after it completed; null after a disconnect.
    private SocketAddress requestedRemoteAddress;

    ConnectAttempt(AbstractChannel channel) {
        this.channel = channel;
    }

    /** The address a pending or completed connect asked for; {@code null} otherwise. */
    SocketAddress requestedRemoteAddress() {
        return requestedRemoteAddress;
    }

    /** The channel disconnected: it asked for no address any more. */
    void disconnected() {
        requestedRemoteAddress = null;
    }

    /**
     * Starts connecting (the channel is open and the promise uncancellable): fails at once if a connect is
     * pending or the channel is connected; otherwise completes now or arms the timeout.
     */
    void start(SocketAddress remoteAddress, SocketAddress localAddress, ChannelPromise connectPromise) {
        if (promise != null) {
            connectPromise.tryFailure(new ConnectionPendingException());
            return;
        }
        boolean wasActive = channel.isActive();
        if (wasActive && channel.remoteAddress0() != null) {
            connectPromise.tryFailure(new AlreadyConnectedException());
            return;
        }
        try {
            requestedRemoteAddress = remoteAddress;
            if (channel.doConnect(remoteAddress, localAddress)) {
                succeeded(connectPromise, wasActive);
                return;
            }
            promise = connectPromise;
            int timeoutMillis = channel.config().getConnectTimeoutMillis();
            if (timeoutMillis > 0) {
                timeoutFuture = channel.eventLoop().schedule(() -> timedOut(timeoutMillis, remoteAddress),
                        timeoutMillis, TimeUnit.MILLISECONDS);
            }
        } catch (Throwable t) {
            failed(connectPromise, annotate(t, remoteAddress));
        }
    }

    private void timedOut(int timeoutMillis, SocketAddress remoteAddress) {
        ChannelPromise pending = promise;
        if (pending != null) {
            promise = null;
            timeoutFuture = null;
            pending.tryFailure(new ConnectTimeoutException(
                    "connection timed out after " + timeoutMillis + " ms: " + remoteAddress));
            channel.closeOnLoop(null);
        }
    }

    /** See {@link AbstractChannel#finishConnect()}. */
    void finish() {
        ChannelPromise pending = promise;
        if (pending == null) {
            return;
        }
        boolean wasActive = channel.isActive();
        try {
            channel.doFinishConnect();
            succeeded(pending, wasActive);
        } catch (Throwable t) {
            failed(pending, annotate(t, requestedRemoteAddress));
        } finally {
            cancelTimeout();
            promise = null;
        }
    }

    /** Takes the pending connect's promise, if any, and cancels its timeout: the channel is closing. */
    ChannelPromise takePromise() {
        ChannelPromise pending = promise;
        if (pending != null) {
            promise = null;
            cancelTimeout();
        }
        return pending;
    }

    private void cancelTimeout() {
        ScheduledFuture<?> timeout = timeoutFuture;
        if (timeout != null) {
            timeout.cancel(false);
            timeoutFuture = null;
        }
    }

    private void succeeded(ChannelPromise connectPromise, boolean wasActive) {
        channel.invalidateLocalAddress();
        channel.invalidateRemoteAddress();
        boolean active = channel.isActive();
        boolean promiseSet = connectPromise.trySuccess();
        if (!wasActive && active) {
            channel.pipeline().fireChannelActive();
        }
        if (!promiseSet) {
            // Timed out meanwhile: the caller was told it failed, so the connection must not stay.
            channel.closeOnLoop(null);
        }
    }

    private void failed(ChannelPromise connectPromise, Throwable cause) {
        connectPromise.tryFailure(cause);
        channel.closeIfClosed();
    }

    /** A {@link ConnectException} gains the address in its message; other failures stay as they are. */
    private static Throwable annotate(Throwable cause, SocketAddress remoteAddress) {
        if (cause instanceof ConnectTimeoutException || remoteAddress == null) {
            return cause;
        }
        if (cause instanceof ConnectException) {
            ConnectException annotated = new ConnectException(cause.getMessage() + ": " + remoteAddress);
            annotated.initCause(cause);
            annotated.setStackTrace(cause.getStackTrace());
            return annotated;
        }
        return cause;
    }
}
