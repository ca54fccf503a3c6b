/**
 * Weir's foundation: reference counting and leak detection, FastThreadLocal and the Recycler, futures,
 * executors and timers, AsciiString, primitive-keyed maps, the metrics API and Flight Recorder events, and (for
 * Weir's own modules only) narrow seams onto the platform.
 */
module io.weir.common {
    requires org.jctools.core;
    // sun.misc.Unsafe, used only when PlatformInfo.hasUnsafe(); every use has a VarHandle/ByteBuffer twin.
    requires jdk.unsupported;
    // Flight Recorder events (io.weir.metrics.WeirEvents); optional: without the module they are not recorded.
    requires static jdk.jfr;

    exports io.weir.util;
    exports io.weir.util.collection;
    exports io.weir.util.concurrent;
    exports io.weir.metrics;
    // Platform seams are for Weir's modules, not for applications.
    exports io.weir.util.platform to
            io.weir.buffer,
            io.weir.transport,
            io.weir.transport.unix.common,
            io.weir.transport.epoll,
            io.weir.transport.kqueue,
            io.weir.transport.iouring,
            io.weir.codec,
            io.weir.handler,
            io.weir.codec.http,
            io.weir.codec.http2,
            io.weir.handler.ssl;
}
