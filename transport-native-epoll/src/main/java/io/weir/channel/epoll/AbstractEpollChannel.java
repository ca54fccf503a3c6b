package io.weir.channel.epoll;

import io.weir.channel.AbstractChannel;
import io.weir.channel.Channel;
import io.weir.channel.EventLoop;
import io.weir.channel.IoEvent;
import io.weir.channel.IoHandle;
import io.weir.channel.IoRegistration;
import io.weir.channel.unix.FileDescriptor;
import io.weir.channel.unix.Socket;
import io.weir.channel.unix.internal.EdgeTriggeredInput;
import io.weir.util.platform.LoopLogger;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.SocketAddress;
import java.util.Objects;

/**
 * The base of the epoll channels: a non-blocking {@link Socket} registered with the event loop's
 * {@link EpollIoHandler} through an {@link EpollIoHandle} of its own, with the watched events set through the
 * {@link IoRegistration} as {@link EpollIoOps}. Notification is edge-triggered.
 *
 * <p>Reading is edge-triggered; unix-common's {@link EdgeTriggeredInput} keeps the state that makes sure no
 * readiness is lost (see there), with {@code EPOLLIN} as the read interest and {@code EPOLLRDHUP} as the peer's
 * FIN.
 *
 * <p>{@code EPOLLERR} and {@code EPOLLHUP} are handled as read readiness of a connected channel (the read
 * then reports the error or the end of the stream, which closes the channel) and as write readiness (a pending
 * write fails with the error); while connecting, they complete the connect, which then fails.
 *
 * <p>All hooks run on the event loop; public methods are thread-safe as in {@link AbstractChannel}.
 */
abstract class AbstractEpollChannel extends AbstractChannel {
    private static final LoopLogger LOGGER = LoopLogger.of(AbstractEpollChannel.class);

    final Socket socket;
    private final EpollHandle handle = new EpollHandle();
    private final EdgeTriggeredInput input;
    private final Runnable flushTask = this::writeFlushed;

    // Event loop only.
    private EpollIoOps ops;
    private boolean connectPending;
    private IOException connectFailure;

    // Read from any thread through isActive().
    private volatile boolean active;

    /**
     * A channel over {@code socket}, which it owns from now on.
     *
     * @param active whether the socket is connected already (accepted)
     * @param eventLoop a loop that passed {@link #checkCompatible}
     * @param baseOps the events watched whatever the channel does ({@code EPOLLRDHUP} for streams)
     */
    AbstractEpollChannel(Channel parent, EventLoop eventLoop, Socket socket, boolean active, EpollIoOps baseOps) {
        super(parent, eventLoop);
        this.socket = Objects.requireNonNull(socket, "socket");
        this.active = active;
        this.ops = baseOps;
        this.input = new EdgeTriggeredInput(this, new InputHooks());
    }

    /**
     * Returns {@code eventLoop} if it runs an {@link EpollIoHandler}; otherwise closes {@code socket} (so a refused
     * constructor leaks no descriptor) and throws.
     *
     * @throws NullPointerException if {@code eventLoop} is null
     * @throws IllegalArgumentException if {@code eventLoop} runs another I/O handler
     */
    static EventLoop checkCompatible(EventLoop eventLoop, Socket socket) {
        RuntimeException failure = null;
        if (eventLoop == null) {
            failure = new NullPointerException("eventLoop");
        } else if (!eventLoop.isCompatible(EpollHandle.class)) {
            failure = new IllegalArgumentException("incompatible event loop: " + eventLoop + " (an epoll channel"
                    + " needs a loop of new MultiThreadIoEventLoopGroup(n, EpollIoHandler.newFactory()))");
        }
        if (failure != null) {
            closeAfterFailure(socket, failure);
            throw failure;
        }
        return eventLoop;
    }

