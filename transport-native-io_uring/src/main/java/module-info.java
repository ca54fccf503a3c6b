/**
 * Weir's Linux io_uring transport: {@link io.weir.channel.uring.IoUringIoHandler} for
 * {@link io.weir.channel.MultiThreadIoEventLoopGroup}, backed by a JNI library bundled in the jar that talks to the
 * kernel's io_uring ABI directly.
 */
module io.weir.transport.iouring {
    requires transitive io.weir.transport;
    requires transitive io.weir.transport.unix.common;

    exports io.weir.channel.uring;
}
