package io.weir.channel.uring;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.channel.unix.Errors;
import io.weir.util.platform.LoopLogger;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;

/**
 * A provided buffer ring of one {@link IoUringIoHandler} ({@code IORING_REGISTER_PBUF_RING}, one buffer group
 * each): the buffers multishot receives of the handler's channels land in, so a connection that waits for data
 * holds no buffer of its own. A handler has a ring of small buffers ({@link IoUringIoHandler#SMALL_BUFFER_GROUP})
 * and may have one of large buffers ({@link IoUringIoHandler#LARGE_BUFFER_GROUP}); a channel arms its receive on
 * one of them, by the sizes of its recent reads. Event loop only.
 *
 * <p><b>Buffers.</b> {@code count} direct buffers of {@code bufferSize} bytes each, taken from the loop's
 * {@link ByteBufAllocator} (pooled by default), one per buffer id. A completion that carries buffer id {@code b}
 * hands buffer {@code b} itself to the channel's pipeline ({@link #take}): ownership moves to whoever reads it, who
 * releases it as any received buffer, back to the pool. Slot {@code b} gets a fresh buffer from the allocator at
 * once, so the kernel never writes into memory a handed-out buffer exposes: once the kernel reported a buffer, it
 * never picks that id again until this class adds it again, with the new buffer's address.
 *
 * <p><b>The ring</b> is an array of {@code struct io_uring_buf} shared with the kernel, page-aligned as the kernel
 * requires. This side owns the tail, the kernel the head; entries are written with plain stores and published by
 * a release store of the tail, which the kernel reads with acquire semantics. At most {@code count} ids exist and
 * each is either in the ring or handed out, so the slot a new entry goes to was always consumed already.
 * <pre>
 * struct io_uring_buf (16 bytes)          ring (entries of it; the tail is entry 0's reserved field)
 *  0                8        12  14  16    +-------------+-------------+-----+
 *  +----------------+--------+---+---+     | buf 0 |tail | buf 1       | ... |
 *  | addr           | len    |bid|rsv|     +-------------+-------------+-----+
 *  +----------------+--------+---+---+
 * </pre>
 * The C file proves the size and the offsets with {@code _Static_assert}.
 *
 * <p><b>Running dry.</b> When every buffer is out (the pipeline holds them, or one loop turn's receives took them
 * all), a multishot receive ends with {@code -ENOBUFS}; its channel waits here ({@link #awaitBuffers}) and is
 * re-armed on a later loop turn ({@link #serveWaiters}), at most as many channels per turn as the ring holds
 * buffers, oldest first: progress needs buffers to come back, so a dry ring never spins. The first time a ring
 * runs dry one line is logged; {@link #exhaustions()} counts every time.
 */
final class IoUringBufferRing {
    /** {@code IOSQE_BUFFER_SELECT}: the kernel picks the receive's buffer from the group in {@code buf_group}. */
    static final byte IOSQE_BUFFER_SELECT = 1 << 5;
    /** {@code IORING_CQE_BUFFER_SHIFT}: a completion's buffer id is its flags' upper 16 bits. */
    static final int CQE_BUFFER_SHIFT = 16;
    /** The kernel's limit on a buffer ring's entries. */
    static final int MAX_ENTRIES = 32768;

    private static final LoopLogger LOGGER = LoopLogger.of(IoUringBufferRing.class);
    private static final int BUF_BYTES = 16;
    private static final int BUF_ADDR = 0;
    private static final int BUF_LEN = 8;
    private static final int BUF_BID = 12;
    private static final int RING_TAIL = 14;
    private static final int PAGE_BYTES = 4096;
    private static final VarHandle SHORT =
            MethodHandles.byteBufferViewVarHandle(short[].class, ByteOrder.nativeOrder());

    private final int ringFd;
    private final short groupId;
    private final ByteBufAllocator allocator;
    private final int bufferSize;
    private final int count;
    private final int mask;
    // The ring shared with the kernel; kept reachable while registered.
    private final ByteBuffer ring;
    private final long ringAddress;
    // Buffer id -> the buffer in the ring under that id, or null while handed out and not yet replaced.
    private final ByteBuf[] buffers;
    private final ArrayDeque<Runnable> waiters = new ArrayDeque<>();
    private final Object owner;
    // Ids whose buffer went out and whose replacement could not be allocated; retried each loop turn.
    private final int[] empty;
    private int emptyCount;
    private int tail;
    private int available;
    private long exhaustions;
    private boolean registered;

    private IoUringBufferRing(int ringFd, ByteBufAllocator allocator, int bufferSize, int count, short groupId,
                              Object owner) {
        this.ringFd = ringFd;
        this.groupId = groupId;
        this.allocator = allocator;
        this.bufferSize = bufferSize;
        this.count = count;
        this.mask = count - 1;
        this.owner = owner;
        // alignedSlice() rounds both ends to the alignment: whole pages, one spare for the start.
        int ringBytes = (count * BUF_BYTES + PAGE_BYTES - 1) / PAGE_BYTES * PAGE_BYTES;
        this.ring = ByteBuffer.allocateDirect(ringBytes + PAGE_BYTES).alignedSlice(PAGE_BYTES)
                .order(ByteOrder.nativeOrder());
        this.ringAddress = Native.bufferAddress(ring);
        this.buffers = new ByteBuf[count];
        this.empty = new int[count];
    }

