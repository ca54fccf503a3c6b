/**
 * Weir's foundation: reference counting and leak detection, FastThreadLocal and the Recycler, futures,
 * executors and timers, AsciiString, primitive-keyed maps, and (for Weir's own modules only) narrow
 * seams onto the platform.
 */
module io.weir.common {
    requires org.jctools.core;
    // sun.misc.Unsafe, used only when PlatformInfo.hasUnsafe(); every use has a VarHandle/ByteBuffer twin.
    requires jdk.unsupported;

    exports io.weir.util;
    exports io.weir.util.collection;
    exports io.weir.util.concurrent;
    // Platform seams are for Weir's modules, not for applications.
    exports io.weir.util.platform to
            io.weir.buffer,
            io.weir.transport,
            io.weir.transport.unix.common,
            io.weir.transport.epoll,
            io.weir.transport.kqueue,
            io.weir.codec,
            io.weir.handler,
            io.weir.codec.http,
            io.weir.codec.http2,
            io.weir.handler.ssl;
}
