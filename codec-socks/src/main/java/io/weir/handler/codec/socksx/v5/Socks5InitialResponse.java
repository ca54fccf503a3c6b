package io.weir.handler.codec.socksx.v5;

import java.util.Objects;

/**
 * The proxy's choice among the offered methods (RFC 1928 §3), or {@link Socks5AuthMethod#NO_ACCEPTABLE_METHODS}.
 *
 * <pre>
 * +----+--------+
 * |VER | METHOD |   VER = 5
 * +----+--------+
 * | 1  |   1    |
 * +----+--------+
 * </pre>
 *
 * @param method the chosen method
 */
public record Socks5InitialResponse(Socks5AuthMethod method) implements Socks5Response {
    /** @throws NullPointerException if {@code method} is null */
    public Socks5InitialResponse {
        Objects.requireNonNull(method, "method");
    }
}
