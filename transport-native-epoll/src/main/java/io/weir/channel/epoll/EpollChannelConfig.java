package io.weir.channel.epoll;

import io.weir.channel.ChannelOption;
import io.weir.channel.unix.internal.AbstractUnixChannel;
import io.weir.channel.unix.internal.UnixChannelConfig;
import java.io.IOException;

/**
 * The config of an epoll channel: unix-common's {@link UnixChannelConfig} (the options every Unix has, and
 * {@link ChannelOption#SO_BACKLOG} for a server) plus the Linux-only TCP options of {@link EpollChannelOption}, all
 * read from and written to the socket itself. Thread-safe: {@code getsockopt}/{@code setsockopt} are.
 */
final class EpollChannelConfig extends UnixChannelConfig {

    EpollChannelConfig(AbstractUnixChannel channel, int maxMessagesPerRead, int backlog,
                       ChannelOption<?>... socketOptions) {
        super(channel, maxMessagesPerRead, backlog, socketOptions);
    }

    @Override
    protected Object getTransportOption(ChannelOption<?> option) throws IOException {
        if (option == EpollChannelOption.TCP_QUICKACK) {
            return check(Native.getTcpOption(openFd(), Native.TCP_OPTION_QUICKACK), "getsockopt(" + option + ')')
                    != 0;
        } else if (option == EpollChannelOption.TCP_CORK) {
            return check(Native.getTcpOption(openFd(), Native.TCP_OPTION_CORK), "getsockopt(" + option + ')') != 0;
        } else if (EpollSocketOptions.handles(option)) {
            return EpollSocketOptions.get(socket, option);
        }
        return check(Native.getTcpOption(openFd(), tcpOptionId(option)), "getsockopt(" + option + ')');
    }

    @Override
    protected void setTransportOption(ChannelOption<?> option, Object value) throws IOException {
        if (option == EpollChannelOption.TCP_QUICKACK) {
            check(Native.setTcpOption(openFd(), Native.TCP_OPTION_QUICKACK, (Boolean) value ? 1 : 0),
                    "setsockopt(" + option + ')');
        } else if (option == EpollChannelOption.TCP_CORK) {
            check(Native.setTcpOption(openFd(), Native.TCP_OPTION_CORK, (Boolean) value ? 1 : 0),
                    "setsockopt(" + option + ')');
        } else if (EpollSocketOptions.handles(option)) {
            EpollSocketOptions.set(socket, option, value);
        } else {
            int v = (Integer) value;
            int id = tcpOptionId(option);
            int min = id == Native.TCP_OPTION_NOTSENT_LOWAT || id == Native.TCP_OPTION_USER_TIMEOUT ? 0 : 1;
            if (v < min) {
                throw new IllegalArgumentException(option + ": " + v + " (expected: >= " + min + ')');
            }
            check(Native.setTcpOption(openFd(), id, v), "setsockopt(" + option + ')');
        }
    }

    private static int tcpOptionId(ChannelOption<?> option) {
        if (option == EpollChannelOption.TCP_NOTSENT_LOWAT) {
            return Native.TCP_OPTION_NOTSENT_LOWAT;
        } else if (option == EpollChannelOption.TCP_USER_TIMEOUT) {
            return Native.TCP_OPTION_USER_TIMEOUT;
        } else if (option == EpollChannelOption.TCP_KEEPIDLE) {
            return Native.TCP_OPTION_KEEPIDLE;
        } else if (option == EpollChannelOption.TCP_KEEPINTVL) {
            return Native.TCP_OPTION_KEEPINTVL;
        } else if (option == EpollChannelOption.TCP_KEEPCNT) {
            return Native.TCP_OPTION_KEEPCNT;
        }
        throw new IllegalArgumentException("not a socket option of this config: " + option);
    }
}
