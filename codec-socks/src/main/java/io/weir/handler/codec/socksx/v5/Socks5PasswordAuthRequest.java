package io.weir.handler.codec.socksx.v5;

import io.weir.handler.codec.socksx.internal.SocksText;
import java.util.Objects;

/**
 * The client's username and password (RFC 1929 §2), sent when the proxy chose {@link Socks5AuthMethod#PASSWORD}.
 * Both travel as UTF-8, in clear text: use the method only over a network you trust.
 *
 * <pre>
 * +----+------+----------+------+----------+
 * |VER | ULEN |  UNAME   | PLEN |  PASSWD  |   VER = 1
 * +----+------+----------+------+----------+
 * | 1  |  1   | 1 to 255 |  1   | 1 to 255 |
 * +----+------+----------+------+----------+
 * </pre>
 *
 * Empty fields are accepted both ways (some clients send an empty password) although RFC 1929 draws them 1 to 255
 * bytes long. {@link #toString()} does not show the password.
 *
 * @param username the user name, at most {@value #MAX_FIELD_BYTES} bytes of UTF-8
 * @param password the password, at most {@value #MAX_FIELD_BYTES} bytes of UTF-8
 */
public record Socks5PasswordAuthRequest(String username, String password) implements Socks5Request {
    /** The longest user name or password a length byte can announce. */
    public static final int MAX_FIELD_BYTES = 255;
    /** The version byte of the subnegotiation (RFC 1929), not SOCKS5's 5. */
    public static final int SUBNEGOTIATION_VERSION = 1;

    /**
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if either takes more than {@value #MAX_FIELD_BYTES} bytes of UTF-8
     */
    public Socks5PasswordAuthRequest {
        SocksText.checkLength(Objects.requireNonNull(username, "username"), "username", MAX_FIELD_BYTES);
        SocksText.checkLength(Objects.requireNonNull(password, "password"), "password", MAX_FIELD_BYTES);
    }

    /** The user name and the password's length, never the password. */
    @Override
    public String toString() {
        return "Socks5PasswordAuthRequest[username=" + username + ", password=(" + password.length() + " chars)]";
    }
}
