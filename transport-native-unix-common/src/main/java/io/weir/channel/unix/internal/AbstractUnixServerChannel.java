package io.weir.channel.unix.internal;

import io.weir.channel.Channel;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelMetadata;
import io.weir.channel.ChannelOutboundBuffer;
import io.weir.channel.ChannelPipeline;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.RecvByteBufAllocator;
import io.weir.channel.ServerChannel;
import io.weir.channel.internal.AcceptBackoff;
import io.weir.channel.unix.Socket;
import java.io.IOException;
import java.net.SocketAddress;

/**
 * A listening socket (TCP or Unix domain) of a native transport, shared by epoll and kqueue: each accepted
 * connection becomes a channel of the subclass's kind on {@link #childEventLoopGroup()}{@code .next()} and is
 * fired with {@code channelRead}.
 *
 * <p>Accepting: up to {@link io.weir.channel.ChannelOption#MAX_MESSAGES_PER_READ} connections per read readiness
 * ({@code accept4(2)} where the kernel has it), until {@code accept} says there is none left; the backlog count an
 * event may carry is not used (libkqueue always says 1). When {@code accept} fails (out of descriptors), the
 * channel stays open, fires {@code exceptionCaught} once and stops accepting for a doubling pause
 * ({@link AcceptBackoff}), so a descriptor shortage does not spin the loop; the connections still pending are not
 * lost with the readiness that announced them, since watching read readiness again reports a socket that is
 * readable already. An accepted channel that no handler takes is closed. Writing fails with
 * {@link UnsupportedOperationException}. A Unix domain server deletes the socket file its bind created when it
 * closes.
 *
 * <p>Options: {@link io.weir.channel.ChannelOption#SO_BACKLOG} (used when binding) and the socket options the
 * subclass lists in its {@link UnixChannelConfig}, which {@link #config()} must return. Event-loop hooks only; not for applications.
 */
public abstract class AbstractUnixServerChannel extends AbstractUnixChannel implements ServerChannel {
    /** The default listen backlog. */
    public static final int DEFAULT_BACKLOG = 1024;
    /** The default of {@link io.weir.channel.ChannelOption#MAX_MESSAGES_PER_READ}: connections accepted per event. */
    public static final int DEFAULT_MAX_ACCEPTS_PER_READ = 16;

    private static final ChannelMetadata METADATA = new ChannelMetadata(false, DEFAULT_MAX_ACCEPTS_PER_READ);

    private final EventLoopGroup childGroup;
    // Event loop only.
    private final AcceptBackoff acceptBackoff = new AcceptBackoff();
    private final Runnable resumeAccepting = this::resumeAccepting;
    // Event loop only: the socket file a domain socket's bind() created, deleted again on close.
    private final BoundSocketFile boundFile = new BoundSocketFile();

    /**
     * See {@link AbstractUnixChannel}; closes {@code socket} if {@code childGroup} is null.
     *
         */
    protected AbstractUnixServerChannel(EventLoop eventLoop, EventLoopGroup childGroup, Socket socket,
                                        UnixTransport transport) {
        super(null, eventLoop, socket, false, transport, 0);
        if (childGroup == null) {
            NullPointerException e = new NullPointerException("childGroup");
            closeAfterFailure(socket, e);
            throw e;
        }
        this.childGroup = childGroup;
    }

    /** The channel of an accepted connection, on {@code loop}; may throw, the caller then closes {@code accepted}. */
    protected abstract Channel newChildChannel(EventLoop loop, Socket accepted);

    @Override
    public final EventLoopGroup childEventLoopGroup() {
        return childGroup;
    }

    @Override
    public final ChannelMetadata metadata() {
        return METADATA;
    }

    @Override
    protected final SocketAddress remoteAddress0() {
        return null;
    }

    @Override
    protected void doBind(SocketAddress localAddress) throws Exception {
        socket.bind(localAddress);
        socket.listen(((UnixChannelConfig) config()).backlog());
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
                logDebug(leftover.getMessage(), leftover.getCause());
            }
        }
    }

    @Override
    protected final void readLoop() {
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
     * Accept failed: stop watching read readiness for the back-off (see {@link AcceptBackoff}).
     *
     * @return whether to report this failure to the pipeline
     */
    private boolean pauseAccepting() {
        unwatch(INTEREST_READ);
        return acceptBackoff.pause(eventLoop(), resumeAccepting);
    }

    private void resumeAccepting() {
        acceptBackoff.resume();
        if (isOpen() && (isReadPending() || config().isAutoRead())) {
            watchInput();
        }
    }

    @Override
    protected final boolean inputPaused() {
        return acceptBackoff.isPaused();
    }
}
