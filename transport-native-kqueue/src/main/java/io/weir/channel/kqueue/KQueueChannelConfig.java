package io.weir.channel.kqueue;

import io.weir.channel.ChannelOption;
import io.weir.channel.unix.internal.AbstractUnixChannel;
import io.weir.channel.unix.internal.UnixChannelConfig;
import java.io.IOException;

/**
 * The config of a kqueue channel: unix-common's {@link UnixChannelConfig} (the options every Unix has, and
 * {@link ChannelOption#SO_BACKLOG} for a server) plus {@link KQueueChannelOption#TCP_NOPUSH} and
 * {@link KQueueChannelOption#SO_SNDLOWAT}, read from and written to the socket at once. Thread-safe.
 */
final class KQueueChannelConfig extends UnixChannelConfig {

    KQueueChannelConfig(AbstractUnixChannel channel, int maxMessagesPerRead, int backlog,
                        ChannelOption<?>... socketOptions) {
        super(channel, maxMessagesPerRead, backlog, socketOptions);
    }

    @Override
    protected Object getTransportOption(ChannelOption<?> option) throws IOException {
        if (option == KQueueChannelOption.TCP_NOPUSH) {
            return check(KQueueSocketNative.getTcpNoPush(openFd()), "getsockopt(TCP_NOPUSH)") != 0;
        } else if (option == KQueueChannelOption.SO_SNDLOWAT) {
            return check(KQueueSocketNative.getSndLowAt(openFd()), "getsockopt(SO_SNDLOWAT)");
        }
        return super.getTransportOption(option);
    }

    @Override
    protected void setTransportOption(ChannelOption<?> option, Object value) throws IOException {
        if (option == KQueueChannelOption.TCP_NOPUSH) {
            check(KQueueSocketNative.setTcpNoPush(openFd(), (Boolean) value ? 1 : 0), "setsockopt(TCP_NOPUSH)");
        } else if (option == KQueueChannelOption.SO_SNDLOWAT) {
            int bytes = (Integer) value;
            if (bytes < 1) {
                throw new IllegalArgumentException(option + ": " + bytes + " (expected: >= 1)");
            }
            check(KQueueSocketNative.setSndLowAt(openFd(), bytes), "setsockopt(SO_SNDLOWAT)");
        } else {
            super.setTransportOption(option, value);
        }
    }
}
