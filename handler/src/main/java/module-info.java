/**
 * Weir's everyday handlers: logging, idle and timeout detection, chunked writes, flow control, flush
 * consolidation, traffic shaping, IP filtering, a connection cap, and blocking work offloaded with backpressure.
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
    exports io.weir.handler.offload;
}
