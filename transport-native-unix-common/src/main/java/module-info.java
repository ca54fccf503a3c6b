/**
 * What Weir's native transports share: file descriptors, non-blocking sockets, {@link io.weir.channel.unix.IovArray},
 * errno mapped to typed exceptions, domain-socket addresses, {@link io.weir.channel.unix.TruncatedDatagramException},
 * and (for the transports only) the readiness core epoll and kqueue share: channel bases, I/O handler base, stream
 * and datagram code. The natives are registered by a transport's library (for example
 * {@code io.weir.transport.epoll}); see {@link io.weir.channel.unix.Unix}.
 */
module io.weir.transport.unix.common {
    requires transitive io.weir.transport;

    exports io.weir.channel.unix;
    // The readiness core (channels, I/O handler, stream and datagram code) epoll and kqueue share; not for
    // applications. kqueue is named before it exists: javac's "module not found" lint is off in the parent pom.
    exports io.weir.channel.unix.internal to io.weir.transport.epoll, io.weir.transport.kqueue,
            io.weir.transport.iouring;
}
