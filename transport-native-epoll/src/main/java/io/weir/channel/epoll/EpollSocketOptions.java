package io.weir.channel.epoll;

import io.weir.channel.ChannelOption;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.Socket;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;

/**
 * Reads and writes the TCP set-up and addressing options of {@link EpollChannelOption} ({@code TCP_FASTOPEN},
 * {@code TCP_FASTOPEN_CONNECT}, {@code TCP_DEFER_ACCEPT}, {@code IP_TRANSPARENT}, {@code IP_FREEBIND},
 * {@code SO_BUSY_POLL}) on a socket, for {@link EpollChannelConfig}. Stateless and thread-safe.
 */
final class EpollSocketOptions {
    private EpollSocketOptions() {
    }

    /** The native id of {@code option}, or -1 if it is not one of this class's options. */
    static int idOf(ChannelOption<?> option) {
        if (option == EpollChannelOption.TCP_FASTOPEN) {
            return EpollSocketNative.OPTION_TCP_FASTOPEN;
        } else if (option == EpollChannelOption.TCP_FASTOPEN_CONNECT) {
            return EpollSocketNative.OPTION_TCP_FASTOPEN_CONNECT;
        } else if (option == EpollChannelOption.TCP_DEFER_ACCEPT) {
            return EpollSocketNative.OPTION_TCP_DEFER_ACCEPT;
        } else if (option == EpollChannelOption.IP_TRANSPARENT) {
            return EpollSocketNative.OPTION_IP_TRANSPARENT;
        } else if (option == EpollChannelOption.IP_FREEBIND) {
            return EpollSocketNative.OPTION_IP_FREEBIND;
        } else if (option == EpollChannelOption.SO_BUSY_POLL) {
            return EpollSocketNative.OPTION_SO_BUSY_POLL;
        }
        return -1;
    }

    /** Whether {@code option} is one of this class's options. */
    static boolean handles(ChannelOption<?> option) {
        return idOf(option) >= 0;
    }

    /**
     * The option's value: a {@link Boolean} for the on/off options, an {@link Integer} otherwise.
     *
     * @throws ClosedChannelException if the socket is closed
     * @throws io.weir.channel.unix.NativeIoException if the kernel refused
     */
    static Object get(Socket socket, ChannelOption<?> option) throws IOException {
        int id = idOf(option);
        int res = EpollSocketNative.getOption(openFd(socket), id);
        if (res < 0) {
            throw Errors.newIoException("getsockopt(" + option + ')', res);
        }
        return isBoolean(id) ? (Object) (res != 0) : (Object) res;
    }

    /**
     * Sets the option; {@code value} was validated for its type by the caller.
     *
     * @throws IllegalArgumentException if a number is negative
     * @throws ClosedChannelException if the socket is closed
     * @throws io.weir.channel.unix.NativeIoException if the kernel refused ({@code EPERM} without the capability)
     */
    static void set(Socket socket, ChannelOption<?> option, Object value) throws IOException {
        int id = idOf(option);
        int v;
        if (isBoolean(id)) {
            v = (Boolean) value ? 1 : 0;
        } else {
            v = (Integer) value;
            if (v < 0) {
                throw new IllegalArgumentException(option + ": " + v + " (expected: >= 0)");
            }
        }
        int res = EpollSocketNative.setOption(openFd(socket), id, v);
        if (res < 0) {
            throw Errors.newIoException("setsockopt(" + option + ')', res);
        }
    }

    private static boolean isBoolean(int id) {
        return id == EpollSocketNative.OPTION_TCP_FASTOPEN_CONNECT || id == EpollSocketNative.OPTION_IP_TRANSPARENT
                || id == EpollSocketNative.OPTION_IP_FREEBIND;
    }

    private static int openFd(Socket socket) throws IOException {
        if (!socket.isOpen()) {
            throw new ClosedChannelException();
        }
        return socket.intValue();
    }
}
