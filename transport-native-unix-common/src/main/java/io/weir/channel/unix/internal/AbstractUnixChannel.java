package io.weir.channel.unix.internal;

import io.weir.channel.AbstractChannel;
import io.weir.channel.Channel;
import io.weir.channel.EventLoop;
import io.weir.channel.IoHandle;
import io.weir.channel.IoOps;
import io.weir.channel.IoRegistration;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.Socket;
import io.weir.util.platform.LoopLogger;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.SocketAddress;
import java.util.Objects;

/**
 * The readiness core of the native channels (epoll, kqueue): a non-blocking {@link Socket} registered with the
 * event loop's I/O handler, with what it watches kept as an <em>interest</em> and its edge-triggered input kept by
 * an {@link EdgeTriggeredInput}. A transport tells, through a {@link UnixTransport}, only its own words for the
 * interest (an {@link IoOps} per combination of {@link #INTEREST_READ}, {@link #INTEREST_WRITE} and
 * {@link #INTEREST_PEER_FIN}) and its {@link IoHandle}, which decodes its events into {@link Readiness} flags. What a readiness does is decided here, once for every transport: a pending connect
 * completes on write readiness, an error or a hang-up; the peer's FIN makes the read loop go on to the end of the
 * stream; write readiness or an error writes what waits (and fails it with the error); read readiness, the FIN
 * or an error runs the read loop if a read is wanted.
 *
 * <h2>Vocabulary</h2>
 * <ul>
 *   <li><b>watch / unwatch</b>: add or drop an interest; the registration gets the matching {@link IoOps} at once.
 *       Adding an interest makes the kernel report a descriptor that is ready already ({@code EPOLL_CTL_MOD},
 *       kqueue's {@code EV_ADD}), which is how input missed meanwhile comes back.</li>
 *   <li><b>read pending / read served</b>: a read was asked for ({@link Channel#read()} or auto-read) / something
 *       was delivered for it.</li>
 *   <li><b>input paused</b>: input is not watched although a read is pending (a server backing off after a failed
 *       accept); the subclass watches it again itself.</li>
 *   <li><b>read loop ended / done</b>: after the {@code channelRead}s / after {@code channelReadComplete}.</li>
 *   <li><b>input done</b>: shut down or at its end; no more reads, no more read interest.</li>
 *   <li><b>write complete / incomplete</b>: everything flushed was written / some is left (socket full: wait for
 *       write readiness; spin count used up: a task writes the rest).</li>
 * </ul>
 *
 * <h2>Connecting</h2>
 * A connect that does not complete at once watches write readiness; its outcome comes from the event's error
 * number when the transport has one (libkqueue consumes {@code SO_ERROR} to report it) and from
 * {@code SO_ERROR} otherwise. Writes flushed meanwhile are sent once it completes.
 *
 * <p>All hooks run on the event loop; public methods are thread-safe as in {@link AbstractChannel}. Not for
 * applications.
 */
public abstract class AbstractUnixChannel extends AbstractChannel {
    /** See {@link UnixTransport#INTEREST_READ}. */
    protected static final int INTEREST_READ = UnixTransport.INTEREST_READ;
    /** See {@link UnixTransport#INTEREST_WRITE}. */
    protected static final int INTEREST_WRITE = UnixTransport.INTEREST_WRITE;
    /** See {@link UnixTransport#INTEREST_PEER_FIN}. */
    protected static final int INTEREST_PEER_FIN = UnixTransport.INTEREST_PEER_FIN;

    private static final LoopLogger LOGGER = LoopLogger.of(AbstractUnixChannel.class);

    /** The channel's socket, owned by it; closed with it. */
    protected final Socket socket;
    private final IoOps[] opsByInterest;
    private final IoHandle handle;
    private final EdgeTriggeredInput input;
    private final Runnable flushTask = this::writeFlushed;

    // Event loop only.
    private int interest;
    private boolean connectPending;
    private IOException connectFailure;

    // Read from any thread through isActive().
    private volatile boolean active;

