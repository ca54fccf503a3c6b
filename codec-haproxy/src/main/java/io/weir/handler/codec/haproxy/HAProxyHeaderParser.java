package io.weir.handler.codec.haproxy;

import io.weir.handler.codec.haproxy.HAProxyProtocolException.Reason;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Turns one complete header into a message, checking every rule of the specification; the decoder finds where
 * the header ends and hands it over. Stateless.
 */
final class HAProxyHeaderParser {
    /*
     * A version 2 header (section 2.2), all numbers big-endian:
     *
     *  byte 0                        11   12        13         14     15   16 ...
     *      +---------------------------+---------+----------+------------+---------------------------+
     *      | signature (12 bytes)      | ver|cmd | fam|proto| length     | addresses, then TLVs       |
     *      +---------------------------+---------+----------+------------+---------------------------+
     *                                    hi  lo    hi   lo     16 bits     'length' bytes
     *
     * Address blocks: TCP/UDP over IPv4 src(4) dst(4) sport(2) dport(2) = 12; over IPv6 16+16+2+2 = 36;
     * UNIX src(108) dst(108) = 216; UNSPEC none.
     */
    static final int V2_VERSION_COMMAND_INDEX = 12;
    static final int V2_PROTOCOL_INDEX = 13;
    static final int V2_LENGTH_INDEX = 14;
    static final int V2_ADDRESSES_INDEX = 16;
    static final int V2_VERSION = 2;

    private static final String UNKNOWN_WORD = "UNKNOWN";
    private static final int V1_FIELDS = 5;

    private HAProxyHeaderParser() {
    }

    /**
     * Parses a version 1 line without its {@code "PROXY "} prefix and CRLF; the caller checked it is printable
     * US-ASCII.
     *
     * @throws HAProxyProtocolException if the line does not match the grammar of section 2.1
     */
    static HAProxyMessage parseV1(String line) {
        // §2.1: after UNKNOWN the receiver ignores everything up to the CRLF.
        if (line.equals(UNKNOWN_WORD) || line.startsWith(UNKNOWN_WORD + " ")) {
            return HAProxyMessage.decoded(HAProxyProtocolVersion.V1, HAProxyCommand.PROXY,
                    HAProxyProxiedProtocol.UNKNOWN, null, null, 0, 0, List.of(), null);
        }
        String[] fields = line.split(" ", -1);
        if (fields.length != V1_FIELDS) {
            throw malformedV1("'" + line + "' has " + fields.length + " space-separated fields (expected "
                    + V1_FIELDS + ": protocol, two addresses, two ports, each after exactly one space)");
        }
        HAProxyProxiedProtocol protocol;
        if (fields[0].equals("TCP4")) {
            protocol = HAProxyProxiedProtocol.TCP4;
        } else if (fields[0].equals("TCP6")) {
            protocol = HAProxyProxiedProtocol.TCP6;
        } else {
            throw malformedV1("protocol '" + fields[0] + "' (expected TCP4, TCP6 or UNKNOWN)");
        }
        byte[] source = v1Address(protocol, fields[1], "source");
        byte[] destination = v1Address(protocol, fields[2], "destination");
        int sourcePort = v1Port(fields[3], "source");
        int destinationPort = v1Port(fields[4], "destination");
        return HAProxyMessage.decoded(HAProxyProtocolVersion.V1, HAProxyCommand.PROXY, protocol, source,
                destination, sourcePort, destinationPort, List.of(), null);
    }

    private static byte[] v1Address(HAProxyProxiedProtocol protocol, String text, String which) {
        boolean v4 = protocol == HAProxyProxiedProtocol.TCP4;
        byte[] address = v4 ? HAProxyAddresses.parseIpv4(text) : HAProxyAddresses.parseIpv6(text);
        if (address == null) {
            throw malformedV1(which + " address '" + text + "' is not an " + (v4 ? "IPv4" : "IPv6")
                    + " literal in canonical form");
        }
        return address;
    }

    private static int v1Port(String text, String which) {
        int port = HAProxyAddresses.parsePort(text);
        if (port < 0) {
            throw malformedV1(which + " port '" + text + "' (expected 0 to " + HAProxyAddresses.MAX_PORT
                    + " in decimal, without leading zeroes)");
        }
        return port;
    }

