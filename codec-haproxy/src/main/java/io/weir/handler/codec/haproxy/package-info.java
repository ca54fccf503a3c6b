/**
 * The HAProxy PROXY protocol, versions 1 (a text line) and 2 (a binary header with TLVs), as specified in
 * HAProxy's {@code doc/proxy-protocol.txt}: a proxy that forwards a TCP (or UDP, or UNIX socket) connection puts
 * one header before the connection's first byte, naming the client and the address it connected to.
 *
 * <h2>Server side</h2>
 * Put an {@link io.weir.handler.codec.haproxy.HAProxyMessageDecoder} first in the pipeline of every connection a
 * trusted proxy makes:
 *
 * <pre>{@code
 * protected void initChannel(Channel ch) {
 *     ch.pipeline().addLast(new HAProxyMessageDecoder(), new HttpServerCodec(), new MyHandler());
 * }
 * }</pre>
 *
 * The decoder reads exactly one header, sets the channel attribute
 * {@link io.weir.handler.codec.haproxy.HAProxyMessageDecoder#SOURCE_ADDRESS} (and
 * {@link io.weir.handler.codec.haproxy.HAProxyMessageDecoder#MESSAGE}), passes the decoded
 * {@link io.weir.handler.codec.haproxy.HAProxyMessage} on as a message, removes itself and hands every following
 * byte on untouched. A later handler asks for "the client's address as the server sees it" with
 * {@link io.weir.handler.codec.haproxy.HAProxyMessageDecoder#clientAddress(io.weir.channel.Channel)}. A connection
 * whose header is malformed, too long, or not complete within the header timeout is closed with a
 * {@link io.weir.handler.codec.haproxy.HAProxyProtocolException}.
 *
 * <p>Only accept the PROXY protocol on a port that only trusted proxies can reach: whoever can connect to it can
 * claim any client address (the specification's section 5).
 *
 * <h2>Client side</h2>
 * {@link io.weir.handler.codec.haproxy.HAProxyMessageEncoder} writes a message as a version 1 line or a version 2
 * header, with its TLVs and, when asked, a CRC32C checksum.
 *
 * <h2>Ownership</h2>
 * Messages and TLVs hold copies of their bytes ({@code byte[]}, {@code String}), never buffers: they are not
 * reference counted, need no release, and may be kept, shared between threads and stored in channel attributes.
 * A header is at most a few kilobytes, once per connection, so the copies cost nothing that matters.
 */
package io.weir.handler.codec.haproxy;
