package io.weir.handler.codec.socksx.v5;

import java.util.Objects;

/**
 * The proxy's reply to a request (RFC 1928 §6): whether it succeeded and the address the proxy bound for it.
 *
 * <pre>
 * +----+-----+-------+------+----------+----------+
 * |VER | REP |  RSV  | ATYP | BND.ADDR | BND.PORT |   VER = 5, RSV = 0
 * +----+-----+-------+------+----------+----------+
 * | 1  |  1  |   1   |  1   | Variable |    2     |
 * +----+-----+-------+------+----------+----------+
 * </pre>
 *
 * @param status the REP field
 * @param addressType how the bound address is written
 * @param host the bound address, as in {@link Socks5CommandRequest#host()}
 * @param port the bound port
 */
public record Socks5CommandResponse(Socks5CommandStatus status, Socks5AddressType addressType, String host,
                                    int port) implements Socks5Response {

    /**
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code host} does not fit {@code addressType} or the port is out of range
     */
    public Socks5CommandResponse {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(addressType, "addressType");
        host = Socks5Addresses.canonicalHost(addressType, Objects.requireNonNull(host, "host"));
        Socks5Addresses.checkPort(port);
    }

    /** A reply with {@code status} and the bound address {@code 0.0.0.0:0}, as proxies send on failure. */
    public static Socks5CommandResponse of(Socks5CommandStatus status) {
        return new Socks5CommandResponse(status, Socks5AddressType.IPV4, "0.0.0.0", 0);
    }
}
