package io.weir.handler.codec.socksx.v5;

import java.util.List;
import java.util.Objects;

/**
 * The client's first message (RFC 1928 §3): the authentication methods it can use.
 *
 * <pre>
 * +----+----------+----------+
 * |VER | NMETHODS | METHODS  |   VER = 5
 * +----+----------+----------+
 * | 1  |    1     | 1 to 255 |
 * +----+----------+----------+
 * </pre>
 *
 * @param methods the methods offered, in the client's order, 1 to 255 of them
 */
public record Socks5InitialRequest(List<Socks5AuthMethod> methods) implements Socks5Request {
    /** The most methods NMETHODS can count. */
    public static final int MAX_METHODS = 255;

    /**
     * @throws NullPointerException if {@code methods} or one of them is null
     * @throws IllegalArgumentException if there are none or more than {@value #MAX_METHODS}
     */
    public Socks5InitialRequest {
        methods = List.copyOf(Objects.requireNonNull(methods, "methods"));
        if (methods.isEmpty() || methods.size() > MAX_METHODS) {
            throw new IllegalArgumentException("methods: " + methods.size() + " (expected 1 to " + MAX_METHODS + ")");
        }
    }

    /** A request offering {@code methods}. */
    public static Socks5InitialRequest of(Socks5AuthMethod... methods) {
        return new Socks5InitialRequest(List.of(methods));
    }
}
