package io.weir.handler.codec.haproxy;

/**
 * The address family and transport protocol of the proxied connection: the 14th byte of a version 2 header
 * (family in the high nibble, transport in the low one), or the protocol word of a version 1 line ({@code TCP4},
 * {@code TCP6}, {@code UNKNOWN}). Only the seven combinations the specification lists exist; a header with any
 * other byte is rejected.
 */
public enum HAProxyProxiedProtocol {
    /** Unknown or unspecified: no addresses (AF_UNSPEC, byte {@code 0x00}; {@code UNKNOWN} in version 1). */
    UNKNOWN(0x00, AddressFamily.UNSPEC, TransportProtocol.UNSPEC),
    /** TCP over IPv4 (byte {@code 0x11}). */
    TCP4(0x11, AddressFamily.INET, TransportProtocol.STREAM),
    /** UDP over IPv4 (byte {@code 0x12}); version 2 only. */
    UDP4(0x12, AddressFamily.INET, TransportProtocol.DGRAM),
    /** TCP over IPv6 (byte {@code 0x21}). */
    TCP6(0x21, AddressFamily.INET6, TransportProtocol.STREAM),
    /** UDP over IPv6 (byte {@code 0x22}); version 2 only. */
    UDP6(0x22, AddressFamily.INET6, TransportProtocol.DGRAM),
    /** A UNIX stream socket (byte {@code 0x31}); version 2 only. */
    UNIX_STREAM(0x31, AddressFamily.UNIX, TransportProtocol.STREAM),
    /** A UNIX datagram socket (byte {@code 0x32}); version 2 only. */
    UNIX_DGRAM(0x32, AddressFamily.UNIX, TransportProtocol.DGRAM);

    /** The address family, the high nibble of the byte. */
    public enum AddressFamily {
        /** No address. */
        UNSPEC(0),
        /** IPv4: 4-byte addresses followed by 2-byte ports. */
        INET(4),
        /** IPv6: 16-byte addresses followed by 2-byte ports. */
        INET6(16),
        /** UNIX sockets: 108-byte paths, no ports. */
        UNIX(108);

        private final int addressBytes;

        AddressFamily(int addressBytes) {
            this.addressBytes = addressBytes;
        }

        /** The size of one address of this family in a version 2 header, in bytes. */
        public int addressBytes() {
            return addressBytes;
        }
    }

    /** The transport protocol, the low nibble of the byte. */
    public enum TransportProtocol {
        /** Unspecified. */
        UNSPEC,
        /** SOCK_STREAM: TCP or a UNIX stream socket. */
        STREAM,
        /** SOCK_DGRAM: UDP or a UNIX datagram socket. */
        DGRAM
    }

    private static final HAProxyProxiedProtocol[] VALUES = values();

    private final int byteValue;
    private final AddressFamily addressFamily;
    private final TransportProtocol transportProtocol;

    HAProxyProxiedProtocol(int byteValue, AddressFamily addressFamily, TransportProtocol transportProtocol) {
        this.byteValue = byteValue;
        this.addressFamily = addressFamily;
        this.transportProtocol = transportProtocol;
    }

    /** The byte that stands for this protocol in a version 2 header. */
    public int byteValue() {
        return byteValue;
    }

    /** The address family. */
    public AddressFamily addressFamily() {
        return addressFamily;
    }

    /** The transport protocol. */
    public TransportProtocol transportProtocol() {
        return transportProtocol;
    }

    /** Whether the addresses are IP addresses with ports (IPv4 or IPv6). */
    public boolean isInet() {
        return addressFamily == AddressFamily.INET || addressFamily == AddressFamily.INET6;
    }

    /**
     * The size of the address block of a version 2 header for this protocol, in bytes: two addresses, and two
     * 2-byte ports for IP families (0, 12, 36 or 216).
     */
    public int addressBlockBytes() {
        return 2 * addressFamily.addressBytes + (isInet() ? 4 : 0);
    }

    /** The protocol whose version 2 byte is {@code b} (0 to 255), or {@code null} if the specification has none. */
    static HAProxyProxiedProtocol ofByte(int b) {
        for (HAProxyProxiedProtocol p : VALUES) {
            if (p.byteValue == b) {
                return p;
            }
        }
        return null;
    }
}