    /**
     * A channel over {@code socket}, which it owns from now on; closes it if {@code eventLoop} does not run the
     * transport's I/O handler.
     *
     * @param active whether the socket is connected already (accepted)
     * @param transport what the transport tells about itself
     * @param baseInterest what is watched whatever the channel does ({@link #INTEREST_PEER_FIN} for streams)
     * @throws NullPointerException if {@code eventLoop} is null
     * @throws IllegalArgumentException if {@code eventLoop} runs another I/O handler
     */
    protected AbstractUnixChannel(Channel parent, EventLoop eventLoop, Socket socket, boolean active,
                                  UnixTransport transport, int baseInterest) {
        super(parent, transport.checkCompatible(eventLoop, socket));
        this.socket = Objects.requireNonNull(socket, "socket");
        this.opsByInterest = transport.opsByInterest();
        this.interest = baseInterest;
        this.active = active;
        this.input = new EdgeTriggeredInput(this, new InputHooks());
        this.handle = transport.newHandle(new Readiness(this));
    }

    /** Closes {@code socket} after a constructor failed, keeping the first failure. */
    protected static void closeAfterFailure(Socket socket, Throwable failure) {
        try {
            socket.close();
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }

    /** Logs at debug level what a channel could not do and goes on without it. */
    protected static void logDebug(String message, Throwable t) {
        LOGGER.log(Level.DEBUG, message, t);
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
    protected final void markActive() {
        active = true;
    }

    @Override
    protected final IoHandle ioHandle() {
        return handle;
    }

    @Override
    protected void doRegister() {
        // A fresh registration watches nothing: apply what the channel wants.
        submitInterest();
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
            // Refused at once: the socket is of no further use, as after a failed connect in the background.
            doClose();
            throw e;
        }
        connectPending = true;
        watch(INTEREST_WRITE);
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
        // Out of the readiness set before the number is released: a new socket may get the same number at once
        // (and libkqueue would keep the filters of a closed number).
        IoRegistration registration = ioRegistration();
        if (registration != null) {
            registration.cancel();
        }
        socket.close();
    }

    /** The I/O handler is going away: close as a user would, so the handlers hear of it. */
    final void closeForHandler() {
        if (isOpen() || isRegistered()) {
            close(voidPromise());
        }
    }

    // ---------------------------------------------------------------- interest (event loop only)

    /** Adds {@code bits} ({@code INTEREST_*}) to what is watched. */
    protected final void watch(int bits) {
        int now = interest;
        if ((now & bits) != bits) {
            interest = now | bits;
            submitInterest();
        }
    }

    /** Drops {@code bits} ({@code INTEREST_*}) from what is watched. */
    protected final void unwatch(int bits) {
        int now = interest;
        if ((now & bits) != 0) {
            interest = now & ~bits;
            submitInterest();
        }
    }

    /** Whether every one of {@code bits} ({@code INTEREST_*}) is watched. */
    protected final boolean watches(int bits) {
        return (interest & bits) == bits;
    }

    private void submitInterest() {
        IoRegistration registration = ioRegistration();
        if (registration != null && registration.isValid()) {
            registration.submit(opsByInterest[interest]);
        }
    }

    // ---------------------------------------------------------------- reading

    @Override
    protected void doBeginRead() throws Exception {
        input.beginRead(inputPaused());
    }

    /**
     * Whether input must not be watched for now although a read is pending (a server channel backing off after
     * accept failed); the subclass calls {@link #watchInput()} itself when the pause ends. Event loop only.
     */
    protected boolean inputPaused() {
        return false;
    }

    /** Makes sure read readiness is heard, input already waiting included. Event loop only. */
    protected final void watchInput() {
        input.watchInput();
    }

    /** Whether a read was asked for ({@link Channel#read()} or auto-read) and not yet served. Event loop only. */
    protected final boolean isReadPending() {
        return input.isReadPending();
    }

    /** Marks the pending read as served: something was delivered. Event loop only. */
    protected final void readServed() {
        input.readServed();
    }

    /** Whether the peer's FIN was reported ({@code EPOLLRDHUP}, {@code EV_EOF}): read on until the end of stream. */
    protected final boolean peerFinReceived() {
        return input.peerFinReceived();
    }

    /** Auto-read was turned off: stop reading after the current loop. Any thread. */
    final void clearReadPending() {
        input.clearReadPending();
    }

    /**
     * Whether input is wanted whatever auto-read and {@link Channel#read()} say: work queued for the input, such as
     * a splice, that must be served. Event loop only.
     */
    protected boolean hasQueuedInputWork() {
        return false;
    }

    /**
     * The read loop of the subclass: reads, fires {@code channelRead} per message and {@code channelReadComplete}
     * once, calling {@link #readLoopEnded(boolean)} before the latter and {@link #readLoopDone()} after it. Event
     * loop only.
     */
    protected abstract void readLoop();

    /** See {@link EdgeTriggeredInput#readLoopEnded(boolean)}. */
    protected final void readLoopEnded(boolean drained) {
        input.readLoopEnded(drained);
    }

    /** After {@code channelReadComplete}: re-run the loop later, or stop watching read readiness. */
    protected final void readLoopDone() {
        input.readLoopDone();
    }

    /** The input is done (shut down or at its end): no more reads, no more read readiness. */
    protected final void inputDone() {
        input.inputDone();
    }

    // ---------------------------------------------------------------- writing

    /**
     * Whether the channel waits for write readiness: the socket buffer was full, or a connect is under way (writes
     * flushed meanwhile are sent once it completes).
     */
    @Override
    protected final boolean isWritePending() {
        return watches(INTEREST_WRITE);
    }

    /**
     * Ends a {@code doWrite} that left data behind: if the socket took nothing ({@code socketFull}), waits for write
     * readiness; otherwise the write spin count ran out, and a task writes the rest after other channels had their
     * turn.
     */
    protected final void incompleteWrite(boolean socketFull) {
        if (socketFull) {
            // Re-adding the interest reports the socket at once if it became writable since the write failed.
            watch(INTEREST_WRITE);
        } else {
            unwatch(INTEREST_WRITE);
            eventLoop().execute(flushTask);
        }
    }

    /** Everything flushed was written: stop watching write readiness. */
    protected final void writeComplete() {
        if (!connectPending) {
            unwatch(INTEREST_WRITE);
        }
    }

    // ---------------------------------------------------------------- readiness (event loop only)

    /**
     * What the transport's handle decoded from one event: {@link Readiness} flags, and the error number the event
     * carried (0 if none; libkqueue consumes {@code SO_ERROR} to report it, so it must be used when present).
     */
    final void ready(int flags, int errorNumber) {
        if (!socket.isOpen()) {
            // A stale event for a number already closed (and perhaps reused).
            return;
        }
        if (connectPending) {
            if ((flags & (Readiness.WRITABLE | Readiness.ERROR | Readiness.HANGUP)) != 0) {
                connectReady(errorNumber);
            }
            return;
        }
        if (!isActive()) {
            // An unconnected socket reports a hang-up; there is nothing to do until it connects or listens.
            return;
        }
        if ((flags & Readiness.PEER_FIN) != 0) {
            input.peerFin();
        }
        if ((flags & (Readiness.WRITABLE | Readiness.ERROR)) != 0 && watches(INTEREST_WRITE)) {
            // An error fails the pending write with it.
            unwatch(INTEREST_WRITE);
            writeFlushed();
            if (!isOpen()) {
                return;
            }
        }
        if ((flags & (Readiness.READABLE | Readiness.PEER_FIN | Readiness.ERROR)) != 0) {
            input.readReady();
        }
    }

    /** Completes the pending connect, with the failure {@code errorNumber} names if not 0, else as SO_ERROR says. */
    private void connectReady(int errorNumber) {
        if (errorNumber != 0) {
            connectFailure = Errors.newConnectException("connect", -errorNumber);
        } else {
            try {
                if (!socket.finishConnect()) {
                    // A hang-up reported before connect() ran: the connect's own readiness is still to come.
                    return;
                }
            } catch (IOException e) {
                connectFailure = e;
            }
        }
        connectPending = false;
        if (connectFailure == null) {
            // Writes flushed while connecting wait for the flag to clear; the write interest goes with it.
            unwatch(INTEREST_WRITE);
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

    /** The read interest as {@link EdgeTriggeredInput} sees it. */
    private final class InputHooks implements EdgeTriggeredInput.Hooks {
        @Override
        public boolean isReadWatched() {
            return watches(INTEREST_READ);
        }

        @Override
        public void watchRead() {
            watch(INTEREST_READ);
        }

        @Override
        public void unwatchRead() {
            unwatch(INTEREST_READ);
        }

        @Override
        public void unwatchInput() {
            unwatch(INTEREST_READ | INTEREST_PEER_FIN);
        }

        @Override
        public boolean hasQueuedInputWork() {
            return AbstractUnixChannel.this.hasQueuedInputWork();
        }

        @Override
        public void readLoop() {
            AbstractUnixChannel.this.readLoop();
        }
    }
}
