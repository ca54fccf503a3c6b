package io.weir.handler.codec.http2.internal;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelPromise;
import io.weir.handler.codec.http2.Http2HeadersFrame;

/**
 * Where {@link Http2OutboundFlow} sends what the windows let through: the frame writer, with the stream state
 * updates that go with a sent frame. The flow never writes to the channel any other way. Only called from the
 * connection's event loop.
 */
interface Http2DataSink {

    /** Sends a DATA frame (taking {@code data}) whose octets the flow already took from both send windows. */
    void sendData(Http2StreamRecord stream, ByteBuf data, int padding, boolean endStream, ChannelPromise promise);

    /** Sends trailers that waited behind the stream's DATA. */
    void sendTrailers(Http2StreamRecord stream, Http2HeadersFrame trailers, ChannelPromise promise);

    /** A promise for a piece of a split DATA frame, whose own promise goes with its last piece. */
    ChannelPromise newPromise();

    /** The stream's writability changed while it may still send DATA. */
    void writabilityChanged(Http2StreamRecord stream);

    /** The connection's clock, in nanoseconds. */
    long nanoTime();
}
