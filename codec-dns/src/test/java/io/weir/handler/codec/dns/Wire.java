package io.weir.handler.codec.dns;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import java.io.ByteArrayOutputStream;

/** Hand-made wire bytes for tests. */
final class Wire {
    private Wire() {
    }

    /** Bytes from hex digits; spaces are ignored. */
    static byte[] hex(String hex) {
        String h = hex.replace(" ", "");
        byte[] b = new byte[h.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** A header: id 0x1234, response with RD and RA, and the four counts. */
    static byte[] header(int flags, int qd, int an, int ns, int ar) {
        return new byte[] {0x12, 0x34, (byte) (flags >> 8), (byte) flags, 0, (byte) qd, 0, (byte) an, 0, (byte) ns,
            0, (byte) ar};
    }

    static final int RESPONSE_FLAGS = 0x8180;

    /** {@code a.example} in wire form (11 bytes). */
    static final String A_EXAMPLE = "01 61 07 6578616d706c65 00";
    /** The question {@code a.example A IN}, starting at offset 12. */
    static final String QUESTION = A_EXAMPLE + " 0001 0001";

    /** Decodes {@code bytes} with {@code decoder}, releasing the buffer. */
    static DnsMessage decode(DnsMessageDecoder decoder, byte[] bytes) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            return decoder.decode(buf);
        } finally {
            buf.release();
        }
    }

    /** Encodes {@code m} to bytes. */
    static byte[] encode(DnsMessage m) {
        ByteBuf buf = Unpooled.buffer();
        try {
            DnsMessageEncoder.encode(m, buf);
            byte[] b = new byte[buf.readableBytes()];
            buf.readBytes(b);
            return b;
        } finally {
            buf.release();
        }
    }
}
