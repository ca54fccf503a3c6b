/**
 * Weir's client-side proxy handlers: HTTP CONNECT, SOCKS4a and SOCKS5, each put first in a client pipeline so that
 * a connect reaches its destination through the proxy.
 */
module io.weir.handler.proxy {
    requires transitive io.weir.codec.socks;
    requires transitive io.weir.codec.http;

    exports io.weir.handler.proxy;
}
