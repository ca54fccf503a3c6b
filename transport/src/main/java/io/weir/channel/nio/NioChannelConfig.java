package io.weir.channel.nio;

import io.weir.channel.ChannelException;
import io.weir.channel.ChannelOption;
import io.weir.channel.DefaultChannelConfig;
import java.io.IOException;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.nio.channels.NetworkChannel;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The config of a NIO channel: {@link DefaultChannelConfig}'s options plus a fixed set of socket options read
 * from and written to the JDK channel directly (so the socket is the one source of truth). Thread-safe: the
 * JDK channel's option methods are.
 */
class NioChannelConfig extends DefaultChannelConfig {
    private final NetworkChannel javaChannel;
    private final ChannelOption<?>[] socketOptions;

    NioChannelConfig(AbstractNioChannel channel, NetworkChannel javaChannel, int maxMessagesPerRead,
                     ChannelOption<?>... socketOptions) {
        super(channel, maxMessagesPerRead);
        this.javaChannel = javaChannel;
        this.socketOptions = socketOptions;
    }

    @Override
    public Map<ChannelOption<?>, Object> getOptions() {
        Map<ChannelOption<?>, Object> options = new IdentityHashMap<>(super.getOptions());
        return getOptions(options, socketOptions);
    }

    private boolean knows(ChannelOption<?> option) {
        for (ChannelOption<?> known : socketOptions) {
            if (known == option) {
                return true;
            }
        }
        return false;
    }

    @SuppressWarnings("unchecked")
    @Override
    public <T> T getOption(ChannelOption<T> option) {
        if (!knows(option)) {
            return super.getOption(option);
        }
        try {
            if (option == ChannelOption.IP_MULTICAST_LOOP_DISABLED) {
                return (T) Boolean.valueOf(!javaChannel.getOption(StandardSocketOptions.IP_MULTICAST_LOOP));
            }
            return (T) javaChannel.getOption(jdkOption(option));
        } catch (IOException e) {
            throw new ChannelException("failed to read " + option + " of " + channel, e);
        }
    }

    @Override
    public <T> boolean setOption(ChannelOption<T> option, T value) {
        if (!knows(option)) {
            return super.setOption(option, value);
        }
        option.validate(value);
        try {
            if (option == ChannelOption.IP_MULTICAST_LOOP_DISABLED) {
                javaChannel.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, !(Boolean) value);
            } else {
                setJdkOption(jdkOption(option), value);
            }
        } catch (IOException e) {
            throw new ChannelException("failed to set " + option + " of " + channel + " to " + value, e);
        }
        return true;
    }

    @SuppressWarnings("unchecked")
    private <T> void setJdkOption(SocketOption<?> jdkOption, T value) throws IOException {
        javaChannel.setOption((SocketOption<T>) jdkOption, value);
    }

    @Override
    protected void autoReadCleared() {
        ((AbstractNioChannel) channel).clearReadPending();
    }

    /** The JDK option behind {@code option}, which must be one of the socket options this class maps. */
    private static SocketOption<?> jdkOption(ChannelOption<?> option) {
        if (option == ChannelOption.SO_KEEPALIVE) {
            return StandardSocketOptions.SO_KEEPALIVE;
        } else if (option == ChannelOption.SO_SNDBUF) {
            return StandardSocketOptions.SO_SNDBUF;
        } else if (option == ChannelOption.SO_RCVBUF) {
            return StandardSocketOptions.SO_RCVBUF;
        } else if (option == ChannelOption.SO_REUSEADDR) {
            return StandardSocketOptions.SO_REUSEADDR;
        } else if (option == ChannelOption.SO_LINGER) {
            return StandardSocketOptions.SO_LINGER;
        } else if (option == ChannelOption.TCP_NODELAY) {
            return StandardSocketOptions.TCP_NODELAY;
        } else if (option == ChannelOption.IP_TOS) {
            return StandardSocketOptions.IP_TOS;
        } else if (option == ChannelOption.SO_BROADCAST) {
            return StandardSocketOptions.SO_BROADCAST;
        } else if (option == ChannelOption.IP_MULTICAST_IF) {
            return StandardSocketOptions.IP_MULTICAST_IF;
        } else if (option == ChannelOption.IP_MULTICAST_TTL) {
            return StandardSocketOptions.IP_MULTICAST_TTL;
        }
        throw new IllegalArgumentException("not a socket option: " + option);
    }

}
