package io.weir.channel.embedded;

import java.net.SocketAddress;

/** The local and remote address of every {@link EmbeddedChannel}. */
final class EmbeddedSocketAddress extends SocketAddress {
    private static final long serialVersionUID = 1L;

    static final EmbeddedSocketAddress INSTANCE = new EmbeddedSocketAddress();

    private EmbeddedSocketAddress() {
    }

    @Override
    public String toString() {
        return "embedded";
    }
}
