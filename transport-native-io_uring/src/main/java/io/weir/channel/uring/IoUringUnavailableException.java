package io.weir.channel.uring;

import io.weir.channel.unix.NativeIoException;

/**
 * Why this kernel cannot run the io_uring transport although the library loaded, with what would fix it: the
 * {@link IoUring#unavailabilityCause()} for a kernel without io_uring, with io_uring disabled or filtered, or too
 * old. Thrown once, while {@link IoUring} initializes.
 */
final class IoUringUnavailableException extends UnsupportedOperationException {
    private static final long serialVersionUID = 1L;
    /** The oldest kernel with everything {@link IoUring} checks for. */
    static final String MINIMUM_KERNEL = "Linux 5.11";

    private final String fix;

    private IoUringUnavailableException(String message, String fix, Throwable cause) {
        super(message, cause);
        this.fix = fix;
    }

    /** What would make io_uring work, for the fallback line. */
    String fix() {
        return fix;
    }

    /** The kernel has io_uring, but not what this transport builds on. */
    static IoUringUnavailableException tooOld(String what) {
        return new IoUringUnavailableException("kernel too old for the io_uring transport (" + what + "; needs "
                + MINIMUM_KERNEL + " or later, this is " + System.getProperty("os.version") + ')',
                "run on " + MINIMUM_KERNEL + " or later", null);
    }

    /**
     * Explains a failed {@code io_uring_setup}.
     *
     * @param disabledSysctl the value of {@code kernel.io_uring_disabled}, {@code null} if the kernel has none
     */
    static IoUringUnavailableException ofSetupFailure(NativeIoException e, String disabledSysctl) {
        int errno = e.errno();
        if (errno == Native.ENOSYS) {
            return new IoUringUnavailableException("the kernel has no io_uring (io_uring_setup: ENOSYS; a kernel"
                    + " built without CONFIG_IO_URING, or older than Linux 5.1)",
                    "run on " + MINIMUM_KERNEL + " or later built with CONFIG_IO_URING", e);
        }
        if (errno == Native.EPERM) {
            if ("2".equals(disabledSysctl)) {
                return new IoUringUnavailableException("io_uring is disabled (kernel.io_uring_disabled = 2)",
                        "set the sysctl kernel.io_uring_disabled to 0", e);
            }
            if ("1".equals(disabledSysctl)) {
                return new IoUringUnavailableException("io_uring is restricted to the group kernel.io_uring_group"
                        + " (kernel.io_uring_disabled = 1) and this process is not in it",
                        "run as a member of the group kernel.io_uring_group names, or set kernel.io_uring_disabled"
                        + " to 0", e);
            }
            return new IoUringUnavailableException("io_uring_setup refused with EPERM although"
                    + " kernel.io_uring_disabled is " + (disabledSysctl == null ? "absent" : disabledSysctl)
                    + ": a seccomp filter (container runtimes block io_uring by default) or a security module",
                    "allow io_uring_setup, io_uring_enter and io_uring_register in the seccomp profile", e);
        }
        return new IoUringUnavailableException("io_uring_setup failed: " + e.getMessage(), "see the cause", e);
    }
}
