package io.weir.channel.unix.internal;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.ByteBufUtil;
import io.weir.channel.ChannelException;
import io.weir.channel.DatagramPacket;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.Socket;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.ProtocolFamily;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.UnresolvedAddressException;

/**
 * What the native datagram channels of epoll and kqueue do alike around their system calls: opening the socket,
 * disconnecting it without losing its port, preparing outbound messages for native memory, and naming an ICMP
 * port-unreachable report. Stateless; each method says on which thread it may run. Not for applications.
 */
public final class DatagramChannels {
    private DatagramChannels() {
    }

    /**
     * A non-blocking UDP socket of {@code family}: {@code null} for IPv6 dual-stack where the kernel supports it,
     * {@link StandardProtocolFamily#INET} (IPv4 only) or {@link StandardProtocolFamily#INET6} (dual-stack).
     *
     * @throws IllegalArgumentException for another family
     * @throws ChannelException if the socket cannot be opened
     */
    public static Socket open(ProtocolFamily family) {
        boolean ipv6;
        if (family == null) {
            ipv6 = Socket.isIPv6Supported();
        } else if (family == StandardProtocolFamily.INET) {
            ipv6 = false;
        } else if (family == StandardProtocolFamily.INET6) {
            ipv6 = true;
        } else {
            throw new IllegalArgumentException("family: " + family + " (expected: INET or INET6)");
        }
        try {
            return Socket.newSocketDgram(ipv6);
        } catch (IOException e) {
            throw new ChannelException("failed to open a datagram socket", e);
        }
    }

    /**
     * Dissolves {@code socket}'s association with its peer ({@code connect(AF_UNSPEC)}). Event loop only.
     *
     * @return the socket's local address before, for {@link #keepPort}
     * @throws IOException if the disconnect failed (the socket is still connected)
     */
    public static InetSocketAddress disconnect(Socket socket) throws IOException {
        InetSocketAddress before = (InetSocketAddress) socket.localAddress();
        int res = DatagramSocketNative.disconnect(socket.intValue(), socket.isIPv6());
        if (res < 0) {
            throw Errors.newIoException("connect(AF_UNSPEC)", res);
        }
        return before;
    }

    /**
     * After {@link #disconnect}: binds {@code socket} again to the port it had ({@code before}) if the disconnect
     * dropped it. Linux drops the port unless a bind asked for that very port (the BSDs keep it); the JDK binds it
     * again too, so the channel stays bound as NIO's does. Event loop only.
     *
     * @return whether the socket is bound now (false if it had no port before)
     * @throws IOException if another socket took the port in between: the socket is left unbound
     */
    public static boolean keepPort(Socket socket, InetSocketAddress before) throws IOException {
        InetSocketAddress after = (InetSocketAddress) socket.localAddress();
        if (after != null && after.getPort() != 0) {
            return true;
        }
        if (before == null || before.getPort() == 0) {
            return false;
        }
        // The address as disconnect left it: the one bound explicitly, or the wildcard again.
        socket.bind(new InetSocketAddress(after != null ? after.getAddress() : before.getAddress(), before.getPort()));
        return true;
    }

    /**
     * {@code msg} as a native channel can send it: a {@link DatagramPacket} or {@link ByteBuf} whose readable bytes
     * are one range of native memory, copying heap or multi-component content once into a direct buffer from
     * {@code alloc} (and releasing the original). Any thread.
     *
     * @throws UnresolvedAddressException if a packet's recipient is unresolved
     * @throws UnsupportedOperationException for anything but packets and buffers
     */
    public static Object filterOutbound(Object msg, ByteBufAllocator alloc) {
        if (msg instanceof DatagramPacket packet) {
            if (packet.recipient().isUnresolved()) {
                throw new UnresolvedAddressException();
            }
            ByteBuf content = packet.content();
            if (isSendable(content)) {
                return packet;
            }
            try {
                return new DatagramPacket(ByteBufUtil.copyToDirect(alloc, content), packet.recipient(),
                        packet.sender());
            } finally {
                packet.release();
            }
        }
        if (msg instanceof ByteBuf buf) {
            if (isSendable(buf)) {
                return buf;
            }
            try {
                return ByteBufUtil.copyToDirect(alloc, buf);
            } finally {
                buf.release();
            }
        }
        throw new UnsupportedOperationException("unsupported message type: " + msg.getClass().getName()
                + " (expected: DatagramPacket, ByteBuf)");
    }

    /** Whether {@code buf}'s readable bytes are one range of native memory. */
    private static boolean isSendable(ByteBuf buf) {
        return buf.isDirect() && (buf.hasMemoryAddress() || buf.nioBufferCount() == 1);
    }

    /** The native address of {@code buf}'s byte at {@code index}; {@code buf} must be direct. */
    public static long memoryAddress(ByteBuf buf, int index, int length) {
        if (buf.hasMemoryAddress()) {
            return buf.memoryAddress() + index;
        }
        // Direct but without a known address (Unsafe off): the address of its NIO view.
        ByteBuffer view = buf.nioBuffer(index, length);
        return NativeBuffers.address(view) + view.position();
    }

    /** An ICMP port-unreachable report ({@code ECONNREFUSED}) from {@code operation}, with the errno as cause. */
    public static PortUnreachableException portUnreachable(String operation, int res) {
        PortUnreachableException e = new PortUnreachableException(operation + "(..) failed: the peer's port is"
                + " unreachable (ICMP)");
        e.initCause(Errors.newIoException(operation, res));
        return e;
    }
}
