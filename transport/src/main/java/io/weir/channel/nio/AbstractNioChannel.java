package io.weir.channel.nio;

import io.weir.channel.AbstractChannel;
import io.weir.channel.Channel;
import io.weir.channel.ChannelException;
import io.weir.channel.EventLoop;
import io.weir.channel.IoEvent;
import io.weir.channel.IoHandle;
import io.weir.channel.IoRegistration;
import io.weir.util.platform.LoopLogger;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.ConnectException;
import java.net.SocketException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.util.Objects;

/**
 * The base of the NIO channels: a {@link SelectableChannel} in non-blocking mode, registered with the event
 * loop's {@link NioIoHandler} through a {@link NioIoHandle} of its own, with interest operations set through
 * the {@link IoRegistration}.
 *
 * <p>Readiness arrives in {@link NioIoHandle#handle} on the event loop: connect readiness completes a pending
 * connect ({@link #finishConnect()}, whose timeout {@link AbstractChannel} arms from
 * {@link io.weir.channel.ChannelOption#CONNECT_TIMEOUT_MILLIS} and cancels on success), write readiness resumes
 * a write that filled the socket buffer, and read or accept readiness runs the subclass's {@link #readReady()} loop.
 *
 * <p>Reading follows {@link io.weir.channel.ChannelOption#AUTO_READ}: read interest is kept while auto-read
 * is on or a {@link Channel#read()} is pending, and dropped otherwise, so a peer that keeps sending meets a
 * full socket buffer (TCP backpressure) instead of filling memory.
 *
 * <p>All hooks run on the event loop; public methods are thread-safe as in {@link AbstractChannel}.
 */
public abstract class AbstractNioChannel extends AbstractChannel {
    private static final LoopLogger LOGGER = LoopLogger.of(AbstractNioChannel.class);

    private final SelectableChannel ch;
    private final NioIoOps readInterestOp;
    private final Handle handle = new Handle();
    private final Runnable flushTask = this::writeFlushed;

    // Event loop only.
    private boolean readPending;

    /**
     * A channel over {@code ch}, which is switched to non-blocking mode (and closed if that fails).
     *
     * @param readInterestOp what this channel waits for to read: {@link NioIoOps#READ} or {@link NioIoOps#ACCEPT}
     * @throws ChannelException if {@code ch} cannot be made non-blocking
     */
    protected AbstractNioChannel(Channel parent, EventLoop eventLoop, SelectableChannel ch, NioIoOps readInterestOp) {
        super(parent, eventLoop);
        this.ch = Objects.requireNonNull(ch, "ch");
        this.readInterestOp = Objects.requireNonNull(readInterestOp, "readInterestOp");
        try {
            ch.configureBlocking(false);
        } catch (IOException e) {
            try {
                ch.close();
            } catch (IOException closeFailure) {
                e.addSuppressed(closeFailure);
            }
            throw new ChannelException("failed to make the channel non-blocking: " + ch, e);
        }
    }

    /** The JDK channel underneath. */
    protected SelectableChannel javaChannel() {
        return ch;
    }

    @Override
    public boolean isOpen() {
        return ch.isOpen();
    }

    @Override
    protected final IoHandle ioHandle() {
        return handle;
    }

    // ---------------------------------------------------------------- interest ops (event loop only)

    /** Adds {@code ops} to the registration's interest set; does nothing while unregistered. */
    protected final void addInterest(NioIoOps ops) {
        SelectionKey key = validKey();
        if (key != null) {
            int current = key.interestOps();
            if ((current & ops.value()) != ops.value()) {
                ioRegistration().submit(NioIoOps.valueOf(current | ops.value()));
            }
        }
    }

    /** Removes {@code ops} from the registration's interest set; does nothing while unregistered. */
    protected final void removeInterest(NioIoOps ops) {
        SelectionKey key = validKey();
        if (key != null) {
            int current = key.interestOps();
            if ((current & ops.value()) != 0) {
                ioRegistration().submit(NioIoOps.valueOf(current & ~ops.value()));
            }
        }
    }

    /** Whether {@code ops} are all in the interest set. */
    protected final boolean hasInterest(NioIoOps ops) {
        SelectionKey key = validKey();
        return key != null && (key.interestOps() & ops.value()) == ops.value();
    }

    private SelectionKey validKey() {
        IoRegistration registration = ioRegistration();
        if (registration == null || !registration.isValid()) {
            return null;
        }
        SelectionKey key = registration.attachment();
        return key.isValid() ? key : null;
    }

    // ---------------------------------------------------------------- reading

