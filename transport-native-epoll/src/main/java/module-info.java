/**
 * Weir's Linux epoll transport: {@link io.weir.channel.epoll.EpollIoHandler} for
 * {@link io.weir.channel.MultiThreadIoEventLoopGroup}, backed by a JNI library bundled in the jar.
 */
module io.weir.transport.epoll {
    requires transitive io.weir.transport;
    requires transitive io.weir.transport.unix.common;

    exports io.weir.channel.epoll;
}
