package io.weir.handler.codec.socksx.v5;

import java.util.Objects;

/**
 * The client's request (RFC 1928 §4): a command and the destination.
 *
 * <pre>
 * +----+-----+-------+------+----------+----------+
 * |VER | CMD |  RSV  | ATYP | DST.ADDR | DST.PORT |   VER = 5, RSV = 0
 * +----+-----+-------+------+----------+----------+
 * | 1  |  1  |   1   |  1   | Variable |    2     |
 * +----+-----+-------+------+----------+----------+
 * </pre>
 *
 * @param type the command
 * @param addressType how the destination is written
 * @param host an IPv4 literal, an IPv6 literal (kept in RFC 5952 form) or a host name the proxy resolves (1 to 255
 *        bytes of UTF-8, no control character)
 * @param port the destination port
 */
public record Socks5CommandRequest(Socks5CommandType type, Socks5AddressType addressType, String host, int port)
        implements Socks5Request {

    /**
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code host} does not fit {@code addressType} (a host name longer than 255
     *         bytes among them) or the port is out of range
     */
    public Socks5CommandRequest {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(addressType, "addressType");
        host = Socks5Addresses.canonicalHost(addressType, Objects.requireNonNull(host, "host"));
        Socks5Addresses.checkPort(port);
    }

    /**
     * A request for {@code host}:{@code port}, the address type chosen by {@link Socks5AddressType#of}.
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public static Socks5CommandRequest of(Socks5CommandType type, String host, int port) {
        return new Socks5CommandRequest(type, Socks5AddressType.of(host), host, port);
    }
}
