package io.weir.channel.kqueue;

import io.weir.channel.AbstractChannel;
import io.weir.channel.Channel;
import io.weir.channel.ChannelException;
import io.weir.channel.EventLoop;
import io.weir.channel.IoEvent;
import io.weir.channel.IoHandle;
import io.weir.channel.IoRegistration;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.FileDescriptor;
import io.weir.channel.unix.Socket;
import io.weir.channel.unix.internal.EdgeTriggeredInput;
import io.weir.util.platform.LoopLogger;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.SocketAddress;
import java.util.Objects;

/**
 * The base of the kqueue channels: a non-blocking {@link Socket} whose read and write filters the event loop's
 * {@link KQueueIoHandler} keeps, chosen through the channel's {@link IoRegistration} as {@link KQueueIoOps}.
 * Filters are {@code EV_CLEAR}: a channel hears about readiness once per change.
 *
 * <h2>Input left behind</h2>
 * Reading is edge-triggered; unix-common's {@link EdgeTriggeredInput}, shared with epoll, keeps the state that
 * makes sure no readiness is lost (input left behind is read again as a task, or the read filter is deleted until
 * {@link Channel#read()} adds it back, which makes kqueue report a readable socket at once). This class maps its
 * interest to the read filter.
 *
 * <h2>End of stream and errors</h2>
 * {@code EV_EOF} on the read filter (the peer's FIN) makes the read loop go on until it reads the end of the
 * stream, since no further event will come. Neither {@code EV_EOF} nor the kevent's byte count is trusted as
 * proof of anything by itself: libkqueue sets {@code EV_EOF} whenever a stream socket has 0 bytes queued, and
 * reports 1 as a listening socket's backlog. A connect's outcome comes from the event's error number when it
 * carries one (libkqueue consumed {@code SO_ERROR} to produce it) and from {@code SO_ERROR} otherwise.
 *
 * <p>All hooks run on the event loop; public methods are thread-safe as in {@link AbstractChannel}.
 */
abstract class AbstractKQueueChannel extends AbstractChannel {
    private static final LoopLogger LOGGER = LoopLogger.of(AbstractKQueueChannel.class);

    final Socket socket;
    private final Handle handle = new Handle();
    private final Runnable flushTask = this::writeFlushed;
    private final EdgeTriggeredInput input;

    // Event loop only.
    private KQueueIoOps ops = KQueueIoOps.NONE;
    private boolean connecting;
    private IOException connectError;

    // Read from any thread through isActive().
    private volatile boolean active;

    /**
     * A channel over {@code socket}, which it owns from now on.
     *
     * @param active whether the socket is connected already (accepted)
     * @param eventLoop a loop that passed {@link #checkCompatible}
     */
    AbstractKQueueChannel(Channel parent, EventLoop eventLoop, Socket socket, boolean active) {
        super(parent, eventLoop);
        this.socket = Objects.requireNonNull(socket, "socket");
        this.active = active;
        this.input = new EdgeTriggeredInput(this, new InputHooks());
        // BSD/macOS: EPIPE instead of a SIGPIPE that would end the JVM. Linux has no such option (0): unix-common
        // sends with MSG_NOSIGNAL there.
        int res = KQueueSocketNative.setNoSigPipe(socket.intValue());
        if (res < 0) {
            logDebug("Failed to set SO_NOSIGPIPE on " + socket, Errors.newIoException("setsockopt(SO_NOSIGPIPE)", res));
        }
    }

    /**
     * Returns {@code eventLoop} if it runs a {@link KQueueIoHandler}; otherwise closes {@code socket} (so a refused
     * constructor leaks no descriptor) and throws.
     *
     * @throws NullPointerException if {@code eventLoop} is null
     * @throws IllegalArgumentException if {@code eventLoop} runs another I/O handler
     */
    static EventLoop checkCompatible(EventLoop eventLoop, Socket socket) {
        RuntimeException failure;
        if (eventLoop == null) {
            failure = new NullPointerException("eventLoop");
        } else if (!eventLoop.isCompatible(Handle.class)) {
            failure = new IllegalArgumentException("incompatible event loop: " + eventLoop + " (a kqueue channel"
                    + " needs a loop of new MultiThreadIoEventLoopGroup(n, KQueueIoHandler.newFactory()))");
        } else {
            return eventLoop;
        }
        closeAfterFailure(socket, failure);
        throw failure;
    }