    /**
     * Allocates {@code count} buffers of {@code bufferSize} bytes, puts them in a new ring and registers it with
     * the io_uring {@code ringFd} as buffer group {@code groupId}. On the thread that submits to that ring.
     *
     * @throws IOException if the kernel refused the ring (nothing is left allocated then)
     */
    static IoUringBufferRing open(int ringFd, ByteBufAllocator allocator, int bufferSize, int count, short groupId,
                                  Object owner) throws IOException {
        IoUringBufferRing r = new IoUringBufferRing(ringFd, allocator, bufferSize, count, groupId, owner);
        try {
            for (int id = 0; id < count; id++) {
                r.add(id);
            }
            r.publish();
            int res = Native.ioUringRegisterBufRing(ringFd, r.ringAddress, count, groupId);
            if (res < 0) {
                throw Errors.newIoException("io_uring_register(IORING_REGISTER_PBUF_RING)", res);
            }
        } catch (IOException | RuntimeException | Error e) {
            r.releaseBuffers();
            throw e;
        }
        r.registered = true;
        return r;
    }

    /** The buffer group a receive names ({@code buf_group}) to pick from this ring. */
    short groupId() {
        return groupId;
    }

    /** Bytes per buffer. */
    int bufferSize() {
        return bufferSize;
    }

    /** Buffers (and ids) in the ring. */
    int count() {
        return count;
    }

    /** Buffers in the ring now, for the kernel to pick. */
    int available() {
        return available;
    }

    /** How many times a receive found the ring dry. */
    long exhaustions() {
        return exhaustions;
    }

    /**
     * Hands out buffer {@code id}, which a completion reported holding {@code bytes} received bytes: the caller owns
     * it now. Its slot gets a new buffer.
     */
    ByteBuf take(int id, int bytes) {
        ByteBuf buf = buffers[id];
        buffers[id] = null;
        available--;
        buf.writerIndex(bytes);
        refill(id);
        return buf;
    }

    /** Puts buffer {@code id}, which a completion reported but nobody will read, back in the ring as it is. */
    void recycle(int id) {
        available--;
        ByteBuf buf = buffers[id];
        buf.clear();
        put(id, buf);
        publish();
    }

    private void refill(int id) {
        try {
            add(id);
        } catch (OutOfMemoryError | RuntimeException e) {
            // The kernel then has one buffer fewer until serveWaiters() allocates it.
            empty[emptyCount++] = id;
            LOGGER.log(Level.DEBUG, "no buffer for id " + id + " of " + this, e);
            return;
        }
        publish();
    }

    private void add(int id) {
        ByteBuf buf = allocator.directBuffer(bufferSize, bufferSize);
        put(id, buf);
    }

    private void put(int id, ByteBuf buf) {
        buffers[id] = buf;
        int base = (tail & mask) * BUF_BYTES;
        ByteBuffer r = ring;
        // Never the last two bytes of an entry: entry 0's are the tail.
        r.putLong(base + BUF_ADDR, AbstractIoUringChannel.address(buf, 0, bufferSize));
        r.putInt(base + BUF_LEN, bufferSize);
        r.putShort(base + BUF_BID, (short) id);
        tail++;
        available++;
    }

    private void publish() {
        SHORT.setRelease(ring, RING_TAIL, (short) tail);
    }

    /**
     * A multishot receive ended with {@code -ENOBUFS}: {@code waiter} (re-arms it) runs on a later loop turn. The
     * first time, logs one line.
     */
    void awaitBuffers(Runnable waiter) {
        if (exhaustions++ == 0) {
            LOGGER.log(Level.INFO, "the provided buffer ring of " + owner + " ran dry (" + count + " buffers of "
                    + bufferSize + " bytes): receives wait for buffers to come back; a larger bufferCount in "
                    + "IoUringIoHandler.newFactory avoids the wait (logged once per ring)");
        }
        waiters.add(waiter);
    }

    /**
     * Once per loop turn, before the ring is entered: allocates what {@link #take} could not, then re-arms as many
     * waiting receives as the ring has buffers.
     */
    void serveWaiters() {
        while (emptyCount > 0) {
            int id = empty[emptyCount - 1];
            try {
                add(id);
            } catch (OutOfMemoryError | RuntimeException e) {
                break;
            }
            emptyCount--;
            publish();
        }
        for (int n = Math.min(waiters.size(), available); n > 0; n--) {
            waiters.poll().run();
        }
    }

    /** Whether receives wait for buffers. */
    boolean hasWaiters() {
        return !waiters.isEmpty();
    }

    /**
     * Unregisters the ring and releases the buffers in it. Only once no operation that may pick a buffer is in
     * flight (the handler drained); handed-out buffers are their readers' to release.
     */
    void close() {
        if (registered) {
            registered = false;
            int res = Native.ioUringUnregisterBufRing(ringFd, groupId);
            if (res < 0) {
                LOGGER.log(Level.DEBUG, "failed to unregister " + this + ": "
                        + Errors.newIoException("io_uring_register(IORING_UNREGISTER_PBUF_RING)", res).getMessage());
            }
        }
        waiters.clear();
        releaseBuffers();
    }

    private void releaseBuffers() {
        ByteBuf[] bufs = buffers;
        for (int i = 0; i < bufs.length; i++) {
            if (bufs[i] != null) {
                bufs[i].release();
                bufs[i] = null;
            }
        }
        available = 0;
    }

    @Override
    public String toString() {
        return "IoUringBufferRing(" + count + " x " + bufferSize + " bytes, " + available + " in the ring)";
    }
}