    /**
     * Parses a complete version 2 header, signature to last TLV; the caller checked the signature, the version,
     * the command, the protocol byte and that {@code header.length} is 16 plus the length field.
     *
     * @throws HAProxyProtocolException if the address block is too short, a TLV is malformed, a UNIX path is
     *         not UTF-8 or the checksum does not match
     */
    static HAProxyMessage parseV2(byte[] header) {
        HAProxyCommand command = (header[V2_VERSION_COMMAND_INDEX] & 0x0F) == HAProxyCommand.LOCAL.code()
                ? HAProxyCommand.LOCAL : HAProxyCommand.PROXY;
        HAProxyProxiedProtocol protocol = HAProxyProxiedProtocol.ofByte(header[V2_PROTOCOL_INDEX] & 0xFF);
        int end = header.length;
        if (V2_ADDRESSES_INDEX + protocol.addressBlockBytes() > end) {
            if (command == HAProxyCommand.PROXY) {
                throw new HAProxyProtocolException(Reason.ADDRESS_BLOCK_TOO_SHORT, protocol + " needs "
                        + protocol.addressBlockBytes() + " address bytes but the length field gives "
                        + (end - V2_ADDRESSES_INDEX));
            }
            // §2.2: for LOCAL the receiver ignores the family; one without room for its addresses means none.
            protocol = HAProxyProxiedProtocol.UNKNOWN;
        }
        int size = protocol.addressFamily().addressBytes();
        int at = V2_ADDRESSES_INDEX;
        Object source = null;
        Object destination = null;
        int sourcePort = 0;
        int destinationPort = 0;
        if (protocol.isInet()) {
            source = Arrays.copyOfRange(header, at, at + size);
            destination = Arrays.copyOfRange(header, at + size, at + 2 * size);
            sourcePort = unsignedShort(header, at + 2 * size);
            destinationPort = unsignedShort(header, at + 2 * size + 2);
        } else if (protocol.addressFamily() == HAProxyProxiedProtocol.AddressFamily.UNIX) {
            source = unixPath(header, at, "source");
            destination = unixPath(header, at + size, "destination");
        }
        int tlvStart = at + protocol.addressBlockBytes();
        List<HAProxyTlv> tlvs = HAProxyTlvs.read(header, tlvStart, end, "the header");
        HAProxySslTlv ssl = HAProxyTlvs.check(tlvs);
        int crcIndex = HAProxyTlvs.valueIndex(header, tlvStart, end, HAProxyTlv.TYPE_CRC32C);
        if (crcIndex >= 0) {
            verifyCrc32c(header, crcIndex);
        }
        return HAProxyMessage.decoded(HAProxyProtocolVersion.V2, command, protocol, source, destination,
                sourcePort, destinationPort, tlvs, ssl);
    }

    /** A UNIX socket path: the bytes before the first NUL of the 108-byte field, which must be UTF-8. */
    private static String unixPath(byte[] header, int at, String which) {
        int end = at;
        int limit = at + HAProxyMessage.MAX_UNIX_PATH_BYTES;
        while (end < limit && header[end] != 0) {
            end++;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(header, at, end - at)).toString();
        } catch (CharacterCodingException e) {
            throw new HAProxyProtocolException(Reason.MALFORMED_ADDRESS, which + " UNIX path of " + (end - at)
                    + " bytes is not UTF-8");
        }
    }

    /**
     * §2.2.3: the checksum of the whole header with the CRC32C value taken as zeroes must equal that value.
     * Zeroes the value in {@code header}, which the caller no longer needs (the TLVs hold copies).
     */
    private static void verifyCrc32c(byte[] header, int valueIndex) {
        long expected = (header[valueIndex] & 0xFFL) << 24 | (header[valueIndex + 1] & 0xFF) << 16
                | (header[valueIndex + 2] & 0xFF) << 8 | (header[valueIndex + 3] & 0xFF);
        long actual = crc32c(header, valueIndex);
        if (actual != expected) {
            throw new HAProxyProtocolException(Reason.CHECKSUM_MISMATCH, "CRC32C TLV says 0x"
                    + Long.toHexString(expected) + " but the " + header.length + "-byte header's checksum is 0x"
                    + Long.toHexString(actual));
        }
    }

    /** The CRC32C of {@code header} with its 4-byte checksum value at {@code valueIndex} set to zeroes. */
    static long crc32c(byte[] header, int valueIndex) {
        for (int i = 0; i < HAProxyTlv.CRC32C_VALUE_BYTES; i++) {
            header[valueIndex + i] = 0;
        }
        CRC32C crc = new CRC32C();
        crc.update(header, 0, header.length);
        return crc.getValue();
    }

    private static int unsignedShort(byte[] b, int at) {
        return (b[at] & 0xFF) << 8 | (b[at + 1] & 0xFF);
    }

    private static HAProxyProtocolException malformedV1(String message) {
        return new HAProxyProtocolException(Reason.MALFORMED_V1_LINE, message);
    }
}
