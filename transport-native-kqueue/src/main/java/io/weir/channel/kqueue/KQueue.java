package io.weir.channel.kqueue;

import io.weir.channel.unix.Errors;
import io.weir.channel.unix.FileDescriptor;
import io.weir.channel.unix.Unix;
import io.weir.util.platform.LoopLogger;
import io.weir.util.platform.NativeFallback;
import io.weir.util.platform.NativeLibraryLoader;
import io.weir.util.platform.PlatformInfo;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.Locale;

/**
 * Whether the kqueue transport can be used in this JVM: the bundled JNI library loaded, and a kqueue opened and
 * its wake-up event added as a check. Decided once, when this class initializes; loading the library also makes
 * {@link io.weir.channel.unix} usable.
 *
 * <pre>{@code
 * IoHandlerFactory io = KQueue.isAvailable() ? KQueueIoHandler.newFactory() : NioIoHandler.newFactory();
 * }</pre>
 *
 * <p>The library is {@code META-INF/native/libweir_transport_native_kqueue_<arch>.<so|dylib>} of this module's
 * jar ({@code arch} is {@code os.arch}, with {@code amd64} called {@code x86_64}), or a library of that name on
 * {@code java.library.path}; it is extracted and loaded by {@link NativeLibraryLoader}. On macOS and the BSDs the
 * build compiles it against the system's kqueue. On Linux it is built only when the build is given a libkqueue
 * prefix ({@code -Dweir.libkqueue.prefix=DIR}, see the module's pom): libkqueue emulates kqueue over epoll, which
 * lets CI run the transport; without it the jar holds no library and {@link #unavailabilityCause()} says so. On
 * JDK 24 and later the JVM needs {@code --enable-native-access} for Weir, as for epoll.
 *
 * <p>When kqueue is unavailable off Linux, one line at INFO says why, that code choosing by {@link #isAvailable()}
 * runs on NIO, and what would make kqueue work; on Linux only a DEBUG line.
 *
 * <p>Thread-safe.
 */
public final class KQueue {
    /** The library's base name; the build appends {@code _<arch>}. */
    static final String LIBRARY_NAME = "weir_transport_native_kqueue";

    private static final LoopLogger LOGGER = LoopLogger.of(KQueue.class);
    private static final Throwable UNAVAILABILITY_CAUSE = load();

    private KQueue() {
    }

    private static Throwable load() {
        try {
            NativeLibraryLoader.load(libraryName(), KQueue.class.getClassLoader() != null
                    ? KQueue.class.getClassLoader() : ClassLoader.getSystemClassLoader());
            Unix.ensureAvailability();
            check();
            LOGGER.log(Level.DEBUG, "kqueue transport available");
            return null;
        } catch (Throwable t) {
            LOGGER.log(Level.DEBUG, "kqueue transport unavailable", t);
            if (PlatformInfo.isLinux()) {
                // No INFO line: kqueue on Linux is an emulation for CI; epoll is this platform's transport.
                UnsatisfiedLinkError error = new UnsatisfiedLinkError("kqueue on Linux needs the library built"
                        + " against libkqueue: build with -Dweir.libkqueue.prefix=DIR (see"
                        + " transport-native-kqueue/pom.xml)");
                error.initCause(t);
                return error;
            }
            NativeFallback.report(LOGGER, "kqueue", t, "transports chosen by KQueue.isAvailable() run on NIO",
                    t instanceof UnsatisfiedLinkError ? NativeFallback.bundledLibraryFix(
                            "weir-transport-native-kqueue", PlatformInfo.os() + '-' + libraryArch())
                            : "the kernel refused kqueue or EVFILT_USER: see the cause");
            return t;
        }
    }

    /**
     * The name the loader needs. The loader appends its own architecture name ({@link PlatformInfo#arch()});
     * where that differs from the build's ({@code aarch_64} against {@code aarch64}), the full name is passed.
     */
    static String libraryName() {
        String arch = libraryArch();
        return arch.equals(PlatformInfo.arch()) ? LIBRARY_NAME : LIBRARY_NAME + '_' + arch;
    }

    /** The architecture in the library's file name, as the build computes it: os.arch, amd64 named x86_64. */
    private static String libraryArch() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        return "amd64".equals(arch) ? "x86_64" : arch;
    }

    /** Opens a kqueue and adds the user event every handler needs, so a platform without them shows up here. */
    private static void check() throws IOException {
        int kq = Native.kqueueCreate();
        if (kq < 0) {
            throw Errors.newIoException("kqueue", kq);
        }
        FileDescriptor kqueue = new FileDescriptor(kq);
        try {
            int res = Native.keventChange(kq, 0, (short) Native.evfiltUser(),
                    (short) (Native.EV_ADD | Native.EV_CLEAR), 0);
            if (res < 0) {
                throw Errors.newIoException("kevent(EVFILT_USER, EV_ADD)", res);
            }
        } finally {
            kqueue.close();
        }
    }

    /** Whether the kqueue transport can be used. */
    public static boolean isAvailable() {
        return UNAVAILABILITY_CAUSE == null;
    }

    /**
     * Whether the library runs on libkqueue, the user-space emulation on Linux, rather than on a BSD kernel's own
     * kqueue ({@code false} when the transport is unavailable).
     */
    public static boolean isEmulated() {
        return UNAVAILABILITY_CAUSE == null && Native.isLibKQueue() != 0;
    }

    /**
     * Returns normally if {@link #isAvailable()}.
     *
     * @throws UnsatisfiedLinkError whose cause is {@link #unavailabilityCause()}
     */
    public static void ensureAvailability() {
        if (UNAVAILABILITY_CAUSE != null) {
            UnsatisfiedLinkError error = new UnsatisfiedLinkError("kqueue transport unavailable: "
                    + UNAVAILABILITY_CAUSE);
            error.initCause(UNAVAILABILITY_CAUSE);
            throw error;
        }
    }

    /** Why the kqueue transport cannot be used, or {@code null} if it can. */
    public static Throwable unavailabilityCause() {
        return UNAVAILABILITY_CAUSE;
    }
}
