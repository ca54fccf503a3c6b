package io.weir.handler.codec.haproxy;

import io.weir.buffer.ByteBufUtil;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Builders of raw header bytes for tests, independent of the encoder. */
final class Headers {
    static final byte[] SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

    /**
     * A real header captured from HAProxy 2.6 ({@code send-proxy-v2 proxy-v2-options crc32c,unique-id}, client
     * 127.0.0.1:33504 to 127.0.0.1:18443, {@code unique-id-format weir-%ci-%cp}), followed by the client's
     * "hello\n", all in one segment.
     */
    static final String HAPROXY_V2_CAPTURE = "0d0a0d0a000d0a515549540a2111002a7f0000017f00000182e0480b"
            + "03000487150ea2050014776569722d3132372e302e302e312d3333353034" + "68656c6c6f0a";
    /** The header's part of {@link #HAPROXY_V2_CAPTURE}: 16 fixed bytes, 12 of addresses, 7 of CRC32C, 23 of ID. */
    static final int HAPROXY_V2_CAPTURE_HEADER_BYTES = 58;

    private Headers() {
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    static byte[] hex(String s) {
        return ByteBufUtil.decodeHexDump(s.replace(" ", ""));
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** A version 2 header: signature, the two given bytes, a length field saying {@code body.length}, body. */
    static byte[] v2(int versionCommand, int protocol, byte[]... body) {
        byte[] b = concat(body);
        return v2WithLength(versionCommand, protocol, b.length, b);
    }

    /** A version 2 header whose length field says {@code length}, whatever follows. */
    static byte[] v2WithLength(int versionCommand, int protocol, int length, byte[] body) {
        return concat(SIGNATURE, new byte[] {(byte) versionCommand, (byte) protocol, (byte) (length >>> 8),
                (byte) length}, body);
    }

    /** A TLV: type, 16-bit length, value. */
    static byte[] tlv(int type, byte[] value) {
        return concat(new byte[] {(byte) type, (byte) (value.length >>> 8), (byte) value.length}, value);
    }

    /** The IPv4 address block: 192.0.2.1:51324 to 198.51.100.7:443. */
    static byte[] ipv4Block() {
        return hex("c0000201 c6336407 c87c 01bb");
    }
}
