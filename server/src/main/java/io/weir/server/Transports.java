package io.weir.server;

import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.IoHandlerFactory;
import io.weir.channel.ServerChannel;
import io.weir.channel.epoll.Epoll;
import io.weir.channel.epoll.EpollIoHandle;
import io.weir.channel.epoll.EpollIoHandler;
import io.weir.channel.epoll.EpollServerSocketChannel;
import io.weir.channel.epoll.EpollSocketChannel;
import io.weir.channel.kqueue.KQueue;
import io.weir.channel.kqueue.KQueueIoHandle;
import io.weir.channel.kqueue.KQueueIoHandler;
import io.weir.channel.kqueue.KQueueServerSocketChannel;
import io.weir.channel.kqueue.KQueueSocketChannel;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.channel.nio.NioSocketChannel;
import io.weir.channel.uring.IoUringIoHandle;
import io.weir.channel.uring.IoUringIoHandler;
import io.weir.channel.uring.IoUringServerSocketChannel;
import io.weir.channel.uring.IoUringSocketChannel;
import java.lang.System.Logger.Level;
import java.util.Objects;

/**
 * Picks the transport of the examples: on Linux the native epoll transport where {@link Epoll#isAvailable()},
 * then kqueue where {@link KQueue#isAvailable()} (built against libkqueue); on macOS and the BSDs kqueue; NIO
 * otherwise (the native transports' own classes log why, once, with the fix). io_uring only when asked for
 * ({@code --transport io_uring}). The channel classes follow the loops a group actually runs, so an example given
 * a NIO or io_uring group by its caller still uses that transport's channels.
 * Thread-safe.
 */
public final class Transports {
    private static final System.Logger LOGGER = System.getLogger(Transports.class.getName());

    /** The transports the examples can run on. */
    private enum Kind { EPOLL, KQUEUE, IO_URING, NIO }

    /** Decided once, on first use, so the fallback is logged once. */
    private static final class Choice {
        static final Kind KIND = choose();

        private static Kind choose() {
            // Epoll's check is cheap and fails at once off Linux, so it comes first everywhere.
            if (Epoll.isAvailable()) {
                return Kind.EPOLL;
            }
            if (KQueue.isAvailable()) {
                return Kind.KQUEUE;
            }
            // Epoll and KQueue each logged their cause and its fix at INFO already; this only records the choice.
            LOGGER.log(Level.DEBUG, "native transports unavailable, using NIO: epoll: " + Epoll.unavailabilityCause()
                    + "; kqueue: " + KQueue.unavailabilityCause());
            return Kind.NIO;
        }
    }

    private Transports() {
    }

    /** The I/O handler factory for new event loop groups: epoll, kqueue or NIO, as chosen above. */
    public static IoHandlerFactory ioHandlerFactory() {
        return switch (Choice.KIND) {
            case EPOLL -> EpollIoHandler.newFactory();
            case KQUEUE -> KQueueIoHandler.newFactory();
            case IO_URING -> IoUringIoHandler.newFactory();
            case NIO -> NioIoHandler.newFactory();
        };
    }

    /** The server channel class for loops of {@code group}: the native one for native loops, NIO's otherwise. */
    public static Class<? extends ServerChannel> serverChannel(EventLoopGroup group) {
        return switch (kindOf(group)) {
            case EPOLL -> EpollServerSocketChannel.class;
            case KQUEUE -> KQueueServerSocketChannel.class;
            case IO_URING -> IoUringServerSocketChannel.class;
            case NIO -> NioServerSocketChannel.class;
        };
    }

    /** The TCP channel class for loops of {@code group}: the native one for native loops, NIO's otherwise. */
    public static Class<? extends Channel> socketChannel(EventLoopGroup group) {
        return switch (kindOf(group)) {
            case EPOLL -> EpollSocketChannel.class;
            case KQUEUE -> KQueueSocketChannel.class;
            case IO_URING -> IoUringSocketChannel.class;
            case NIO -> NioSocketChannel.class;
        };
    }

    private static Kind kindOf(EventLoopGroup group) {
        Objects.requireNonNull(group, "group");
        if (group.next().isCompatible(EpollIoHandle.class)) {
            return Kind.EPOLL;
        }
        if (group.next().isCompatible(IoUringIoHandle.class)) {
            return Kind.IO_URING;
        }
        return group.next().isCompatible(KQueueIoHandle.class) ? Kind.KQUEUE : Kind.NIO;
    }
}
