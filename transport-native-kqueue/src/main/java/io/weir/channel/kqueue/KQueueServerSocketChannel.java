package io.weir.channel.kqueue;

import io.weir.channel.Channel;
import io.weir.channel.ChannelException;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.unix.Socket;
import java.net.InetSocketAddress;

/**
 * A listening TCP socket driven by a {@link KQueueIoHandler}; each accepted connection becomes a
 * {@link KQueueSocketChannel} on the next loop of the child group (see {@link AbstractKQueueServerChannel} for
 * how accepting paces itself).
 *
 * <p>Options: {@link ChannelOption#SO_BACKLOG} (default {@value #DEFAULT_BACKLOG}, used when binding),
 * {@code SO_REUSEADDR} (on by default), {@code SO_RCVBUF} and {@link KQueueChannelOption#SO_REUSEPORT}.
 *
 * <p>Thread-safe as every {@link Channel}.
 */
public final class KQueueServerSocketChannel extends AbstractKQueueServerChannel {
    /** The default listen backlog. */
    public static final int DEFAULT_BACKLOG = 1024;
    /** The default of {@link ChannelOption#MAX_MESSAGES_PER_READ}: connections accepted per event. */
    public static final int DEFAULT_MAX_ACCEPTS_PER_READ = 16;

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
        super(eventLoop, childGroup, socket, ChannelOption.SO_REUSEADDR, ChannelOption.SO_RCVBUF,
                KQueueChannelOption.SO_REUSEPORT);
        try {
            socket.setReuseAddress(true);
        } catch (Exception e) {
            closeAfterFailure(socket, e);
            throw new ChannelException("failed to set SO_REUSEADDR on " + socket, e);
        }
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) super.localAddress();
    }

    @Override
    Channel newChild(EventLoop loop, Socket accepted) {
        return new KQueueSocketChannel(this, loop, accepted);
    }
}
