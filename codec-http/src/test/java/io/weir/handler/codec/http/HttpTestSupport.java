package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Feeding bytes to decoders and reading what comes out, for the codec-http tests. */
final class HttpTestSupport {
    private HttpTestSupport() {
    }

    static ByteBuf bytes(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }

    /** Writes each part as one read and returns everything decoded, in order; the caller releases it. */
    static List<Object> decode(EmbeddedChannel ch, String... parts) {
        List<Object> out = new ArrayList<>();
        for (String part : parts) {
            ch.writeInbound(bytes(part));
            drain(ch, out);
        }
        return out;
    }

    static void drain(EmbeddedChannel ch, List<Object> out) {
        for (Object o; (o = ch.readInbound()) != null; ) {
            out.add(o);
        }
    }

    /** The body bytes of every content in {@code objects}, as ISO-8859-1. */
    static String content(List<Object> objects) {
        StringBuilder sb = new StringBuilder();
        for (Object o : objects) {
            if (o instanceof HttpContent c) {
                sb.append(c.content().toString(StandardCharsets.ISO_8859_1));
            }
        }
        return sb.toString();
    }

    /** Everything written to the channel so far, as ISO-8859-1; releases what it reads. */
    static String outbound(EmbeddedChannel ch) {
        StringBuilder sb = new StringBuilder();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            try {
                if (o instanceof ByteBuf b) {
                    sb.append(b.toString(StandardCharsets.ISO_8859_1));
                } else {
                    throw new AssertionError("not bytes: " + o);
                }
            } finally {
                ReferenceCountUtil.release(o);
            }
        }
        return sb.toString();
    }

    static void release(List<Object> objects) {
        for (Object o : objects) {
            ReferenceCountUtil.release(o);
        }
        objects.clear();
    }

    static <T> T single(List<Object> objects, Class<T> type) {
        T found = null;
        for (Object o : objects) {
            if (type.isInstance(o)) {
                if (found != null) {
                    throw new AssertionError("more than one " + type.getSimpleName() + " in " + objects);
                }
                found = type.cast(o);
            }
        }
        if (found == null) {
            throw new AssertionError("no " + type.getSimpleName() + " in " + objects);
        }
        return found;
    }
}
