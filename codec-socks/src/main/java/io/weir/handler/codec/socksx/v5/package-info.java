/**
 * SOCKS5 (RFC 1928) with username and password authentication (RFC 1929).
 *
 * <p>The handshake: the client offers methods ({@link io.weir.handler.codec.socksx.v5.Socks5InitialRequest}), the
 * proxy chooses one ({@link io.weir.handler.codec.socksx.v5.Socks5InitialResponse}); for
 * {@link io.weir.handler.codec.socksx.v5.Socks5AuthMethod#PASSWORD} the client sends a
 * {@link io.weir.handler.codec.socksx.v5.Socks5PasswordAuthRequest} and the proxy answers a
 * {@link io.weir.handler.codec.socksx.v5.Socks5PasswordAuthResponse}; then the client sends a
 * {@link io.weir.handler.codec.socksx.v5.Socks5CommandRequest} and the proxy a
 * {@link io.weir.handler.codec.socksx.v5.Socks5CommandResponse}, after which bytes are relayed.
 *
 * <p>Client side: {@link io.weir.handler.codec.socksx.v5.Socks5ClientEncoder} and
 * {@link io.weir.handler.codec.socksx.v5.Socks5ClientDecoder}. Server side:
 * {@link io.weir.handler.codec.socksx.v5.Socks5ServerEncoder} first, then
 * {@link io.weir.handler.codec.socksx.v5.Socks5ServerDecoder}, which follows the server's answers to know what the
 * client may send next.
 */
package io.weir.handler.codec.socksx.v5;
