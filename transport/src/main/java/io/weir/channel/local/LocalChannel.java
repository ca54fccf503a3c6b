package io.weir.channel.local;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufHolder;
import io.weir.channel.AbstractChannel;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelOption;
import io.weir.channel.ChannelOutboundBuffer;
import io.weir.channel.ChannelPipeline;
import io.weir.channel.DefaultChannelConfig;
import io.weir.channel.EventLoop;
import io.weir.channel.RecvByteBufAllocator;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.platform.LoopLogger;
import java.lang.System.Logger.Level;
import java.net.ConnectException;
import java.net.SocketAddress;
import java.nio.channels.AlreadyConnectedException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.UnsupportedAddressTypeException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * One end of an in-VM connection to a {@link LocalServerChannel}, addressed by a {@link LocalAddress}.
 *
 * <p><b>Messages</b> of any type are handed to the peer as they are: no copy, no encoding. A written message
 * moves into the peer's inbound queue and the write's promise succeeds; from then on the peer owns it (it is
 * delivered by the peer's read loop, on the peer's event loop, or released if the peer closes first).
 *
 * <p><b>Backpressure.</b> The peer's inbound queue takes messages while it holds less than its receive window
 * ({@link ChannelOption#SO_RCVBUF} of the receiving channel, {@value #DEFAULT_RECEIVE_WINDOW_BYTES} bytes by
 * default; buffer sizes count, other messages count as 0 bytes plus {@value #MESSAGE_OVERHEAD_BYTES}). When the
 * window is full, writes wait in this channel's outbound buffer, which turns unwritable at its water marks, as
 * with a socket whose peer does not read; the peer's reading resumes them. With auto-read off, messages stay
 * queued until {@link #read()}.
 *
 * <p><b>Connecting</b> to a name no server is bound to fails the future with a {@link ConnectException}.
 * Closing either end closes the other; both see {@code channelInactive}.
 *
 * <p><b>Event loops.</b> A local channel needs nothing from its loop's I/O handler: it registers no I/O handle
 * ({@link #ioHandle()} is {@code null}, so registering only marks it registered) and reaches its peer with
 * tasks on the peer's loop. It therefore runs on any {@link io.weir.channel.SingleThreadIoEventLoop}, whatever
 * I/O handler drives it (NIO included), and both ends may share a loop. When its loop terminates the channel
 * is closed without events (there is no thread left to run them) and its peer is closed normally.
 *
 * <p>Thread-safe as every channel.
 */
public class LocalChannel extends AbstractChannel implements LocalChannelRegistry.LoopBound {
    /** Default receive window: bytes a channel queues unread before its peer's writes wait. */
    public static final int DEFAULT_RECEIVE_WINDOW_BYTES = 64 * 1024;
    /** Bytes each queued message counts for beyond its content, so that floods of tiny messages fill it too. */
    public static final int MESSAGE_OVERHEAD_BYTES = 16;

    private static final LoopLogger LOGGER = LoopLogger.of(LocalChannel.class);
    private static final AtomicLongFieldUpdater<LocalChannel> INBOUND_BYTES =
            AtomicLongFieldUpdater.newUpdater(LocalChannel.class, "inboundBytes");
    private static final AtomicIntegerFieldUpdater<LocalChannel> WRITE_BLOCKED =
            AtomicIntegerFieldUpdater.newUpdater(LocalChannel.class, "writeBlocked");

    private enum State { OPEN, BOUND, CONNECTED, CLOSED }

    private final LocalConfig config = new LocalConfig(this);
    // Multi-producer: the peer adds, this channel's loop polls; drained from either side when closing.
    private final Queue<Object> inbound = new ConcurrentLinkedQueue<>();
    private final Runnable readTask = this::readInbound;
    private final Runnable resumeWriteTask = this::writeFlushed;
    private final Runnable closeTask = () -> close(voidPromise());
    private final Runnable releaseTask = this::releaseInbound;

    private volatile State state = State.OPEN;
    private volatile LocalChannel peer;
    private volatile LocalAddress localAddress;
    private volatile LocalAddress remoteAddress;
    private volatile long inboundBytes;
    // 1 while this channel's writes wait for room in the peer's window; whoever flips it to 0 resumes them.
    private volatile int writeBlocked;

    // Event loop only.
    private boolean readPending;
    private boolean tracked;

    /** A new, unconnected channel on {@code eventLoop}. */
    public LocalChannel(EventLoop eventLoop) {
        super(null, eventLoop);
    }

    /** The server side of a connection from {@code client}. */
    LocalChannel(LocalServerChannel parent, EventLoop eventLoop, LocalChannel client) {
        super(parent, eventLoop);
        this.peer = client;
    }

    @Override
    public ChannelConfig config() {
        return config;
    }

    @Override
    public LocalServerChannel parent() {
        return (LocalServerChannel) super.parent();
    }

    @Override
    public boolean isOpen() {
        return state != State.CLOSED;
    }

    @Override
    public boolean isActive() {
        return state == State.CONNECTED;
    }

    @Override
    public LocalAddress localAddress() {
        return (LocalAddress) super.localAddress();
    }

    @Override
    public LocalAddress remoteAddress() {
        return (LocalAddress) super.remoteAddress();
    }

    @Override
    protected SocketAddress localAddress0() {
        return localAddress;
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return remoteAddress;
    }

    // ---------------------------------------------------------------- life cycle

    @Override
    protected void doRegister() {
        if (!tracked) {
            tracked = true;
            LocalChannelRegistry.track(eventLoop(), this);
        }
        LocalChannel client = peer;
        if (client != null && parent() != null && state == State.OPEN) {
            // The accepted end: connected as soon as it is registered; tell the client on its own loop.
            localAddress = parent().localAddress();
            remoteAddress = client.localAddress;
            state = State.CONNECTED;
            execute(client, client::peerConnected, client.closeTask);
        }
    }

    /** On the client's loop: the server side is registered, so the pending connect is done. */
    private void peerConnected() {
        LocalChannel server = peer;
        if (state == State.CLOSED || server == null) {
            if (server != null) {
                execute(server, server.closeTask, null);
            }
            return;
        }
        finishConnect();
    }

    @Override
    protected void doBind(SocketAddress address) throws Exception {
        LocalAddress local = checkAddress(address);
        localAddress = local == LocalAddress.ANY ? new LocalAddress(this) : local;
        state = State.BOUND;
    }

    private static LocalAddress checkAddress(SocketAddress address) {
        if (!(address instanceof LocalAddress local)) {
            throw new UnsupportedAddressTypeException();
        }
        return local;
    }

    @Override
    protected boolean doConnect(SocketAddress remote, SocketAddress local) throws Exception {
        if (state == State.CONNECTED) {
            throw new AlreadyConnectedException();
        }
        LocalAddress target = checkAddress(remote);
        if (local != null) {
            doBind(local);
        } else if (localAddress == null) {
            localAddress = new LocalAddress(this);
            state = State.BOUND;
        }
        LocalServerChannel server = LocalChannelRegistry.get(target);
        if (server == null || !server.isActive()) {
            throw new ConnectException("connection refused: no LocalServerChannel is bound to " + target);
        }
        remoteAddress = target;
        peer = server.serve(this);
        return false;
    }

    @Override
    protected void doFinishConnect() {
        // Only here: finishConnect() fires channelActive if the channel was not active before this call.
        state = State.CONNECTED;
    }

    @Override
    protected void doClose() {
        State old = state;
        state = State.CLOSED;
        if (tracked) {
            LocalChannelRegistry.untrack(eventLoop(), this);
        }
        releaseInbound();
        LocalChannel p = peer;
        if (old != State.CLOSED && p != null && p.isOpen()) {
            execute(p, p.closeTask, null);
        }
        // A peer blocked on this channel's window would wait forever; it is being closed, so let it go.
        if (p != null) {
            WRITE_BLOCKED.set(p, 0);
        }
    }

    @Override
    public void loopTerminated() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        releaseInbound();
        settleCloseAfterLoopTerminated();
        LocalChannel p = peer;
        if (p != null && p.isOpen()) {
            execute(p, p.closeTask, null);
        }
    }

    private void releaseInbound() {
        Object msg;
        while ((msg = inbound.poll()) != null) {
            INBOUND_BYTES.addAndGet(this, -sizeOf(msg));
            ReferenceCountUtil.safeRelease(msg);
        }
    }

    /** Runs {@code task} on {@code target}'s loop; if the loop refuses, runs {@code fallback} here (if any). */
    private static void execute(LocalChannel target, Runnable task, Runnable fallback) {
        try {
            target.eventLoop().execute(task);
        } catch (RejectedExecutionException e) {
            LOGGER.log(Level.DEBUG, "The event loop of ", target, " refused a task", e);
            if (fallback != null) {
                fallback.run();
            }
        }
    }

    // ---------------------------------------------------------------- reading

    @Override
    protected void doBeginRead() {
        readPending = true;
        if (!inbound.isEmpty()) {
            // A task rather than a call: read() is often called from channelReadComplete, and delivering from
            // here would recurse once per batch.
            execute(this, readTask, null);
        }
    }

    /** Delivers queued messages if a read is pending. Event loop only. */
    private void readInbound() {
        if (state == State.CLOSED) {
            releaseInbound();
            return;
        }
        if (!readPending) {
            return;
        }
        Object msg = inbound.poll();
        if (msg == null) {
            return;
        }
        readPending = false;
        ChannelPipeline pipeline = pipeline();
        RecvByteBufAllocator.Handle handle = recvBufAllocHandle();
        handle.reset(config);
        do {
            INBOUND_BYTES.addAndGet(this, -sizeOf(msg));
            handle.incMessagesRead(1);
            pipeline.fireChannelRead(msg);
        } while (handle.continueReading() && (msg = inbound.poll()) != null);
        handle.readComplete();
        pipeline.fireChannelReadComplete();
        resumePeerWrites();
    }

    private void resumePeerWrites() {
        LocalChannel p = peer;
        if (p != null && p.writeBlocked != 0 && inboundBytes < config.receiveWindow
                && WRITE_BLOCKED.compareAndSet(p, 1, 0)) {
            execute(p, p.resumeWriteTask, null);
        }
    }

    private static long sizeOf(Object msg) {
        long size = MESSAGE_OVERHEAD_BYTES;
        if (msg instanceof ByteBuf buf) {
            size += buf.readableBytes();
        } else if (msg instanceof ByteBufHolder holder) {
            size += holder.content().readableBytes();
        }
        return size;
    }

    // ---------------------------------------------------------------- writing

    @Override
    protected boolean isWritePending() {
        return writeBlocked != 0;
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) throws Exception {
        LocalChannel p = peer;
        if (p == null) {
            throw new ClosedChannelException();
        }
        boolean handed = false;
        try {
            for (;;) {
                Object msg = in.current();
                if (msg == null) {
                    return;
                }
                if (!p.isOpen()) {
                    throw new ClosedChannelException();
                }
                if (p.inboundBytes >= p.config.receiveWindow) {
                    WRITE_BLOCKED.set(this, 1);
                    // Re-check after publishing the flag: the peer may have drained just before seeing it.
                    if (p.inboundBytes < p.config.receiveWindow && WRITE_BLOCKED.compareAndSet(this, 1, 0)) {
                        continue;
                    }
                    return;
                }
                long size = sizeOf(msg);
                // The outbound buffer releases its reference on remove(); the peer keeps this one.
                ReferenceCountUtil.retain(msg);
                INBOUND_BYTES.addAndGet(p, size);
                p.inbound.add(msg);
                handed = true;
                in.remove();
            }
        } finally {
            if (handed) {
                // Also when the peer closed meanwhile: its read task then releases what was handed to it.
                execute(p, p.readTask, p.releaseTask);
            }
        }
    }

    @Override
    public String toString() {
        return "LocalChannel" + super.toString();
    }

    /** Config with {@link ChannelOption#SO_RCVBUF} as the receive window. */
    private static final class LocalConfig extends DefaultChannelConfig {
        volatile int receiveWindow = DEFAULT_RECEIVE_WINDOW_BYTES;

        LocalConfig(LocalChannel channel) {
            super(channel);
        }

        @Override
        public Map<ChannelOption<?>, Object> getOptions() {
            return getOptions(new IdentityHashMap<>(super.getOptions()), ChannelOption.SO_RCVBUF);
        }

        @SuppressWarnings("unchecked")
        @Override
        public <T> T getOption(ChannelOption<T> option) {
            return option == ChannelOption.SO_RCVBUF ? (T) Integer.valueOf(receiveWindow) : super.getOption(option);
        }

        @Override
        public <T> boolean setOption(ChannelOption<T> option, T value) {
            if (option == ChannelOption.SO_RCVBUF) {
                option.validate(value);
                receiveWindow = (Integer) value;
                LocalChannel ch = (LocalChannel) channel;
                // A larger window may let a blocked peer go on.
                if (ch.eventLoop().inEventLoop()) {
                    ch.resumePeerWrites();
                } else {
                    execute(ch, ch::resumePeerWrites, null);
                }
                return true;
            }
            return super.setOption(option, value);
        }

        @Override
        protected void autoReadCleared() {
            LocalChannel ch = (LocalChannel) channel;
            if (ch.eventLoop().inEventLoop()) {
                ch.readPending = false;
            } else {
                execute(ch, () -> ch.readPending = false, null);
            }
        }
    }
}
