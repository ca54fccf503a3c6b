/**
 * Weir's kqueue transport for macOS and the BSDs: {@link io.weir.channel.kqueue.KQueueIoHandler} for
 * {@link io.weir.channel.MultiThreadIoEventLoopGroup}, backed by a JNI library bundled in the jar. On Linux the
 * library is built against libkqueue (a user-space kqueue over epoll) only when the build is given its prefix,
 * so that CI runs the transport; see {@link io.weir.channel.kqueue.KQueue}.
 */
module io.weir.transport.kqueue {
    requires transitive io.weir.transport;
    requires transitive io.weir.transport.unix.common;

    exports io.weir.channel.kqueue;
}
