package io.weir.handler.codec.socksx.v4;

import io.weir.handler.codec.socksx.internal.InetLiterals;
import io.weir.handler.codec.socksx.internal.SocksText;
import java.util.Objects;

/**
 * A SOCKS4 request, client to proxy: a command, the destination and the client's user id.
 *
 * <pre>
 * +----+----+----+----+----+----+----+----+----+----+....+----+
 * | VN | CD | DSTPORT |      DSTIP        | USERID       |NULL|   VN = 4
 * +----+----+----+----+----+----+----+----+----+----+....+----+
 *    1    1      2              4           variable       1
 * </pre>
 *
 * The destination is an IPv4 literal, sent in DSTIP, or a host name the proxy resolves (the 4a extension): DSTIP
 * is then {@code 0.0.0.1} and the name follows the user id, NUL-terminated. An IPv4 literal in
 * {@code 0.0.0.1}-{@code 0.0.0.255}, which DSTIP cannot carry (it is the 4a marker), is sent as a name too.
 *
 * @param type the command
 * @param host an IPv4 literal ({@code 192.0.2.1}, strict dotted quad) or a host name
 * @param port the destination port
 * @param userId the user id, possibly empty
 */
public record Socks4CommandRequest(Socks4CommandType type, String host, int port, String userId)
        implements Socks4Message {

    /**
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the port is out of range, the host is empty or has a control character
     *         (NUL included), or the user id has a NUL
     */
    public Socks4CommandRequest {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(userId, "userId");
        if (port < 0 || port > 0xFFFF) {
            throw new IllegalArgumentException("port: " + port + " (expected 0 to 65535)");
        }
        if (InetLiterals.parseIpv4(host) == null) {
            SocksText.checkHostName(host, Integer.MAX_VALUE);
        }
        if (userId.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("user id has a NUL at index " + userId.indexOf('\0'));
        }
    }

    /** A CONNECT to {@code host}:{@code port} with an empty user id. */
    public static Socks4CommandRequest connect(String host, int port) {
        return new Socks4CommandRequest(Socks4CommandType.CONNECT, host, port, "");
    }

    /**
     * The four DSTIP bytes of the destination if it travels in DSTIP, or {@code null} if it travels as a 4a host
     * name.
     */
    public byte[] ipv4Address() {
        byte[] ip = InetLiterals.parseIpv4(host);
        if (ip == null || ip[0] == 0 && ip[1] == 0 && ip[2] == 0 && ip[3] != 0) {
            return null;
        }
        return ip;
    }

    /** Whether the destination travels as a host name (the 4a extension). */
    public boolean isSocks4a() {
        return ipv4Address() == null;
    }
}
