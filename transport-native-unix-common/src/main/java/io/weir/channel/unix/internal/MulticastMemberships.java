package io.weir.channel.unix.internal;

import io.weir.channel.Channel;
import io.weir.channel.ChannelOption;
import io.weir.channel.ChannelPromise;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.Socket;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The multicast groups a native datagram channel joined, and the join and leave operations of its public API,
 * run on the channel's event loop through {@link DatagramSocketNative#multicastMembership} (RFC 3678's
 * protocol-independent options). The list is event-loop only; {@link #join} and {@link #leave} may be called from
 * any thread and complete their promise on the loop. Not for applications.
 */
public final class MulticastMemberships {
    private final Channel channel;
    private final Socket socket;
    // Event loop only.
    private final List<Membership> memberships = new ArrayList<>();

    /** Memberships of {@code channel}, whose socket is {@code socket}. */
    public MulticastMemberships(Channel channel, Socket socket) {
        this.channel = Objects.requireNonNull(channel, "channel");
        this.socket = Objects.requireNonNull(socket, "socket");
    }

    /**
     * Joins {@code group} on {@code networkInterface} ({@code null}: the interface of
     * {@link ChannelOption#IP_MULTICAST_IF}, else that of the channel's local address, else the routing table's),
     * from {@code source} only if it is not {@code null}. Fails the promise with a
     * {@link io.weir.channel.unix.NativeIoException} if the kernel refuses.
     *
     * @throws NullPointerException if {@code group} or {@code promise} is null
     */
    public ChannelPromise join(InetAddress group, NetworkInterface networkInterface, InetAddress source,
                               ChannelPromise promise) {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(promise, "promise");
        runOnLoop(() -> {
            try {
                int index = networkInterface != null ? networkInterface.getIndex() : defaultInterfaceIndex();
                membership(true, group, index, source);
                memberships.add(new Membership(group, index, source));
                promise.trySuccess();
            } catch (Throwable t) {
                promise.tryFailure(t);
            }
        }, promise);
        return promise;
    }

    /**
     * Leaves the memberships of {@code group} matching {@code networkInterface} and {@code source} ({@code null}
     * matches any). Fails the promise with {@link IllegalStateException} if none matched.
     *
     * @throws NullPointerException if {@code group} or {@code promise} is null
     */
    public ChannelPromise leave(InetAddress group, NetworkInterface networkInterface, InetAddress source,
                                ChannelPromise promise) {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(promise, "promise");
        runOnLoop(() -> {
            boolean left = false;
            try {
                for (int i = memberships.size() - 1; i >= 0; i--) {
                    Membership m = memberships.get(i);
                    if (m.matches(group, networkInterface, source)) {
                        memberships.remove(i);
                        membership(false, m.group, m.interfaceIndex, m.source);
                        left = true;
                    }
                }
            } catch (Throwable t) {
                promise.tryFailure(t);
                return;
            }
            if (left) {
                promise.trySuccess();
            } else {
                promise.tryFailure(new IllegalStateException("not a member of " + group
                        + (networkInterface != null ? " on " + networkInterface.getName() : "")));
            }
        }, promise);
        return promise;
    }

    /** The socket closed, which dropped every membership. Event loop only. */
    public void clear() {
        memberships.clear();
    }

    private void membership(boolean join, InetAddress group, int interfaceIndex, InetAddress source)
            throws IOException {
        if (!socket.isOpen()) {
            throw new ClosedChannelException();
        }
        DatagramSlots slots = DatagramSlots.current();
        slots.buffer(0, 0, 0);
        slots.buffer(1, 0, 0);
        slots.peer(0, new InetSocketAddress(group, 0));
        if (source != null) {
            slots.peer(1, new InetSocketAddress(source, 0));
        }
        int res = DatagramSocketNative.multicastMembership(socket.intValue(), join, interfaceIndex, slots.address());
        if (res < 0) {
            String operation = join ? "setsockopt(MCAST_JOIN_GROUP) of " : "setsockopt(MCAST_LEAVE_GROUP) of ";
            throw Errors.newIoException(operation + group, res);
        }
    }

    private int defaultInterfaceIndex() throws IOException {
        NetworkInterface iface = channel.config().getOption(ChannelOption.IP_MULTICAST_IF);
        if (iface == null) {
            InetSocketAddress local = (InetSocketAddress) channel.localAddress();
            if (local != null && !local.getAddress().isAnyLocalAddress()) {
                iface = NetworkInterface.getByInetAddress(local.getAddress());
            }
        }
        // 0: the kernel picks the interface its routing table has for the group.
        return iface == null ? 0 : iface.getIndex();
    }

    private void runOnLoop(Runnable task, ChannelPromise promise) {
        if (channel.eventLoop().inEventLoop()) {
            task.run();
        } else {
            try {
                channel.eventLoop().execute(task);
            } catch (RuntimeException e) {
                promise.tryFailure(e);
            }
        }
    }

    /** A group joined on an interface (index; 0 for the routing table's), from one source or ({@code null}) any. */
    private record Membership(InetAddress group, int interfaceIndex, InetAddress source) {
        boolean matches(InetAddress g, NetworkInterface iface, InetAddress s) {
            return group.equals(g) && (iface == null || interfaceIndex == iface.getIndex())
                    && (s == null || s.equals(source));
        }
    }
}
