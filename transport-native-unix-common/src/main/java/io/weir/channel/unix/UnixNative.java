package io.weir.channel.unix;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The JNI methods of this package, registered by a native transport's {@code JNI_OnLoad} (C sources:
 * {@code transport-native-unix-common/src/main/c/weir_unix.c}). This class must have no static initializer
 * that calls a native: {@code FindClass} initializes it while the library is still being loaded.
 *
 * <p><b>Return convention.</b> Every {@code int}/{@code long} native returns a value {@code >= 0} on success
 * (a descriptor, a byte count, 0) and {@code -errno} on failure; {@link Errors} turns those into results or
 * typed exceptions. {@code EINTR} is retried in C where a retry is right (never for {@code close}).
 */
final class UnixNative {
    // Socket option ids: the C side maps each to its (level, name) for the socket's family.
    static final int OPTION_SO_REUSEADDR = 0;
    static final int OPTION_SO_REUSEPORT = 1;
    static final int OPTION_SO_KEEPALIVE = 2;
    static final int OPTION_SO_RCVBUF = 3;
    static final int OPTION_SO_SNDBUF = 4;
    static final int OPTION_SO_LINGER = 5;
    static final int OPTION_TCP_NODELAY = 6;
    static final int OPTION_IP_TOS = 7;

    /*
     * Inet addresses cross JNI as one byte[ADDRESS_LENGTH]:
     *   0      16     20   22
     *   +------+------+----+
     *   | addr | scope| port|   addr: 4 (IPv4, IPv4-mapped IPv6 included) or 16 bytes; scope, port big-endian
     *   +------+------+----+
     */
    static final int ADDRESS_SCOPE_OFFSET = 16;
    static final int ADDRESS_PORT_OFFSET = 20;
    static final int ADDRESS_LENGTH = 22;
    /** sizeof(sockaddr_un.sun_path) on Linux. */
    static final int DOMAIN_PATH_MAX_BYTES = 108;

    // Indexes into errnoValues(int[]); the C array lists the same names in the same order.
    static final int ERRNO_EAGAIN = 0;
    static final int ERRNO_EWOULDBLOCK = 1;
    static final int ERRNO_EINPROGRESS = 2;
    static final int ERRNO_ECONNRESET = 3;
    static final int ERRNO_EPIPE = 4;
    static final int ERRNO_ECONNREFUSED = 5;
    static final int ERRNO_ENOTCONN = 6;
    static final int ERRNO_EALREADY = 7;
    static final int ERRNO_EBADF = 8;
    static final int ERRNO_ETIMEDOUT = 9;
    static final int ERRNO_EHOSTUNREACH = 10;
    static final int ERRNO_ENETUNREACH = 11;
    static final int ERRNO_EISCONN = 12;
    static final int ERRNO_ENOENT = 13;
    static final int ERRNO_EINVAL = 14;
    static final int ERRNO_EINTR = 15;
    static final int ERRNO_COUNT = 16;

    private UnixNative() {
    }

    // sockets
    static native int newSocketStream(boolean ipv6);
    static native int newSocketDgram(boolean ipv6);
    static native int newSocketDomain();
    static native boolean isIPv6Supported();
    static native int bind(int fd, boolean ipv6, byte[] address, int scopeId, int port);
    static native int bindDomain(int fd, byte[] path);
    static native int listen(int fd, int backlog);
    static native int accept(int fd);
    static native int connect(int fd, boolean ipv6, byte[] address, int scopeId, int port);
    static native int connectDomain(int fd, byte[] path);
    /** 0 once connected, -EINPROGRESS while connecting, -errno of a failed attempt. */
    static native int finishConnect(int fd);
    static native int shutdown(int fd, boolean read, boolean write);
    /** Fills {@code out} (ADDRESS_LENGTH bytes) with the local or peer address; returns 4 or 16. */
    static native int inetAddress(int fd, boolean peer, byte[] out);
    /** Copies the local or peer path into {@code out} (DOMAIN_PATH_MAX_BYTES); returns its length. */
    static native int domainAddress(int fd, boolean peer, byte[] out);
    static native int setIntOption(int fd, int option, int value);
    static native int getIntOption(int fd, int option, int[] out);
    static native int peerCredentials(int fd, int[] out);
    static native int sendFd(int fd, int fdToSend);
    /** The received descriptor, -EPIPE at end of stream, -EBADMSG for a byte without descriptor. */
    static native int recvFd(int fd);

    // descriptors and I/O
    static native int close(int fd);
    /** Bytes read, 0 at end of stream. */
    static native int read(int fd, long address, int pos, int limit);
    static native int write(int fd, long address, int pos, int limit);
    /** recv(2) without flags: bytes read, 0 at end of stream. */
    static native int recv(int fd, long address, int pos, int limit);
    /** send(2) with MSG_NOSIGNAL. */
    static native int send(int fd, long address, int pos, int limit);
    static native long readv(int fd, long iovAddress, int count);
    static native long writev(int fd, long iovAddress, int count);
    static native long sendFile(int fd, FileChannel src, long position, long count);

    // memory, errno, limits
    /** malloc; 0 if it failed. */
    static native long allocateMemory(long size);
    static native void freeMemory(long address);
    /** A ByteBuffer over {@code capacity} bytes at {@code address}, without a cleaner. */
    static native ByteBuffer wrapMemory(long address, int capacity);
    /** The address of a direct buffer's first byte; 0 for a heap buffer. */
    static native long directBufferAddress(ByteBuffer buffer);
    static native void errnoValues(int[] out);
    static native String strError(int errno);
    static native int iovMax();
}