    @Override
    protected void doBeginRead() throws Exception {
        readPending = true;
        if (!readInterestSuspended()) {
            addInterest(readInterestOp);
        }
    }

    /**
     * Whether read readiness must not be watched for now even though a read is pending (a server channel
     * backing off after accept failed); the subclass then adds the interest itself when the pause ends.
     * Event loop only.
     */
    protected boolean readInterestSuspended() {
        return false;
    }

    /** The interest a read watches ({@code OP_READ} or {@code OP_ACCEPT}). */
    protected final NioIoOps readInterestOp() {
        return readInterestOp;
    }

    /** Whether a read was asked for ({@link Channel#read()} or auto-read) and not yet served. Event loop only. */
    protected final boolean isReadPending() {
        return readPending;
    }

    /** Marks the pending read as served: messages were delivered. Event loop only. */
    protected final void readServed() {
        readPending = false;
    }

    /**
     * Ends a read loop: unless auto-read is on or a handler asked for another read meanwhile, stops watching
     * for read readiness. Event loop only.
     */
    protected final void readLoopDone() {
        if (!readPending && !config().isAutoRead()) {
            removeInterest(readInterestOp);
        }
    }

    /** Stops reading at once: auto-read was turned off. Safe from any thread. */
    final void clearReadPending() {
        if (eventLoop().inEventLoop()) {
            clearReadPending0();
        } else {
            eventLoop().execute(this::clearReadPending0);
        }
    }

    private void clearReadPending0() {
        readPending = false;
        if (!config().isAutoRead()) {
            removeInterest(readInterestOp);
        }
    }

    /** The read loop, run on read (or accept) readiness. */
    protected abstract void readReady();

    // ---------------------------------------------------------------- writing

    /** Whether the socket buffer was full and the channel now waits for write readiness. */
    @Override
    protected final boolean isWritePending() {
        return hasInterest(NioIoOps.WRITE);
    }

    /**
     * Ends a {@link #doWrite} that left data behind: if the socket took nothing ({@code socketFull}), waits for
     * write readiness; otherwise the write spin count ran out, so the rest is written by a task after other
     * channels had their turn.
     */
    protected final void incompleteWrite(boolean socketFull) {
        if (socketFull) {
            addInterest(NioIoOps.WRITE);
        } else {
            removeInterest(NioIoOps.WRITE);
            eventLoop().execute(flushTask);
        }
    }

    /** Everything flushed was written: stop waiting for write readiness. */
    protected final void writeComplete() {
        removeInterest(NioIoOps.WRITE);
    }

    // ---------------------------------------------------------------- connecting

    /**
     * Turns a {@link SocketException} that a connect raised (no route, network unreachable) into a
     * {@link ConnectException} with it as the cause, so callers test for one type whatever the kernel said.
     */
    protected static IOException connectFailure(IOException e) {
        if (e instanceof SocketException && !(e instanceof ConnectException)) {
            ConnectException wrapped = new ConnectException(e.getMessage());
            wrapped.initCause(e);
            return wrapped;
        }
        return e;
    }

    @Override
    protected void doClose() throws Exception {
        ch.close();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + super.toString();
    }

    /** The channel's face towards the {@link NioIoHandler}. */
    private final class Handle implements NioIoHandle {
        @Override
        public SelectableChannel selectableChannel() {
            return ch;
        }

        @Override
        public void handle(IoRegistration registration, IoEvent event) {
            int ready = ((NioIoEvent) event).readyOps().value();
            if ((ready & SelectionKey.OP_CONNECT) != 0) {
                // Left set, OP_CONNECT would be reported again and again once connected.
                removeInterest(NioIoOps.CONNECT);
                finishConnect();
            }
            if ((ready & SelectionKey.OP_WRITE) != 0) {
                removeInterest(NioIoOps.WRITE);
                writeFlushed();
            }
            // 0 too: some JDKs report a key with no ready ops, and reading is what clears it.
            if ((ready & (SelectionKey.OP_READ | SelectionKey.OP_ACCEPT)) != 0 || ready == 0) {
                readReady();
            }
        }

        @Override
        public void close() {
            // The I/O handler is going away (or the key died): close like a user would, so handlers hear of it.
            if (isOpen() || isRegistered()) {
                AbstractNioChannel.this.close(voidPromise());
            }
        }

        @Override
        public String toString() {
            return "NioIoHandle(" + AbstractNioChannel.this + ')';
        }
    }

    static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            LOGGER.log(Level.DEBUG, "Failed to close ", closeable, e);
        }
    }
}
