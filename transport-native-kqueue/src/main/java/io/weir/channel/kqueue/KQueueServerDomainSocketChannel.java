package io.weir.channel.kqueue;

import io.weir.channel.Channel;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.unix.DomainSocketAddress;
import io.weir.channel.unix.Socket;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A listening Unix domain stream socket driven by a {@link KQueueIoHandler}; each accepted connection becomes a
 * {@link KQueueDomainSocketChannel} on the next loop of the child group. The socket file that {@code bind} creates
 * is deleted when the channel closes. Options: {@link ChannelOption#SO_BACKLOG}, {@code SO_RCVBUF},
 * {@code SO_SNDBUF}.
 *
 * <p>Thread-safe as every {@link Channel}.
 */
public final class KQueueServerDomainSocketChannel extends AbstractKQueueServerChannel {
    // Event loop only: the file bind() created.
    private Path boundPath;

    /**
     * A server channel on {@code eventLoop} whose connections go to {@code childGroup}'s loops.
     *
     * @throws UnsatisfiedLinkError if {@link KQueue#isAvailable()} is false
     * @throws NullPointerException if {@code childGroup} is null
     * @throws IllegalArgumentException if {@code eventLoop} does not run a {@link KQueueIoHandler}
     * @throws io.weir.channel.ChannelException if no socket could be opened
     */
    public KQueueServerDomainSocketChannel(EventLoop eventLoop, EventLoopGroup childGroup) {
        super(eventLoop, childGroup, KQueueDomainSocketChannel.openDomainSocket(), ChannelOption.SO_RCVBUF,
                ChannelOption.SO_SNDBUF);
    }

    @Override
    public DomainSocketAddress localAddress() {
        return (DomainSocketAddress) super.localAddress();
    }

    @Override
    protected void doBind(SocketAddress localAddress) throws Exception {
        super.doBind(localAddress);
        if (localAddress instanceof DomainSocketAddress domain) {
            boundPath = Path.of(domain.path());
        }
    }

    @Override
    protected void doClose() throws Exception {
        try {
            super.doClose();
        } finally {
            Path path = boundPath;
            boundPath = null;
            if (path != null) {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    logDebug("Failed to delete the socket file " + path, e);
                }
            }
        }
    }

    @Override
    Channel newChild(EventLoop loop, Socket accepted) {
        return new KQueueDomainSocketChannel(this, loop, accepted);
    }
}
