package io.weir.channel.kqueue;

import io.weir.channel.Channel;
import io.weir.channel.ChannelConfig;
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
import java.net.SocketAddress;

/**
 * A listening socket (TCP or Unix domain) driven by a {@link KQueueIoHandler}; each accepted connection becomes a
 * channel of the subclass's kind on the next loop of the child group and is fired with {@code channelRead}.
 *
 * <p>Accepting: up to {@link ChannelOption#MAX_MESSAGES_PER_READ} connections per read-filter event, until
 * {@code accept} says there is none left; the count kqueue reports with the event is not used (libkqueue always
 * says 1). When {@code accept} fails (out of descriptors), the channel stays open, fires {@code exceptionCaught}
 * once and stops accepting for a doubling pause ({@link AcceptBackoff}), so a descriptor shortage does not spin
 * the loop. An accepted channel that no handler takes is closed.
 *
 * <p>Options: {@link ChannelOption#SO_BACKLOG} (used when binding) and the socket options the subclass lists.
 */
abstract class AbstractKQueueServerChannel extends AbstractKQueueChannel implements ServerChannel {
    private static final ChannelMetadata METADATA =
            new ChannelMetadata(false, KQueueServerSocketChannel.DEFAULT_MAX_ACCEPTS_PER_READ);

    private final EventLoopGroup childGroup;
    private final KQueueChannelConfig config;
    // Event loop only.
    private final AcceptBackoff backoff = new AcceptBackoff();
    private final Runnable resume = this::resumeAccepting;

    AbstractKQueueServerChannel(EventLoop eventLoop, EventLoopGroup childGroup, Socket socket,
                                ChannelOption<?>... socketOptions) {
        super(null, checkCompatible(eventLoop, socket), socket, false);
        if (childGroup == null) {
            NullPointerException e = new NullPointerException("childGroup");
            closeAfterFailure(socket, e);
            throw e;
        }
        this.childGroup = childGroup;
        this.config = new KQueueChannelConfig(this, socket, KQueueServerSocketChannel.DEFAULT_MAX_ACCEPTS_PER_READ,
                KQueueServerSocketChannel.DEFAULT_BACKLOG, socketOptions);
    }

    /** The channel of an accepted connection; may throw, the caller then closes {@code accepted}. */
    abstract Channel newChild(EventLoop loop, Socket accepted);

    @Override
    public final EventLoopGroup childEventLoopGroup() {
        return childGroup;
    }

    @Override
    public final ChannelConfig config() {
        return config;
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
                    child = newChild(childGroup.next(), accepted);
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