    /** Opens a TCP socket, turning a failure into a {@link ChannelException}. */
    static Socket openStreamSocket() {
        KQueue.ensureAvailability();
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
    protected void doRegister() {
        // A fresh registration keeps no filter: apply the ones the channel wants.
        applyOps();
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

    @Override
    protected boolean doConnect(SocketAddress remoteAddress, SocketAddress localAddress) throws Exception {
        if (localAddress != null) {
            socket.bind(localAddress);
        }
        try {
            if (socket.connect(remoteAddress)) {
                active = true;
                return true;
            }
        } catch (IOException e) {
            // Refused at once: the socket cannot be used again, exactly as after a failure in the background.
            doClose();
            throw e;
        }
        connecting = true;
        watch(KQueueIoOps.WRITE);
        return false;
    }

    @Override
    protected void doFinishConnect() throws Exception {
        IOException error = connectError;
        if (error != null) {
            connectError = null;
            doClose();
            throw error;
        }
        active = true;
    }

    @Override
    protected void doDisconnect() throws Exception {
        doClose();
    }

    @Override
    protected void doClose() throws Exception {
        active = false;
        connecting = false;
        // Filters go before the descriptor: libkqueue would keep them for a closed number (a kernel drops them).
        IoRegistration registration = ioRegistration();
        if (registration != null) {
            registration.cancel();
        }
        socket.close();
    }

    // ---------------------------------------------------------------- filters (event loop only)

    final void watch(KQueueIoOps filters) {
        if (!ops.contains(filters)) {
            ops = ops.with(filters);
            applyOps();
        }
    }

    final void unwatch(KQueueIoOps filters) {
        KQueueIoOps remaining = ops.without(filters);
        if (remaining != ops) {
            ops = remaining;
            applyOps();
        }
    }

    final boolean watches(KQueueIoOps filters) {
        return ops.contains(filters);
    }

    private void applyOps() {
        IoRegistration registration = ioRegistration();
        if (registration != null && registration.isValid()) {
            registration.submit(ops);
        }
    }

    // ---------------------------------------------------------------- reading

    @Override
    protected void doBeginRead() throws Exception {
        input.beginRead(inputPaused());
    }

    /**
     * Whether input must not be listened for although a read is wanted (a server backing off after a failed
     * accept); the subclass calls {@link #listenForInput()} when the pause ends. Event loop only.
     */
    boolean inputPaused() {
        return false;
    }

    /** Makes sure read readiness is heard, input already waiting included. Event loop only. */
    final void listenForInput() {
        input.watchInput();
    }

    /** Whether a read ({@link Channel#read()} or auto-read) is wanted and not yet served. Event loop only. */
    final boolean readRequested() {
        return input.isReadPending();
    }

    /** Something was delivered: the requested read is served. Event loop only. */
    final void readDelivered() {
        input.readServed();
    }

    /** Whether the read filter reported {@code EV_EOF}: read on until the end of the stream. */
    final boolean peerFinSeen() {
        return input.peerFinReceived();
    }

    /** Auto-read was turned off: no read after the current one. Any thread. */
    final void autoReadOff() {
        input.clearReadPending();
    }

    /**
     * The subclass's read loop: reads, fires {@code channelRead} per message and {@code channelReadComplete} once,
     * calling {@link #readStopped} before the latter and {@link #readFinished()} after it. Event loop only.
     */
    abstract void readInput();

    /** See {@link EdgeTriggeredInput#readLoopEnded(boolean)}. */
    final void readStopped(boolean drained) {
        input.readLoopEnded(drained);
    }

    /** After {@code channelReadComplete}: read again later, or stop listening for input. */
    final void readFinished() {
        input.readLoopDone();
    }

    /** The input is over (shut down or at its end): no more reads, no more read filter. */
    final void inputOver() {
        input.inputDone();
    }

    // ---------------------------------------------------------------- writing

    /** Whether the channel waits for the write filter: the socket buffer was full, or a connect is under way. */
    @Override
    protected final boolean isWritePending() {
        return watches(KQueueIoOps.WRITE);
    }

    /**
     * Ends a {@code doWrite} that left data behind: waits for the write filter if the socket took nothing,
     * otherwise (the spin count ran out) lets a task write the rest after the other channels' turn.
     */
    final void writeLeftOver(boolean socketFull) {
        if (socketFull) {
            watch(KQueueIoOps.WRITE);
        } else {
            unwatch(KQueueIoOps.WRITE);
            eventLoop().execute(flushTask);
        }
    }

    /** Everything flushed was written: the write filter can go. */
    final void writeDrained() {
        if (!connecting) {
            unwatch(KQueueIoOps.WRITE);
        }
    }

    // ---------------------------------------------------------------- readiness

    private void onEvent(KQueueIoEvent event) {
        if (!socket.isOpen()) {
            // Collected before the channel closed in this same pass.
            return;
        }
        if (connecting) {
            if (event.isWritable() || event.isError()) {
                connectDone(event.errorNumber());
            }
            return;
        }
        if (!isActive()) {
            return;
        }
        if (event.isWritable()) {
            if (watches(KQueueIoOps.WRITE)) {
                unwatch(KQueueIoOps.WRITE);
                writeFlushed();
            }
            return;
        }
        if (event.isEndOfFile()) {
            input.peerFin();
        }
        input.readReady();
    }

    private void connectDone(int errorNumber) {
        if (errorNumber != 0) {
            connectError = Errors.newConnectException("connect", -errorNumber);
        } else {
            try {
                if (!socket.finishConnect()) {
                    return;
                }
            } catch (IOException e) {
                connectError = e;
            }
        }
        connecting = false;
        if (connectError == null) {
            // Writes flushed while connecting wait for the flag; the write filter goes with it.
            unwatch(KQueueIoOps.WRITE);
        }
        finishConnect();
        if (isActive()) {
            writeFlushed();
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + super.toString();
    }

    static void logDebug(String message, Throwable t) {
        LOGGER.log(Level.DEBUG, message, t);
    }

    /** The read filter as {@link EdgeTriggeredInput} sees it. */
    private final class InputHooks implements EdgeTriggeredInput.Hooks {
        @Override
        public boolean isReadWatched() {
            return watches(KQueueIoOps.READ);
        }

        @Override
        public void watchRead() {
            watch(KQueueIoOps.READ);
        }

        @Override
        public void unwatchRead() {
            unwatch(KQueueIoOps.READ);
        }

        @Override
        public void unwatchInput() {
            // EV_EOF comes with the read filter: nothing else to stop hearing.
            unwatch(KQueueIoOps.READ);
        }

        @Override
        public boolean hasQueuedInputWork() {
            return false;
        }

        @Override
        public void readLoop() {
            readInput();
        }
    }

    /** The channel as the {@link KQueueIoHandler} sees it. */
    private final class Handle implements KQueueIoHandle {
        @Override
        public FileDescriptor fd() {
            return socket;
        }

        @Override
        public void handle(IoRegistration registration, IoEvent event) {
            onEvent((KQueueIoEvent) event);
        }

        @Override
        public void close() {
            // The I/O handler is going away: close as a user would, so the handlers hear of it.
            if (isOpen() || isRegistered()) {
                AbstractKQueueChannel.this.close(voidPromise());
            }
        }

        @Override
        public String toString() {
            return "KQueueChannelHandle(" + AbstractKQueueChannel.this + ')';
        }
    }
}
