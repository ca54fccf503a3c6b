package io.weir.channel.uring;

import io.weir.channel.Channel;
import io.weir.channel.ChannelMetadata;
import io.weir.channel.ChannelOption;
import io.weir.channel.ChannelOutboundBuffer;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.IoRegistration;
import io.weir.channel.ServerChannel;
import io.weir.channel.internal.AcceptBackoff;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.Socket;
import io.weir.channel.unix.internal.BoundSocketFile;
import io.weir.util.platform.LoopLogger;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.SocketAddress;

/**
 * What the io_uring server channels share, TCP ({@link IoUringServerSocketChannel}) and Unix domain
 * ({@link IoUringServerDomainSocketChannel}): one multishot {@code IORING_OP_ACCEPT} (Linux 5.19; one accept per
 * submission before) delivers each connection as a channel of the subclass's kind on
 * {@link #childEventLoopGroup()}{@code .next()}, fired with {@code channelRead}. Its loop must run an
 * {@link IoUringIoHandler}.
 *
 * <p>Accepting goes on while a read is wanted (auto-read, or {@link Channel#read()} until a connection was
 * delivered); once neither holds, the accept is cancelled. When accepting fails (out of descriptors) the channel
 * stays open, fires {@code exceptionCaught} and pauses for a doubling while ({@link AcceptBackoff}); the
 * connections the kernel queued meanwhile are accepted after the pause. An accepted channel that no handler takes
 * is closed. Writing fails with {@link UnsupportedOperationException}. A Unix domain server deletes the socket
 * file its bind created when it closes.
 *
 * <p>Options: {@link ChannelOption#SO_BACKLOG} (used when binding) and the socket options the subclass names.
 * Thread-safe as every channel.
 */
abstract class AbstractIoUringServerChannel extends AbstractIoUringChannel implements ServerChannel {
    /** Default {@link ChannelOption#SO_BACKLOG}: pending connections the kernel queues before accept. */
    static final int DEFAULT_BACKLOG = 1024;

    private static final LoopLogger LOGGER = LoopLogger.of(AbstractIoUringServerChannel.class);
    private static final ChannelMetadata METADATA =
            new ChannelMetadata(false, io.weir.channel.DefaultChannelConfig.DEFAULT_MAX_MESSAGES_PER_READ);
    /** {@code IORING_ACCEPT_MULTISHOT}, in the SQE's {@code ioprio}. */
    private static final short IORING_ACCEPT_MULTISHOT = 1;
    /** {@code accept4(2)} flags: {@code SOCK_NONBLOCK | SOCK_CLOEXEC}. */
    private static final int ACCEPT_FLAGS = 0x800 | 0x80000;

    private final EventLoopGroup childGroup;
    // Event loop only.
    private final AcceptBackoff acceptBackoff = new AcceptBackoff();
    private final Runnable resumeAccepting = this::resumeAccepting;
    private long acceptId;
    private boolean acceptCancelRequested;
    private boolean multishot = true;
    // Event loop only: the socket file a domain socket's bind() created, deleted again on close.
    private final BoundSocketFile boundFile = new BoundSocketFile();

    /**
     * A server channel over {@code socket}, which it owns from now on (closed if the construction fails).
     *
     * @param socketOptions the options the config reads from and writes to the socket
     * @throws NullPointerException if {@code eventLoop} or {@code childGroup} is null
     * @throws IllegalArgumentException if {@code eventLoop} does not run an {@link IoUringIoHandler}
     */
    AbstractIoUringServerChannel(EventLoop eventLoop, EventLoopGroup childGroup, Socket socket,
                                 ChannelOption<?>... socketOptions) {
        super(null, eventLoop, socket, false, METADATA, DEFAULT_BACKLOG, socketOptions);
        if (childGroup == null) {
            NullPointerException e = new NullPointerException("childGroup");
            closeAfterFailure(socket, e);
            throw e;
        }
        this.childGroup = childGroup;
    }

    /** A channel of the subclass's kind for the connection {@code accepted}, which it owns from now on. */
    abstract Channel newChildChannel(EventLoop eventLoop, Socket accepted);

    @Override
    public EventLoopGroup childEventLoopGroup() {
        return childGroup;
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return null;
    }

    @Override
    protected void doBind(SocketAddress localAddress) throws Exception {
        socket.bind(localAddress);
        socket.listen(config.backlog());
        markActive();
        boundFile.bound(localAddress);
    }

    @Override
    protected void doClose() throws Exception {
        try {
            super.doClose();
        } finally {
            IOException leftover = boundFile.delete();
            if (leftover != null) {
                LOGGER.log(Level.DEBUG, leftover.getMessage(), leftover.getCause());
            }
        }
    }

    // ---------------------------------------------------------------- accepting

    @Override
    void startInput() {
        if (acceptId != 0 || acceptBackoff.isPaused() || !isActive()) {
            return;
        }
        try {
            acceptId = submit(new IoUringIoOps(IoUringIoOps.OP_ACCEPT, (byte) 0,
                    multishot ? IORING_ACCEPT_MULTISHOT : 0, socket.intValue(), 0, 0, 0, ACCEPT_FLAGS, (short) 0, 0,
                    0, (short) 0));
            acceptCancelRequested = false;
        } catch (IOException e) {
            close(voidPromise());
        }
    }

    @Override
    void completed(IoUringIoEvent event, boolean current) {
        if (event.opcode() != IoUringIoOps.OP_ACCEPT) {
            // The result of a cancellation this channel asked for; the accept's own completion tells.
            return;
        }
        if (!event.hasMore()) {
            acceptId = 0;
        }
        int res = event.res();
        if (!current) {
            if (res >= 0) {
                closeQuietly(socket.acceptedSocket(res));
            }
            return;
        }
        if (res >= 0) {
            accepted(socket.acceptedSocket(res));
        } else if (res == -Native.EINVAL && multishot) {
            // A kernel before 5.19: one accept per submission.
            multishot = false;
        } else if (res != -Native.ECANCELED) {
            acceptFailed(res);
        }
        if (!isActive()) {
            return;
        }
        if (wantsInput()) {
            startInput();
        } else if (acceptId != 0 && !acceptCancelRequested) {
            cancelAccept();
        }
    }

    private void accepted(Socket accepted) {
        Channel child;
        try {
            child = newChildChannel(childGroup.next(), accepted);
        } catch (Throwable t) {
            // The child's constructor may have closed it already; closing twice is harmless.
            closeQuietly(accepted);
            pipeline().fireExceptionCaught(t);
            return;
        }
        acceptBackoff.accepted();
        readServed();
        pipeline().fireChannelRead(child);
        pipeline().fireChannelReadComplete();
    }

    /** Accepting failed (out of descriptors): pause (see {@link AcceptBackoff}), reporting as it says. */
    private void acceptFailed(int res) {
        if (acceptId != 0) {
            cancelAccept();
        }
        if (acceptBackoff.pause(eventLoop(), resumeAccepting)) {
            pipeline().fireExceptionCaught(Errors.newIoException("accept", res));
        }
    }

    private void resumeAccepting() {
        acceptBackoff.resume();
        if (isOpen() && wantsInput()) {
            startInput();
        }
    }

    private void cancelAccept() {
        IoRegistration registration = ioRegistration();
        if (registration != null && registration.isValid()) {
            registration.submit(IoUringIoOps.newAsyncCancel(acceptId, (short) 0));
            acceptCancelRequested = true;
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Nothing was done with it yet: nothing is lost.
        }
    }
}
