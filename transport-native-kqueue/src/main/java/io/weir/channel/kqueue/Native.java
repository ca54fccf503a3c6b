package io.weir.channel.kqueue;

/**
 * The JNI methods of the kqueue transport, registered by the library's {@code JNI_OnLoad} (C source:
 * {@code transport-native-kqueue/src/main/c/weir_kqueue.c}). No static initializer may call a native here:
 * {@code FindClass} initializes this class while the library is being loaded.
 *
 * <p>Every native returns a value {@code >= 0} on success and {@code -errno} on failure (see
 * {@link io.weir.channel.unix.Errors}).
 */
final class Native {
    // Proved equal to <sys/event.h>'s values by _Static_assert in weir_kqueue.c. EVFILT_USER differs between
    // platforms (-11 on FreeBSD and libkqueue, -10 on macOS) and is asked for at run time: evfiltUser().
    static final short EVFILT_READ = -1;
    static final short EVFILT_WRITE = -2;
    static final short EV_ADD = 0x0001;
    static final short EV_DELETE = 0x0002;
    static final short EV_ENABLE = 0x0004;
    static final short EV_DISABLE = 0x0008;
    static final short EV_CLEAR = 0x0020;
    static final int EV_ERROR = 0x4000;
    static final int EV_EOF = 0x8000;
    static final int NOTE_TRIGGER = 0x01000000;

    private Native() {
    }

    /** {@code kqueue()}. */
    static native int kqueueCreate();

    /** One {@code kevent} change ({@code EV_SET(ident, filter, flags, fflags, 0, NULL)}), retried on EINTR. */
    static native int keventChange(int kq, int ident, short filter, short flags, int fflags);

    /**
     * {@code kevent} collecting up to {@code maxEvents} into the {@code struct kevent} array at
     * {@code eventsAddress}; {@code timeoutNanos < 0} waits without a timeout, 0 polls; -EINTR is not retried.
     */
    static native int keventWait(int kq, long eventsAddress, int maxEvents, long timeoutNanos);

    static native int sizeofKEvent();

    static native int offsetofKEventIdent();

    static native int offsetofKEventFilter();

    static native int offsetofKEventFlags();

    static native int offsetofKEventFFlags();

    static native int offsetofKEventData();

    /** {@code EVFILT_USER} of the platform the library was compiled for. */
    static native int evfiltUser();

    /** 1 if the library runs on libkqueue (Linux), 0 on a BSD kernel's own kqueue. */
    static native int isLibKQueue();
}
