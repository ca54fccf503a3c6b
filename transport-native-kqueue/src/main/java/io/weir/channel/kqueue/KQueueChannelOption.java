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

    /**
     * {@code TCP_NOPUSH}: hold partial segments back until the option is turned off or a segment fills, for
     * writing a header and a body as one packet. On Linux (libkqueue builds) the same switch is called
     * {@code TCP_CORK}, which is what this option sets there.
     */
    public static final ChannelOption<Boolean> TCP_NOPUSH = ChannelOption.valueOf("TCP_NOPUSH");
    /**
     * {@code SO_SNDLOWAT}, in bytes: the free space in the send buffer the socket needs before kqueue reports it
     * writable. Linux keeps it at 1 and refuses to change it: setting it there fails with a
     * {@link io.weir.channel.ChannelException}.
     */
    public static final ChannelOption<Integer> SO_SNDLOWAT = ChannelOption.valueOf("SO_SNDLOWAT");

    private KQueueChannelOption() {
    }
}
