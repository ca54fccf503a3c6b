package io.weir.channel.uring;

import io.weir.channel.unix.NativeIoException;
import io.weir.channel.unix.Unix;
import io.weir.util.platform.LoopLogger;
import io.weir.util.platform.NativeFallback;
import io.weir.util.platform.NativeLibraryLoader;
import io.weir.util.platform.PlatformInfo;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Whether the io_uring transport can be used in this JVM, and what the kernel offers it. Decided once, when this
 * class initializes: Linux, the bundled JNI library loaded, and a ring set up, probed and closed as a check.
 * Loading the library also makes {@link io.weir.channel.unix} usable.
 *
 * <pre>{@code
 * IoHandlerFactory io = IoUring.isAvailable() ? IoUringIoHandler.newFactory() : NioIoHandler.newFactory();
 * }</pre>
 *
 * <p><b>Why it may be unavailable</b>, each with its own {@link #unavailabilityCause()}: not Linux; the library
 * not loadable (see {@link NativeLibraryLoader}; on JDK 24 and later the JVM needs {@code --enable-native-access});
 * a kernel without io_uring ({@code ENOSYS}); io_uring disabled ({@code kernel.io_uring_disabled} = 2, or 1 for a
 * process outside {@code kernel.io_uring_group}) or refused by a seccomp filter ({@code EPERM}); a kernel older than
 * Linux 5.11, which lacks what this transport builds on ({@code IORING_FEAT_NODROP}, {@code SUBMIT_STABLE},
 * {@code EXT_ARG}, the probe, and the {@code READ}, {@code NOP} and {@code ASYNC_CANCEL} operations).
 *
 * <p><b>What the kernel offers</b> is probed here too: the operations ({@link #isOperationSupported}), and the
 * best setup flags, tried in order: {@code SINGLE_ISSUER | DEFER_TASKRUN} (Linux 6.1), then
 * {@code COOP_TASKRUN | TASKRUN_FLAG} (5.19), then none; each with {@code SUBMIT_ALL} where the first two are
 * accepted. Handlers use the first set the kernel accepted.
 *
 * <p>When io_uring is unavailable on Linux, one line at INFO says why, that code choosing by
 * {@link #isAvailable()} runs on another transport, and what would make io_uring work (see
 * {@code NativeFallback}); off Linux only a DEBUG line.
 *
 * <p>Thread-safe.
 */
public final class IoUring {
    /** The library's base name; the build appends {@code _<arch>}. */
    static final String LIBRARY_NAME = "weir_transport_native_io_uring";
    /** The sysctl that turns io_uring off: 0 allowed, 1 only for {@code kernel.io_uring_group}, 2 off. */
    static final Path DISABLED_SYSCTL = Path.of("/proc/sys/kernel/io_uring_disabled");

    private static final LoopLogger LOGGER = LoopLogger.of(IoUring.class);
    private static final int CHECK_RING_ENTRIES = 8;
    private static final int REQUIRED_FEATURES =
            Native.IORING_FEAT_NODROP | Native.IORING_FEAT_SUBMIT_STABLE | Native.IORING_FEAT_EXT_ARG;
    private static final byte[] REQUIRED_OPS = {
        IoUringIoOps.OP_NOP, IoUringIoOps.OP_READ, IoUringIoOps.OP_ASYNC_CANCEL
    };
    /** Setup flag sets, best first; the first the kernel accepts wins. */
    static final int[] SETUP_FLAG_CANDIDATES = {
        Native.IORING_SETUP_SUBMIT_ALL | Native.IORING_SETUP_SINGLE_ISSUER | Native.IORING_SETUP_DEFER_TASKRUN,
        Native.IORING_SETUP_SUBMIT_ALL | Native.IORING_SETUP_COOP_TASKRUN | Native.IORING_SETUP_TASKRUN_FLAG,
        0
    };

    private static final byte[] SUPPORTED_OPS = new byte[Native.MAX_OPCODES];
    private static int setupFlags;
    private static int features;
    private static final Throwable UNAVAILABILITY_CAUSE = load();

    private IoUring() {
    }

    private static Throwable load() {
        if (!PlatformInfo.isLinux()) {
            LOGGER.log(Level.DEBUG, "io_uring transport unavailable: not Linux");
            return new UnsupportedOperationException("io_uring needs Linux (this is "
                    + System.getProperty("os.name") + ')');
        }
        try {
            NativeLibraryLoader.load(libraryName(), IoUring.class.getClassLoader() != null
                    ? IoUring.class.getClassLoader() : ClassLoader.getSystemClassLoader());
            Unix.ensureAvailability();
            check();
            LOGGER.log(Level.DEBUG, "io_uring transport available, setup flags 0x" + Integer.toHexString(setupFlags));
            return null;
        } catch (Throwable t) {
            LOGGER.log(Level.DEBUG, "io_uring transport unavailable", t);
            NativeFallback.report(LOGGER, "io_uring", t,
                    "transports chosen by IoUring.isAvailable() run on epoll or NIO", fix(t));
            return t;
        }
    }

    /** What to do about {@code cause} when native access is not the reason (see {@code NativeFallback}). */
    static String fix(Throwable cause) {
        if (cause instanceof UnsatisfiedLinkError) {
            return NativeFallback.bundledLibraryFix("weir-transport-native-io_uring",
                    "linux-" + buildArch(System.getProperty("os.arch", "")));
        }
        if (cause instanceof IoUringUnavailableException) {
            return ((IoUringUnavailableException) cause).fix();
        }
        return "see the cause";
    }

    /** The name the loader needs (see {@code Epoll.libraryName()}, which this mirrors). */
    static String libraryName() {
        String arch = buildArch(System.getProperty("os.arch", ""));
        return arch.equals(PlatformInfo.arch()) ? LIBRARY_NAME : LIBRARY_NAME + '_' + arch;
    }

    /** The architecture in the library's file name, as the build computes it: os.arch, amd64 named x86_64. */
    static String buildArch(String osArch) {
        String arch = osArch.toLowerCase(Locale.ROOT);
        return "amd64".equals(arch) ? "x86_64" : arch;
    }

    /** Sets up, probes and closes rings: what every handler needs must work here, not fail in a loop. */
    private static void check() throws IOException {
        try (IoUringRing ring = openForCheck(0)) {
            features = ring.features();
            int missing = REQUIRED_FEATURES & ~features;
            if (missing != 0) {
                throw IoUringUnavailableException.tooOld("the kernel lacks io_uring features 0x"
                        + Integer.toHexString(missing) + " (IORING_FEAT_NODROP, SUBMIT_STABLE, EXT_ARG)");
            }
            int res = Native.ioUringProbe(ring.fd(), SUPPORTED_OPS);
            if (res < 0) {
                throw IoUringUnavailableException.tooOld("IORING_REGISTER_PROBE failed: "
                        + new NativeIoException("io_uring_register", -res).getMessage());
            }
            for (byte op : REQUIRED_OPS) {
                if (SUPPORTED_OPS[op] == 0) {
                    throw IoUringUnavailableException.tooOld("the kernel lacks io_uring operation " + op);
                }
            }
        }
        for (int candidate : SETUP_FLAG_CANDIDATES) {
            if (accepts(candidate)) {
                setupFlags = candidate;
                return;
            }
        }
    }

    private static IoUringRing openForCheck(int flags) throws IOException {
        try {
            return IoUringRing.open(CHECK_RING_ENTRIES, CHECK_RING_ENTRIES * 2, flags);
        } catch (NativeIoException e) {
            throw IoUringUnavailableException.ofSetupFailure(e, readDisabledSysctl());
        }
    }

    private static boolean accepts(int flags) {
        if (flags == 0) {
            return true;
        }
        try (IoUringRing ignored = IoUringRing.open(CHECK_RING_ENTRIES, CHECK_RING_ENTRIES * 2, flags)) {
            return true;
        } catch (IOException e) {
            LOGGER.log(Level.DEBUG, "io_uring setup flags 0x" + Integer.toHexString(flags) + " refused: " + e);
            return false;
        }
    }

    /** {@code kernel.io_uring_disabled}'s value, or {@code null} if this kernel has no such sysctl. */
    static String readDisabledSysctl() {
        try {
            return Files.readString(DISABLED_SYSCTL, StandardCharsets.US_ASCII).trim();
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    /** Whether the io_uring transport can be used. */
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
            UnsatisfiedLinkError error = new UnsatisfiedLinkError("io_uring transport unavailable: "
                    + UNAVAILABILITY_CAUSE);
            error.initCause(UNAVAILABILITY_CAUSE);
            throw error;
        }
    }

    /** Why the io_uring transport cannot be used, or {@code null} if it can. */
    public static Throwable unavailabilityCause() {
        return UNAVAILABILITY_CAUSE;
    }

    /**
     * Whether this kernel supports the operation {@code opcode} ({@code IORING_OP_*}, e.g.
     * {@link IoUringIoOps#OP_SEND_ZC}), as {@code IORING_REGISTER_PROBE} reported it. {@code false} whenever io_uring
     * is not {@linkplain #isAvailable() available}.
     */
    public static boolean isOperationSupported(int opcode) {
        return UNAVAILABILITY_CAUSE == null && opcode >= 0 && opcode < SUPPORTED_OPS.length
                && SUPPORTED_OPS[opcode] != 0;
    }

    /**
     * Whether handlers can receive into provided buffer rings with multishot receives: the kernel has
     * {@code IORING_FEAT_REG_REG_RING} (Linux 6.3), which postdates both {@code IORING_REGISTER_PBUF_RING} (5.19)
     * and {@code IORING_RECV_MULTISHOT} (6.0); no flag names those two themselves.
     */
    static boolean isProvidedBufferRingSupported() {
        return UNAVAILABILITY_CAUSE == null && (features & Native.IORING_FEAT_REG_REG_RING) != 0
                && isOperationSupported(IoUringIoOps.OP_RECV);
    }

    /** The setup flags handlers use (the best of {@link #SETUP_FLAG_CANDIDATES} the kernel accepted). */
    static int setupFlags() {
        ensureAvailability();
        return setupFlags;
    }
}
