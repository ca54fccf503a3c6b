/**
 * Weir's everyday handlers: logging, idle and timeout detection, chunked writes, flow control, flush
 * consolidation, traffic shaping, IP filtering and a connection cap.
 */
module io.weir.handler {
    requires transitive io.weir.transport;

    exports io.weir.handler.logging;
    exports io.weir.handler.timeout;
    exports io.weir.handler.stream;
    exports io.weir.handler.flow;
    exports io.weir.handler.flush;
    exports io.weir.handler.traffic;
    exports io.weir.handler.ipfilter;
    exports io.weir.handler.limit;
}
