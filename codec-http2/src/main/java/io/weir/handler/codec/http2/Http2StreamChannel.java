package io.weir.handler.codec.http2;

import io.weir.channel.Channel;

/**
 * One HTTP/2 stream as a channel: a child of the connection's channel, on the same event loop, with its own
 * pipeline. Inbound it reads the stream's {@link Http2StreamFrame}s (headers, DATA, a reset); outbound it writes
 * frames without a stream (the channel binds them to its stream, a copy of the frame each) or made with
 * {@link #stream()} (passed on as they are, as a handler writing many frames may prefer). Made by an
 * {@link Http2MultiplexHandler} for each stream the peer opens, or by an {@link Http2StreamChannelBootstrap} for a
 * stream we open.
 *
 * <p><b>Backpressure.</b> {@link #isWritable()} follows the stream's send window (and the connection's own
 * writability): write while it is true. Received DATA is given back to the peer's windows as the child's pipeline
 * reads it, so turning auto-read off stops the peer after one window. A DATA frame's buffer belongs to the handler
 * that reads it.
 *
 * <p>{@code close()} before the stream ended in both directions resets it with CANCEL. All methods are
 * thread-safe; events run on the parent's event loop.
 */
public interface Http2StreamChannel extends Channel {

    /** The stream this channel carries. */
    Http2FrameStream stream();
}
