package io.weir.handler.codec;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Feeds bytes into an EmbeddedChannel in chunks and collects what comes out as text, releasing everything. */
final class Inbound {
    private Inbound() {
    }

    static ByteBuf buf(String ascii) {
        return Unpooled.copiedBuffer(ascii, StandardCharsets.ISO_8859_1);
    }

    static ByteBuf buf(byte[] bytes) {
        return Unpooled.copiedBuffer(bytes);
    }

    /** Writes {@code input} in chunks of {@code chunk} bytes (0: all at once) and returns the frames read. */
    static List<String> feed(EmbeddedChannel ch, byte[] input, int chunk) {
        int step = chunk <= 0 ? Math.max(1, input.length) : chunk;
        for (int i = 0; i < input.length; i += step) {
            ch.writeInbound(buf(Arrays.copyOfRange(input, i, Math.min(input.length, i + step))));
        }
        return drain(ch);
    }

    /** Takes every inbound message as text, releasing buffers. */
    static List<String> drain(EmbeddedChannel ch) {
        List<String> frames = new ArrayList<>();
        for (Object m; (m = ch.readInbound()) != null; ) {
            frames.add(text(m));
        }
        return frames;
    }

    /** The text of a buffer (released) or of any other message. */
    static String text(Object m) {
        if (m instanceof ByteBuf b) {
            try {
                return b.toString(StandardCharsets.ISO_8859_1);
            } finally {
                b.release();
            }
        }
        ReferenceCountUtil.release(m);
        return String.valueOf(m);
    }

    /** A delimiter decoder built from text delimiters, releasing the buffers it was given (it copies them). */
    static DelimiterBasedFrameDecoder delimited(int max, boolean strip, boolean failFast, String... delimiters) {
        ByteBuf[] bufs = new ByteBuf[delimiters.length];
        for (int i = 0; i < bufs.length; i++) {
            bufs[i] = buf(delimiters[i]);
        }
        try {
            return new DelimiterBasedFrameDecoder(max, strip, failFast, bufs);
        } finally {
            for (ByteBuf b : bufs) {
                b.release();
            }
        }
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
