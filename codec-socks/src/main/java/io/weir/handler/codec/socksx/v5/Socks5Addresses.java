package io.weir.handler.codec.socksx.v5;

import io.weir.buffer.ByteBuf;
import io.weir.handler.codec.socksx.SocksProtocolException;
import io.weir.handler.codec.socksx.SocksProtocolException.Reason;
import io.weir.handler.codec.socksx.SocksVersion;
import io.weir.handler.codec.socksx.internal.InetLiterals;
import io.weir.handler.codec.socksx.internal.SocksText;

/**
 * The address block shared by SOCKS5 requests and replies (RFC 1928 §4, §5), from ATYP to the port:
 *
 * <pre>
 * +------+----------+----------+
 * | ATYP |   ADDR   |   PORT   |   ATYP 0x01: ADDR is 4 bytes
 * +------+----------+----------+   ATYP 0x03: ADDR is a length byte (1 to 255) and that many bytes of name
 * |  1   | Variable |    2     |   ATYP 0x04: ADDR is 16 bytes
 * +------+----------+----------+
 * </pre>
 */
final class Socks5Addresses {
    /** The longest host name the length byte can announce. */
    static final int MAX_DOMAIN_BYTES = 255;

    private Socks5Addresses() {
    }

    /**
     * Checks that {@code host} is written as {@code type} asks and returns its canonical text (IPv6 in RFC 5952
     * form, so equal addresses give equal messages).
     *
     * @throws IllegalArgumentException if it is not
     */
    static String canonicalHost(Socks5AddressType type, String host) {
        switch (type) {
            case IPV4 -> {
                if (InetLiterals.parseIpv4(host) == null) {
                    throw new IllegalArgumentException("host: " + host + " (expected an IPv4 literal for IPV4)");
                }
                return host;
            }
            case IPV6 -> {
                byte[] ip = InetLiterals.parseIpv6(host);
                if (ip == null) {
                    throw new IllegalArgumentException("host: " + host + " (expected an IPv6 literal for IPV6)");
                }
                return InetLiterals.formatIpv6(ip);
            }
            default -> {
                SocksText.checkHostName(host, MAX_DOMAIN_BYTES);
                return host;
            }
        }
    }

    /** @throws IllegalArgumentException if {@code port} is not 0 to 65535 */
    static void checkPort(int port) {
        if (port < 0 || port > 0xFFFF) {
            throw new IllegalArgumentException("port: " + port + " (expected 0 to 65535)");
        }
    }

    /**
     * Writes a request or reply whole: VER 5, {@code code} (CMD or REP), RSV 0, then the address block; {@code host}
     * was checked by {@link #canonicalHost}.
     */
    static void writeCommandOrReply(ByteBuf out, int code, Socks5AddressType type, String host, int port) {
        out.writeByte(SocksVersion.SOCKS5.versionByte());
        out.writeByte(code);
        out.writeByte(0);
        write(out, type, host, port);
    }

    /** Writes ATYP, ADDR and PORT; {@code host} was checked by {@link #canonicalHost}. */
    private static void write(ByteBuf out, Socks5AddressType type, String host, int port) {
        out.writeByte(type.code());
        switch (type) {
            case IPV4 -> out.writeBytes(InetLiterals.parseIpv4(host));
            case IPV6 -> out.writeBytes(InetLiterals.parseIpv6(host));
            default -> {
                byte[] name = SocksText.encode(host);
                out.writeByte(name.length);
                out.writeBytes(name);
            }
        }
        out.writeShort(port);
    }

    /**
     * The index just past the port of the block whose ATYP is at {@code index}, or -1 while bytes are missing.
     *
     * @throws SocksProtocolException for an unknown ATYP or an empty name, as soon as the byte is in
     */
    static int end(ByteBuf in, int index) {
        int available = in.writerIndex() - index;
        if (available < 1) {
            return -1;
        }
        int atyp = in.getUnsignedByte(index);
        Socks5AddressType type = Socks5AddressType.valueOf(atyp);
        if (type == null) {
            throw new SocksProtocolException(Reason.UNSUPPORTED_ADDRESS_TYPE, atyp, "address type " + atyp
                    + " (expected 1 IPv4, 3 domain name or 4 IPv6)");
        }
        int addressBytes;
        switch (type) {
            case IPV4 -> addressBytes = InetLiterals.IPV4_BYTES;
            case IPV6 -> addressBytes = InetLiterals.IPV6_BYTES;
            default -> {
                if (available < 2) {
                    return -1;
                }
                int length = in.getUnsignedByte(index + 1);
                if (length == 0) {
                    throw new SocksProtocolException(Reason.MALFORMED, 0, "a domain name of length 0");
                }
                addressBytes = 1 + length;
            }
        }
        int total = 1 + addressBytes + 2;
        return available < total ? -1 : index + total;
    }

    /** The address type of a complete block at {@code index} ({@link #end} returned a positive index). */
    static Socks5AddressType type(ByteBuf in, int index) {
        return Socks5AddressType.valueOf(in.getUnsignedByte(index));
    }

    /**
     * The host of a complete block at {@code index}.
     *
     * @throws SocksProtocolException if a domain name is not UTF-8 or has a control character
     */
    static String host(ByteBuf in, int index) {
        switch (type(in, index)) {
            case IPV4 -> {
                byte[] ip = new byte[InetLiterals.IPV4_BYTES];
                in.getBytes(index + 1, ip);
                return InetLiterals.formatIpv4(ip, 0);
            }
            case IPV6 -> {
                byte[] ip = new byte[InetLiterals.IPV6_BYTES];
                in.getBytes(index + 1, ip);
                return InetLiterals.formatIpv6(ip);
            }
            default -> {
                int length = in.getUnsignedByte(index + 1);
                String name = SocksText.decode(in, index + 2, length);
                if (name == null) {
                    throw new SocksProtocolException(Reason.MALFORMED, length, "the domain name is not UTF-8");
                }
                int control = SocksText.indexOfControl(name);
                if (control >= 0) {
                    throw new SocksProtocolException(Reason.MALFORMED, name.charAt(control),
                            "control character 0x" + Integer.toHexString(name.charAt(control))
                                    + " in the domain name");
                }
                return name;
            }
        }
    }

    /** The port of a block whose end is {@code end}. */
    static int port(ByteBuf in, int end) {
        return in.getUnsignedShort(end - 2);
    }
}
