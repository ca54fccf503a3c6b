package io.weir.channel.unix;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A non-blocking socket (TCP, UDP or Unix domain stream) owned by this object. Created non-blocking and
 * close-on-exec; so are the sockets {@link #accept()} returns.
 *
 * <p><b>Addresses.</b> Inet sockets are IPv6 dual-stack where the kernel supports IPv6 (see
 * {@link #isIPv6Supported()}): IPv4 addresses are used as IPv4-mapped IPv6 addresses, and addresses read back
 * ({@link #localAddress()}, {@link #remoteAddress()}) are plain IPv4 again. Domain sockets take
 * {@link DomainSocketAddress}es.
 *
 * <p><b>Results and errors.</b> Nothing throws for {@code EAGAIN}/{@code EINPROGRESS}: {@link #accept()} returns
 * {@code null}, {@link #connect} and {@link #finishConnect()} {@code false}, reads and writes 0. Connection
 * failures are {@link NativeConnectException}s; a reset or broken connection a {@link ConnectionResetException};
 * other failures {@link NativeIoException}s; any method on a closed socket a {@link ClosedChannelException}.
 *
 * <p><b>Threads.</b> As {@link FileDescriptor}: state changes are atomic, but I/O and close belong on one thread.
 */
public final class Socket extends FileDescriptor {
    private static final int FAMILY_INET = 0;
    private static final int FAMILY_INET6 = 1;
    private static final int FAMILY_UNIX = 2;

    /**
     * Asked once, on first use: a static initializer of Socket itself must not need the natives, or touching
     * Socket before a transport loaded them would break the class for good.
     */
    private static final class Ipv6 {
        static final boolean SUPPORTED = UnixNative.isIPv6Supported();
    }

    private final int family;

    private Socket(int fd, int family) {
        super(fd);
        this.family = family;
    }

    /**
     * Whether the kernel supports IPv6 sockets, hence whether inet sockets are dual-stack by default.
     *
     * @throws UnsatisfiedLinkError if no native transport has registered this package's natives
     */
    public static boolean isIPv6Supported() {
        Unix.ensureAvailability();
        return Ipv6.SUPPORTED;
    }

    /**
     * A TCP socket, IPv6 dual-stack where supported, IPv4 otherwise.
     *
     * @throws NativeIoException if {@code socket(2)} failed (for instance {@code EMFILE})
     */
    public static Socket newSocketStream() throws IOException {
        return newSocketStream(isIPv6Supported());
    }

    /**
     * A TCP socket of the given family.
     *
     * @param ipv6 {@code true} for an IPv6 (dual-stack) socket, {@code false} for IPv4 only
     * @throws NativeIoException if {@code socket(2)} failed
     */
    public static Socket newSocketStream(boolean ipv6) throws IOException {
        Unix.ensureAvailability();
        return new Socket(Errors.check("socket", UnixNative.newSocketStream(ipv6)), ipv6 ? FAMILY_INET6 : FAMILY_INET);
    }

    /** A UDP socket, IPv6 dual-stack where supported; see {@link #newSocketStream()}. */
    public static Socket newSocketDgram() throws IOException {
        return newSocketDgram(isIPv6Supported());
    }

    /** A UDP socket of the given family; see {@link #newSocketStream(boolean)}. */
    public static Socket newSocketDgram(boolean ipv6) throws IOException {
        Unix.ensureAvailability();
        return new Socket(Errors.check("socket", UnixNative.newSocketDgram(ipv6)), ipv6 ? FAMILY_INET6 : FAMILY_INET);
    }

    /**
     * A Unix domain stream socket.
     *
     * @throws NativeIoException if {@code socket(2)} failed
     */
    public static Socket newSocketDomain() throws IOException {
        Unix.ensureAvailability();
        return new Socket(Errors.check("socket", UnixNative.newSocketDomain()), FAMILY_UNIX);
    }

    /** Whether this is an IPv6 (dual-stack) inet socket. */
    public boolean isIPv6() {
        return family == FAMILY_INET6;
    }

    /** Whether this is a Unix domain socket. */
    public boolean isDomain() {
        return family == FAMILY_UNIX;
    }

    // ---------------------------------------------------------------- connection life

    /**
     * Binds to {@code local}: an {@link InetSocketAddress} (port 0 picks a free port) or, for domain sockets, a
     * {@link DomainSocketAddress} (the file must not exist).
     *
     * @throws IllegalArgumentException if the address is of the wrong kind for this socket
     * @throws UnresolvedAddressException if an inet address is unresolved
     * @throws NativeIoException if {@code bind(2)} failed (for instance {@code EADDRINUSE}); its message names
     *         {@code local}
     */
    public void bind(SocketAddress local) throws IOException {
        Objects.requireNonNull(local, "local");
        ensureOpen();
        int result;
        if (local instanceof InetSocketAddress) {
            InetSocketAddress inet = inet(local);
            InetAddress address = inet.getAddress();
            result = UnixNative.bind(fd, isIPv6(), address.getAddress(), scopeId(address), inet.getPort());
        } else {
            result = UnixNative.bindDomain(fd, domain(local).pathBytes());
        }
        if (result < 0) {
            throw Errors.newBindException(local, result);
        }
    }

    /**
     * Starts accepting connections.
     *
     * @param backlog pending connections the kernel queues (capped by {@code net.core.somaxconn})
     * @throws NativeIoException if {@code listen(2)} failed
     */
    public void listen(int backlog) throws IOException {
        ensureOpen();
        Errors.check("listen", UnixNative.listen(fd, backlog));
    }

    /**
     * Accepts one pending connection.
     *
     * @return the connected socket (non-blocking, close-on-exec), owned by the caller; {@code null} if none is
     *         pending
     * @throws NativeIoException if {@code accept4(2)} failed
     */
    public Socket accept() throws IOException {
        ensureOpen();
        int res = UnixNative.accept(fd);
        if (res >= 0) {
            return new Socket(res, family);
        }
        if (Errors.isAgain(res)) {
            return null;
        }
        throw Errors.newIoException("accept", res);
    }

    /**
     * Wraps a connection accepted on this listening socket other than through {@link #accept()} (by an io_uring
     * accept operation, which hands back only the descriptor): a socket of this one's family over {@code fd},
     * which the returned object owns from now on.
     *
     * @throws IllegalArgumentException if {@code fd} is negative
     */
    public Socket acceptedSocket(int fd) {
        return new Socket(fd, family);
    }

    /**
     * Starts connecting to {@code remote}.
     *
     * @return {@code true} if connected at once (typical for domain sockets), {@code false} if the attempt goes on
     *         in the background: wait for writability, then call {@link #finishConnect()}
     * @throws NativeConnectException if the attempt failed at once (for instance refused)
     * @throws IllegalArgumentException if the address is of the wrong kind for this socket
     */
    public boolean connect(SocketAddress remote) throws IOException {
        Objects.requireNonNull(remote, "remote");
        ensureOpen();
        int res;
        if (remote instanceof InetSocketAddress) {
            InetSocketAddress inet = inet(remote);
            InetAddress address = inet.getAddress();
            res = UnixNative.connect(fd, isIPv6(), address.getAddress(), scopeId(address), inet.getPort());
        } else {
            res = UnixNative.connectDomain(fd, domain(remote).pathBytes());
        }
        if (res == 0) {
            return true;
        }
        if (res == -Errors.EINPROGRESS || Errors.isAgain(res)) {
            return false;
        }
        throw Errors.newConnectException("connect", res);
    }

    /**
     * Checks on a connection attempt that {@link #connect} left in the background.
     *
     * @return {@code true} once connected, {@code false} while the attempt goes on
     * @throws NativeConnectException if the attempt failed (refused, timed out, unreachable)
     */
    public boolean finishConnect() throws IOException {
        ensureOpen();
        int res = UnixNative.finishConnect(fd);
        if (res == 0) {
            return true;
        }
        if (res == -Errors.EINPROGRESS) {
            return false;
        }
        throw Errors.newConnectException("finishConnect", res);
    }

    /**
     * Shuts down reading, writing or both. Shutting down output sends FIN: the peer reads end of stream.
     * Shutting down a side twice is harmless.
     *
     * @throws NativeIoException if {@code shutdown(2)} failed ({@code ENOTCONN} if not connected)
     */
    public void shutdown(boolean input, boolean output) throws IOException {
        boolean in = input && !isInputShutdown();
        boolean out = output && !isOutputShutdown();
        if (!in && !out) {
            ensureOpen();
            return;
        }
        ensureOpen();
        Errors.check("shutdown", UnixNative.shutdown(fd, in, out));
        if (!markShutdown(in, out)) {
            throw new ClosedChannelException();
        }
    }

    /** Whether {@link #shutdown} shut down input. */
    public boolean isInputShutdown() {
        return isInputShutdown0();
    }

    /** Whether {@link #shutdown} shut down output. */
    public boolean isOutputShutdown() {
        return isOutputShutdown0();
    }

    /**
     * The local address: an {@link InetSocketAddress} or a {@link DomainSocketAddress}; {@code null} for an
     * unbound domain socket.
     *
     * @throws NativeIoException if {@code getsockname(2)} failed
     */
    public SocketAddress localAddress() throws IOException {
        return address(false);
    }

    /**
     * The peer's address, or {@code null} if not connected.
     *
     * @throws NativeIoException if {@code getpeername(2)} failed otherwise
     */
    public SocketAddress remoteAddress() throws IOException {
        return address(true);
    }

    private SocketAddress address(boolean peer) throws IOException {
        ensureOpen();
        String op = peer ? "getpeername" : "getsockname";
        if (family == FAMILY_UNIX) {
            byte[] out = new byte[UnixNative.DOMAIN_PATH_MAX_BYTES];
            int res = UnixNative.domainAddress(fd, peer, out);
            if (res == -Errors.ENOTCONN) {
                return null;
            }
            int length = Errors.check(op, res);
            return length == 0 ? null : new DomainSocketAddress(new String(out, 0, length, StandardCharsets.UTF_8));
        }
        byte[] out = new byte[UnixNative.ADDRESS_LENGTH];
        int res = UnixNative.inetAddress(fd, peer, out);
        if (res == -Errors.ENOTCONN) {
            return null;
        }
        int length = Errors.check(op, res);
        int port = ((out[UnixNative.ADDRESS_PORT_OFFSET] & 0xff) << 8) | (out[UnixNative.ADDRESS_PORT_OFFSET + 1] & 0xff);
        int scope = ((out[UnixNative.ADDRESS_SCOPE_OFFSET] & 0xff) << 24)
                | ((out[UnixNative.ADDRESS_SCOPE_OFFSET + 1] & 0xff) << 16)
                | ((out[UnixNative.ADDRESS_SCOPE_OFFSET + 2] & 0xff) << 8)
                | (out[UnixNative.ADDRESS_SCOPE_OFFSET + 3] & 0xff);
        byte[] bytes = new byte[length];
        System.arraycopy(out, 0, bytes, 0, length);
        try {
            InetAddress address = length == 16 && scope != 0
                    ? Inet6Address.getByAddress(null, bytes, scope)
                    : InetAddress.getByAddress(bytes);
            return new InetSocketAddress(address, port);
        } catch (UnknownHostException e) {
            // Only thrown for a wrong array length, which the natives never return.
            throw new IllegalStateException("bad address length from " + op + ": " + length, e);
        }
    }

    private InetSocketAddress inet(SocketAddress address) {
        if (family == FAMILY_UNIX) {
            throw new IllegalArgumentException("inet address for a domain socket: " + address);
        }
        InetSocketAddress inet = (InetSocketAddress) address;
        if (inet.isUnresolved()) {
            throw new UnresolvedAddressException();
        }
        return inet;
    }

    private DomainSocketAddress domain(SocketAddress address) {
        if (!(address instanceof DomainSocketAddress) || family != FAMILY_UNIX) {
            throw new IllegalArgumentException("unsupported address for " + (family == FAMILY_UNIX ? "a domain"
                    : "an inet") + " socket: " + address + " (" + address.getClass().getName() + ')');
        }
        return (DomainSocketAddress) address;
    }

    private static int scopeId(InetAddress address) {
        return address instanceof Inet6Address ? ((Inet6Address) address).getScopeId() : 0;
    }

    // ---------------------------------------------------------------- zero copy and descriptor passing

    /**
     * Sends {@code count} bytes of {@code src} from {@code position} with {@code sendfile(2)}, without
     * copying them through Java; {@code src}'s own position does not move.
     *
     * @param src a file channel of the JDK's default file system ({@code FileChannel.open}, {@code
     *        RandomAccessFile.getChannel()})
     * @return bytes sent; 0 if the socket buffer is full now
     * @throws IllegalArgumentException if {@code position} or {@code count} is negative
     * @throws ConnectionResetException (shared, stackless) if the peer is gone
     * @throws NativeIoException for other failures ({@code EBADF} if {@code src} is closed or not a JDK file
     *         channel)
     */
    public long sendFile(FileChannel src, long position, long count) throws IOException {
        Objects.requireNonNull(src, "src");
        if (position < 0 || count < 0) {
            throw new IllegalArgumentException("position: " + position + ", count: " + count + " (expected: >= 0)");
        }
        ensureOpen();
        if (count == 0) {
            return 0;
        }
        return Errors.writeResult("sendfile", UnixNative.sendFile(fd, src, position, count));
    }

    /**
     * {@link #read(long, int, int)} through {@code recv(2)}: the same contract, but the call enters the socket layer
     * directly instead of passing through the file layer, which is cheaper per small read.
     *
     * @return bytes read; 0 if nothing is available now ({@code EAGAIN}); -1 at end of stream
     * @throws ClosedChannelException if this socket is closed
     * @throws ConnectionResetException (shared, stackless) if the peer reset the connection
     * @throws NativeIoException for other failures
     */
    public int recv(long address, int pos, int limit) throws IOException {
        checkRange(pos, limit);
        ensureOpen();
        if (pos == limit) {
            // recv(2) of 0 bytes returns 0, which would look like end of stream.
            return 0;
        }
        return Errors.readResult("recv", UnixNative.recv(fd, address, pos, limit));
    }

    /**
     * {@link #write(long, int, int)} through {@code send(2)} with {@code MSG_NOSIGNAL}: the same contract, cheaper
     * per small write, and a peer that went away never raises {@code SIGPIPE}.
     *
     * @return bytes written; 0 if nothing can be written now ({@code EAGAIN})
     * @throws ClosedChannelException if this socket is closed
     * @throws ConnectionResetException (shared, stackless) for {@code EPIPE} or {@code ECONNRESET}
     * @throws NativeIoException for other failures
     */
    public int send(long address, int pos, int limit) throws IOException {
        checkRange(pos, limit);
        ensureOpen();
        return (int) Errors.writeResult("send", UnixNative.send(fd, address, pos, limit));
    }

    /**
     * Sends {@code descriptor} to the peer of this domain socket ({@code SCM_RIGHTS}) with one byte of data; the
     * peer receives its own copy, and {@code descriptor} stays open here.
     *
     * @return {@code false} if the socket buffer is full now (nothing was sent)
     * @throws NativeIoException if {@code sendmsg(2)} failed
     */
    public boolean sendFd(FileDescriptor descriptor) throws IOException {
        Objects.requireNonNull(descriptor, "descriptor");
        ensureOpen();
        descriptor.ensureOpen();
        int res = UnixNative.sendFd(fd, descriptor.intValue());
        if (res >= 0) {
            return true;
        }
        if (Errors.isAgain(res)) {
            return false;
        }
        throw Errors.newIoException("sendmsg", res);
    }

    /**
     * Receives a descriptor sent with {@link #sendFd} (close-on-exec), owned by the caller.
     *
     * @return the descriptor, or {@code null} if none has arrived yet
     * @throws ConnectionResetException ({@code EPIPE}) if the peer closed the connection
     * @throws NativeIoException if the data came without a descriptor ({@code EBADMSG}) or {@code recvmsg(2)}
     *         failed
     */
    public FileDescriptor recvFd() throws IOException {
        ensureOpen();
        int res = UnixNative.recvFd(fd);
        if (res >= 0) {
            return new FileDescriptor(res);
        }
        if (Errors.isAgain(res)) {
            return null;
        }
        throw Errors.newIoException("recvmsg", res);
    }

    /**
     * The credentials of this domain socket's peer ({@code SO_PEERCRED}).
     *
     * @throws NativeIoException if the option could not be read (for instance on an inet socket)
     */
    public PeerCredentials peerCredentials() throws IOException {
        ensureOpen();
        int[] out = new int[3];
        Errors.check("getsockopt(SO_PEERCRED)", UnixNative.peerCredentials(fd, out));
        return new PeerCredentials(out[0], out[1], out[2]);
    }

    // ---------------------------------------------------------------- options

    private void setOption(String name, int option, int value) throws IOException {
        ensureOpen();
        Errors.check("setsockopt(" + name + ')', UnixNative.setIntOption(fd, option, value));
    }

    private int getOption(String name, int option) throws IOException {
        ensureOpen();
        int[] out = new int[1];
        Errors.check("getsockopt(" + name + ')', UnixNative.getIntOption(fd, option, out));
        return out[0];
    }

    /** Sets {@code SO_REUSEADDR}; like every option setter, throws {@link NativeIoException} if the kernel refuses. */
    public void setReuseAddress(boolean on) throws IOException {
        setOption("SO_REUSEADDR", UnixNative.OPTION_SO_REUSEADDR, on ? 1 : 0);
    }

    /** Reads {@code SO_REUSEADDR}. */
    public boolean isReuseAddress() throws IOException {
        return getOption("SO_REUSEADDR", UnixNative.OPTION_SO_REUSEADDR) != 0;
    }

    /** Sets {@code SO_REUSEPORT}: several sockets may bind the same port and share its connections. */
    public void setReusePort(boolean on) throws IOException {
        setOption("SO_REUSEPORT", UnixNative.OPTION_SO_REUSEPORT, on ? 1 : 0);
    }

    /** Reads {@code SO_REUSEPORT}. */
    public boolean isReusePort() throws IOException {
        return getOption("SO_REUSEPORT", UnixNative.OPTION_SO_REUSEPORT) != 0;
    }

    /** Sets {@code SO_KEEPALIVE}. */
    public void setKeepAlive(boolean on) throws IOException {
        setOption("SO_KEEPALIVE", UnixNative.OPTION_SO_KEEPALIVE, on ? 1 : 0);
    }

    /** Reads {@code SO_KEEPALIVE}. */
    public boolean isKeepAlive() throws IOException {
        return getOption("SO_KEEPALIVE", UnixNative.OPTION_SO_KEEPALIVE) != 0;
    }

    /**
     * Sets {@code SO_RCVBUF}. Linux doubles the value for its bookkeeping, so {@link #getReceiveBufferSize()}
     * reads back about twice as much (capped by {@code net.core.rmem_max}).
     *
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public void setReceiveBufferSize(int bytes) throws IOException {
        checkNonNegative("receiveBufferSize", bytes);
        setOption("SO_RCVBUF", UnixNative.OPTION_SO_RCVBUF, bytes);
    }

    /** Reads {@code SO_RCVBUF} in bytes. */
    public int getReceiveBufferSize() throws IOException {
        return getOption("SO_RCVBUF", UnixNative.OPTION_SO_RCVBUF);
    }

    /**
     * Sets {@code SO_SNDBUF}; Linux doubles it as for {@link #setReceiveBufferSize}.
     *
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public void setSendBufferSize(int bytes) throws IOException {
        checkNonNegative("sendBufferSize", bytes);
        setOption("SO_SNDBUF", UnixNative.OPTION_SO_SNDBUF, bytes);
    }

    /** Reads {@code SO_SNDBUF} in bytes. */
    public int getSendBufferSize() throws IOException {
        return getOption("SO_SNDBUF", UnixNative.OPTION_SO_SNDBUF);
    }

    /**
     * Sets {@code SO_LINGER}.
     *
     * @param seconds how long close waits for unsent data; 0 makes close reset the connection; negative turns
     *        lingering off (the default)
     */
    public void setSoLinger(int seconds) throws IOException {
        setOption("SO_LINGER", UnixNative.OPTION_SO_LINGER, Math.max(seconds, -1));
    }

    /** Reads {@code SO_LINGER}: seconds, or -1 when lingering is off. */
    public int getSoLinger() throws IOException {
        return getOption("SO_LINGER", UnixNative.OPTION_SO_LINGER);
    }

    /** Sets {@code TCP_NODELAY} (Nagle's algorithm off when {@code true}). */
    public void setTcpNoDelay(boolean on) throws IOException {
        setOption("TCP_NODELAY", UnixNative.OPTION_TCP_NODELAY, on ? 1 : 0);
    }

    /** Reads {@code TCP_NODELAY}. */
    public boolean isTcpNoDelay() throws IOException {
        return getOption("TCP_NODELAY", UnixNative.OPTION_TCP_NODELAY) != 0;
    }

    /**
     * Sets the traffic class: {@code IP_TOS}, and {@code IPV6_TCLASS} on IPv6 sockets.
     *
     * @throws IllegalArgumentException if {@code trafficClass} is outside 0-255
     */
    public void setTrafficClass(int trafficClass) throws IOException {
        if (trafficClass < 0 || trafficClass > 255) {
            throw new IllegalArgumentException("trafficClass: " + trafficClass + " (expected: 0-255)");
        }
        setOption("IP_TOS", UnixNative.OPTION_IP_TOS, trafficClass);
    }

    /** Reads the traffic class ({@code IPV6_TCLASS} on IPv6 sockets, {@code IP_TOS} otherwise). */
    public int getTrafficClass() throws IOException {
        return getOption("IP_TOS", UnixNative.OPTION_IP_TOS);
    }

    private static void checkNonNegative(String name, int value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: >= 0)");
        }
    }

    @Override
    public String toString() {
        String kind = family == FAMILY_UNIX ? "unix" : family == FAMILY_INET6 ? "inet6" : "inet";
        return "Socket(fd=" + fd + ", " + kind + (isOpen() ? ")" : ", closed)");
    }
}
