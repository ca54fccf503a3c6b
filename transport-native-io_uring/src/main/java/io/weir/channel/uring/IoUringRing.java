package io.weir.channel.uring;

import io.weir.channel.unix.Errors;
import io.weir.channel.unix.FileDescriptor;
import java.io.IOException;

/**
 * One io_uring instance: its descriptor, its mmapped rings ({@link SubmissionQueue}, {@link CompletionQueue}) and
 * the way to enter it (through a registered ring descriptor once {@link #registerRingFd()} succeeded). Not
 * thread-safe: the handler uses it on its event loop only; {@link IoUring}'s checks use short-lived ones.
 *
 * <p>{@link #close()} unmaps the rings: nothing may touch the queues afterwards.
 */
final class IoUringRing implements AutoCloseable {
    private final FileDescriptor fd;
    private final long[] info;
    private final SubmissionQueue submissions;
    private final CompletionQueue completions;
    private final int ringFd;
    private int enterFd;
    private int enterFlags;
    private int registeredIndex = -1;
    private boolean closed;

    private IoUringRing(long[] info) {
        this.info = info;
        this.ringFd = (int) info[Native.RING_FD];
        this.fd = new FileDescriptor(ringFd);
        this.enterFd = ringFd;
        this.submissions = new SubmissionQueue(
                Native.wrapMemory(info[Native.RING_SQ_ADDRESS], (int) info[Native.RING_SQ_SIZE]),
                Native.wrapMemory(info[Native.RING_SQES_ADDRESS], (int) info[Native.RING_SQES_SIZE]), info);
        long cqSize = info[Native.RING_CQ_SIZE];
        this.completions = new CompletionQueue(cqSize == 0
                ? Native.wrapMemory(info[Native.RING_SQ_ADDRESS], (int) info[Native.RING_SQ_SIZE])
                : Native.wrapMemory(info[Native.RING_CQ_ADDRESS], (int) cqSize), info);
    }

    /**
     * Sets up a ring of {@code entries} SQEs and {@code cqEntries} CQEs ({@code IORING_SETUP_CQSIZE} is added).
     *
     * @throws io.weir.channel.unix.NativeIoException if {@code io_uring_setup} or an mmap failed
     */
    static IoUringRing open(int entries, int cqEntries, int setupFlags) throws IOException {
        long[] info = new long[Native.RING_INFO_LENGTH];
        int res = Native.ioUringSetup(entries, cqEntries, setupFlags | Native.IORING_SETUP_CQSIZE, info);
        if (res < 0) {
            throw Errors.newIoException("io_uring_setup", res);
        }
        return new IoUringRing(info);
    }

    SubmissionQueue submissions() {
        return submissions;
    }

    CompletionQueue completions() {
        return completions;
    }

    /** The ring's descriptor number. */
    int fd() {
        return ringFd;
    }

    /** {@code IORING_FEAT_*} the kernel reported. */
    int features() {
        return (int) info[Native.RING_FEATURES];
    }

    /** The setup flags the ring was created with. */
    int setupFlags() {
        return (int) info[Native.RING_FLAGS];
    }

    /** Whether enters go through a registered ring descriptor. */
    boolean isRingFdRegistered() {
        return registeredIndex >= 0;
    }

    /** Starts a ring set up with {@code IORING_SETUP_R_DISABLED}; the calling thread becomes its submitter. */
    void enable() throws IOException {
        int res = Native.ioUringEnable(ringFd);
        if (res < 0) {
            throw Errors.newIoException("io_uring_register(IORING_REGISTER_ENABLE_RINGS)", res);
        }
    }

    /**
     * Registers the ring's descriptor for the calling thread, so enters skip the descriptor-table lookup.
     *
     * @return the negative errno if the kernel refused (then enters use the plain descriptor), else 0
     */
    int registerRingFd() {
        int res = Native.ioUringRegisterRingFd(ringFd);
        if (res >= 0) {
            registeredIndex = res;
            enterFd = res;
            enterFlags = Native.IORING_ENTER_REGISTERED_RING;
            return 0;
        }
        return res;
    }

    /** {@code io_uring_enter}: see {@link Native#ioUringEnter}. */
    int enter(int toSubmit, int minComplete, int flags, long timeoutNanos) {
        return Native.ioUringEnter(enterFd, toSubmit, minComplete, flags | enterFlags, timeoutNanos);
    }

    /** Unregisters the ring descriptor (same thread as the registration), unmaps the rings, closes the ring. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (registeredIndex >= 0) {
            Native.ioUringUnregisterRingFd(ringFd, registeredIndex);
            registeredIndex = -1;
            enterFd = ringFd;
            enterFlags = 0;
        }
        Native.ioUringUnmap(info[Native.RING_SQ_ADDRESS], info[Native.RING_SQ_SIZE], info[Native.RING_CQ_ADDRESS],
                info[Native.RING_CQ_SIZE], info[Native.RING_SQES_ADDRESS], info[Native.RING_SQES_SIZE]);
        fd.close();
    }

    @Override
    public String toString() {
        return "IoUringRing(fd=" + ringFd + ", flags=0x" + Integer.toHexString(setupFlags()) + ')';
    }
}
