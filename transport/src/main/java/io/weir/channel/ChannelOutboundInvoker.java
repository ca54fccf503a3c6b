package io.weir.channel;

import java.net.SocketAddress;

/**
 * The outbound operations, shared by {@link Channel}, {@link ChannelPipeline} and
 * {@link ChannelHandlerContext}. On a channel or pipeline an operation starts at the pipeline's tail; on a
 * context it starts at the handler before that context. Each travels towards the head, through every
 * handler that {@linkplain ChannelHandler handles} it, and the head hands it to the transport.
 *
 * <p>All methods may be called from any thread: called off the event loop, the operation is queued to the
 * loop and the returned future completes there. Variants taking a {@link ChannelPromise} complete that
 * promise and return it; a promise of another channel or one already done is refused with
 * {@link IllegalArgumentException} (a cancelled promise is silently dropped, releasing a written message).
 */
public interface ChannelOutboundInvoker {

    /** Binds to {@code localAddress}. */
    default ChannelFuture bind(SocketAddress localAddress) {
        return bind(localAddress, newPromise());
    }

    /** Binds to {@code localAddress}, completing {@code promise}. */
    ChannelFuture bind(SocketAddress localAddress, ChannelPromise promise);

    /** Connects to {@code remoteAddress}. */
    default ChannelFuture connect(SocketAddress remoteAddress) {
        return connect(remoteAddress, null, newPromise());
    }

    /** Connects to {@code remoteAddress} from {@code localAddress}. */
    default ChannelFuture connect(SocketAddress remoteAddress, SocketAddress localAddress) {
        return connect(remoteAddress, localAddress, newPromise());
    }

    /** Connects to {@code remoteAddress}, completing {@code promise}. */
    default ChannelFuture connect(SocketAddress remoteAddress, ChannelPromise promise) {
        return connect(remoteAddress, null, promise);
    }

    /**
     * Connects to {@code remoteAddress} from {@code localAddress} ({@code null}: any), completing
     * {@code promise}; it fails if the connection is not established within
     * {@link ChannelOption#CONNECT_TIMEOUT_MILLIS}.
     */
    ChannelFuture connect(SocketAddress remoteAddress, SocketAddress localAddress, ChannelPromise promise);

    /** Disconnects from the remote peer; channels without a notion of disconnection close instead. */
    default ChannelFuture disconnect() {
        return disconnect(newPromise());
    }

    /** Disconnects, completing {@code promise}. */
    ChannelFuture disconnect(ChannelPromise promise);

    /**
     * Closes the channel. Pending writes fail and their messages are released; the
     * {@linkplain Channel#closeFuture() close future} completes. Closing a closed channel succeeds.
     */
    default ChannelFuture close() {
        return close(newPromise());
    }

    /** Closes the channel, completing {@code promise}. */
    ChannelFuture close(ChannelPromise promise);

    /** Registers the channel with its event loop's I/O handler. */
    default ChannelFuture register() {
        return register(newPromise());
    }

    /** Registers, completing {@code promise}; fails if already registered or closed. */
    ChannelFuture register(ChannelPromise promise);

    /** Removes the channel from its event loop's I/O handler; it may be {@linkplain #register() registered} again. */
    default ChannelFuture deregister() {
        return deregister(newPromise());
    }

    /** Deregisters, completing {@code promise}. */
    ChannelFuture deregister(ChannelPromise promise);

    /**
     * Shuts down one half of the channel; fails with {@link UnsupportedOperationException} on channels that
     * are not {@link DuplexChannel}s.
     */
    default ChannelFuture shutdown(ChannelShutdownDirection direction) {
        return shutdown(direction, newPromise());
    }

    /** Shuts down one half of the channel, completing {@code promise}. */
    ChannelFuture shutdown(ChannelShutdownDirection direction, ChannelPromise promise);

    /**
     * Asks for one read: data read is delivered through {@link ChannelHandler#channelRead}, then
     * {@link ChannelHandler#channelReadComplete}. With auto-read on, the channel keeps reading on its own.
     */
    ChannelOutboundInvoker read();

    /**
     * Queues {@code msg} for writing; nothing is sent until {@link #flush()}. Ownership of {@code msg} passes
     * on: it is released once written, or when the write fails.
     */
    default ChannelFuture write(Object msg) {
        return write(msg, newPromise());
    }

    /** Queues {@code msg}, completing {@code promise} once it is written. */
    ChannelFuture write(Object msg, ChannelPromise promise);

    /** Sends everything queued so far. */
    ChannelOutboundInvoker flush();

    /** {@link #write(Object, ChannelPromise)} then {@link #flush()}. */
    ChannelFuture writeAndFlush(Object msg, ChannelPromise promise);

    /** {@link #write(Object)} then {@link #flush()}. */
    default ChannelFuture writeAndFlush(Object msg) {
        return writeAndFlush(msg, newPromise());
    }

    /** A new promise for an operation on this channel. */
    ChannelPromise newPromise();

    /** A new progressive promise for an operation on this channel. */
    ChannelProgressivePromise newProgressivePromise();

    /** A future that has already succeeded. */
    ChannelFuture newSucceededFuture();

    /** A future that has already failed with {@code cause}. */
    ChannelFuture newFailedFuture(Throwable cause);

    /**
     * The channel's shared promise for callers that do not need the outcome: no allocation, no listeners, no
     * waiting; failures are fired as exception events instead.
     */
    ChannelPromise voidPromise();
}
