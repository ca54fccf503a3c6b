package io.weir.example;

import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.IoHandlerFactory;
import io.weir.channel.ServerChannel;
import io.weir.channel.epoll.Epoll;
import io.weir.channel.epoll.EpollIoHandle;
import io.weir.channel.epoll.EpollIoHandler;
import io.weir.channel.epoll.EpollServerSocketChannel;
import io.weir.channel.epoll.EpollSocketChannel;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.channel.nio.NioSocketChannel;
import java.lang.System.Logger.Level;
import java.util.Objects;

/**
 * Picks the transport of the examples: the native epoll transport where {@link Epoll#isAvailable()}, NIO
 * otherwise, saying once in the log why epoll could not be used. The channel classes follow the loops a group
 * actually runs, so an example given a NIO group by its caller (a test) still uses NIO channels. Thread-safe.
 */
public final class Transports {
    private static final System.Logger LOGGER = System.getLogger(Transports.class.getName());

    /** Decided once, on first use, so the fallback is logged once. */
    private static final class Choice {
        static final boolean EPOLL = choose();

        private static boolean choose() {
            if (Epoll.isAvailable()) {
                return true;
            }
            LOGGER.log(Level.INFO, "epoll transport unavailable, using NIO: " + Epoll.unavailabilityCause());
            return false;
        }
    }

    private Transports() {
    }

    /** The I/O handler factory for new event loop groups: epoll where available, NIO otherwise. */
    public static IoHandlerFactory ioHandlerFactory() {
        return Choice.EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    }

    /** The server channel class for loops of {@code group}: epoll's for epoll loops, NIO's otherwise. */
    public static Class<? extends ServerChannel> serverChannel(EventLoopGroup group) {
        return isEpoll(group) ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    /** The TCP channel class for loops of {@code group}: epoll's for epoll loops, NIO's otherwise. */
    public static Class<? extends Channel> socketChannel(EventLoopGroup group) {
        return isEpoll(group) ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    private static boolean isEpoll(EventLoopGroup group) {
        Objects.requireNonNull(group, "group");
        return group.next().isCompatible(EpollIoHandle.class);
    }
}
