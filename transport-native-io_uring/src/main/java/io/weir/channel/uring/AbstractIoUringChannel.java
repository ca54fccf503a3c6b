package io.weir.channel.uring;

import io.weir.buffer.ByteBuf;
import io.weir.channel.AbstractChannel;
import io.weir.channel.Channel;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelException;
import io.weir.channel.ChannelMetadata;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoop;
import io.weir.channel.IoEvent;
import io.weir.channel.IoHandle;
import io.weir.channel.IoRegistration;
import io.weir.channel.unix.Socket;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;

/**
 * What the io_uring channels share: the socket, the handle the {@link IoUringIoHandler} delivers completions to,
 * the pending-read flag, and the submission of operations through the current registration.
 *
 * <p><b>Memory lent to the kernel.</b> A subclass keeps each buffer an operation points to until that operation's
 * completion arrives, and releases it there, whatever the result: the handler delivers every completion, those of
 * operations cancelled by a close, a deregistration or the loop's shutdown included ({@code -ECANCELED}), before it
 * reports the registration {@linkplain IoUringIoHandle#unregistered() unregistered}. A completion of an earlier
 * registration (before a deregistration) only releases its memory.
 *
 * <p>Event loop only, but for what {@link AbstractChannel} makes thread-safe and {@link #clearReadPending()}.
 */
abstract class AbstractIoUringChannel extends AbstractChannel {
    /** {@code POLLOUT}, for the poll that waits for a connection attempt. */
    static final int POLLOUT = 4;

    /** The channel's socket, owned by it; closed with it. */
    final Socket socket;
    /** The channel's options: the socket's own, read from and written to it, and those of every channel. */
    final IoUringChannelConfig config;
    private final ChannelMetadata metadata;
    private final CompletionHandle handle = new CompletionHandle();
    private volatile boolean active;
    // Event loop only: a read was asked for (read() or auto-read) and not yet served.
    private boolean readPending;

    /**
     * A channel over {@code socket}, which it owns from now on; closes it if {@code eventLoop} does not run an
     * {@link IoUringIoHandler}.
     *
     * @param active whether the socket is connected already (accepted)
     * @param backlog the server's default backlog, or
     *        {@link io.weir.channel.unix.internal.UnixChannelConfig#NO_BACKLOG}
     * @param socketOptions the options the config reads from and writes to the socket
     * @throws NullPointerException if {@code eventLoop} is null
     * @throws IllegalArgumentException if {@code eventLoop} runs another I/O handler
     */
    AbstractIoUringChannel(Channel parent, EventLoop eventLoop, Socket socket, boolean active,
                           ChannelMetadata metadata, int backlog, ChannelOption<?>... socketOptions) {
        super(parent, checkCompatible(eventLoop, socket));
        this.socket = socket;
        this.active = active;
        this.metadata = metadata;
        this.config = new IoUringChannelConfig(this, socket, metadata.defaultMaxMessagesPerRead(), backlog,
                socketOptions);
    }

    /** A setting a constructor gives its socket. */
    @FunctionalInterface
    interface SocketSetting {
        void apply(Socket socket) throws IOException;
    }

    /**
     * Applies {@code setting} to the socket of a channel being constructed; failing that, closes the socket.
     *
     * @throws ChannelException naming {@code what} if the setting failed
     */
    final void configure(String what, SocketSetting setting) {
        try {
            setting.apply(socket);
        } catch (IOException e) {
            closeAfterFailure(socket, e);
            throw new ChannelException("failed to set " + what + " on " + socket, e);
        }
    }

    @Override
    public final ChannelConfig config() {
        return config;
    }

    @Override
    public final ChannelMetadata metadata() {
        return metadata;
    }

    private static EventLoop checkCompatible(EventLoop eventLoop, Socket socket) {
        RuntimeException failure;
        if (eventLoop == null) {
            failure = new NullPointerException("eventLoop");
        } else if (!eventLoop.isCompatible(CompletionHandle.class)) {
            failure = new IllegalArgumentException("incompatible event loop: " + eventLoop + " (this channel needs a"
                    + " loop of new MultiThreadIoEventLoopGroup(n, IoUringIoHandler.newFactory()))");
        } else {
            return eventLoop;
        }
        closeAfterFailure(socket, failure);
        throw failure;
    }