    /** Opens a TCP socket, turning a failure into a {@link io.weir.channel.ChannelException}. */
    static Socket newStreamSocket() {
        Epoll.ensureAvailability();
        try {
            return Socket.newSocketStream();
        } catch (IOException e) {
            throw new io.weir.channel.ChannelException("failed to open a socket", e);
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

    /** Marks the channel connected (or bound and listening). */
    final void active() {
        active = true;
    }

    @Override
    protected final IoHandle ioHandle() {
        return handle;
    }

    @Override
    protected void doRegister() {
        // A new registration starts out watching nothing: re-apply what the channel wants.
        submitOps();
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
        boolean connected;
        try {
            connected = socket.connect(remoteAddress);
        } catch (IOException e) {
            // Refused at once: the socket is of no further use, as after a failed connect in the background.
            doClose();
            throw e;
        }
        if (connected) {
            active = true;
            return true;
        }
        connectPending = true;
        addOps(EpollIoOps.EPOLLOUT);
        return false;
    }

    @Override
    protected void doFinishConnect() throws Exception {
        IOException failure = connectFailure;
        if (failure != null) {
            connectFailure = null;
            // A socket whose connect failed cannot connect again; closed here, the channel closes with it.
            doClose();
            throw failure;
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
        connectPending = false;
        // Out of the epoll set before the number is released: a new socket may get the same number at once.
        IoRegistration registration = ioRegistration();
        if (registration != null) {
            registration.cancel();
        }
        socket.close();
    }

    // ---------------------------------------------------------------- events watched (event loop only)

    final void addOps(EpollIoOps add) {
        if (!ops.contains(add)) {
            ops = ops.with(add);
            submitOps();
        }
    }

    final void removeOps(EpollIoOps remove) {
        if (ops.intersects(remove)) {
            ops = ops.without(remove);
            submitOps();
        }
    }

    final boolean hasOps(EpollIoOps wanted) {
        return ops.contains(wanted);
    }

    private void submitOps() {
        IoRegistration registration = ioRegistration();
        if (registration != null && registration.isValid()) {
            registration.submit(ops);
        }
    }

    // ---------------------------------------------------------------- reading

    @Override
    protected void doBeginRead() throws Exception {
        input.beginRead(inputSuspended());
    }

    /**
     * Whether input must not be watched for now even though a read is pending (a server channel backing off
     * after accept failed); the subclass calls {@link #watchInput()} itself when the pause ends. Event loop only.
     */
    boolean inputSuspended() {
        return false;
    }

    /** Makes sure read readiness is heard, including input that is waiting already. Event loop only. */
    final void watchInput() {
        input.watchInput();
    }

    /** Whether a read was asked for ({@link Channel#read()} or auto-read) and not yet served. Event loop only. */
    final boolean isReadPending() {
        return input.isReadPending();
    }

    /** Marks the pending read as served: something was delivered. Event loop only. */
    final void readServed() {
        input.readServed();
    }

    /** Whether the peer's FIN was reported ({@code EPOLLRDHUP}, {@code EPOLLHUP}): read on until the end of stream. */
    final boolean rdHupReceived() {
        return input.peerFinReceived();
    }

    /** Auto-read was turned off: stop reading after the current loop. Safe from any thread. */
    final void clearReadPending() {
        input.clearReadPending();
    }

    /**
     * Whether input is wanted whatever auto-read and {@link Channel#read()} say: work queued for the input, such as
     * a splice, that must be served. Event loop only.
     */
    boolean hasQueuedInputWork() {
        return false;
    }

    /**
     * The read loop of the subclass: reads, fires {@code channelRead} per message and {@code channelReadComplete}
     * once, and ends with {@link #readLoopDone()}. Event loop only.
     */
    abstract void readLoop();

    /** See {@link EdgeTriggeredInput#readLoopEnded(boolean)}. */
    final void readLoopEnded(boolean drained) {
        input.readLoopEnded(drained);
    }

    /** After {@code channelReadComplete}: re-run the loop later, or stop watching {@code EPOLLIN}. */
    final void readLoopDone() {
        input.readLoopDone();
    }

    /** The input is done (shut down or at its end): no more reads, no more read readiness. */
    final void inputDone() {
        input.inputDone();
    }

    // ---------------------------------------------------------------- writing

    /**
     * Whether the channel waits for {@code EPOLLOUT}: the socket buffer was full, or a connect is under way
     * (writes flushed meanwhile are sent once it completes).
     */
    @Override
    protected final boolean isWritePending() {
        return hasOps(EpollIoOps.EPOLLOUT);
    }

    /**
     * Ends a {@code doWrite} that left data behind: if the socket took nothing ({@code socketFull}), waits for
     * {@code EPOLLOUT}; otherwise the write spin count ran out, and a task writes the rest after other channels
     * had their turn.
     */
    final void incompleteWrite(boolean socketFull) {
        if (socketFull) {
            // EPOLL_CTL_MOD reports the socket at once if it became writable since the write failed.
            addOps(EpollIoOps.EPOLLOUT);
        } else {
            removeOps(EpollIoOps.EPOLLOUT);
            eventLoop().execute(flushTask);
        }
    }

    /** Everything flushed was written: stop watching {@code EPOLLOUT}. */
    final void writeComplete() {
        if (!connectPending) {
            removeOps(EpollIoOps.EPOLLOUT);
        }
    }

    // ---------------------------------------------------------------- readiness

    private void handle(EpollIoEvent event) {
        if (!socket.isOpen()) {
            // A stale event for a number already closed (and perhaps reused).
            return;
        }
        if (connectPending) {
            if (event.isWritable() || event.isError() || event.isHangUp()) {
                connectReady();
            }
            return;
        }
        if (!isActive()) {
            // An unconnected socket reports EPOLLHUP; there is nothing to do until it connects or listens.
            return;
        }
        if (event.isReadHangUp() || event.isHangUp()) {
            input.peerFin();
        }
        if ((event.isWritable() || event.isError()) && hasOps(EpollIoOps.EPOLLOUT)) {
            removeOps(EpollIoOps.EPOLLOUT);
            writeFlushed();
            if (!isOpen()) {
                return;
            }
        }
        if (event.isReadable() || event.isReadHangUp() || event.isHangUp() || event.isError()) {
            input.readReady();
        }
    }

    private void connectReady() {
        boolean done;
        try {
            done = socket.finishConnect();
        } catch (IOException e) {
            connectFailure = e;
            done = true;
        }
        if (!done) {
            // A hang-up reported for the socket before connect() ran: the connect's own edge is still to come.
            return;
        }
        connectPending = false;
        if (connectFailure == null) {
            // Writes queued while connecting wait for this flag to clear; EPOLLOUT goes with it.
            removeOps(EpollIoOps.EPOLLOUT);
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

    /** The read interest as epoll events. */
    private final class InputHooks implements EdgeTriggeredInput.Hooks {
        @Override
        public boolean isReadWatched() {
            return hasOps(EpollIoOps.EPOLLIN);
        }

        @Override
        public void watchRead() {
            addOps(EpollIoOps.EPOLLIN);
        }

        @Override
        public void unwatchRead() {
            removeOps(EpollIoOps.EPOLLIN);
        }

        @Override
        public void unwatchInput() {
            removeOps(EpollIoOps.EPOLLIN.with(EpollIoOps.EPOLLRDHUP));
        }

        @Override
        public boolean hasQueuedInputWork() {
            return AbstractEpollChannel.this.hasQueuedInputWork();
        }

        @Override
        public void readLoop() {
            AbstractEpollChannel.this.readLoop();
        }
    }

    /** The channel's face towards the {@link EpollIoHandler}. */
    private final class EpollHandle implements EpollIoHandle {
        @Override
        public FileDescriptor fd() {
            return socket;
        }

        @Override
        public void handle(IoRegistration registration, IoEvent event) {
            AbstractEpollChannel.this.handle((EpollIoEvent) event);
        }

        @Override
        public void close() {
            // The I/O handler is going away: close like a user would, so handlers hear of it.
            if (isOpen() || isRegistered()) {
                AbstractEpollChannel.this.close(voidPromise());
            }
        }

        @Override
        public String toString() {
            return "EpollHandle(" + AbstractEpollChannel.this + ')';
        }
    }

    static void logDebug(String message, Throwable t) {
        LOGGER.log(Level.DEBUG, message, t);
    }
}
