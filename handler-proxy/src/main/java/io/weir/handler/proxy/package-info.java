/**
 * Client-side proxy handlers: {@link io.weir.handler.proxy.HttpProxyHandler} (HTTP CONNECT, optional Basic
 * credentials), {@link io.weir.handler.proxy.Socks4ProxyHandler} (SOCKS4a) and
 * {@link io.weir.handler.proxy.Socks5ProxyHandler} (SOCKS5, optional username and password). Put one first in a
 * client pipeline and the channel's connect reaches its destination through the proxy:
 *
 * <pre>{@code
 * ch.pipeline().addLast(new HttpProxyHandler(new InetSocketAddress("proxy.example", 3128)), new MyHandler());
 * bootstrap.connect("example.com", 443);   // CONNECT example.com:443 at the proxy
 * }</pre>
 *
 * The connect's future completes when the tunnel is up, or fails with a
 * {@link io.weir.handler.proxy.ProxyConnectException} that names the proxy, the destination and the
 * {@linkplain io.weir.handler.proxy.ProxyConnectException.Reason reason}; the whole of it is bounded by a connect
 * timeout (10 s by default), and nothing a proxy sends is buffered beyond one bounded answer. The handlers after
 * the proxy handler see {@code channelActive} only once the tunnel is up, preceded by a
 * {@link io.weir.handler.proxy.ProxyConnectionEvent}; what they write before is held (bounded) and sent after. The
 * proxy handler then removes its codecs and itself. For TLS to the destination, put the {@code SslHandler} after
 * the proxy handler.
 *
 * <p>The SOCKS messages come from {@code io.weir.handler.codec.socksx} (module {@code io.weir.codec.socks}), the
 * HTTP ones from {@code io.weir.handler.codec.http}.
 */
package io.weir.handler.proxy;
