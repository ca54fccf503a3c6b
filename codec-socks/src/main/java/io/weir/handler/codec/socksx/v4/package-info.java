/**
 * SOCKS4 and its 4a extension, as specified by the protocol's original texts (SOCKS 4, and SOCKS 4A for a host
 * name the proxy resolves): one {@link io.weir.handler.codec.socksx.v4.Socks4CommandRequest} from the client, one
 * eight-byte {@link io.weir.handler.codec.socksx.v4.Socks4CommandResponse} from the proxy.
 *
 * <p>Client side: {@link io.weir.handler.codec.socksx.v4.Socks4ClientEncoder} and
 * {@link io.weir.handler.codec.socksx.v4.Socks4ClientDecoder}. Server side:
 * {@link io.weir.handler.codec.socksx.v4.Socks4ServerDecoder} (the user id and host name are capped, 255 bytes each
 * by default) and {@link io.weir.handler.codec.socksx.v4.Socks4ServerEncoder}. SOCKS4 carries no IPv6 address and
 * no password; its user id is an identification, not a secret.
 */
package io.weir.handler.codec.socksx.v4;
