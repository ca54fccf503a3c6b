package io.weir.channel.kqueue;

import io.weir.channel.Channel;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelException;
import io.weir.channel.ChannelMetadata;
import io.weir.channel.ChannelOption;
import io.weir.channel.ChannelOutboundBuffer;
import io.weir.channel.ChannelPipeline;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.RecvByteBufAllocator;
import io.weir.channel.ServerChannel;
import io.weir.channel.internal.AcceptBackoff;
import io.weir.channel.unix.Socket;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * A listening TCP socket driven by a {@link KQueueIoHandler}; each accepted connection becomes a
 * {@link KQueueSocketChannel} on the next loop of the child group and is fired with {@code channelRead}.
 *
 * <p>Accepting: up to {@link #DEFAULT_MAX_ACCEPTS_PER_READ} connections per read-filter event
 * ({@link ChannelOption#MAX_MESSAGES_PER_READ}), until {@code accept} says there is none left; the count kqueue
 * reports with the event is not used (libkqueue always says 1). When {@code accept} fails (out of descriptors),
 * the channel stays open, fires {@code exceptionCaught} once and stops accepting for a doubling pause
 * ({@link AcceptBackoff}), so a descriptor shortage does not spin the loop. An accepted channel that no handler
 * takes is closed.
 *
 * <p>Options: {@link ChannelOption#SO_BACKLOG} (default {@value #DEFAULT_BACKLOG}, used when binding),
 * {@code SO_REUSEADDR} (on by default), {@code SO_RCVBUF} and {@link KQueueChannelOption#SO_REUSEPORT}.
 *
 * <p>Thread-safe as every {@link Channel}.
 */
public final class KQueueServerSocketChannel extends AbstractKQueueChannel implements ServerChannel {
    /** The default listen backlog. */
    public static final int DEFAULT_BACKLOG = 1024;
    /** The default of {@link ChannelOption#MAX_MESSAGES_PER_READ}: connections accepted per event. */
    public static final int DEFAULT_MAX_ACCEPTS_PER_READ = 16;

    private static final ChannelMetadata METADATA = new ChannelMetadata(false, DEFAULT_MAX_ACCEPTS_PER_READ);

    private final EventLoopGroup childGroup;
    private final KQueueChannelConfig config;
    // Event loop only.
    private final AcceptBackoff backoff = new AcceptBackoff();
    private final Runnable resume = this::resumeAccepting;

    /**
     * A server channel on {@code eventLoop} whose connections go to {@code childGroup}'s loops.
     *
     * @throws UnsatisfiedLinkError if {@link KQueue#isAvailable()} is false
     * @throws NullPointerException if {@code childGroup} is null
     * @throws IllegalArgumentException if {@code eventLoop} does not run a {@link KQueueIoHandler}
     * @throws ChannelException if no socket could be opened or configured
     */
    public KQueueServerSocketChannel(EventLoop eventLoop, EventLoopGroup childGroup) {
        this(eventLoop, childGroup, openStreamSocket());
    }

    private KQueueServerSocketChannel(EventLoop eventLoop, EventLoopGroup childGroup, Socket socket) {
        super(null, checkCompatible(eventLoop, socket), socket, false);
        if (childGroup == null) {
            NullPointerException e = new NullPointerException("childGroup");
            closeAfterFailure(socket, e);
            throw e;
        }
        this.childGroup = childGroup;
        this.config = new KQueueChannelConfig(this, socket, DEFAULT_MAX_ACCEPTS_PER_READ, DEFAULT_BACKLOG,
                ChannelOption.SO_REUSEADDR, ChannelOption.SO_RCVBUF, KQueueChannelOption.SO_REUSEPORT);
        try {
            socket.setReuseAddress(true);
        } catch (Exception e) {
            closeAfterFailure(socket, e);
            throw new ChannelException("failed to set SO_REUSEADDR on " + socket, e);
        }
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
    public ChannelMetadata metadata() {
        return METADATA;
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) super.localAddress();
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
    }

    @Override
    void readInput() {
        ChannelPipeline pipeline = pipeline();
        RecvByteBufAllocator.Handle handle = recvBufAllocHandle();
        handle.reset(config);
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
                    child = new KQueueSocketChannel(this, childGroup.next(), accepted);
                } catch (Throwable t) {
                    closeAfterFailure(accepted, t);
                    throw t;
                }
                backoff.accepted();
                handle.incMessagesRead(1);
                readDelivered();
                pipeline.fireChannelRead(child);
            } while (handle.continueReading() && isOpen());
        } catch (Throwable t) {
            // Usually out of descriptors: the listening socket is fine, so it stays open, but accepting pauses
            // rather than failing again at once.
            failure = t;
            drained = true;
        }
        readStopped(drained);
        boolean report = failure != null && pauseAccepting();
        handle.readComplete();
        pipeline.fireChannelReadComplete();
        if (report) {
            pipeline.fireExceptionCaught(failure);
        }
        readFinished();
    }

    private boolean pauseAccepting() {
        unwatch(KQueueIoOps.READ);
        return backoff.pause(eventLoop(), resume);
    }

    private void resumeAccepting() {
        backoff.resume();
        if (isOpen() && (readRequested() || config.isAutoRead())) {
            listenForInput();
        }
    }

    @Override
    boolean inputPaused() {
        return backoff.isPaused();
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) {
        throw new UnsupportedOperationException("a server channel cannot write");
    }

    @Override
    protected Object filterOutboundMessage(Object msg) {
        throw new UnsupportedOperationException("a server channel cannot write: " + msg.getClass().getName());
    }

    @Override
    protected void onUnhandledInboundMessage(Object msg) {
        if (msg instanceof Channel child) {
            child.close();
        } else {
            super.onUnhandledInboundMessage(msg);
        }
    }
}
