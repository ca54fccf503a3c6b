package io.weir.channel.epoll;

import io.weir.channel.ChannelOption;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.Socket;
import io.weir.channel.unix.internal.DatagramSocketNative;
import java.io.IOException;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;

/**
 * The config of an {@link EpollDatagramChannel}: {@link EpollChannelConfig}'s socket options plus the datagram
 * ones ({@link ChannelOption#SO_BROADCAST}, {@link ChannelOption#IP_MULTICAST_IF},
 * {@link ChannelOption#IP_MULTICAST_TTL}, {@link ChannelOption#IP_MULTICAST_LOOP_DISABLED}), all read from and
 * written to the socket. On an IPv6 (dual-stack) socket the multicast options are set for IPv4 traffic too.
 * Thread-safe.
 */
final class EpollDatagramChannelConfig extends EpollChannelConfig {
    private final Socket socket;

    EpollDatagramChannelConfig(EpollDatagramChannel channel, Socket socket, int maxMessagesPerRead) {
        super(channel, socket, maxMessagesPerRead, ChannelOption.SO_RCVBUF, ChannelOption.SO_SNDBUF,
                ChannelOption.SO_REUSEADDR, ChannelOption.IP_TOS, EpollChannelOption.SO_REUSEPORT,
                ChannelOption.SO_BROADCAST, ChannelOption.IP_MULTICAST_IF, ChannelOption.IP_MULTICAST_TTL,
                ChannelOption.IP_MULTICAST_LOOP_DISABLED);
        this.socket = socket;
    }

    @Override
    Object get(ChannelOption<?> option) throws IOException {
        if (option == ChannelOption.SO_BROADCAST) {
            return getInt(DatagramSocketNative.OPTION_BROADCAST, option) != 0;
        } else if (option == ChannelOption.IP_MULTICAST_TTL) {
            return (int) getInt(DatagramSocketNative.OPTION_MULTICAST_TTL, option);
        } else if (option == ChannelOption.IP_MULTICAST_LOOP_DISABLED) {
            return getInt(DatagramSocketNative.OPTION_MULTICAST_LOOP, option) == 0;
        } else if (option != ChannelOption.IP_MULTICAST_IF) {
            return super.get(option);
        }
        return DatagramSocketNative.multicastInterface(getInt(DatagramSocketNative.OPTION_MULTICAST_IF, option),
                socket.isIPv6());
    }

    @Override
    void set(ChannelOption<?> option, Object value) throws IOException {
        int res;
        if (option == ChannelOption.SO_BROADCAST) {
            res = DatagramSocketNative.setDatagramOption(openFd(), socket.isIPv6(),
                    DatagramSocketNative.OPTION_BROADCAST, (Boolean) value ? 1 : 0);
        } else if (option == ChannelOption.IP_MULTICAST_TTL) {
            res = DatagramSocketNative.setDatagramOption(openFd(), socket.isIPv6(),
                    DatagramSocketNative.OPTION_MULTICAST_TTL, (Integer) value);
        } else if (option == ChannelOption.IP_MULTICAST_LOOP_DISABLED) {
            res = DatagramSocketNative.setDatagramOption(openFd(), socket.isIPv6(),
                    DatagramSocketNative.OPTION_MULTICAST_LOOP, (Boolean) value ? 0 : 1);
        } else if (option == ChannelOption.IP_MULTICAST_IF) {
            int fd = openFd();
            NetworkInterface iface = (NetworkInterface) value;
            int index = iface == null ? 0 : iface.getIndex();
            if (iface != null && index < 0) {
                throw new SocketException("interface " + iface.getName() + " has no index");
            }
            res = DatagramSocketNative.setMulticastInterface(fd, socket.isIPv6(), index,
                    DatagramSocketNative.ipv4Address(iface));
        } else {
            super.set(option, value);
            return;
        }
        if (res < 0) {
            throw Errors.newIoException("setsockopt(" + option + ')', res);
        }
    }

    private long getInt(int id, ChannelOption<?> option) throws IOException {
        long res = DatagramSocketNative.getDatagramOption(openFd(), socket.isIPv6(), id);
        if (res < 0) {
            throw Errors.newIoException("getsockopt(" + option + ')', res);
        }
        return res;
    }

    private int openFd() throws IOException {
        if (!socket.isOpen()) {
            throw new ClosedChannelException();
        }
        return socket.intValue();
    }
}
