package io.weir.channel.unix.internal;

import io.weir.channel.Channel;
import io.weir.channel.EventLoop;
import java.util.Objects;

/**
 * The read-readiness state of a channel on an edge-triggered readiness API (epoll's {@code EPOLLET}, kqueue's
 * {@code EV_CLEAR}), shared by the native transports: one per channel, event loop only unless a method says
 * otherwise.
 *
 * <h2>Edge-triggered reading without lost readiness</h2>
 * An edge is reported once per change; a channel that does not read everything now will not hear about the rest
 * again. So this remembers whether the socket may still hold input ({@code maybeMoreInput}): set when a read loop
 * stopped before the kernel said "nothing more" (a read that returned nothing, a read that did not fill its
 * buffer, or the end of the stream), when the loop was cut short by
 * {@link io.weir.channel.ChannelOption#MAX_MESSAGES_PER_READ} or auto-read, and when readiness arrived while
 * nobody wanted to read. Then:
 * <ul>
 *   <li>if a read is wanted (auto-read, or a pending {@link Channel#read()}) and read readiness is watched, the
 *       read loop runs again as a task after the loop's other work (so one busy peer cannot starve the
 *       others);</li>
 *   <li>if no read is wanted, read readiness is no longer watched (no wake-ups for data nobody reads; the peer
 *       meets a full window). {@link Channel#read()} watches it again, and re-adding the interest makes the kernel
 *       report a readable socket at once ({@code EPOLL_CTL_MOD}; kqueue's {@code EV_ADD} of a filter): the
 *       readiness missed meanwhile comes back.</li>
 * </ul>
 * After the peer's FIN is reported ({@code EPOLLRDHUP}, {@code EV_EOF}) a read that does not fill its buffer is no
 * proof of an empty socket, since the end of the stream comes without another edge: the channel goes on until it
 * reads it.
 *
 * <p>The transport supplies the interest itself and the read loop through {@link Hooks}.
 */
public final class EdgeTriggeredInput {
    /** What the transport does for this state; all called on the event loop. */
    public interface Hooks {
        /** Whether read readiness is watched now. */
        boolean isReadWatched();

        /** Watches read readiness; the kernel reports a socket readable already at once. */
        void watchRead();

        /** Stops watching read readiness. */
        void unwatchRead();

        /** The input is done: stop watching read readiness and the peer's FIN for good. */
        void unwatchInput();

        /**
         * Whether input is wanted whatever auto-read and {@link Channel#read()} say: work queued for the input,
         * such as a splice, that must be served.
         */
        boolean hasQueuedInputWork();

        /**
         * The channel's read loop: reads, fires {@code channelRead} per message and {@code channelReadComplete}
         * once, calling {@link #readLoopEnded(boolean)} between them and {@link #readLoopDone()} at the end.
         */
        void readLoop();
    }

    private final Channel channel;
    private final Hooks hooks;
    private final Runnable readReadyTask = this::readReadyTask;

    private boolean readPending;
    private boolean maybeMoreInput;
    private boolean readReadyScheduled;
    private boolean peerFinReceived;

    /**
     * The input state of {@code channel}.
     *
     * @throws NullPointerException if an argument is null
     */
    public EdgeTriggeredInput(Channel channel, Hooks hooks) {
        this.channel = Objects.requireNonNull(channel, "channel");
        this.hooks = Objects.requireNonNull(hooks, "hooks");
    }

    /**
     * A read was asked for ({@code doBeginRead}): watches input unless {@code suspended} (a server channel backing
     * off after accept failed calls {@link #watchInput()} itself when the pause ends).
     */
    public void beginRead(boolean suspended) {
        readPending = true;
        if (!suspended) {
            watchInput();
        }
    }

    /** Makes sure read readiness is heard, including input that is waiting already. */
    public void watchInput() {
        if (!hooks.isReadWatched()) {
            // Re-adding the interest reports the socket at once if it is readable: nothing missed is lost.
            hooks.watchRead();
        } else if (maybeMoreInput) {
            // Watched already, so no new edge will come for what is waiting.
            scheduleReadReady();
        }
    }

    /** Whether a read was asked for ({@link Channel#read()} or auto-read) and not yet served. */
    public boolean isReadPending() {
        return readPending;
    }

    /** Marks the pending read as served: something was delivered. */
    public void readServed() {
        readPending = false;
    }

    /** Whether the peer's FIN was reported: read on until the end of the stream. */
    public boolean peerFinReceived() {
        return peerFinReceived;
    }

    /** The readiness API reported the peer's FIN ({@code EPOLLRDHUP}, {@code EPOLLHUP}, {@code EV_EOF}). */
    public void peerFin() {
        peerFinReceived = true;
    }

    /** Auto-read was turned off: stop reading after the current loop. Any thread. */
    public void clearReadPending() {
        EventLoop loop = channel.eventLoop();
        if (loop.inEventLoop()) {
            clearReadPending0();
        } else {
            loop.execute(this::clearReadPending0);
        }
    }

    private void clearReadPending0() {
        readPending = false;
        if (!channel.config().isAutoRead() && channel.isOpen() && !hooks.hasQueuedInputWork()) {
            hooks.unwatchRead();
        }
    }

    /** Runs the read loop as a task after the loop's other work, once however often it is asked. */
    public void scheduleReadReady() {
        if (!readReadyScheduled) {
            readReadyScheduled = true;
            channel.eventLoop().execute(readReadyTask);
        }
    }

    private void readReadyTask() {
        readReadyScheduled = false;
        if (channel.isOpen() && channel.isRegistered()) {
            readReady();
        }
    }

    /**
     * Read readiness: runs the read loop if a read is wanted; otherwise remembers that input may be waiting and
     * stops watching for more.
     */
    public void readReady() {
        if (!readPending && !channel.config().isAutoRead() && !hooks.hasQueuedInputWork()) {
            maybeMoreInput = true;
            hooks.unwatchRead();
            return;
        }
        maybeMoreInput = false;
        hooks.readLoop();
    }

    /**
     * Ends a read loop. Call it after {@code channelRead}s and before {@code channelReadComplete}, so a
     * {@link Channel#read()} from {@code channelReadComplete} sees the new state.
     *
     * @param drained whether the kernel said there is nothing more: a read returned nothing, did not fill its
     *        buffer (before any FIN), or reached the end of the stream
     */
    public void readLoopEnded(boolean drained) {
        maybeMoreInput = !drained;
    }

    /** After {@code channelReadComplete}: re-run the loop later, or stop watching read readiness. */
    public void readLoopDone() {
        if (!channel.isOpen()) {
            return;
        }
        if (!readPending && !channel.config().isAutoRead() && !hooks.hasQueuedInputWork()) {
            hooks.unwatchRead();
        } else if (maybeMoreInput && hooks.isReadWatched()) {
            scheduleReadReady();
        }
    }

    /** The input is done (shut down or at its end): no more reads, no more read readiness. */
    public void inputDone() {
        readPending = false;
        maybeMoreInput = false;
        if (channel.isOpen()) {
            hooks.unwatchInput();
        }
    }
}
