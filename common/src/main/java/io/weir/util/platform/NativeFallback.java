package io.weir.util.platform;

import java.lang.System.Logger.Level;
import java.util.regex.Pattern;

/**
 * The one line a native component logs when it cannot be used and its pure-Java twin serves instead (epoll and
 * kqueue give way to NIO, BoringSSL to the JDK's TLS engine): what is unavailable and why, what runs instead, and
 * what would make the native one work, as
 * {@code epoll unavailable (java.lang.UnsatisfiedLinkError: ...): transports chosen by Epoll.isAvailable() run on
 * NIO; start the JVM with --enable-native-access=ALL-UNNAMED}.
 *
 * <p>At INFO: the application works, only slower, so it is news rather than a warning. A component reports from
 * its availability check, which runs once per JVM (in a static initializer), so the line appears once. Stateless;
 * thread-safe.
 */
public final class NativeFallback {
    private static final Pattern LINE_BREAKS = Pattern.compile("\\s*\\R\\s*");

    private NativeFallback() {
    }

    /**
     * Logs the fallback line at INFO and returns it. The fix it names is starting the JVM with
     * {@link NativeLibraryLoader#enableNativeAccessOption()} when the library loader refused for want of native
     * access (a {@link UnsatisfiedLinkError} in {@code cause}'s chain while
     * {@link NativeLibraryLoader#refusesWithoutNativeAccess()}), and {@code otherFix} otherwise.
     *
     * @param logger the component's logger
     * @param component what is unavailable, e.g. {@code "epoll"}
     * @param cause why, as the component's {@code unavailabilityCause()} gives it
     * @param fallback what serves instead, e.g. {@code "running on NIO"}
     * @param otherFix what would help when native access is not the reason
     */
    public static String report(LoopLogger logger, String component, Throwable cause, String fallback,
                                String otherFix) {
        String line = line(component, cause, fallback,
                fix(cause, NativeLibraryLoader.refusesWithoutNativeAccess(), otherFix));
        logger.log(Level.INFO, line);
        return line;
    }

    /**
     * The fix for a JNI library bundled in a jar that could not be loaded: the jar built for this platform, and
     * a directory {@link NativeLibraryLoader} can extract the library to.
     *
     * @param jar the artifact that holds the library, e.g. {@code "weir-transport-native-epoll"}
     * @param platform the platform it must be built for, e.g. {@code "linux-x86_64"}
     */
    public static String bundledLibraryFix(String jar, String platform) {
        return "the class path needs " + jar + " built for " + platform + ", and its library is extracted to"
                + " java.io.tmpdir (or -D" + NativeLibraryLoader.WORKDIR_PROPERTY + "=DIR), which must be writable"
                + " and not mounted noexec";
    }

    static String fix(Throwable cause, boolean refusedWithoutNativeAccess, String otherFix) {
        if (refusedWithoutNativeAccess) {
            for (Throwable t = cause; t != null; t = t.getCause()) {
                if (t instanceof UnsatisfiedLinkError) {
                    return "start the JVM with " + NativeLibraryLoader.enableNativeAccessOption();
                }
            }
        }
        return otherFix;
    }

    /** {@code "<component> unavailable (<cause>): <fallback>; <fix>"}, the cause's message kept to one line. */
    static String line(String component, Throwable cause, String fallback, String fix) {
        String why = cause == null ? "no cause given" : LINE_BREAKS.matcher(cause.toString()).replaceAll(" ");
        return component + " unavailable (" + why + "): " + fallback + "; " + fix;
    }
}
