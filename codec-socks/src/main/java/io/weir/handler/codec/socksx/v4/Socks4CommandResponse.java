package io.weir.handler.codec.socksx.v4;

import io.weir.handler.codec.socksx.internal.InetLiterals;
import java.util.Objects;

/**
 * A SOCKS4 reply, proxy to client: whether the request was granted, and for BIND the address the proxy listens
 * on (proxies leave the address and port zero, and clients ignore them, for CONNECT).
 *
 * <pre>
 * +----+----+----+----+----+----+----+----+
 * | VN | CD | DSTPORT |      DSTIP        |   VN = 0
 * +----+----+----+----+----+----+----+----+
 *    1    1      2              4
 * </pre>
 *
 * @param status the proxy's answer
 * @param address an IPv4 literal
 * @param port a port
 */
public record Socks4CommandResponse(Socks4CommandStatus status, String address, int port)
        implements Socks4Message {
    /** The bytes of a reply. */
    public static final int LENGTH_BYTES = 8;

    /**
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the address is not an IPv4 literal or the port is out of range
     */
    public Socks4CommandResponse {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(address, "address");
        if (InetLiterals.parseIpv4(address) == null) {
            throw new IllegalArgumentException("address: " + address + " (expected an IPv4 literal)");
        }
        if (port < 0 || port > 0xFFFF) {
            throw new IllegalArgumentException("port: " + port + " (expected 0 to 65535)");
        }
    }

    /** A reply with {@code status} and the address {@code 0.0.0.0:0}, as proxies answer CONNECT. */
    public static Socks4CommandResponse of(Socks4CommandStatus status) {
        return new Socks4CommandResponse(status, "0.0.0.0", 0);
    }
}
