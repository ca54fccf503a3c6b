package io.weir.handler.codec.http2.internal.hpack;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.handler.codec.http2.Http2Exception;
import io.weir.handler.codec.http2.Http2Headers;
import java.util.ArrayList;
import java.util.List;

/** Hex and buffer plumbing shared by the HPACK tests; every buffer it makes is released before it returns. */
final class HpackTestSupport {
    static final int STREAM_ID = 3;

    private HpackTestSupport() {
    }

    static byte[] hex(String hex) {
        return ByteBufUtil.decodeHexDump(hex.replaceAll("\\s+", ""));
    }

    /** Decodes {@code block} from a heap buffer, or from a direct one when {@code direct} (the copying path). */
    static Http2Headers decode(HpackDecoder decoder, byte[] block, boolean trailers, boolean direct)
            throws Http2Exception {
        ByteBuf buf = direct ? Unpooled.directBuffer(Math.max(1, block.length)) : Unpooled.buffer(block.length);
        try {
            buf.writeBytes(block);
            Http2Headers headers = decoder.decode(STREAM_ID, buf, trailers);
            if (buf.isReadable()) {
                throw new AssertionError("decoder left " + buf.readableBytes() + " bytes unread");
            }
            return headers;
        } finally {
            buf.release();
        }
    }

    static Http2Headers decode(HpackDecoder decoder, String hex) throws Http2Exception {
        return decode(decoder, hex(hex), false, false);
    }

    static byte[] encode(HpackEncoder encoder, Http2Headers headers) {
        ByteBuf buf = Unpooled.buffer();
        try {
            encoder.encode(headers, buf);
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    /** The fields as "name: value" strings, in order. */
    static List<String> fields(Http2Headers headers) {
        List<String> fields = new ArrayList<>(headers.size());
        for (int i = 0; i < headers.size(); i++) {
            fields.add(headers.name(i) + ": " + headers.value(i));
        }
        return fields;
    }

    /** The dynamic table as "name: value" strings, newest first. */
    static List<String> entries(HpackDynamicTable table) {
        List<String> entries = new ArrayList<>(table.length());
        for (int i = 1; i <= table.length(); i++) {
            entries.add(table.name(i) + ": " + table.value(i));
        }
        return entries;
    }
}
