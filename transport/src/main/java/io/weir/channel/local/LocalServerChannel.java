package io.weir.channel.local;

import io.weir.channel.AbstractChannel;
import io.weir.channel.Channel;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelOutboundBuffer;
import io.weir.channel.ChannelPipeline;
import io.weir.channel.DefaultChannelConfig;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.RecvByteBufAllocator;
import io.weir.channel.ServerChannel;
import io.weir.util.platform.LoopLogger;
import java.lang.System.Logger.Level;
import java.net.ConnectException;
import java.net.SocketAddress;
import java.nio.channels.UnsupportedAddressTypeException;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.RejectedExecutionException;

/**
 * The listening end of the local transport: bound to a {@link LocalAddress} (or {@link LocalAddress#ANY} for a
 * fresh name), it accepts each {@link LocalChannel} that connects to that name by creating the server-side
 * {@link LocalChannel} on {@link #childEventLoopGroup()}{@code .next()} and firing it through
 * {@code channelRead}, as {@link io.weir.channel.nio.NioServerSocketChannel} does with sockets. Binding to a name
 * another server holds fails with {@link java.net.BindException}; closing frees the name and closes connections
 * not yet accepted.
 *
 * <p>Like {@link LocalChannel} it needs no I/O handler and runs on any event loop. Thread-safe as every channel.
 */
public class LocalServerChannel extends AbstractChannel implements ServerChannel, LocalChannelRegistry.LoopBound {
    private static final LoopLogger LOGGER = LoopLogger.of(LocalServerChannel.class);

    private enum State { OPEN, BOUND, CLOSED }

    private final EventLoopGroup childGroup;
    private final ChannelConfig config = new DefaultChannelConfig(this);
    private final Runnable acceptTask = this::acceptPending;

    private volatile State state = State.OPEN;
    private volatile LocalAddress localAddress;

    // Event loop only.
    private final Queue<LocalChannel> pending = new ArrayDeque<>();
    private boolean readPending;
    private boolean tracked;

    /**
     * A new, unbound server channel on {@code eventLoop}; accepted channels go to loops of {@code childGroup}.
     *
     * @throws NullPointerException if an argument is null
     */
    public LocalServerChannel(EventLoop eventLoop, EventLoopGroup childGroup) {
        super(null, eventLoop);
        this.childGroup = Objects.requireNonNull(childGroup, "childGroup");
    }

    @Override
    public EventLoopGroup childEventLoopGroup() {
        return childGroup;
    }

    @Override
    public ChannelConfig config() {
        return config;
    }

    @Override
    public boolean isOpen() {
        return state != State.CLOSED;
    }

    @Override
    public boolean isActive() {
        return state == State.BOUND;
    }

    @Override
    public LocalAddress localAddress() {
        return (LocalAddress) super.localAddress();
    }

    @Override
    protected SocketAddress localAddress0() {
        return localAddress;
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return null;
    }

    @Override
    protected void doRegister() {
        if (!tracked) {
            tracked = true;
            LocalChannelRegistry.track(eventLoop(), this);
        }
    }

    @Override
    protected void doBind(SocketAddress address) throws Exception {
        if (!(address instanceof LocalAddress local)) {
            throw new UnsupportedAddressTypeException();
        }
        if (state == State.BOUND) {
            throw new IllegalStateException("bound already to " + localAddress);
        }
        localAddress = LocalChannelRegistry.bind(this, local);
        state = State.BOUND;
    }

    @Override
    protected void doClose() {
        State old = state;
        state = State.CLOSED;
        if (old == State.BOUND) {
            LocalChannelRegistry.unbind(localAddress, this);
        }
        if (tracked) {
            LocalChannelRegistry.untrack(eventLoop(), this);
        }
        LocalChannel child;
        while ((child = pending.poll()) != null) {
            child.close();
        }
    }

    @Override
    public void loopTerminated() {
        State old = state;
        state = State.CLOSED;
        if (old == State.BOUND) {
            LocalChannelRegistry.unbind(localAddress, this);
        }
        // The pending queue belongs to the dead loop; its children were never registered, so closing their
        // clients through them is the best left to do.
        LocalChannel child;
        while ((child = pending.poll()) != null) {
            child.loopTerminated();
        }
        settleCloseAfterLoopTerminated();
    }

    /**
     * Creates the server side of a connection from {@code client} and queues it for accepting. Called on the
     * client's loop.
     *
     * @throws ConnectException if this server's loop no longer runs tasks
     */
    LocalChannel serve(LocalChannel client) throws ConnectException {
        LocalChannel child = new LocalChannel(this, childGroup.next(), client);
        try {
            eventLoop().execute(() -> accepted(child));
        } catch (RejectedExecutionException e) {
            ConnectException refused = new ConnectException("connection refused: " + localAddress + " is shutting down");
            refused.initCause(e);
            throw refused;
        }
        return child;
    }

    private void accepted(LocalChannel child) {
        if (state != State.BOUND) {
            child.close();
            return;
        }
        pending.add(child);
        if (readPending) {
            acceptPending();
        }
    }

    @Override
    protected void doBeginRead() {
        readPending = true;
        if (!pending.isEmpty()) {
            eventLoop().execute(acceptTask);
        }
    }

    private void acceptPending() {
        if (!readPending || pending.isEmpty()) {
            return;
        }
        readPending = false;
        ChannelPipeline pipeline = pipeline();
        RecvByteBufAllocator.Handle handle = recvBufAllocHandle();
        handle.reset(config);
        LocalChannel child;
        do {
            child = pending.poll();
            if (child == null) {
                break;
            }
            handle.incMessagesRead(1);
            pipeline.fireChannelRead(child);
        } while (handle.continueReading());
        handle.readComplete();
        pipeline.fireChannelReadComplete();
    }


    @Override
    public String toString() {
        return "LocalServerChannel" + super.toString();
    }
}
