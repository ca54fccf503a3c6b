/**
 * SOCKS, the proxy protocol in which a client asks a proxy to connect it to a destination and then relays bytes:
 * version 4 with its 4a extension in {@link io.weir.handler.codec.socksx.v4}, version 5 (RFC 1928) with username
 * and password authentication (RFC 1929) in {@link io.weir.handler.codec.socksx.v5}, and what the two share here.
 *
 * <h2>Both sides, both directions</h2>
 * Each version has four handlers: a client encoder (requests out) and decoder (replies in), and a server decoder
 * (requests in) and encoder (replies out). Decoders are strict and bounded: every field is checked as soon as its
 * bytes are in, unknown versions, commands and address types are refused with a
 * {@link io.weir.handler.codec.socksx.SocksProtocolException} that names what was seen, and no message can make a
 * decoder hold more than about half a kilobyte. Each decoder removes itself from the pipeline when the handshake
 * is over, so every byte that follows, including bytes that arrived in the same read as the last handshake
 * message, passes on untouched.
 *
 * <h2>A server</h2>
 * <pre>{@code
 * protected void initChannel(Channel ch) {
 *     ch.pipeline().addLast(new Socks5ServerEncoder(), new Socks5ServerDecoder(), new MySocks5Handler());
 * }
 * // MySocks5Handler: on Socks5InitialRequest write a Socks5InitialResponse; on Socks5CommandRequest connect to
 * // the destination, write a Socks5CommandResponse, remove the encoder and itself, and relay bytes both ways.
 * }</pre>
 *
 * <h2>A client</h2>
 * {@code io.weir.handler.proxy.Socks4ProxyHandler} and {@code Socks5ProxyHandler} (module
 * {@code io.weir.handler.proxy}) run the client side of the handshake with these codecs.
 *
 * <h2>Ownership</h2>
 * Messages are immutable records holding strings and numbers, never buffers: nothing to release, and they may be
 * kept and shared between threads. Host names, user ids, usernames and passwords travel as UTF-8 and are decoded
 * strictly: bytes that are not UTF-8 are refused, not replaced.
 */
package io.weir.handler.codec.socksx;
