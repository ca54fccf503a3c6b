package io.weir.handler.ipfilter;

import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Allows one connection per remote IP address at a time: a channel from an address that already has an open
 * channel through this filter is rejected. The address is freed when the accepted channel closes.
 * {@link Sharable} (that is its point: one instance per server); thread-safe.
 */
@ChannelHandler.Sharable
public class UniqueIpFilter extends AbstractRemoteAddressFilter<InetSocketAddress> {
    private final Set<InetAddress> connected = ConcurrentHashMap.newKeySet();

    /** An empty filter. */
    public UniqueIpFilter() {
    }

    @Override
    protected boolean accept(ChannelHandlerContext ctx, InetSocketAddress remoteAddress) throws Exception {
        InetAddress address = remoteAddress.getAddress();
        if (address == null || !connected.add(address)) {
            return false;
        }
        ctx.channel().closeFuture().addListener((ChannelFutureListener) future -> connected.remove(address));
        return true;
    }
}
