/**
 * Weir's HAProxy PROXY protocol codec (versions 1 and 2): a server-side decoder that reads the header a proxy
 * puts before a connection's bytes and exposes the client's address to later handlers, and an encoder for
 * proxies and clients that send it.
 */
module io.weir.codec.haproxy {
    requires transitive io.weir.codec;

    exports io.weir.handler.codec.haproxy;
}
