package io.weir.handler.codec.http2.internal;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.handler.codec.http2.Http2Error;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The GOAWAY debug data a connection error sends: a short fixed text per error code, never the exception's message,
 * which may name internal state (a field, a class, a helpful NullPointerException's expression) that a peer has no
 * business seeing. An internal error says nothing at all; the message goes to the log instead. Stateless.
 */
final class Http2GoAwayDebugText {

    /** The texts by {@link Http2Error} ordinal; an empty one means no debug data. */
    private static final byte[][] TEXTS = texts();

    private Http2GoAwayDebugText() {
    }

    /** The debug data for a connection that ends with {@code error}; the caller owns the buffer. */
    static ByteBuf of(Http2Error error) {
        byte[] text = TEXTS[error.ordinal()];
        return text.length == 0 ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(text);
    }

    private static byte[][] texts() {
        byte[][] texts = new byte[Http2Error.values().length][];
        Arrays.fill(texts, new byte[0]);
        texts[Http2Error.PROTOCOL_ERROR.ordinal()] = ascii("protocol error");
        texts[Http2Error.FLOW_CONTROL_ERROR.ordinal()] = ascii("flow-control window exceeded");
        texts[Http2Error.SETTINGS_TIMEOUT.ordinal()] = ascii("SETTINGS not acknowledged in time");
        texts[Http2Error.STREAM_CLOSED.ordinal()] = ascii("frame on a closed stream");
        texts[Http2Error.FRAME_SIZE_ERROR.ordinal()] = ascii("bad frame size");
        texts[Http2Error.COMPRESSION_ERROR.ordinal()] = ascii("header block could not be decoded");
        texts[Http2Error.ENHANCE_YOUR_CALM.ordinal()] = ascii("connection limit exceeded");
        return texts;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
