package io.weir.handler.codec.haproxy;

import io.weir.handler.codec.haproxy.HAProxyProxiedProtocol.AddressFamily;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * One PROXY protocol header: its version, command, the proxied connection's protocol, the source (client) and
 * destination addresses and ports, and, for version 2, its TLVs. Immutable and thread-safe.
 *
 * <p><b>Ownership.</b> A message holds copies ({@code String}, {@code byte[]}, {@link InetAddress}), never
 * buffers: it is not reference counted, and a handler that receives one as a message need not release it. The
 * decoder also stores it in the channel attribute {@link HAProxyMessageDecoder#MESSAGE}.
 *
 * <p><b>Addresses.</b> For {@link HAProxyProxiedProtocol#isInet() IP protocols} the addresses are IP literals in
 * their canonical text form (dotted quad; RFC 5952 for IPv6) with ports of 0 to 65535, also available as
 * {@link InetSocketAddress}es built without any name lookup. For UNIX protocols they are socket paths (the bytes
 * before the first NUL, UTF-8; an abstract socket name, which starts with NUL, reads as an empty path) and the
 * ports are 0. For {@link HAProxyProxiedProtocol#UNKNOWN} there are none: the addresses are {@code null} and the
 * ports 0. For {@link HAProxyCommand#LOCAL} the addresses, if any, are for information only: the connection's own
 * endpoints apply.
 */
public final class HAProxyMessage {
    /** The largest UNIX socket path a version 2 header carries, in bytes. */
    public static final int MAX_UNIX_PATH_BYTES = 108;

    private final HAProxyProtocolVersion version;
    private final HAProxyCommand command;
    private final HAProxyProxiedProtocol protocol;
    private final String sourceAddress;
    private final String destinationAddress;
    private final InetAddress sourceInet;
    private final InetAddress destinationInet;
    private final int sourcePort;
    private final int destinationPort;
    private final List<HAProxyTlv> tlvs;
    private final HAProxySslTlv ssl;

    /**
     * A message with every field given.
     *
     * @param version the header's version
     * @param command {@link HAProxyCommand#PROXY}, or {@link HAProxyCommand#LOCAL} (version 2 only)
     * @param protocol the proxied protocol; version 1 carries only {@code TCP4}, {@code TCP6} and {@code UNKNOWN}
     * @param sourceAddress the client's address: an IP literal of the protocol's family, a UNIX path of at most
     *        {@value #MAX_UNIX_PATH_BYTES} UTF-8 bytes without NUL, or {@code null} for {@code UNKNOWN}
     * @param destinationAddress the address the client connected to, in the same form
     * @param sourcePort the client's port, 0 to 65535 (0 for UNIX and {@code UNKNOWN})
     * @param destinationPort the port the client connected to, likewise
     * @param tlvs the TLVs in the order to encode them (version 2 only; empty for version 1); copied
     * @throws IllegalArgumentException if a field does not fit the others or the header would be longer than a
     *         version 2 length field can say
     * @throws NullPointerException if {@code version}, {@code command}, {@code protocol}, {@code tlvs} or one of
     *         its elements is null
     */
    public HAProxyMessage(HAProxyProtocolVersion version, HAProxyCommand command, HAProxyProxiedProtocol protocol,
            String sourceAddress, String destinationAddress, int sourcePort, int destinationPort,
            List<HAProxyTlv> tlvs) {
        this(version, command, protocol, sourceAddress, destinationAddress, inet(protocol, sourceAddress, "source"),
                inet(protocol, destinationAddress, "destination"), sourcePort, destinationPort, List.copyOf(tlvs),
                checkedSsl(tlvs));
        checkShape(version, command, protocol, sourceAddress, destinationAddress, sourcePort, destinationPort,
                this.tlvs);
    }

    /** The canonical constructor; every argument already checked and copied. */
    private HAProxyMessage(HAProxyProtocolVersion version, HAProxyCommand command, HAProxyProxiedProtocol protocol,
            String sourceAddress, String destinationAddress, InetAddress sourceInet, InetAddress destinationInet,
            int sourcePort, int destinationPort, List<HAProxyTlv> tlvs, HAProxySslTlv ssl) {
        this.version = version;
        this.command = command;
        this.protocol = protocol;
        this.sourceInet = sourceInet;
        this.destinationInet = destinationInet;
        // IP literals are kept in one canonical form, so equal addresses give equal messages.
        this.sourceAddress = sourceInet != null ? HAProxyAddresses.format(rawBytes(sourceInet, protocol))
                : sourceAddress;
        this.destinationAddress = destinationInet != null
                ? HAProxyAddresses.format(rawBytes(destinationInet, protocol)) : destinationAddress;
        this.sourcePort = sourcePort;
        this.destinationPort = destinationPort;
        this.tlvs = tlvs;
        this.ssl = ssl;
    }

    /** A version 2 LOCAL message (a proxy's own connection, such as a health check), with no address. */
    public static HAProxyMessage local() {
        return new HAProxyMessage(HAProxyProtocolVersion.V2, HAProxyCommand.LOCAL, HAProxyProxiedProtocol.UNKNOWN,
                null, null, 0, 0, List.of());
    }

    /** A PROXY message for a connection the proxy cannot describe ({@code UNKNOWN}), with no address. */
    public static HAProxyMessage unknown(HAProxyProtocolVersion version) {
        return new HAProxyMessage(version, HAProxyCommand.PROXY, HAProxyProxiedProtocol.UNKNOWN, null, null, 0, 0,
                List.of());
    }

    /**
     * A PROXY message for a TCP connection from {@code source} to {@code destination}: {@code TCP4} if both are
     * IPv4, {@code TCP6} if both are IPv6. A proxy builds it from the connection it relays, e.g.
     * {@code tcp(V2, (InetSocketAddress) inbound.remoteAddress(), (InetSocketAddress) inbound.localAddress())}.
     *
     * @throws IllegalArgumentException if an address is unresolved or the two are of different families
     * @throws NullPointerException if an argument is null
     */
    public static HAProxyMessage tcp(HAProxyProtocolVersion version, InetSocketAddress source,
            InetSocketAddress destination) {
        InetAddress src = resolved(source, "source");
        InetAddress dst = resolved(destination, "destination");
        boolean v4 = src instanceof Inet4Address;
        if (v4 != dst instanceof Inet4Address) {
            throw new IllegalArgumentException("source " + source + " and destination " + destination
                    + " are of different address families");
        }
        HAProxyProxiedProtocol protocol = v4 ? HAProxyProxiedProtocol.TCP4 : HAProxyProxiedProtocol.TCP6;
        return new HAProxyMessage(Objects.requireNonNull(version, "version"), HAProxyCommand.PROXY, protocol, null,
                null, src, dst, source.getPort(), destination.getPort(), List.of(), null);
    }

    /**
     * This message with {@code tlvs} in place of its TLVs.
     *
     * @throws IllegalArgumentException if this is a version 1 message and {@code tlvs} is not empty, the TLVs break
     *         a rule of their types, or the header would become too long
     * @throws NullPointerException if {@code tlvs} or one of its elements is null
     */
    public HAProxyMessage withTlvs(List<HAProxyTlv> tlvs) {
        List<HAProxyTlv> copy = List.copyOf(tlvs);
        HAProxySslTlv checked = checkedSsl(copy);
        checkTlvs(version, protocol, copy);
        return new HAProxyMessage(version, command, protocol, sourceAddress, destinationAddress, sourceInet,
                destinationInet, sourcePort, destinationPort, copy, checked);
    }

    /**
     * A message the decoder read; its fields were checked against the wire rules.
     *
     * @param source the source address: 4 or 16 bytes for IP protocols, a path for UNIX ones, null for UNKNOWN
     */
    static HAProxyMessage decoded(HAProxyProtocolVersion version, HAProxyCommand command,
            HAProxyProxiedProtocol protocol, Object source, Object destination, int sourcePort, int destinationPort,
            List<HAProxyTlv> tlvs, HAProxySslTlv ssl) {
        if (protocol.isInet()) {
            return new HAProxyMessage(version, command, protocol, null, null, byAddress((byte[]) source),
                    byAddress((byte[]) destination), sourcePort, destinationPort, List.copyOf(tlvs), ssl);
        }
        return new HAProxyMessage(version, command, protocol, (String) source, (String) destination, null, null,
                sourcePort, destinationPort, List.copyOf(tlvs), ssl);
    }

    // ---------------------------------------------------------------- checks

    private static InetAddress inet(HAProxyProxiedProtocol protocol, String address, String which) {
        Objects.requireNonNull(protocol, "protocol");
        if (!protocol.isInet()) {
            return null;
        }
        if (address == null) {
            throw new IllegalArgumentException(which + " address is null for " + protocol);
        }
        byte[] bytes = protocol.addressFamily() == AddressFamily.INET ? HAProxyAddresses.parseIpv4(address)
                : HAProxyAddresses.parseIpv6(address);
        if (bytes == null) {
            throw new IllegalArgumentException(which + " address '" + address + "' is not an "
                    + (protocol.addressFamily() == AddressFamily.INET ? "IPv4" : "IPv6") + " literal");
        }
        return byAddress(bytes);
    }

    private static InetAddress byAddress(byte[] bytes) {
        try {
            // A 16-byte IPv4-mapped address comes back as an Inet4Address; no lookup either way.
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** The 4 or 16 bytes the protocol's family calls for (an IPv4-mapped IPv6 address is kept in 16 bytes). */
    private static byte[] rawBytes(InetAddress address, HAProxyProxiedProtocol protocol) {
        byte[] b = address.getAddress();
        if (b.length == HAProxyAddresses.IPV4_BYTES && protocol.addressFamily() == AddressFamily.INET6) {
            byte[] mapped = new byte[HAProxyAddresses.IPV6_BYTES];
            mapped[10] = (byte) 0xFF;
            mapped[11] = (byte) 0xFF;
            System.arraycopy(b, 0, mapped, 12, 4);
            return mapped;
        }
        return b;
    }

    private static InetAddress resolved(InetSocketAddress address, String which) {
        Objects.requireNonNull(address, which);
        if (address.getAddress() == null) {
            throw new IllegalArgumentException(which + " " + address + " is unresolved");
        }
        return address.getAddress();
    }

    private static HAProxySslTlv checkedSsl(List<HAProxyTlv> tlvs) {
        try {
            return HAProxyTlvs.check(tlvs);
        } catch (HAProxyProtocolException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    private static void checkShape(HAProxyProtocolVersion version, HAProxyCommand command,
            HAProxyProxiedProtocol protocol, String source, String destination, int sourcePort,
            int destinationPort, List<HAProxyTlv> tlvs) {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(command, "command");
        if (version == HAProxyProtocolVersion.V1) {
            if (command != HAProxyCommand.PROXY) {
                throw new IllegalArgumentException("version 1 has no " + command + " command (send UNKNOWN)");
            }
            if (protocol != HAProxyProxiedProtocol.UNKNOWN && protocol != HAProxyProxiedProtocol.TCP4
                    && protocol != HAProxyProxiedProtocol.TCP6) {
                throw new IllegalArgumentException("version 1 cannot carry " + protocol);
            }
        }
        if (protocol.isInet()) {
            checkPort(sourcePort, "source");
            checkPort(destinationPort, "destination");
        } else {
            if (sourcePort != 0 || destinationPort != 0) {
                throw new IllegalArgumentException(protocol + " has no ports: " + sourcePort + ", "
                        + destinationPort + " (expected 0)");
            }
            if (protocol.addressFamily() == AddressFamily.UNIX) {
                checkUnixPath(source, "source");
                checkUnixPath(destination, "destination");
            } else if (source != null || destination != null) {
                throw new IllegalArgumentException(protocol + " has no addresses: " + source + ", " + destination
                        + " (expected null)");
            }
        }
        checkTlvs(version, protocol, tlvs);
    }

    private static void checkPort(int port, String which) {
        if (port < 0 || port > HAProxyAddresses.MAX_PORT) {
            throw new IllegalArgumentException(which + " port: " + port + " (expected 0 to "
                    + HAProxyAddresses.MAX_PORT + ")");
        }
    }

    private static void checkUnixPath(String path, String which) {
        if (path == null) {
            throw new IllegalArgumentException(which + " path is null");
        }
        int bytes = path.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_UNIX_PATH_BYTES || path.indexOf('\0') >= 0) {
            throw new IllegalArgumentException(which + " path of " + bytes + " UTF-8 bytes (expected <= "
                    + MAX_UNIX_PATH_BYTES + ", without NUL)");
        }
    }

    private static void checkTlvs(HAProxyProtocolVersion version, HAProxyProxiedProtocol protocol,
            List<HAProxyTlv> tlvs) {
        if (version == HAProxyProtocolVersion.V1 && !tlvs.isEmpty()) {
            throw new IllegalArgumentException("version 1 has no TLVs: " + tlvs);
        }
        long length = protocol.addressBlockBytes() + HAProxyTlvs.encodedBytes(tlvs);
        if (length > HAProxyMessageDecoder.MAX_V2_LENGTH_FIELD_BYTES) {
            throw new IllegalArgumentException("address block and TLVs of " + length + " bytes (expected <= "
                    + HAProxyMessageDecoder.MAX_V2_LENGTH_FIELD_BYTES + ")");
        }
    }

    // ---------------------------------------------------------------- accessors

    /** The header's version. */
    public HAProxyProtocolVersion version() {
        return version;
    }

    /** The command: PROXY for a relayed client connection, LOCAL for the proxy's own. */
    public HAProxyCommand command() {
        return command;
    }

    /** The proxied connection's family and transport. */
    public HAProxyProxiedProtocol proxiedProtocol() {
        return protocol;
    }

    /** The client's address (IP literal or UNIX path), or {@code null} for {@code UNKNOWN}. */
    public String sourceAddress() {
        return sourceAddress;
    }

    /** The address the client connected to (IP literal or UNIX path), or {@code null} for {@code UNKNOWN}. */
    public String destinationAddress() {
        return destinationAddress;
    }

    /** The client's port; 0 if the protocol has no ports. */
    public int sourcePort() {
        return sourcePort;
    }

    /** The port the client connected to; 0 if the protocol has no ports. */
    public int destinationPort() {
        return destinationPort;
    }

    /**
     * The client's address and port, or {@code null} unless the protocol is an IP one. Built without a name
     * lookup; an IPv4-mapped IPv6 address comes back as an IPv4 address.
     */
    public InetSocketAddress sourceSocketAddress() {
        return sourceInet == null ? null : new InetSocketAddress(sourceInet, sourcePort);
    }

    /** The address and port the client connected to, or {@code null} unless the protocol is an IP one. */
    public InetSocketAddress destinationSocketAddress() {
        return destinationInet == null ? null : new InetSocketAddress(destinationInet, destinationPort);
    }

    /** Every TLV, in wire order (unknown types and NOOP included); empty for version 1. Unmodifiable. */
    public List<HAProxyTlv> tlvs() {
        return tlvs;
    }

    /** The source address in the 4 or 16 bytes of the protocol's family; only for IP protocols. */
    byte[] sourceAddressBytes() {
        return rawBytes(sourceInet, protocol);
    }

    /** The destination address in the 4 or 16 bytes of the protocol's family; only for IP protocols. */
    byte[] destinationAddressBytes() {
        return rawBytes(destinationInet, protocol);
    }

    /** The first TLV of {@code type}, or {@code null}. */
    public HAProxyTlv tlv(int type) {
        return HAProxyTlvs.first(tlvs, type);
    }

    /** The ALPN protocol ({@link HAProxyTlv#TYPE_ALPN}), a copy, or {@code null}. */
    public byte[] alpn() {
        HAProxyTlv t = tlv(HAProxyTlv.TYPE_ALPN);
        return t == null ? null : t.value();
    }

    /** The authority, the host name the client asked for ({@link HAProxyTlv#TYPE_AUTHORITY}), or {@code null}. */
    public String authority() {
        HAProxyTlv t = tlv(HAProxyTlv.TYPE_AUTHORITY);
        return t == null ? null : t.valueAsString();
    }

    /**
     * Whether the header carries a CRC32C checksum ({@link HAProxyTlv#TYPE_CRC32C}). The decoder verified it
     * before passing the message on.
     */
    public boolean hasCrc32c() {
        return tlv(HAProxyTlv.TYPE_CRC32C) != null;
    }

    /** The connection's unique ID ({@link HAProxyTlv#TYPE_UNIQUE_ID}, at most 128 bytes), a copy, or {@code null}. */
    public byte[] uniqueId() {
        HAProxyTlv t = tlv(HAProxyTlv.TYPE_UNIQUE_ID);
        return t == null ? null : t.value();
    }

    /** The client's TLS facts ({@link HAProxyTlv#TYPE_SSL}), or {@code null}. */
    public HAProxySslTlv ssl() {
        return ssl;
    }

    /** The network namespace's name ({@link HAProxyTlv#TYPE_NETNS}), or {@code null}. */
    public String netns() {
        HAProxyTlv t = tlv(HAProxyTlv.TYPE_NETNS);
        return t == null ? null : t.valueAsString();
    }

    /** Whether {@code o} is a message with the same version, command, protocol, addresses, ports and TLVs. */
    @Override
    public boolean equals(Object o) {
        return o instanceof HAProxyMessage m && m.version == version && m.command == command
                && m.protocol == protocol && Objects.equals(m.sourceAddress, sourceAddress)
                && Objects.equals(m.destinationAddress, destinationAddress) && m.sourcePort == sourcePort
                && m.destinationPort == destinationPort && m.tlvs.equals(tlvs);
    }

    @Override
    public int hashCode() {
        return Objects.hash(version, command, protocol, sourceAddress, destinationAddress, sourcePort,
                destinationPort, tlvs);
    }

    /** E.g. {@code HAProxyMessage(V2 PROXY TCP4 192.0.2.1:51324 -> 198.51.100.7:443, tlvs=[TLV(0x02, 11 bytes)])}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("HAProxyMessage(").append(version).append(' ').append(command)
                .append(' ').append(protocol);
        if (sourceAddress != null) {
            sb.append(' ').append(sourceAddress);
            if (protocol.isInet()) {
                sb.append(':').append(sourcePort);
            }
            sb.append(" -> ").append(destinationAddress);
            if (protocol.isInet()) {
                sb.append(':').append(destinationPort);
            }
        }
        if (!tlvs.isEmpty()) {
            sb.append(", tlvs=").append(tlvs);
        }
        return sb.append(')').toString();
    }
}
