package io.weir.handler.codec.haproxy;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.MessageToByteEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes an {@link HAProxyMessage} as a PROXY protocol header: a version 1 line or a version 2 header, as the
 * message's {@linkplain HAProxyMessage#version() version} says. Client side: a proxy writes the message as the
 * first thing on the connection to the server, before any relayed byte, and may then remove the encoder.
 *
 * <pre>{@code
 * ch.pipeline().addLast(HAProxyMessageEncoder.INSTANCE);
 * ch.writeAndFlush(HAProxyMessage.tcp(HAProxyProtocolVersion.V2, client, server)
 *         .withTlvs(List.of(HAProxyTlv.ofString(HAProxyTlv.TYPE_AUTHORITY, "example.com"), HAProxyTlv.crc32c())));
 * }</pre>
 *
 * <p>A version 2 header carries the message's TLVs in order. If the message has a {@link HAProxyTlv#TYPE_CRC32C}
 * TLV, the encoder computes the checksum of the header it writes (§2.2.3) and puts it there, whatever value the
 * TLV held, so {@link HAProxyTlv#crc32c()} is the way to ask for one. Version 1 lines write IPv6 addresses in
 * their RFC 5952 form.
 *
 * <p>Stateless and {@link ChannelHandler.Sharable sharable}; messages of other types pass through.
 */
@ChannelHandler.Sharable
public final class HAProxyMessageEncoder extends MessageToByteEncoder<HAProxyMessage> {
    /** The shared instance. */
    public static final HAProxyMessageEncoder INSTANCE = new HAProxyMessageEncoder();

    private HAProxyMessageEncoder() {
        super(HAProxyMessage.class, false);
    }

    @Override
    protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, HAProxyMessage msg, boolean preferDirect) {
        return ctx.alloc().heapBuffer(msg.version() == HAProxyProtocolVersion.V1
                ? HAProxyMessageDecoder.V1_MAX_LINE_BYTES : v2Length(msg));
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, HAProxyMessage msg, ByteBuf out) {
        if (msg.version() == HAProxyProtocolVersion.V1) {
            out.writeCharSequence(v1Line(msg), StandardCharsets.US_ASCII);
        } else {
            out.writeBytes(v2Header(msg));
        }
    }

    /** The version 1 line of {@code msg}, CRLF included. */
    static String v1Line(HAProxyMessage msg) {
        if (msg.proxiedProtocol() == HAProxyProxiedProtocol.UNKNOWN) {
            return "PROXY UNKNOWN\r\n";
        }
        return "PROXY " + msg.proxiedProtocol() + ' ' + msg.sourceAddress() + ' ' + msg.destinationAddress() + ' '
                + msg.sourcePort() + ' ' + msg.destinationPort() + "\r\n";
    }

    private static int v2Length(HAProxyMessage msg) {
        return HAProxyMessageDecoder.V2_FIXED_HEADER_BYTES + msg.proxiedProtocol().addressBlockBytes()
                + (int) HAProxyTlvs.encodedBytes(msg.tlvs());
    }

    /** The version 2 header of {@code msg}, its CRC32C filled in if it has one. */
    static byte[] v2Header(HAProxyMessage msg) {
        HAProxyProxiedProtocol protocol = msg.proxiedProtocol();
        byte[] h = new byte[v2Length(msg)];
        System.arraycopy(HAProxyMessageDecoder.V2_SIGNATURE, 0, h, 0, HAProxyMessageDecoder.V2_SIGNATURE.length);
        h[HAProxyHeaderParser.V2_VERSION_COMMAND_INDEX] =
                (byte) (HAProxyHeaderParser.V2_VERSION << 4 | msg.command().code());
        h[HAProxyHeaderParser.V2_PROTOCOL_INDEX] = (byte) protocol.byteValue();
        int length = h.length - HAProxyMessageDecoder.V2_FIXED_HEADER_BYTES;
        h[HAProxyHeaderParser.V2_LENGTH_INDEX] = (byte) (length >>> 8);
        h[HAProxyHeaderParser.V2_LENGTH_INDEX + 1] = (byte) length;
        int at = HAProxyHeaderParser.V2_ADDRESSES_INDEX;
        int size = protocol.addressFamily().addressBytes();
        if (protocol.isInet()) {
            System.arraycopy(msg.sourceAddressBytes(), 0, h, at, size);
            System.arraycopy(msg.destinationAddressBytes(), 0, h, at + size, size);
            writeShort(h, at + 2 * size, msg.sourcePort());
            writeShort(h, at + 2 * size + 2, msg.destinationPort());
        } else if (protocol.addressFamily() == HAProxyProxiedProtocol.AddressFamily.UNIX) {
            // The rest of each 108-byte field stays NUL.
            byte[] source = msg.sourceAddress().getBytes(StandardCharsets.UTF_8);
            byte[] destination = msg.destinationAddress().getBytes(StandardCharsets.UTF_8);
            System.arraycopy(source, 0, h, at, source.length);
            System.arraycopy(destination, 0, h, at + size, destination.length);
        }
        int tlvStart = at + protocol.addressBlockBytes();
        List<HAProxyTlv> tlvs = msg.tlvs();
        HAProxyTlvs.write(tlvs, h, tlvStart);
        int crcIndex = HAProxyTlvs.valueIndex(h, tlvStart, h.length, HAProxyTlv.TYPE_CRC32C);
        if (crcIndex >= 0) {
            long crc = HAProxyHeaderParser.crc32c(h, crcIndex);
            h[crcIndex] = (byte) (crc >>> 24);
            h[crcIndex + 1] = (byte) (crc >>> 16);
            h[crcIndex + 2] = (byte) (crc >>> 8);
            h[crcIndex + 3] = (byte) crc;
        }
        return h;
    }

    private static void writeShort(byte[] h, int at, int value) {
        h[at] = (byte) (value >>> 8);
        h[at + 1] = (byte) value;
    }
}
