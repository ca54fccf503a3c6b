/**
 * Weir's transport: channels, the handler pipeline, event loops driving pluggable I/O handlers, and the NIO,
 * local (in-VM) and embedded (test) transports.
 */
module io.weir.transport {
    requires transitive io.weir.buffer;

    exports io.weir.bootstrap;
    exports io.weir.channel;
    exports io.weir.channel.embedded;
    exports io.weir.channel.local;
    exports io.weir.channel.nio;
}
