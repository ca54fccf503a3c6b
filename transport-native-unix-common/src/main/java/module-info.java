/**
 * What Weir's native transports share: file descriptors, non-blocking sockets, {@link io.weir.channel.unix.IovArray},
 * errno mapped to typed exceptions, domain-socket addresses. The natives are registered by a transport's
 * library (for example {@code io.weir.transport.epoll}); see {@link io.weir.channel.unix.Unix}.
 */
module io.weir.transport.unix.common {
    requires transitive io.weir.buffer;

    exports io.weir.channel.unix;
}
