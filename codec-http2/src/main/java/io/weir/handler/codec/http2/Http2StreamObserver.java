package io.weir.handler.codec.http2;

/** What the multiplexer learns from the codec about its streams besides frames. Event loop only. */
interface Http2StreamObserver {

    /** The stream closed (both sides ended, or a reset, or the connection ended); its child should close. */
    void streamClosed(DefaultHttp2FrameStream stream);

    /** The stream's {@link Http2FrameCodec#isWritable writability} changed. */
    void streamWritabilityChanged(DefaultHttp2FrameStream stream);

    /**
     * The connection's output bound was crossed or cleared ({@link Http2FrameCodec#isConnectionWritable}): every
     * stream's writability follows it.
     */
    void connectionWritabilityChanged();
}
