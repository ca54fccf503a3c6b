package io.weir.channel.uring;

import java.nio.channels.FileChannel;

/**
 * The JNI methods behind {@link FileRegionSplicer} besides the ring itself (C source:
 * {@code transport-native-io_uring/src/main/c/weir_iouring_splice.c}), registered by the library's
 * {@code JNI_OnLoad}. No static initializer may call a native here. Every native returns a value {@code >= 0} on
 * success and {@code -errno} on failure; the C file proves each constant with a {@code _Static_assert}.
 */
final class IoUringSpliceNative {
    /** {@code SPLICE_F_MOVE}: a hint to move pages rather than copy them. */
    static final int SPLICE_F_MOVE = 1;
    /** {@code SPLICE_F_NONBLOCK}: the pipe side never waits; a full socket answers {@code -EAGAIN}. */
    static final int SPLICE_F_NONBLOCK = 2;

    // The slots of the int[] pipe() fills (the C enum lists the same).
    static final int PIPE_READ = 0;
    static final int PIPE_WRITE = 1;
    static final int PIPE_CAPACITY = 2;
    static final int PIPE_INFO_LENGTH = 3;

    private IoUringSpliceNative() {
    }

    /**
     * {@code pipe2(O_NONBLOCK | O_CLOEXEC)} with a capacity of {@code wantedCapacity} bytes if the user's pipe
     * limits allow it (the default otherwise); fills {@code info} (at least {@link #PIPE_INFO_LENGTH} slots, see
     * {@code PIPE_*}). The caller owns both ends. On failure nothing is left open.
     */
    static native int pipe(int wantedCapacity, int[] info);

    /** The descriptor of a JDK file channel; {@code -EBADF} for another kind of channel or a closed one. */
    static native int fileDescriptor(FileChannel channel);
}
