package io.weir.channel.epoll;

import io.weir.channel.ChannelException;
import io.weir.channel.ChannelOption;
import io.weir.channel.DefaultChannelConfig;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.Socket;
import java.io.IOException;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The config of an epoll channel: {@link DefaultChannelConfig}'s options plus a fixed set of socket options
 * read from and written to the socket itself, so the kernel is the one source of truth. A failure to read or
 * write one is a {@link ChannelException}; a value out of range an {@link IllegalArgumentException}.
 * Thread-safe: {@code getsockopt}/{@code setsockopt} are.
 */
class EpollChannelConfig extends DefaultChannelConfig {
    private final Socket socket;
    private final ChannelOption<?>[] socketOptions;

    EpollChannelConfig(AbstractEpollChannel channel, Socket socket, int maxMessagesPerRead,
                       ChannelOption<?>... socketOptions) {
        super(channel, maxMessagesPerRead);
        this.socket = socket;
        this.socketOptions = socketOptions;
    }

    @Override
    public Map<ChannelOption<?>, Object> getOptions() {
        return getOptions(new IdentityHashMap<>(super.getOptions()), socketOptions);
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
            return (T) get(option);
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
            set(option, value);
        } catch (IOException e) {
            throw new ChannelException("failed to set " + option + " of " + channel + " to " + value, e);
        }
        return true;
    }

    /**
     * Reads one of the socket options this config was made with from the socket; a subclass that passed options of
     * its own answers those and leaves the rest to this method.
     */
    Object get(ChannelOption<?> option) throws IOException {
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
        } else if (option == EpollChannelOption.SO_REUSEPORT) {
            return socket.isReusePort();
        } else if (option == EpollChannelOption.TCP_QUICKACK) {
            return getTcp(Native.TCP_OPTION_QUICKACK, option) != 0;
        } else if (option == EpollChannelOption.TCP_CORK) {
            return getTcp(Native.TCP_OPTION_CORK, option) != 0;
        } else if (EpollSocketOptions.handles(option)) {
            return EpollSocketOptions.get(socket, option);
        }
        return getTcp(tcpOptionId(option), option);
    }

    /** Writes one of the socket options this config was made with, its value validated; see {@link #get}. */
    void set(ChannelOption<?> option, Object value) throws IOException {
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
        } else if (option == EpollChannelOption.SO_REUSEPORT) {
            socket.setReusePort((Boolean) value);
        } else if (option == EpollChannelOption.TCP_QUICKACK) {
            setTcp(Native.TCP_OPTION_QUICKACK, option, (Boolean) value ? 1 : 0);
        } else if (option == EpollChannelOption.TCP_CORK) {
            setTcp(Native.TCP_OPTION_CORK, option, (Boolean) value ? 1 : 0);
        } else if (EpollSocketOptions.handles(option)) {
            EpollSocketOptions.set(socket, option, value);
        } else {
            int v = (Integer) value;
            int id = tcpOptionId(option);
            int min = id == Native.TCP_OPTION_NOTSENT_LOWAT || id == Native.TCP_OPTION_USER_TIMEOUT ? 0 : 1;
            if (v < min) {
                throw new IllegalArgumentException(option + ": " + v + " (expected: >= " + min + ')');
            }
            setTcp(id, option, v);
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

    private int getTcp(int id, ChannelOption<?> option) throws IOException {
        int res = Native.getTcpOption(openFd(), id);
        if (res < 0) {
            throw Errors.newIoException("getsockopt(" + option + ')', res);
        }
        return res;
    }

    private void setTcp(int id, ChannelOption<?> option, int value) throws IOException {
        int res = Native.setTcpOption(openFd(), id, value);
        if (res < 0) {
            throw Errors.newIoException("setsockopt(" + option + ')', res);
        }
    }

    private int openFd() throws IOException {
        if (!socket.isOpen()) {
            throw new java.nio.channels.ClosedChannelException();
        }
        return socket.intValue();
    }

    @Override
    protected void autoReadCleared() {
        ((AbstractEpollChannel) channel).clearReadPending();
    }
}
