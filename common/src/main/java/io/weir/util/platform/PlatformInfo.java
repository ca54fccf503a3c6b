package io.weir.util.platform;

import java.lang.System.Logger.Level;
import java.util.Locale;

/**
 * Facts about the running JVM and OS, decided once at class initialisation.
 *
 * <p>The central decision is whether Weir uses {@code sun.misc.Unsafe}. It does when all of these hold:
 * {@code -Dio.weir.noUnsafe=true} is not set; the JDK is older than 24, or the user opted in with
 * {@code -Dio.weir.tryUnsafe=true} (JDK 24+ prints a warning on the first Unsafe memory access, see JEP 471,
 * and Weir never makes an application print it unasked); and JCTools can reach the Unsafe instance.
 * Every Unsafe path in Weir has a VarHandle/ByteBuffer twin that is used otherwise.
 */
public final class PlatformInfo {
    /** {@code io.weir.noUnsafe}: when true, Weir never touches sun.misc.Unsafe. Default false. */
    public static final String NO_UNSAFE_PROPERTY = "io.weir.noUnsafe";
    /** {@code io.weir.tryUnsafe}: on JDK 24+, opt in to Unsafe (and its JDK warning). Default false. */
    public static final String TRY_UNSAFE_PROPERTY = "io.weir.tryUnsafe";
    /** The first JDK feature release that warns on sun.misc.Unsafe memory access by default. */
    public static final int FIRST_JDK_WARNING_ON_UNSAFE = 24;

    private static final int JAVA_VERSION = Runtime.version().feature();
    private static final String OS = normalizeOs(System.getProperty("os.name", ""));
    private static final String ARCH = normalizeArch(System.getProperty("os.arch", ""));
    private static final Throwable UNSAFE_UNAVAILABILITY_CAUSE = findUnsafeUnavailabilityCause();

    static {
        if (UNSAFE_UNAVAILABILITY_CAUSE != null) {
            LoopLogger.of(PlatformInfo.class).log(Level.DEBUG,
                    "sun.misc.Unsafe not used: " + UNSAFE_UNAVAILABILITY_CAUSE.getMessage());
        }
    }

    private PlatformInfo() {
    }

    /** The Java feature release, e.g. 17 or 25. */
    public static int javaVersion() {
        return JAVA_VERSION;
    }

    /** Whether Weir's Unsafe paths are in use. */
    public static boolean hasUnsafe() {
        return UNSAFE_UNAVAILABILITY_CAUSE == null;
    }

    /** Why Unsafe is not in use, or {@code null} when it is. */
    public static Throwable unsafeUnavailabilityCause() {
        return UNSAFE_UNAVAILABILITY_CAUSE;
    }

    /** The OS name normalised to {@code linux}, {@code osx}, {@code windows}, {@code freebsd}, … */
    public static String os() {
        return OS;
    }

    /** The CPU architecture normalised to {@code x86_64}, {@code aarch_64}, … */
    public static String arch() {
        return ARCH;
    }

    /** Whether the OS is Linux. */
    public static boolean isLinux() {
        return "linux".equals(OS);
    }

    private static Throwable findUnsafeUnavailabilityCause() {
        if (SystemProperties.getBoolean(NO_UNSAFE_PROPERTY, false)) {
            return new UnsupportedOperationException("disabled by -D" + NO_UNSAFE_PROPERTY + "=true");
        }
        if (JAVA_VERSION >= FIRST_JDK_WARNING_ON_UNSAFE && !SystemProperties.getBoolean(TRY_UNSAFE_PROPERTY, false)) {
            return new UnsupportedOperationException("JDK " + JAVA_VERSION
                    + " warns on sun.misc.Unsafe memory access; opt in with -D" + TRY_UNSAFE_PROPERTY + "=true");
        }
        try {
            // Reading the static field only reflects on Unsafe.theUnsafe; no memory-access method runs here.
            if (org.jctools.util.UnsafeAccess.UNSAFE == null) {
                return new UnsupportedOperationException("sun.misc.Unsafe.theUnsafe is not reachable");
            }
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    private static String normalizeOs(String name) {
        String n = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "");
        if (n.startsWith("linux")) {
            return "linux";
        }
        if (n.startsWith("macosx") || n.startsWith("osx") || n.startsWith("darwin")) {
            return "osx";
        }
        if (n.startsWith("windows")) {
            return "windows";
        }
        if (n.startsWith("freebsd")) {
            return "freebsd";
        }
        if (n.startsWith("openbsd")) {
            return "openbsd";
        }
        if (n.startsWith("netbsd")) {
            return "netbsd";
        }
        return n.isEmpty() ? "unknown" : n;
    }

    private static String normalizeArch(String name) {
        String n = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "");
        switch (n) {
            case "x8664", "amd64", "x64", "em64t":
                return "x86_64";
            case "aarch64", "arm64":
                return "aarch_64";
            case "x8632", "x86", "i386", "i486", "i586", "i686":
                return "x86_32";
            case "riscv64":
                return "riscv64";
            case "ppc64le":
                return "ppcle_64";
            case "s390x":
                return "s390_64";
            default:
                return n.isEmpty() ? "unknown" : n;
        }
    }
}
