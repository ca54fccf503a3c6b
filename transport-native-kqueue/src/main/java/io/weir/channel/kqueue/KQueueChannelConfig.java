package io.weir.channel.kqueue;

import io.weir.channel.ChannelException;
import io.weir.channel.ChannelOption;
import io.weir.channel.DefaultChannelConfig;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.Socket;
import io.weir.channel.unix.internal.DatagramSocketNative;
import java.io.IOException;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The config of a kqueue channel: {@link DefaultChannelConfig}'s options, the socket options the channel lists
 * (read from and written to the socket at once), and, for a server channel, {@link ChannelOption#SO_BACKLOG}
 * (used when it binds). Thread-safe: each option is one system call or one volatile field.
 */
final class KQueueChannelConfig extends DefaultChannelConfig {
    /** Marks a config without {@link ChannelOption#SO_BACKLOG}. */
    static final int NO_BACKLOG = -1;

    private final Socket socket;
    private final ChannelOption<?>[] socketOptions;
    private volatile int backlog;

    /**
     * @param backlog the server's default backlog, or {@link #NO_BACKLOG} for a connection's config
     * @param socketOptions the options this channel's socket takes
     */
    KQueueChannelConfig(AbstractKQueueChannel channel, Socket socket, int maxMessagesPerRead, int backlog,
                        ChannelOption<?>... socketOptions) {
        super(channel, maxMessagesPerRead);
        this.socket = socket;
        this.socketOptions = socketOptions;
        this.backlog = backlog;
    }

    /** The backlog the server channel listens with. */
    int backlog() {
        return backlog;
    }

    @Override
    public Map<ChannelOption<?>, Object> getOptions() {
        Map<ChannelOption<?>, Object> options = getOptions(new IdentityHashMap<>(super.getOptions()), socketOptions);
        return backlog == NO_BACKLOG ? options : getOptions(options, ChannelOption.SO_BACKLOG);
    }

    private boolean isSocketOption(ChannelOption<?> option) {
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
        if (option == ChannelOption.SO_BACKLOG && backlog != NO_BACKLOG) {
            return (T) Integer.valueOf(backlog);
        }
        if (!isSocketOption(option)) {
            return super.getOption(option);
        }
        try {
            return (T) read(option);
        } catch (IOException e) {
            throw new ChannelException("failed to read " + option + " of " + channel, e);
        }
    }

    @Override
    public <T> boolean setOption(ChannelOption<T> option, T value) {
        if (option == ChannelOption.SO_BACKLOG && backlog != NO_BACKLOG) {
            option.validate(value);
            backlog = (Integer) value;
            return true;
        }
        if (!isSocketOption(option)) {
            return super.setOption(option, value);
        }
        option.validate(value);
        try {
            write(option, value);
        } catch (IOException e) {
            throw new ChannelException("failed to set " + option + " of " + channel + " to " + value, e);
        }
        return true;
    }

    private Object read(ChannelOption<?> option) throws IOException {
        if (option == ChannelOption.SO_KEEPALIVE) {
            return socket.isKeepAlive();
        } else if (option == ChannelOption.SO_SNDBUF) {
            return socket.getSendBufferSize();
        } else if (option == ChannelOption.SO_RCVBUF) {
            return socket.getReceiveBufferSize();
        } else if (option == ChannelOption.SO_REUSEADDR) {
            return socket.isReuseAddress();
        } else if (option == ChannelOption.SO_LINGER) {
            return socket.getSoLinger();
        } else if (option == ChannelOption.TCP_NODELAY) {
            return socket.isTcpNoDelay();
        } else if (option == ChannelOption.IP_TOS) {
            return socket.getTrafficClass();
        } else if (option == KQueueChannelOption.SO_REUSEPORT) {
            return socket.isReusePort();
        } else if (option == KQueueChannelOption.TCP_NOPUSH) {
            return check(KQueueSocketNative.getTcpNoPush(openFd()), "getsockopt(TCP_NOPUSH)") != 0;
        } else if (option == KQueueChannelOption.SO_SNDLOWAT) {
            return check(KQueueSocketNative.getSndLowAt(openFd()), "getsockopt(SO_SNDLOWAT)");
        } else if (option == ChannelOption.SO_BROADCAST) {
            return datagramOption(DatagramSocketNative.OPTION_BROADCAST, option) != 0;
        } else if (option == ChannelOption.IP_MULTICAST_TTL) {
            return (int) datagramOption(DatagramSocketNative.OPTION_MULTICAST_TTL, option);
        } else if (option == ChannelOption.IP_MULTICAST_LOOP_DISABLED) {
            return datagramOption(DatagramSocketNative.OPTION_MULTICAST_LOOP, option) == 0;
        } else if (option == ChannelOption.IP_MULTICAST_IF) {
            return DatagramSocketNative.multicastInterface(
                    datagramOption(DatagramSocketNative.OPTION_MULTICAST_IF, option), socket.isIPv6());
        }
        throw new IllegalArgumentException("not a socket option of this config: " + option);
    }

    private void write(ChannelOption<?> option, Object value) throws IOException {
        if (option == ChannelOption.SO_KEEPALIVE) {
            socket.setKeepAlive((Boolean) value);
        } else if (option == ChannelOption.SO_SNDBUF) {
            socket.setSendBufferSize((Integer) value);
        } else if (option == ChannelOption.SO_RCVBUF) {
            socket.setReceiveBufferSize((Integer) value);
        } else if (option == ChannelOption.SO_REUSEADDR) {
            socket.setReuseAddress((Boolean) value);
        } else if (option == ChannelOption.SO_LINGER) {
            socket.setSoLinger((Integer) value);
        } else if (option == ChannelOption.TCP_NODELAY) {
            socket.setTcpNoDelay((Boolean) value);
        } else if (option == ChannelOption.IP_TOS) {
            socket.setTrafficClass((Integer) value);
        } else if (option == KQueueChannelOption.SO_REUSEPORT) {
            socket.setReusePort((Boolean) value);
        } else if (option == KQueueChannelOption.TCP_NOPUSH) {
            check(KQueueSocketNative.setTcpNoPush(openFd(), (Boolean) value ? 1 : 0), "setsockopt(TCP_NOPUSH)");
        } else if (option == KQueueChannelOption.SO_SNDLOWAT) {
            int bytes = (Integer) value;
            if (bytes < 1) {
                throw new IllegalArgumentException(option + ": " + bytes + " (expected: >= 1)");
            }
            check(KQueueSocketNative.setSndLowAt(openFd(), bytes), "setsockopt(SO_SNDLOWAT)");
        } else if (option == ChannelOption.SO_BROADCAST) {
            setDatagramOption(DatagramSocketNative.OPTION_BROADCAST, (Boolean) value ? 1 : 0, option);
        } else if (option == ChannelOption.IP_MULTICAST_TTL) {
            setDatagramOption(DatagramSocketNative.OPTION_MULTICAST_TTL, (Integer) value, option);
        } else if (option == ChannelOption.IP_MULTICAST_LOOP_DISABLED) {
            setDatagramOption(DatagramSocketNative.OPTION_MULTICAST_LOOP, (Boolean) value ? 0 : 1, option);
        } else if (option == ChannelOption.IP_MULTICAST_IF) {
            NetworkInterface iface = (NetworkInterface) value;
            int index = iface == null ? 0 : iface.getIndex();
            if (iface != null && index < 0) {
                throw new SocketException("interface " + iface.getName() + " has no index");
            }
            check(DatagramSocketNative.setMulticastInterface(openFd(), socket.isIPv6(), index,
                    DatagramSocketNative.ipv4Address(iface)),
                    "setsockopt(" + option + ')');
        } else {
            throw new IllegalArgumentException("not a socket option of this config: " + option);
        }
    }

    private long datagramOption(int id, ChannelOption<?> option) throws IOException {
        long res = DatagramSocketNative.getDatagramOption(openFd(), socket.isIPv6(), id);
        if (res < 0) {
            throw Errors.newIoException("getsockopt(" + option + ')', (int) res);
        }
        return res;
    }

    private void setDatagramOption(int id, int value, ChannelOption<?> option) throws IOException {
        check(DatagramSocketNative.setDatagramOption(openFd(), socket.isIPv6(), id, value),
                "setsockopt(" + option + ')');
    }

    private static int check(int result, String operation) throws IOException {
        if (result < 0) {
            throw Errors.newIoException(operation, result);
        }
        return result;
    }

    private int openFd() throws IOException {
        if (!socket.isOpen()) {
            throw new ClosedChannelException();
        }
        return socket.intValue();
    }

    @Override
    protected void autoReadCleared() {
        ((AbstractKQueueChannel) channel).autoReadOff();
    }
}
