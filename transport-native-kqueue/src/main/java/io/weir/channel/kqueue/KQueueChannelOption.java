package io.weir.channel.kqueue;

import io.weir.channel.ChannelOption;

/**
 * The {@link ChannelOption}s only the kqueue channels understand, besides the standard ones of
 * {@link ChannelOption}. A kqueue channel's config reads and writes them on the socket itself; other transports'
 * configs refuse them ({@code setOption} returns {@code false}).
 */
public final class KQueueChannelOption {
    /**
     * {@code SO_REUSEPORT}: several sockets may bind the same address and port. Set it before binding. (On
     * FreeBSD 12+ the balancing variant is {@code SO_REUSEPORT_LB}; this is the plain option every BSD has.)
     */
    public static final ChannelOption<Boolean> SO_REUSEPORT = ChannelOption.valueOf("SO_REUSEPORT");

    private KQueueChannelOption() {
    }
}
