package io.weir.channel.uring;

import java.nio.ByteBuffer;

/**
 * The JNI methods of the io_uring transport, registered by the library's {@code JNI_OnLoad} (C source:
 * {@code transport-native-io_uring/src/main/c/weir_iouring.c}). No static initializer may call a native here:
 * {@code FindClass} initializes this class while the library is being loaded.
 *
 * <p>Every native returns a value {@code >= 0} on success and {@code -errno} on failure (see
 * {@link io.weir.channel.unix.Errors}). Constants are the kernel's ({@code linux/io_uring.h}); the C file proves
 * each with a {@code _Static_assert}.
 */
final class Native {
    // io_uring_setup flags.
    static final int IORING_SETUP_CQSIZE = 1 << 3;
    static final int IORING_SETUP_R_DISABLED = 1 << 6;
    static final int IORING_SETUP_SUBMIT_ALL = 1 << 7;
    static final int IORING_SETUP_COOP_TASKRUN = 1 << 8;
    static final int IORING_SETUP_TASKRUN_FLAG = 1 << 9;
    static final int IORING_SETUP_SINGLE_ISSUER = 1 << 12;
    static final int IORING_SETUP_DEFER_TASKRUN = 1 << 13;

    // io_uring_params.features.
    static final int IORING_FEAT_SINGLE_MMAP = 1;
    static final int IORING_FEAT_NODROP = 1 << 1;
    static final int IORING_FEAT_SUBMIT_STABLE = 1 << 2;
    static final int IORING_FEAT_EXT_ARG = 1 << 8;
    /** Linux 6.3; taken as the sign of multishot receive into provided buffer rings (Linux 6.0). */
    static final int IORING_FEAT_REG_REG_RING = 1 << 13;

    // io_uring_enter flags.
    static final int IORING_ENTER_GETEVENTS = 1;
    static final int IORING_ENTER_REGISTERED_RING = 1 << 4;

    // Linux errno values (io_uring exists only there); io.weir.channel.unix.Errors has the portable ones.
    static final int EPERM = 1;
    static final int ENOENT = 2;
    static final int EINTR = 4;
    static final int EAGAIN = 11;
    static final int EBUSY = 16;
    static final int EINVAL = 22;
    static final int ENOSYS = 38;
    static final int ETIME = 62;
    static final int ENOBUFS = 105;
    static final int EALREADY = 114;
    static final int ECANCELED = 125;

    // The slots of the long[] ioUringSetup fills (the C enum lists the same).
    static final int RING_FD = 0;
    static final int RING_FEATURES = 1;
    static final int RING_FLAGS = 2;
    static final int RING_SQ_ENTRIES = 3;
    static final int RING_CQ_ENTRIES = 4;
    static final int RING_SQ_ADDRESS = 5;
    static final int RING_SQ_SIZE = 6;
    static final int RING_CQ_ADDRESS = 7;
    static final int RING_CQ_SIZE = 8;
    static final int RING_SQES_ADDRESS = 9;
    static final int RING_SQES_SIZE = 10;
    static final int RING_SQ_HEAD = 11;
    static final int RING_SQ_TAIL = 12;
    static final int RING_SQ_MASK = 13;
    static final int RING_SQ_FLAGS = 14;
    static final int RING_SQ_DROPPED = 15;
    static final int RING_SQ_ARRAY = 16;
    static final int RING_CQ_HEAD = 17;
    static final int RING_CQ_TAIL = 18;
    static final int RING_CQ_MASK = 19;
    static final int RING_CQ_OVERFLOW = 20;
    static final int RING_CQ_CQES = 21;
    static final int RING_INFO_LENGTH = 22;

    /** Opcodes {@link #ioUringProbe} reports on: every value an SQE's {@code u8} opcode can take. */
    static final int MAX_OPCODES = 256;

    private Native() {
    }

    /**
     * {@code io_uring_setup} and the mmaps of its rings; fills {@code info} (at least {@link #RING_INFO_LENGTH}
     * slots, see {@code RING_*}) and returns the ring's descriptor. On failure nothing is left open or mapped.
     */
    static native int ioUringSetup(int entries, int cqEntries, int flags, long[] info);

    /** Unmaps what {@link #ioUringSetup} mapped ({@code cqSize} 0: one mapping). Does not close the ring. */
    static native void ioUringUnmap(long sq, long sqSize, long cq, long cqSize, long sqes, long sqesSize);

    /**
     * {@code io_uring_enter}; with {@link #IORING_ENTER_GETEVENTS} and {@code timeoutNanos >= 0} the wait ends
     * after that long at the latest ({@code -ETIME}). -EINTR is not retried.
     */
    static native int ioUringEnter(int fd, int toSubmit, int minComplete, int flags, long timeoutNanos);

    /** {@code IORING_REGISTER_PROBE}: {@code supported[op]} becomes 1 for every opcode the kernel supports. */
    static native int ioUringProbe(int fd, byte[] supported);

    /** {@code IORING_REGISTER_ENABLE_RINGS}; the calling thread becomes a single-issuer ring's submitter. */
    static native int ioUringEnable(int fd);

    /** {@code IORING_REGISTER_RING_FDS} for the calling thread: the index for {@link #IORING_ENTER_REGISTERED_RING}. */
    static native int ioUringRegisterRingFd(int fd);

    /** {@code IORING_UNREGISTER_RING_FDS} of {@code index}, on the thread that registered it. */
    static native int ioUringUnregisterRingFd(int fd, int index);

    /**
     * {@code IORING_REGISTER_PBUF_RING}: the {@code entries} (a power of two) {@code struct io_uring_buf} at
     * {@code ringAddress} (page-aligned, valid until unregistered) become buffer group {@code groupId}.
     */
    static native int ioUringRegisterBufRing(int fd, long ringAddress, int entries, int groupId);

    /** {@code IORING_UNREGISTER_PBUF_RING} of buffer group {@code groupId}. */
    static native int ioUringUnregisterBufRing(int fd, int groupId);

    /** {@code eventfd(0, EFD_CLOEXEC)}, blocking: io_uring fails a read of a non-blocking one with -EAGAIN. */
    static native int blockingEventFd();

    /** Adds {@code value} to an eventfd's counter. */
    static native int eventFdWrite(int fd, long value);

    /** A direct buffer over {@code length} bytes at {@code address}; the caller keeps the memory alive. */
    static native ByteBuffer wrapMemory(long address, int length);

    /** The address of a direct buffer's element 0. */
    static native long bufferAddress(ByteBuffer buffer);
}
