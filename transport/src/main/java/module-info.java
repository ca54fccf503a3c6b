/**
 * Weir's transport: channels, the handler pipeline, event loops driving pluggable I/O handlers, and the NIO,
 * local (in-VM) and embedded (test) transports.
 */
module io.weir.transport {
    requires transitive io.weir.buffer;
    // sun.misc.Unsafe, only to install the NIO selector's array-backed key set where reflection may not.
    requires org.jctools.core;
    requires jdk.unsupported;

    exports io.weir.bootstrap;
    exports io.weir.channel;
    exports io.weir.channel.embedded;
    exports io.weir.channel.group;
    exports io.weir.channel.local;
    exports io.weir.channel.nio;
    exports io.weir.channel.pool;
    exports io.weir.resolver;
    // What the native transports need of the transport (idle-poll rule, accept back-off, file-region access);
    // not for applications. kqueue is named before it exists: javac's "module not found" lint is off.
    exports io.weir.channel.internal to io.weir.transport.unix.common, io.weir.transport.epoll,
            io.weir.transport.kqueue, io.weir.transport.iouring;
}
