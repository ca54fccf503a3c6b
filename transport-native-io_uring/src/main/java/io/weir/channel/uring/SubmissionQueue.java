package io.weir.channel.uring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The submission half of a ring: the SQ ring the kernel consumes from and the array of SQEs it points into, both
 * mmapped and seen through direct {@link ByteBuffer}s. Event loop only (the ring's single issuer).
 *
 * <p><b>Ordering.</b> This side owns the tail, the kernel the head. SQEs are written with plain stores and
 * published by one release store of the tail ({@link #flush()}), so the kernel, which reads the tail with acquire
 * semantics, sees complete entries; the head is read with acquire semantics so a slot is reused only after the
 * kernel has finished reading it. The ring's index array is filled once with the identity ({@code array[i] = i}),
 * so SQE {@code i} always sits in ring slot {@code i}.
 *
 * <pre>
 * struct io_uring_sqe (64 bytes; the fields this transport writes)
 *  0        1        2        4        8                16               24       28       32
 *  +--------+--------+--------+--------+----------------+----------------+--------+--------+
 *  | opcode | flags  | ioprio |   fd   | off / addr2    | addr           |  len   | op_flags
 *  +--------+--------+--------+--------+----------------+----------------+--------+--------+
 *  32               40       42       44       48               56               64
 *  +----------------+--------+--------+--------+----------------+----------------+
 *  | user_data      |buf_idx | person.| fd_in  | addr3          | (pad)          |
 *  +----------------+--------+--------+--------+----------------+----------------+
 * </pre>
 * The C file proves the size and the offsets with {@code _Static_assert}.
 */
final class SubmissionQueue {
    static final int SQE_BYTES = 64;
    private static final int SQE_OPCODE = 0;
    private static final int SQE_FLAGS = 1;
    private static final int SQE_IOPRIO = 2;
    private static final int SQE_FD = 4;
    private static final int SQE_OFF = 8;
    private static final int SQE_ADDR = 16;
    private static final int SQE_LEN = 24;
    private static final int SQE_OP_FLAGS = 28;
    private static final int SQE_USER_DATA = 32;
    private static final int SQE_BUF_INDEX = 40;
    private static final int SQE_PERSONALITY = 42;
    private static final int SQE_SPLICE_FD_IN = 44;
    private static final int SQE_ADDR3 = 48;
    private static final int SQE_PAD = 56;

    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

    private final ByteBuffer ring;
    private final ByteBuffer sqes;
    private final int headOffset;
    private final int tailOffset;
    private final int flagsOffset;
    private final int mask;
    private final int entries;
    // Loop thread only: the next free slot (not yet published to the kernel until flush()).
    private int tail;

    SubmissionQueue(ByteBuffer ring, ByteBuffer sqes, long[] info) {
        this.ring = ring.order(ByteOrder.nativeOrder());
        this.sqes = sqes.order(ByteOrder.nativeOrder());
        this.headOffset = (int) info[Native.RING_SQ_HEAD];
        this.tailOffset = (int) info[Native.RING_SQ_TAIL];
        this.flagsOffset = (int) info[Native.RING_SQ_FLAGS];
        this.mask = this.ring.getInt((int) info[Native.RING_SQ_MASK]);
        this.entries = (int) info[Native.RING_SQ_ENTRIES];
        this.tail = (int) INT.getAcquire(this.ring, tailOffset);
        int array = (int) info[Native.RING_SQ_ARRAY];
        for (int i = 0; i < entries; i++) {
            this.ring.putInt(array + i * Integer.BYTES, i);
        }
    }

    /** Slots in the ring. */
    int entries() {
        return entries;
    }

    /** Entries written but not yet consumed by the kernel (published or not). */
    int pending() {
        return tail - (int) INT.getAcquire(ring, headOffset);
    }

    /** Whether every slot holds an entry the kernel has not consumed: {@link #enqueue} would fail. */
    boolean isFull() {
        return pending() == entries;
    }

    /**
     * Writes one SQE into the next free slot; the kernel sees it after {@link #flush()}.
     *
     * @return {@code false} if the ring is full (submit first)
     */
    boolean enqueue(byte opcode, byte flags, short ioPrio, int fd, long off, long addr, int len, int opFlags,
                    long userData, short bufIndex, int spliceFdIn, long addr3) {
        if (isFull()) {
            return false;
        }
        int base = (tail & mask) * SQE_BYTES;
        ByteBuffer s = sqes;
        s.put(base + SQE_OPCODE, opcode);
        s.put(base + SQE_FLAGS, flags);
        s.putShort(base + SQE_IOPRIO, ioPrio);
        s.putInt(base + SQE_FD, fd);
        s.putLong(base + SQE_OFF, off);
        s.putLong(base + SQE_ADDR, addr);
        s.putInt(base + SQE_LEN, len);
        s.putInt(base + SQE_OP_FLAGS, opFlags);
        s.putLong(base + SQE_USER_DATA, userData);
        s.putShort(base + SQE_BUF_INDEX, bufIndex);
        s.putShort(base + SQE_PERSONALITY, (short) 0);
        s.putInt(base + SQE_SPLICE_FD_IN, spliceFdIn);
        s.putLong(base + SQE_ADDR3, addr3);
        s.putLong(base + SQE_PAD, 0L);
        tail++;
        return true;
    }

    /**
     * Publishes every entry written so far to the kernel (one release store of the tail).
     *
     * @return how many entries the kernel has yet to consume: the {@code to_submit} of the next enter
     */
    int flush() {
        INT.setRelease(ring, tailOffset, tail);
        return pending();
    }

    /** The SQ ring's flags word ({@code IORING_SQ_*}), as the kernel last wrote it. */
    int kernelFlags() {
        return (int) INT.getAcquire(ring, flagsOffset);
    }
}
