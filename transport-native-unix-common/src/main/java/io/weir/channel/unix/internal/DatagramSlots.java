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
 * The {@value #SLOTS} native slots of one event-loop thread through which a datagram, its peer or a multicast
 * membership cross JNI (layout in {@link DatagramSocketNative}). Plain {@link ByteBuffer} accesses: a slot is a
 * few words. The last peer decoded is remembered, so an echo answering one sender allocates no address per
 * datagram.
 *
 * <p>Event-loop thread only (one instance per thread, from {@link #current()}).
 */
public final class DatagramSlots {
    /** Slots per thread: a datagram uses slot 0, a source-specific membership slots 0 and 1. */
    public static final int SLOTS = 2;

    private static final FastThreadLocal<DatagramSlots> CURRENT = new FastThreadLocal<>() {
        @Override
        protected DatagramSlots initialValue() {
            return new DatagramSlots();
        }
    };

    // Freed by its cleaner when the thread's slots are dropped: 128 bytes per event-loop thread.
    private final ByteBuffer memory = ByteBuffer.allocateDirect(SLOTS * SLOT_BYTES).order(ByteOrder.nativeOrder());
    private final long address = NativeBuffers.address(memory);

    private final byte[] decodedBytes16 = new byte[16];
    private final byte[] decodedBytes4 = new byte[4];
    private InetSocketAddress decoded;
    private int decodedScope;
    private int decodedLength;

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

    /** After a receive: the datagram's length (its real one, past the capacity, where the kernel reports it). */
    public int length(int i) {
        return memory.getInt(i * SLOT_BYTES + LENGTH_OFFSET);
    }

    /** After a receive: whether the kernel cut the datagram to the buffer's capacity. */
    public boolean truncated(int i) {
        return memory.getInt(i * SLOT_BYTES + FLAGS_OFFSET) != 0;
    }

    /** Sets slot {@code i}'s peer; {@code peer} must be resolved. */
    public void peer(int i, InetSocketAddress peer) {
        InetAddress inet = peer.getAddress();
        byte[] bytes = inet.getAddress();
        int base = i * SLOT_BYTES;
        memory.putLong(base + ADDRESS_OFFSET, 0).putLong(base + ADDRESS_OFFSET + 8, 0);
        memory.put(base + ADDRESS_OFFSET, bytes);
        memory.putInt(base + SCOPE_OFFSET, inet instanceof Inet6Address v6 ? v6.getScopeId() : 0);
        memory.putInt(base + PORT_OFFSET, peer.getPort());
        memory.putInt(base + ADDRESS_LENGTH_OFFSET, bytes.length);
    }

    /** After a receive: slot {@code i}'s peer, or {@code null} if the kernel gave none. */
    public InetSocketAddress peer(int i) {
        int base = i * SLOT_BYTES;
        int length = memory.getInt(base + ADDRESS_LENGTH_OFFSET);
        if (length != 4 && length != 16) {
            return null;
        }
        int scope = memory.getInt(base + SCOPE_OFFSET);
        int port = memory.getInt(base + PORT_OFFSET);
        byte[] last = length == 16 ? decodedBytes16 : decodedBytes4;
        InetSocketAddress cached = decoded;
        if (cached != null && cached.getPort() == port && scope == decodedScope
                && decodedLength == length && sameBytes(base, last, length)) {
            return cached;
        }
        byte[] bytes = new byte[length];
        memory.get(base + ADDRESS_OFFSET, bytes);
        InetAddress inet;
        try {
            inet = length == 16 && scope != 0 ? Inet6Address.getByAddress(null, bytes, scope)
                    : InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            // Only for a wrong length, excluded above.
            throw new IllegalStateException("bad address length from recvmsg: " + length, e);
        }
        System.arraycopy(bytes, 0, last, 0, length);
        decodedScope = scope;
        decodedLength = length;
        decoded = new InetSocketAddress(inet, port);
        return decoded;
    }

    private boolean sameBytes(int base, byte[] last, int length) {
        for (int j = 0; j < length; j++) {
            if (memory.get(base + ADDRESS_OFFSET + j) != last[j]) {
                return false;
            }
        }
        return true;
    }
}
