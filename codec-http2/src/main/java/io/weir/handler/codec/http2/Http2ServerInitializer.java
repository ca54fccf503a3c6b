package io.weir.handler.codec.http2;

import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelPipeline;
import io.weir.metrics.HttpMetrics;
import java.util.Objects;

/**
 * Installs the HTTP/2 server handlers on a connection: an {@link Http2FrameCodec} from the builder and an
 * {@link Http2MultiplexHandler} whose children are initialised by {@code streamHandler}. This is the one step
 * shared by every way a connection becomes HTTP/2: h2c with prior knowledge and the HTTP/1.1 Upgrade (see
 * {@link Http2CleartextServerHandler}), and TLS, where an ALPN handler that negotiated {@code h2} only has to call
 * {@link #install(ChannelPipeline)}. Thread-safe; one instance may serve every connection.
 */
public final class Http2ServerInitializer {

    private final Http2FrameCodecBuilder codecBuilder;
    private final ChannelHandler streamHandler;

    /**
     * @param codecBuilder settings and limits of each connection's codec (read at each install; do not change it
     *        while connections are being accepted)
     * @param streamHandler the handler of each stream's child channel: a {@code ChannelInitializer} or a
     *        {@link ChannelHandler.Sharable} handler
     */
    public Http2ServerInitializer(Http2FrameCodecBuilder codecBuilder, ChannelHandler streamHandler) {
        this.codecBuilder = Objects.requireNonNull(codecBuilder, "codecBuilder");
        this.streamHandler = Objects.requireNonNull(streamHandler, "streamHandler");
    }

    /** Adds the codec and the multiplexer at the end of {@code pipeline}; returns the codec. Event loop only. */
    public Http2FrameCodec install(ChannelPipeline pipeline) {
        Http2FrameCodec codec;
        synchronized (codecBuilder) {
            codec = codecBuilder.build();
        }
        pipeline.addLast(codec, new Http2MultiplexHandler(streamHandler));
        return codec;
    }

    /** Where the codecs count, also the cleartext handler's timeout; null when nobody asked. */
    HttpMetrics metrics() {
        return codecBuilder.metrics;
    }

    /** {@link #install(ChannelPipeline)} on {@code channel}'s pipeline. */
    public Http2FrameCodec install(Channel channel) {
        return install(channel.pipeline());
    }
}
