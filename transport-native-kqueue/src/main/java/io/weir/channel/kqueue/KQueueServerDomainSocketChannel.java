package io.weir.channel.kqueue;

import io.weir.channel.Channel;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.unix.DomainSocketAddress;
import io.weir.channel.unix.Socket;
import io.weir.channel.unix.internal.AbstractUnixServerChannel;

/**
 * A listening Unix domain stream socket driven by a {@link KQueueIoHandler}; each accepted connection becomes a
 * {@link KQueueDomainSocketChannel} on the next loop of the child group. The socket file that {@code bind} creates
 * is deleted when the channel closes. Options: {@link ChannelOption#SO_BACKLOG}, {@code SO_RCVBUF},
 * {@code SO_SNDBUF}.
 *
 * <p>Thread-safe as every {@link Channel}.
 */
public final class KQueueServerDomainSocketChannel extends AbstractUnixServerChannel {
    private final KQueueChannelConfig config;

    /**
     * A server channel on {@code eventLoop} whose connections go to {@code childGroup}'s loops.
     *
     * @throws UnsatisfiedLinkError if {@link KQueue#isAvailable()} is false
     * @throws NullPointerException if {@code childGroup} is null
     * @throws IllegalArgumentException if {@code eventLoop} does not run a {@link KQueueIoHandler}
     * @throws io.weir.channel.ChannelException if no socket could be opened
     */
    public KQueueServerDomainSocketChannel(EventLoop eventLoop, EventLoopGroup childGroup) {
        super(eventLoop, childGroup, KQueueChannelHandle.TRANSPORT.openDomainSocket(), KQueueChannelHandle.TRANSPORT);
        config = new KQueueChannelConfig(this, DEFAULT_MAX_ACCEPTS_PER_READ, DEFAULT_BACKLOG, ChannelOption.SO_RCVBUF,
                ChannelOption.SO_SNDBUF);
    }

    @Override
    public ChannelConfig config() {
        return config;
    }

    @Override
    public DomainSocketAddress localAddress() {
        return (DomainSocketAddress) super.localAddress();
    }

    @Override
    protected Channel newChildChannel(EventLoop loop, Socket accepted) {
        return new KQueueDomainSocketChannel(this, loop, accepted);
    }
}
