package io.weir.channel.epoll;

import io.weir.channel.Channel;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelOutboundBuffer;
import io.weir.channel.ChannelPipeline;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.RecvByteBufAllocator;
import io.weir.channel.ServerChannel;
import io.weir.channel.internal.AcceptBackoff;
import io.weir.channel.unix.Socket;
import io.weir.util.platform.LoopLogger;
import java.lang.System.Logger.Level;
import java.net.SocketAddress;

/**
 * The base of the epoll server channels: a listening socket whose read loop accepts connections with
 * {@code accept4(2)} until none is pending or {@link io.weir.channel.ChannelOption#MAX_MESSAGES_PER_READ} were
 * accepted, and fires each as a child channel, created on {@link #childEventLoopGroup()}{@code .next()}, through
 * {@code channelRead}. An accepted channel that reaches the end of the pipeline is closed. Writing fails with
 * {@link UnsupportedOperationException}.
 */
abstract class AbstractEpollServerChannel extends AbstractEpollChannel implements ServerChannel {
    private static final LoopLogger LOGGER = LoopLogger.of(AbstractEpollServerChannel.class);

    private final EventLoopGroup childGroup;
    // Event loop only.
    private final AcceptBackoff acceptBackoff = new AcceptBackoff();
    private final Runnable resumeAccepting = this::resumeAccepting;

    /** See {@link AbstractEpollChannel}; closes {@code socket} if {@code childGroup} is null. */
    AbstractEpollServerChannel(EventLoop eventLoop, EventLoopGroup childGroup, Socket socket) {
        super(null, checkCompatible(eventLoop, socket), socket, false, EpollIoOps.NONE);
        if (childGroup == null) {
            NullPointerException e = new NullPointerException("childGroup");
            closeAfterFailure(socket, e);
            throw e;
        }
        this.childGroup = childGroup;
    }

    @Override
    public EventLoopGroup childEventLoopGroup() {
        return childGroup;
    }

    /** The channel of an accepted connection, on {@code loop}; it owns {@code accepted} from now on. */
    abstract Channel newChildChannel(EventLoop loop, Socket accepted);

    /** The accept backlog {@code listen(2)} gets when binding. */
    abstract int backlog();

    @Override
    protected SocketAddress remoteAddress0() {
        return null;
    }

    @Override
    protected void doBind(SocketAddress localAddress) throws Exception {
        socket.bind(localAddress);
        socket.listen(backlog());
        active();
    }

    @Override
    void readLoop() {
        ChannelConfig cfg = config();
        ChannelPipeline pipeline = pipeline();
        RecvByteBufAllocator.Handle handle = recvBufAllocHandle();
        handle.reset(cfg);
        boolean drained = false;
        Throwable failure = null;
        try {
            do {
                Socket accepted = socket.accept();
                if (accepted == null) {
                    drained = true;
                    break;
                }
                Channel child;
                try {
                    child = newChildChannel(childGroup.next(), accepted);
                } catch (Throwable t) {
                    // The child's constructor may have closed it already; closing twice is harmless.
                    closeAfterFailure(accepted, t);
                    throw t;
                }
                acceptBackoff.accepted();
                handle.incMessagesRead(1);
                readServed();
                pipeline.fireChannelRead(child);
            } while (handle.continueReading() && isOpen());
        } catch (Throwable t) {
            // Running out of descriptors lands here; the listening socket itself is fine, so stay open. Not
            // retried at once (that would spin while descriptors stay short): see pauseAccepting().
            failure = t;
            drained = true;
        }
        readLoopEnded(drained);
        boolean report = failure != null && pauseAccepting();
        handle.readComplete();
        pipeline.fireChannelReadComplete();
        if (report) {
            pipeline.fireExceptionCaught(failure);
        }
        readLoopDone();
    }

    /**
     * Accept failed: stop watching {@code EPOLLIN} for the back-off (see {@link AcceptBackoff}). The connections
     * still pending are not lost with the edge that announced them: resuming re-adds {@code EPOLLIN} with
     * {@code EPOLL_CTL_MOD}, which reports a socket that is readable already, so they are accepted then.
     *
     * @return whether to report this failure to the pipeline
     */
    private boolean pauseAccepting() {
        removeOps(EpollIoOps.EPOLLIN);
        return acceptBackoff.pause(eventLoop(), resumeAccepting);
    }

    private void resumeAccepting() {
        acceptBackoff.resume();
        if (isOpen() && (isReadPending() || config().isAutoRead())) {
            watchInput();
        }
    }

    @Override
    boolean inputSuspended() {
        return acceptBackoff.isPaused();
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) {
        throw new UnsupportedOperationException("a server channel cannot write");
    }

    @Override
    protected Object filterOutboundMessage(Object msg) {
        throw new UnsupportedOperationException("a server channel cannot write: " + msg.getClass().getName());
    }

    /** An accepted channel nobody took: close it, or its socket would stay open with no one to read it. */
    @Override
    protected void onUnhandledInboundMessage(Object msg) {
        if (msg instanceof Channel child) {
            LOGGER.log(Level.DEBUG, () -> "Closing an accepted channel that no handler took: " + child);
            child.close();
        } else {
            super.onUnhandledInboundMessage(msg);
        }
    }
}
