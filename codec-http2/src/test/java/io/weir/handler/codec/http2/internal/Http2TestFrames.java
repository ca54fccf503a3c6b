package io.weir.handler.codec.http2.internal;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.handler.codec.http2.Http2Exception;

/** Hex helpers for frame tests: input is hex with optional spaces, as the RFC's layouts are typed. */
final class Http2TestFrames {
    /** The client connection preface in hex. */
    static final String PREFACE = "505249202a20485454502f322e300d0a0d0a534d0d0a0d0a";
    /** An empty SETTINGS frame: every connection starts with one (RFC 9113 §3.4). */
    static final String EMPTY_SETTINGS = "000000 04 00 00000000";

    private Http2TestFrames() {
    }

    static byte[] bytes(String hex) {
        return ByteBufUtil.decodeHexDump(hex.replace(" ", ""));
    }

    /** A frame: 24-bit length (of the payload), type, flags, stream id, then the payload. */
    static String frame(int type, int flags, int streamId, String payloadHex) {
        String payload = payloadHex.replace(" ", "");
        return String.format("%06x%02x%02x%08x", payload.length() / 2, type, flags, streamId) + payload;
    }

    /** Feeds {@code hex} in one buffer, releasing it afterwards; returns the unread octets. */
    static int feed(Http2FrameReader reader, String hex) throws Http2Exception {
        ByteBuf in = Unpooled.wrappedBuffer(bytes(hex));
        try {
            reader.read(in);
            return in.readableBytes();
        } finally {
            in.release();
        }
    }

    /**
     * Feeds {@code input} split into pieces at the given cut points through a caller-style cumulation, as a
     * ByteToMessageDecoder would; returns the unread octets at the end.
     */
    static int feedSplit(Http2FrameReader reader, byte[] input, int... cuts) throws Http2Exception {
        ByteBuf cumulation = Unpooled.buffer(input.length);
        try {
            int from = 0;
            for (int i = 0; i <= cuts.length; i++) {
                int to = i < cuts.length ? cuts[i] : input.length;
                cumulation.writeBytes(input, from, to - from);
                reader.read(cumulation);
                cumulation.discardReadBytes();
                from = to;
            }
            return cumulation.readableBytes();
        } finally {
            cumulation.release();
        }
    }
}
