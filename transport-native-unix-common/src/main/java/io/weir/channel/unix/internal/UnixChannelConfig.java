package io.weir.channel.unix.internal;

import io.weir.channel.Channel;
import io.weir.channel.ChannelException;
import io.weir.channel.ChannelOption;
import io.weir.channel.DefaultChannelConfig;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.Socket;
import java.io.IOException;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The config of a native channel: {@link DefaultChannelConfig}'s options, the socket options the channel lists
 * (read from and written to the socket itself, so the kernel is the one source of truth) and, for a server
 * channel, {@link ChannelOption#SO_BACKLOG} (kept here, read when it binds).
 *
 * <p>This class answers the options every Unix has: {@code SO_KEEPALIVE}, {@code SO_SNDBUF}, {@code SO_RCVBUF},
 * {@code SO_REUSEADDR}, {@code SO_LINGER}, {@code TCP_NODELAY}, {@code IP_TOS}, {@code SO_REUSEPORT} and the
 * datagram ones ({@code SO_BROADCAST}, {@code IP_MULTICAST_IF}, {@code IP_MULTICAST_TTL},
 * {@code IP_MULTICAST_LOOP_DISABLED}); a transport's subclass answers its own in {@link #getTransportOption} and
 * {@link #setTransportOption}. A failure to read or write one is a {@link ChannelException}; a value out of range
 * an {@link IllegalArgumentException}. Thread-safe: each option is one system call or one volatile field. Not
 * for applications.
 */
public class UnixChannelConfig extends DefaultChannelConfig {
    /** Marks a config without {@link ChannelOption#SO_BACKLOG}: a connection's or a datagram channel's. */
    public static final int NO_BACKLOG = -1;

    /** {@code SO_REUSEPORT}: the same constant as the transports' own ({@link ChannelOption#valueOf} by name). */
    private static final ChannelOption<Boolean> SO_REUSEPORT = ChannelOption.valueOf("SO_REUSEPORT");

    /** The channel's socket. */
    protected final Socket socket;
    private final ChannelOption<?>[] socketOptions;
    private volatile int backlog;

    /**
     * @param backlog the server's default backlog, or {@link #NO_BACKLOG}
     * @param socketOptions the options this channel's socket takes
     */
    public UnixChannelConfig(AbstractUnixChannel channel, int maxMessagesPerRead, int backlog,
                             ChannelOption<?>... socketOptions) {
        this(channel, channel.socket, maxMessagesPerRead, backlog, socketOptions);
    }

    /**
     * The config of a channel over {@code socket} that is not an {@link AbstractUnixChannel} (io_uring's, which
     * completes operations instead of watching readiness); it overrides {@link #autoReadCleared()}.
     *
     * @param backlog the server's default backlog, or {@link #NO_BACKLOG}
     * @param socketOptions the options this channel's socket takes
     */
    public UnixChannelConfig(Channel channel, Socket socket, int maxMessagesPerRead, int backlog,
                             ChannelOption<?>... socketOptions) {
        super(channel, maxMessagesPerRead);
        this.socket = socket;
        this.socketOptions = socketOptions;
        this.backlog = backlog;
    }

    /** The backlog the server channel listens with; {@link #NO_BACKLOG} for other channels. */
    public final int backlog() {
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
            return (T) get(option);
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
            set(option, value);
        } catch (IOException e) {
            throw new ChannelException("failed to set " + option + " of " + channel + " to " + value, e);
        }
        return true;
    }

    private Object get(ChannelOption<?> option) throws IOException {
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
        } else if (option == SO_REUSEPORT) {
            return socket.isReusePort();
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
        return getTransportOption(option);
    }

    private void set(ChannelOption<?> option, Object value) throws IOException {
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
        } else if (option == SO_REUSEPORT) {
            socket.setReusePort((Boolean) value);
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
                    DatagramSocketNative.ipv4Address(iface)), "setsockopt(" + option + ')');
        } else {
            setTransportOption(option, value);
        }
    }

    /**
     * Reads one of the transport's own socket options this config was made with.
     *
     * @throws IllegalArgumentException if it is none of them
     * @throws IOException if the kernel refused or the socket is closed
     */
    protected Object getTransportOption(ChannelOption<?> option) throws IOException {
        throw new IllegalArgumentException("not a socket option of this config: " + option);
    }

    /**
     * Writes one of the transport's own socket options this config was made with; {@code value} was validated for
     * its type.
     *
     * @throws IllegalArgumentException if it is none of them, or the value is out of range
     * @throws IOException if the kernel refused or the socket is closed
     */
    protected void setTransportOption(ChannelOption<?> option, Object value) throws IOException {
        throw new IllegalArgumentException("not a socket option of this config: " + option);
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

    /** {@code result} if it is not negative; otherwise the {@code -errno} it is, as an exception. */
    protected static int check(int result, String operation) throws IOException {
        if (result < 0) {
            throw Errors.newIoException(operation, result);
        }
        return result;
    }

    /** The socket's number, for a native option call. */
    protected final int openFd() throws IOException {
        if (!socket.isOpen()) {
            throw new ClosedChannelException();
        }
        return socket.intValue();
    }

    @Override
    protected void autoReadCleared() {
        if (channel instanceof AbstractUnixChannel unixChannel) {
            unixChannel.clearReadPending();
        }
    }
}
