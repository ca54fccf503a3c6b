package io.weir.handler.codec.socksx.v5;

/**
 * The proxy's verdict on a username and password (RFC 1929 §2): status 0 is success, any other value failure,
 * after which the proxy closes the connection.
 *
 * <pre>
 * +----+--------+
 * |VER | STATUS |   VER = 1
 * +----+--------+
 * | 1  |   1    |
 * +----+--------+
 * </pre>
 *
 * @param status the STATUS byte, 0 to 255
 */
public record Socks5PasswordAuthResponse(int status) implements Socks5Response {
    /** Accepted. */
    public static final Socks5PasswordAuthResponse SUCCESS = new Socks5PasswordAuthResponse(0);
    /** Refused (RFC 1929 gives no meaning to the non-zero values; 1 is what proxies send). */
    public static final Socks5PasswordAuthResponse FAILURE = new Socks5PasswordAuthResponse(1);

    /** @throws IllegalArgumentException if {@code status} is not a byte value */
    public Socks5PasswordAuthResponse {
        if (status < 0 || status > 0xFF) {
            throw new IllegalArgumentException("status: " + status + " (expected 0 to 255)");
        }
    }

    /** Whether the proxy accepted the username and password. */
    public boolean isSuccess() {
        return status == 0;
    }
}
