package io.weir.handler.codec.http2;

import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.Promise;
import java.util.Objects;

/**
 * Opens {@link Http2StreamChannel}s for streams we start (a client's requests) on a connection whose pipeline
 * holds an {@link Http2FrameCodec} and an {@link Http2MultiplexHandler}. The stream gets its id when the child
 * writes its first {@link Http2HeadersFrame}; a connection that cannot open another stream (the peer's
 * SETTINGS_MAX_CONCURRENT_STREAMS, GOAWAY, exhausted ids) fails that write. Thread-safe; reusable.
 */
public final class Http2StreamChannelBootstrap {

    private final Channel parent;
    private volatile ChannelHandler handler;

    /** A bootstrap for streams of {@code parent}, the connection's channel. */
    public Http2StreamChannelBootstrap(Channel parent) {
        this.parent = Objects.requireNonNull(parent, "parent");
    }

    /** The handler added to each new child's pipeline (a {@code ChannelInitializer} or a sharable handler). */
    public Http2StreamChannelBootstrap handler(ChannelHandler handler) {
        this.handler = Objects.requireNonNull(handler, "handler");
        return this;
    }

    /**
     * Opens a child channel on the parent's event loop. The future fails if the parent has no
     * {@link Http2MultiplexHandler} or is not active.
     */
    public Future<Http2StreamChannel> open() {
        Promise<Http2StreamChannel> promise = parent.eventLoop().newPromise();
        ChannelHandler h = handler;
        if (parent.eventLoop().inEventLoop()) {
            open0(h, promise);
        } else {
            parent.eventLoop().execute(() -> open0(h, promise));
        }
        return promise;
    }

    private void open0(ChannelHandler h, Promise<Http2StreamChannel> promise) {
        if (!parent.isActive()) {
            promise.tryFailure(new IllegalStateException("the connection is not active: " + parent));
            return;
        }
        Http2MultiplexHandler multiplexer = parent.pipeline().get(Http2MultiplexHandler.class);
        if (multiplexer == null) {
            promise.tryFailure(new IllegalStateException("no Http2MultiplexHandler in the pipeline of " + parent));
            return;
        }
        try {
            promise.trySuccess(multiplexer.newOutboundChild(h));
        } catch (RuntimeException e) {
            promise.tryFailure(e);
        }
    }
}
