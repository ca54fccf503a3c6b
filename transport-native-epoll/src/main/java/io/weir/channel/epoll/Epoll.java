package io.weir.channel.epoll;

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
 * Whether the epoll transport can be used in this JVM: Linux, the bundled JNI library loaded, and an epoll
 * and an eventfd descriptor opened as a check. Decided once, when this class initializes; loading the library
 * also makes {@link io.weir.channel.unix} usable.
 *
 * <pre>{@code
 * IoHandlerFactory io = Epoll.isAvailable() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
 * }</pre>
 *
 * <p>The library is {@code META-INF/native/libweir_transport_native_epoll_<arch>.so} of this module's jar
 * ({@code arch} is {@code os.arch}, with {@code amd64} called {@code x86_64}), or a library of that name on
 * {@code java.library.path}; it is extracted and loaded by {@link NativeLibraryLoader}. On JDK 24 and later
 * the JVM needs {@code --enable-native-access} for Weir ({@code ALL-UNNAMED} on the class path; on the module
 * path {@code io.weir.common}), or loading is refused and {@link #unavailabilityCause()} names the flag.
 *
 * <p>When epoll is unavailable on Linux, one line at INFO says why, that code choosing by {@link #isAvailable()}
 * runs on NIO, and what would make epoll work (see {@code NativeFallback}); off Linux only a DEBUG line.
 *
 * <p>Thread-safe.
 */
public final class Epoll {
    /** The library's base name; the build appends {@code _<arch>}. */
    static final String LIBRARY_NAME = "weir_transport_native_epoll";

    private static final LoopLogger LOGGER = LoopLogger.of(Epoll.class);
    private static final Throwable UNAVAILABILITY_CAUSE = load();

    private Epoll() {
    }

    private static Throwable load() {
        if (!PlatformInfo.isLinux()) {
            // Nothing to fix here (epoll is Linux's), so no INFO line: NIO or kqueue is this platform's transport.
            LOGGER.log(Level.DEBUG, "epoll transport unavailable: not Linux");
            return new UnsupportedOperationException("epoll needs Linux (this is " + System.getProperty("os.name") + ')');
        }
        try {
            NativeLibraryLoader.load(libraryName(), Epoll.class.getClassLoader() != null
                    ? Epoll.class.getClassLoader() : ClassLoader.getSystemClassLoader());
            Unix.ensureAvailability();
            check();
            LOGGER.log(Level.DEBUG, "epoll transport available");
            return null;
        } catch (Throwable t) {
            LOGGER.log(Level.DEBUG, "epoll transport unavailable", t);
            NativeFallback.report(LOGGER, "epoll", t, "transports chosen by Epoll.isAvailable() run on NIO", fix(t));
            return t;
        }
    }

    /** What to do about {@code cause} when native access is not the reason (see {@code NativeFallback}). */
    static String fix(Throwable cause) {
        if (cause instanceof UnsatisfiedLinkError) {
            return NativeFallback.bundledLibraryFix("weir-transport-native-epoll",
                    "linux-" + buildArch(System.getProperty("os.arch", "")));
        }
        return "the kernel refused epoll or eventfd (a seccomp filter or a kernel without them): see the cause";
    }

    /**
     * The name the loader needs. The loader appends its own architecture name ({@link PlatformInfo#arch()});
     * where that differs from the build's ({@code aarch_64} against {@code aarch64}), the full name is passed.
     */
    static String libraryName() {
        String arch = buildArch(System.getProperty("os.arch", ""));
        return arch.equals(PlatformInfo.arch()) ? LIBRARY_NAME : LIBRARY_NAME + '_' + arch;
    }

    /** The architecture in the library's file name, as the build computes it: os.arch, amd64 named x86_64. */
    static String buildArch(String osArch) {
        String arch = osArch.toLowerCase(Locale.ROOT);
        return "amd64".equals(arch) ? "x86_64" : arch;
    }

    /** Opens and closes what every handler needs, so a kernel without them shows up here, not in a loop. */
    private static void check() throws IOException {
        int epfd = Native.epollCreate();
        if (epfd < 0) {
            throw Errors.newIoException("epoll_create1", epfd);
        }
        FileDescriptor epoll = new FileDescriptor(epfd);
        try {
            int eventFd = Native.eventFd();
            if (eventFd < 0) {
                throw Errors.newIoException("eventfd", eventFd);
            }
            new FileDescriptor(eventFd).close();
        } finally {
            epoll.close();
        }
    }

    /** Whether the epoll transport can be used. */
    public static boolean isAvailable() {
        return UNAVAILABILITY_CAUSE == null;
    }

    /**
     * Returns normally if {@link #isAvailable()}.
     *
     * @throws UnsatisfiedLinkError whose cause is {@link #unavailabilityCause()}
     */
    public static void ensureAvailability() {
        if (UNAVAILABILITY_CAUSE != null) {
            UnsatisfiedLinkError error = new UnsatisfiedLinkError("epoll transport unavailable: " + UNAVAILABILITY_CAUSE);
            error.initCause(UNAVAILABILITY_CAUSE);
            throw error;
        }
    }

    /** Why the epoll transport cannot be used, or {@code null} if it can. */
    public static Throwable unavailabilityCause() {
        return UNAVAILABILITY_CAUSE;
    }
}
