package io.weir.handler.codec.http2;

import io.weir.handler.codec.http2.internal.Http2StreamRecord;

/**
 * The {@link Http2FrameStream} the codec hands out: the connection engine's {@link Http2StreamRecord} of one
 * stream, under the name the multiplexer and stream channels know it by. Only used from the connection's event
 * loop.
 */
final class DefaultHttp2FrameStream extends Http2StreamRecord {
}
