package io.weir.channel.unix.internal;

import static io.weir.channel.unix.internal.DatagramSocketNative.ADDRESS_LENGTH_OFFSET;
import static io.weir.channel.unix.internal.DatagramSocketNative.ADDRESS_OFFSET;
import static io.weir.channel.unix.internal.DatagramSocketNative.FLAGS_OFFSET;
import static io.weir.channel.unix.internal.DatagramSocketNative.LENGTH_OFFSET;
import static io.weir.channel.unix.internal.DatagramSocketNative.PORT_OFFSET;
import static io.weir.channel.unix.internal.DatagramSocketNative.SCOPE_OFFSET;
import static io.weir.channel.unix.internal.DatagramSocketNative.SLOT_BYTES;

import io.weir.util.concurrent.FastThreadLocal;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The {@value #SLOTS} native slots of one event-loop thread through which datagrams, their peers and multicast
 * memberships cross JNI (layout in {@link DatagramSocketNative}): one datagram per {@code recvmsg}/{@code sendmsg}
 * uses slot 0, a batch of {@code recvmmsg}/{@code sendmmsg} (epoll) one slot per datagram, a source-specific
 * membership slots 0 and 1. Plain {@link ByteBuffer} accesses, no Unsafe: a slot is a few words.
 *
 * <p>Datagram traffic tends to flow between few peers, so the last address decoded and the last one encoded
 * are remembered: an echo answering its sender neither allocates an address per datagram nor copies the
 * address bytes out of an {@link InetAddress} (whose {@code getAddress()} clones them) per send.
 *
 * <p>Event-loop thread only (one instance per thread, from {@link #current()}).
 */
public final class DatagramSlots {
    /** Slots per thread: the most datagrams one batched system call handles. */
    public static final int SLOTS = 64;

    private static final FastThreadLocal<DatagramSlots> CURRENT = new FastThreadLocal<>() {
        @Override
        protected DatagramSlots initialValue() {
            return new DatagramSlots();
        }
    };

    // Freed by its cleaner when the thread's slots are dropped: 4 KiB per event-loop thread.
    private final ByteBuffer memory =
            ByteBuffer.allocateDirect(SLOTS * SLOT_BYTES).order(ByteOrder.nativeOrder());
    private final long address = NativeBuffers.address(memory);
    private final ByteBuffer encodeScratch = ByteBuffer.allocate(16).order(ByteOrder.nativeOrder());

    // The last peer decoded: its wire form and the InetSocketAddress handed out for it.
    private long decodedHigh;
    private long decodedLow;
    private int decodedScope;
    private int decodedPort;
    private int decodedLength;
    private InetSocketAddress decoded;

    // The last InetSocketAddress encoded (by identity) and its wire form.
    private InetSocketAddress encoded;
    private long encodedHigh;
    private long encodedLow;
    private int encodedScope;
    private int encodedPort;
    private int encodedLength;

    private DatagramSlots() {
        if (address == 0) {
            throw new IllegalStateException("no address for a direct buffer");
        }
    }

    /** The calling event-loop thread's slots. */
    public static DatagramSlots current() {
        return CURRENT.get();
    }

    /** The native address of slot 0, for the natives. */
    public long address() {
        return address;
    }

    /** Points slot {@code i} at {@code length} bytes of native memory at {@code bufferAddress}, without a peer. */
    public void buffer(int i, long bufferAddress, int length) {
        int base = i * SLOT_BYTES;
        memory.putLong(base, bufferAddress);
        memory.putInt(base + LENGTH_OFFSET, length);
        memory.putInt(base + FLAGS_OFFSET, 0);
        memory.putInt(base + ADDRESS_LENGTH_OFFSET, 0);
    }

    /** After a receive: the datagram's real length (more than the buffer's capacity if truncated). */
    public int length(int i) {
        return memory.getInt(i * SLOT_BYTES + LENGTH_OFFSET);
    }

    /** After a receive: whether the kernel cut the datagram to the buffer's capacity. */
    public boolean truncated(int i) {
        return memory.getInt(i * SLOT_BYTES + FLAGS_OFFSET) != 0;
    }

    /** Sets slot {@code i}'s peer. */
    public void peer(int i, InetSocketAddress peer) {
        if (peer != encoded) {
            encode(peer);
        }
        int base = i * SLOT_BYTES;
        memory.putLong(base + ADDRESS_OFFSET, encodedHigh);
        memory.putLong(base + ADDRESS_OFFSET + 8, encodedLow);
        memory.putInt(base + SCOPE_OFFSET, encodedScope);
        memory.putInt(base + PORT_OFFSET, encodedPort);
        memory.putInt(base + ADDRESS_LENGTH_OFFSET, encodedLength);
    }

    private void encode(InetSocketAddress peer) {
        InetAddress inet = peer.getAddress();
        byte[] bytes = inet.getAddress();
        // Through a buffer of the native order, so that the longs hold the bytes as the C side copies them.
        ByteBuffer wire = encodeScratch;
        wire.putLong(0, 0).putLong(8, 0).put(0, bytes);
        encodedHigh = wire.getLong(0);
        encodedLow = wire.getLong(8);
        encodedScope = inet instanceof Inet6Address v6 ? v6.getScopeId() : 0;
        encodedPort = peer.getPort();
        encodedLength = bytes.length;
        encoded = peer;
    }

    /** After a receive: slot {@code i}'s peer, or {@code null} if the kernel gave none. */
    public InetSocketAddress peer(int i) {
        int base = i * SLOT_BYTES;
        int length = memory.getInt(base + ADDRESS_LENGTH_OFFSET);
        if (length != 4 && length != 16) {
            return null;
        }
        long high = memory.getLong(base + ADDRESS_OFFSET);
        long low = length == 16 ? memory.getLong(base + ADDRESS_OFFSET + 8) : 0;
        int scope = memory.getInt(base + SCOPE_OFFSET);
        int port = memory.getInt(base + PORT_OFFSET);
        if (decoded != null && length == decodedLength && high == decodedHigh && low == decodedLow
                && scope == decodedScope && port == decodedPort) {
            return decoded;
        }
        byte[] bytes = new byte[length];
        memory.get(base + ADDRESS_OFFSET, bytes);
        InetAddress inet;
        try {
            inet = length == 16 && scope != 0 ? Inet6Address.getByAddress(null, bytes, scope)
                    : InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            // Only for a wrong length, excluded above.
            throw new IllegalStateException("bad address length from a receive: " + length, e);
        }
        InetSocketAddress peer = new InetSocketAddress(inet, port);
        decodedHigh = high;
        decodedLow = low;
        decodedScope = scope;
        decodedPort = port;
        decodedLength = length;
        decoded = peer;
        return peer;
    }
}
