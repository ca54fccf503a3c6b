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

    // ---- TCP connection set-up and addressing (server and client stream sockets; see EpollSocketOptions)

    /**
     * {@code TCP_FASTOPEN} on a server channel: the length of the queue of connections whose SYN carried data
     * (TCP Fast Open, RFC 7413) not yet accepted; 0 turns it off. The kernel serves such SYNs only while
     * {@code net.ipv4.tcp_fastopen} has its server bit (2) set; otherwise clients fall back to a plain handshake.
     */
    public static final ChannelOption<Integer> TCP_FASTOPEN = ChannelOption.valueOf("TCP_FASTOPEN");
    /**
     * {@code TCP_FASTOPEN_CONNECT} on a client channel, set before connecting: the connect completes at once and
     * the first write goes out with the SYN when the kernel holds a Fast Open cookie for the server (otherwise the
     * handshake is the usual one). Needs the client bit (1) of {@code net.ipv4.tcp_fastopen}, on by default.
     */
    public static final ChannelOption<Boolean> TCP_FASTOPEN_CONNECT = ChannelOption.valueOf("TCP_FASTOPEN_CONNECT");
    /**
     * {@code TCP_DEFER_ACCEPT}, in seconds, on a server channel: a connection is accepted only once its first data
     * arrived (or the time ran out). The kernel rounds up to its SYN-ACK retransmission schedule (1, 3, 7, 15, ...
     * seconds), and reading the option returns the rounded value; 0 turns it off.
     */
    public static final ChannelOption<Integer> TCP_DEFER_ACCEPT = ChannelOption.valueOf("TCP_DEFER_ACCEPT");
    /**
     * {@code IP_TRANSPARENT} ({@code IPV6_TRANSPARENT} on dual-stack sockets): bind to and accept connections for
     * addresses that are not local, for transparent proxies. Setting it needs {@code CAP_NET_ADMIN} (or
     * {@code CAP_NET_RAW}); without, the kernel refuses with {@code EPERM}, which the config reports as a
     * {@link io.weir.channel.ChannelException} caused by an {@link io.weir.channel.unix.NativeIoException}.
     */
    public static final ChannelOption<Boolean> IP_TRANSPARENT = ChannelOption.valueOf("IP_TRANSPARENT");
    /** {@code IP_FREEBIND}: bind to an address that is not (yet) configured on any interface. */
    public static final ChannelOption<Boolean> IP_FREEBIND = ChannelOption.valueOf("IP_FREEBIND");
    /**
     * {@code SO_BUSY_POLL}, in microseconds, on a connection: how long a blocking receive busy-polls the device
     * queue. Raising it above its current value needs {@code CAP_NET_ADMIN} ({@code EPERM} otherwise); 0 is off.
     */
    public static final ChannelOption<Integer> SO_BUSY_POLL = ChannelOption.valueOf("SO_BUSY_POLL");

    private EpollChannelOption() {
    }
}
