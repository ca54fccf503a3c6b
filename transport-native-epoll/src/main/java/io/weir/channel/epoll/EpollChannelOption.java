package io.weir.channel.epoll;

import io.weir.channel.ChannelOption;

/**
 * The {@link ChannelOption}s only the epoll channels understand, besides the standard ones of
 * {@link ChannelOption}. An epoll channel's config checks each value when it is set and throws
 * {@link IllegalArgumentException} naming the option and the value if it is out of range; other transports'
 * configs refuse these options ({@code setOption} returns {@code false}).
 *
 * <p>All are read from and written to the socket itself (see {@code man 7 tcp} and {@code man 7 socket}).
 */
public final class EpollChannelOption {
    /**
     * {@code SO_REUSEPORT}: several sockets may bind the same address and port; the kernel spreads incoming
     * connections across the listening ones (one per event loop, for instance). Set it before binding.
     */
    public static final ChannelOption<Boolean> SO_REUSEPORT = ChannelOption.valueOf("SO_REUSEPORT");
    /** {@code TCP_QUICKACK}: acknowledge at once rather than delaying ACKs (the kernel may turn it off again). */
    public static final ChannelOption<Boolean> TCP_QUICKACK = ChannelOption.valueOf("TCP_QUICKACK");
    /** {@code TCP_CORK}: hold partial segments back until uncorked or full (at most 200 ms). */
    public static final ChannelOption<Boolean> TCP_CORK = ChannelOption.valueOf("TCP_CORK");
    /** {@code TCP_NOTSENT_LOWAT}, in bytes: unsent bytes above which the socket stops reporting writability. */
    public static final ChannelOption<Integer> TCP_NOTSENT_LOWAT = ChannelOption.valueOf("TCP_NOTSENT_LOWAT");
    /** {@code TCP_USER_TIMEOUT}, in milliseconds: how long sent data may stay unacknowledged; 0 is the system's. */
    public static final ChannelOption<Integer> TCP_USER_TIMEOUT = ChannelOption.valueOf("TCP_USER_TIMEOUT");
    /** {@code TCP_KEEPIDLE}, in seconds: idle time before the first keep-alive probe (with SO_KEEPALIVE on). */
    public static final ChannelOption<Integer> TCP_KEEPIDLE = ChannelOption.valueOf("TCP_KEEPIDLE");
    /** {@code TCP_KEEPINTVL}, in seconds: time between keep-alive probes. */
    public static final ChannelOption<Integer> TCP_KEEPINTVL = ChannelOption.valueOf("TCP_KEEPINTVL");
    /** {@code TCP_KEEPCNT}: unanswered keep-alive probes before the connection is dropped. */
    public static final ChannelOption<Integer> TCP_KEEPCNT = ChannelOption.valueOf("TCP_KEEPCNT");

    private EpollChannelOption() {
    }
}
