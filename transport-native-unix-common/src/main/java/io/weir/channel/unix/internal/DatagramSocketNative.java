package io.weir.channel.unix.internal;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Enumeration;

/**
 * The fd-generic datagram natives: one datagram per {@code recvmsg(2)}/{@code sendmsg(2)}, which every Unix has,
 * plus disconnect, multicast membership and the datagram socket options. Registered by the transport library's
 * {@code JNI_OnLoad} (C source: {@code transport-native-unix-common/src/main/c/weir_unix_dgram.c}); a transport
 * calls them only once its library is loaded.
 *
 * <p>Every native returns a value {@code >= 0} on success and {@code -errno} on failure. A datagram and its peer
 * cross JNI through slots in native memory ({@link DatagramSlots}), never through Java arrays:
 * <pre>
 *   slot i at slotsAddress + i * SLOT_BYTES (native byte order):
 *   0         8        12       16                32      36     40         44          64
 *   +---------+--------+--------+-----------------+-------+------+----------+-----------+
 *   | address | length | flags  | addr (4 or 16)  | scope | port | addrlen  |  unused   |
 *   +---------+--------+--------+-----------------+-------+------+----------+-----------+
 *   address: the buffer's memory; length: its capacity or the bytes to send, on return from a receive the
 *   datagram's length; flags: 1 if the datagram was truncated; addrlen 0: no address (connected send).
 * </pre>
 * The C side proves the offsets with {@code _Static_assert}. Not for applications.
 */
public final class DatagramSocketNative {
    static final int SLOT_BYTES = 64;
    static final int LENGTH_OFFSET = 8;
    static final int FLAGS_OFFSET = 12;
    static final int ADDRESS_OFFSET = 16;
    static final int SCOPE_OFFSET = 32;
    static final int PORT_OFFSET = 36;
    static final int ADDRESS_LENGTH_OFFSET = 40;

    /** SO_BROADCAST: 0 or 1. */
    public static final int OPTION_BROADCAST = 0;
    /** IP_MULTICAST_TTL / IPV6_MULTICAST_HOPS. */
    public static final int OPTION_MULTICAST_TTL = 1;
    /** IP_MULTICAST_LOOP / IPV6_MULTICAST_LOOP: 0 or 1. */
    public static final int OPTION_MULTICAST_LOOP = 2;
    /** Read only here: an IPv6 socket's interface index, an IPv4 socket's interface address as an unsigned number. */
    public static final int OPTION_MULTICAST_IF = 3;

    private DatagramSocketNative() {
    }

    /**
     * Receives one datagram into slot 0's buffer: 1, or -errno (-EAGAIN: none waiting). On return slot 0 holds the
     * datagram's length (the real one where the kernel reports it: Linux), whether it was truncated, and the sender.
     */
    public static native int recvFrom(int fd, long slotAddress);

    /** Sends slot 0's datagram to its peer (addrlen 0: the connected one): the bytes sent, or -errno. */
    public static native int sendTo(int fd, boolean ipv6, long slotAddress);

    /** {@code connect(AF_UNSPEC)}: the socket forgets its peer. 0 or -errno. */
    public static native int disconnect(int fd, boolean ipv6);

    /** Sets one of the {@code OPTION_*} options but {@link #OPTION_MULTICAST_IF}; 0 or -errno. */
    public static native int setDatagramOption(int fd, boolean ipv6, int option, int value);

    /** One of the {@code OPTION_*} options: its value, or -errno. */
    public static native long getDatagramOption(int fd, boolean ipv6, int option);

    /** Sets the multicast interface: by {@code ifindex} (IPv6) and by {@code ipv4Address}, big-endian (IPv4). */
    public static native int setMulticastInterface(int fd, boolean ipv6, int ifindex, int ipv4Address);

    /** Joins or leaves the group in slot 0 (from the source in slot 1 if its addrlen is not 0); 0 or -errno. */
    public static native int multicastMembership(int fd, boolean join, int ifindex, long slotsAddress);

    /** The interface's first IPv4 address as a big-endian number, for {@link #setMulticastInterface}; 0 if none. */
    public static int ipv4Address(NetworkInterface iface) {
        if (iface == null) {
            return 0;
        }
        Enumeration<InetAddress> addresses = iface.getInetAddresses();
        while (addresses.hasMoreElements()) {
            InetAddress address = addresses.nextElement();
            if (address instanceof Inet4Address) {
                byte[] b = address.getAddress();
                return ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
            }
        }
        return 0;
    }

    /**
     * The interface an {@link #OPTION_MULTICAST_IF} answer names: an index on an IPv6 socket, an address on an IPv4
     * one; {@code null} for 0 (the routing table decides) or an interface that no longer exists.
     */
    public static NetworkInterface multicastInterface(long value, boolean ipv6) throws SocketException {
        if (value == 0) {
            return null;
        }
        if (ipv6) {
            return NetworkInterface.getByIndex((int) value);
        }
        try {
            return NetworkInterface.getByInetAddress(InetAddress.getByAddress(new byte[] {
                (byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value}));
        } catch (UnknownHostException e) {
            // Only for a wrong length: four bytes never are.
            throw new IllegalStateException(e);
        }
    }
}
