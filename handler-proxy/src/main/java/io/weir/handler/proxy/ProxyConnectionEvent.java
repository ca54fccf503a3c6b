package io.weir.handler.proxy;

import java.net.SocketAddress;
import java.util.Objects;

/**
 * Fired as a user event (before {@code channelActive} reaches the handlers after the proxy handler) when the tunnel
 * through the proxy is up: from then on the channel's bytes are the destination's.
 *
 * @param protocol the proxy protocol: {@code "http"}, {@code "socks4a"} or {@code "socks5"}
 * @param authScheme how the handler authenticated: {@code "none"}, {@code "basic"}, {@code "userid"} or
 *        {@code "password"}
 * @param proxyAddress the proxy's address
 * @param destinationAddress the destination the tunnel leads to
 */
public record ProxyConnectionEvent(String protocol, String authScheme, SocketAddress proxyAddress,
                                   SocketAddress destinationAddress) {
    /** @throws NullPointerException if an argument is null */
    public ProxyConnectionEvent {
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(authScheme, "authScheme");
        Objects.requireNonNull(proxyAddress, "proxyAddress");
        Objects.requireNonNull(destinationAddress, "destinationAddress");
    }
}