    /** Opens a TCP socket (IPv6 dual-stack where the kernel has IPv6). */
    static Socket openStreamSocket() {
        IoUring.ensureAvailability();
        try {
            return Socket.newSocketStream();
        } catch (IOException e) {
            throw new ChannelException("failed to open a socket", e);
        }
    }

    /** Closes {@code socket} after a constructor failed, keeping the first failure. */
    static void closeAfterFailure(Socket socket, Throwable failure) {
        try {
            socket.close();
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * The native address of {@code buf}'s bytes {@code [index, index + length)}: a direct buffer of one memory
     * region, which the caller keeps alive while the kernel uses the address.
     */
    static long address(ByteBuf buf, int index, int length) {
        if (buf.hasMemoryAddress()) {
            return buf.memoryAddress() + index;
        }
        ByteBuffer view = buf.internalNioBuffer(index, length);
        return Native.bufferAddress(view) + view.position();
    }

    @Override
    public boolean isOpen() {
        return socket.isOpen();
    }

    @Override
    public boolean isActive() {
        return active && socket.isOpen();
    }

    /** Marks the channel connected, or bound and listening. */
    final void markActive() {
        active = true;
    }

    @Override
    protected final IoHandle ioHandle() {
        return handle;
    }

    @Override
    protected SocketAddress localAddress0() {
        try {
            return socket.isOpen() ? socket.localAddress() : null;
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    protected SocketAddress remoteAddress0() {
        try {
            return socket.isOpen() ? socket.remoteAddress() : null;
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    protected void doBind(SocketAddress localAddress) throws Exception {
        socket.bind(localAddress);
    }

    /**
     * Cancels the registration, which cancels the operations in flight, and closes the socket once the kernel has
     * taken every SQE queued for it: the writes of this loop turn first (what they can send at once is sent, as a
     * readiness transport's last write would have been), then the cancellations. An SQE still queued when the
     * descriptor closed would name a number that may already be another socket's.
     */
    @Override
    protected void doClose() throws Exception {
        active = false;
        IoRegistration registration = ioRegistration();
        if (registration != null) {
            registration.cancel();
            IoUringIoHandler handler = registration.attachment();
            handler.submitQueued();
        }
        socket.close();
    }

    @Override
    protected final void doBeginRead() {
        readPending = true;
        startInput();
    }

    /** Whether a read was asked for and not yet served. */
    final boolean isReadPending() {
        return readPending;
    }

    /** Something was delivered: the pending read is served. */
    final void readServed() {
        readPending = false;
    }

    /** Whether input is wanted: a pending read, or auto-read. */
    final boolean wantsInput() {
        return readPending || config().isAutoRead();
    }

    /** Auto-read was turned off: do not read beyond what is in flight. Any thread. */
    final void clearReadPending() {
        if (eventLoop().inEventLoop()) {
            readNoLongerWanted();
        } else {
            eventLoop().execute(this::readNoLongerWanted);
        }
    }

    private void readNoLongerWanted() {
        readPending = false;
        if (!config().isAutoRead()) {
            stopInput();
        }
    }

    /** Input is no longer wanted: stop an input operation that would otherwise go on delivering (multishot). */
    void stopInput() {
    }

    /**
     * Queues {@code ops} on the current registration.
     *
     * @return the operation's id
     * @throws ClosedChannelException if the channel is not registered (or its registration was cancelled)
     */
    final long submit(IoUringIoOps ops) throws ClosedChannelException {
        IoRegistration registration = ioRegistration();
        if (registration == null || !registration.isValid()) {
            throw new ClosedChannelException();
        }
        return registration.submit(ops);
    }

    /** Submits the input operation (receive, accept) unless one is in flight or input is not possible now. */
    abstract void startInput();

    /**
     * One completion of this channel's operations.
     *
     * @param current whether it belongs to the live registration; if not, only release what the operation held
     */
    abstract void completed(IoUringIoEvent event, boolean current);

    /** The handle the I/O handler knows this channel by. */
    private final class CompletionHandle implements IoUringIoHandle {
        @Override
        public void handle(IoRegistration registration, IoEvent event) {
            completed((IoUringIoEvent) event, registration == ioRegistration() && registration.isValid());
        }

        /** Nothing to free: each operation's memory went back with its completion. */
        @Override
        public void unregistered() {
        }

        /** The I/O handler is going away: close as a user would, so the handlers hear of it. */
        @Override
        public void close() {
            if (isOpen() || isRegistered()) {
                AbstractIoUringChannel.this.close(voidPromise());
            }
        }
    }
}
