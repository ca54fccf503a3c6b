package io.weir.handler.codec;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;

/**
 * Common delimiters for {@link DelimiterBasedFrameDecoder}. Each call returns new buffers owned by the caller;
 * the decoder copies them, so they may be released after construction (unpooled heap buffers need not be).
 */
public final class Delimiters {

    private Delimiters() {
    }

    /** {@code NUL} (0x00), as Flash XML sockets use. */
    public static ByteBuf[] nulDelimiter() {
        return new ByteBuf[] {Unpooled.wrappedBuffer(new byte[] {0})};
    }

    /** {@code "\r\n"} and {@code "\n"}; the decoder then uses its line-based fast path. */
    public static ByteBuf[] lineDelimiter() {
        return new ByteBuf[] {
                Unpooled.wrappedBuffer(new byte[] {'\r', '\n'}),
                Unpooled.wrappedBuffer(new byte[] {'\n'}),
        };
    }
}
