package io.weir.channel.kqueue;

import io.weir.channel.Channel;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelException;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.unix.Socket;
import io.weir.channel.unix.internal.AbstractUnixServerChannel;
import java.net.InetSocketAddress;

/**
 * A listening TCP socket driven by a {@link KQueueIoHandler}; each accepted connection becomes a
 * {@link KQueueSocketChannel} on the next loop of the child group (see unix-common's {@code AbstractUnixServerChannel}
 * for how accepting paces itself).
 *
 * <p>Options: {@link ChannelOption#SO_BACKLOG} (default {@value #DEFAULT_BACKLOG}, used when binding),
 * {@code SO_REUSEADDR} (on by default), {@code SO_RCVBUF} and {@link KQueueChannelOption#SO_REUSEPORT}.
 *
 * <p>Thread-safe as every {@link Channel}.
 */
public final class KQueueServerSocketChannel extends AbstractUnixServerChannel {
    /** The default listen backlog. */
    public static final int DEFAULT_BACKLOG = AbstractUnixServerChannel.DEFAULT_BACKLOG;
    /** The default of {@link ChannelOption#MAX_MESSAGES_PER_READ}: connections accepted per event. */
    public static final int DEFAULT_MAX_ACCEPTS_PER_READ = AbstractUnixServerChannel.DEFAULT_MAX_ACCEPTS_PER_READ;

    private final KQueueChannelConfig config;

    /**
     * A server channel on {@code eventLoop} whose connections go to {@code childGroup}'s loops.
     *
     * @throws UnsatisfiedLinkError if {@link KQueue#isAvailable()} is false
     * @throws NullPointerException if {@code childGroup} is null
     * @throws IllegalArgumentException if {@code eventLoop} does not run a {@link KQueueIoHandler}
     * @throws ChannelException if no socket could be opened or configured
     */
    public KQueueServerSocketChannel(EventLoop eventLoop, EventLoopGroup childGroup) {
        this(eventLoop, childGroup, KQueueChannelHandle.TRANSPORT.openStreamSocket());
    }

    private KQueueServerSocketChannel(EventLoop eventLoop, EventLoopGroup childGroup, Socket socket) {
        super(eventLoop, childGroup, socket, KQueueChannelHandle.TRANSPORT);
        config = new KQueueChannelConfig(this, DEFAULT_MAX_ACCEPTS_PER_READ, DEFAULT_BACKLOG,
                ChannelOption.SO_REUSEADDR, ChannelOption.SO_RCVBUF, KQueueChannelOption.SO_REUSEPORT);
        try {
            socket.setReuseAddress(true);
        } catch (Exception e) {
            closeAfterFailure(socket, e);
            throw new ChannelException("failed to set SO_REUSEADDR on " + socket, e);
        }
    }

    @Override
    public ChannelConfig config() {
        return config;
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) super.localAddress();
    }

    @Override
    protected Channel newChildChannel(EventLoop loop, Socket accepted) {
        return new KQueueSocketChannel(this, loop, accepted);
    }
}
