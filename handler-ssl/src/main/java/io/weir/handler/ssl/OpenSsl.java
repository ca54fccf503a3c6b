package io.weir.handler.ssl;

import io.weir.handler.ssl.internal.openssl.OpenSslLibrary;
import io.weir.util.platform.LoopLogger;
import io.weir.util.platform.NativeFallback;
import io.weir.util.platform.PlatformInfo;
import java.lang.System.Logger.Level;

/**
 * Whether the {@link SslProvider#OPENSSL} provider can be used in this JVM: netty-tcnative's JNI classes on the
 * class path, and its BoringSSL library (bundled for linux x86_64 and aarch64, macOS and Windows) extracted and
 * loaded by Weir's native loader. Decided once, when this class initialises; never throws.
 *
 * <p>On JDK 24 and later, loading a native library needs native access
 * ({@code --enable-native-access=ALL-UNNAMED} on the class path, {@code =io.weir.common} on the module path);
 * without it loading is refused, {@link #unavailabilityCause()} names the flag and the JDK provider is used.
 * {@code -Dio.weir.ssl.noOpenSsl=true} turns the provider off.
 *
 * <p>When the provider is unavailable (and not turned off on purpose), one line at INFO says why, that
 * {@link SslProvider#defaultProvider()} uses the JDK's engine instead, and what would make BoringSSL load.
 */
public final class OpenSsl {
    private static final LoopLogger LOGGER = LoopLogger.of(OpenSsl.class);
    private static final Throwable UNAVAILABILITY_CAUSE = load();

    private OpenSsl() {
    }

    private static Throwable load() {
        Throwable cause = OpenSslLibrary.load();
        if (cause == null) {
            LOGGER.log(Level.DEBUG, "OpenSSL provider available");
        } else if (OpenSslLibrary.isDisabled()) {
            // Asked for: nothing to report or fix.
            LOGGER.log(Level.DEBUG, "OpenSSL provider disabled by -D" + OpenSslLibrary.DISABLE_PROPERTY);
        } else {
            NativeFallback.report(LOGGER, "OpenSSL (BoringSSL)", cause,
                    "SslProvider.defaultProvider() uses the JDK's TLS engine", fix(cause));
        }
        return cause;
    }

    /** What to do about {@code cause} when native access is not the reason. */
    static String fix(Throwable cause) {
        if (cause instanceof ClassNotFoundException) {
            return "add io.netty:netty-tcnative-classes and io.netty:netty-tcnative-boringssl-static (with the "
                    + "classifier of this platform, " + PlatformInfo.os() + '-' + PlatformInfo.arch()
                    + ") to the class path";
        }
        return NativeFallback.bundledLibraryFix("io.netty:netty-tcnative-boringssl-static",
                PlatformInfo.os() + '-' + PlatformInfo.arch());
    }

    /** Whether the OpenSSL provider works here. */
    public static boolean isAvailable() {
        return UNAVAILABILITY_CAUSE == null;
    }

    /** Why the provider is unavailable, or null if it is available. */
    public static Throwable unavailabilityCause() {
        return UNAVAILABILITY_CAUSE;
    }

    /**
     * Throws the unavailability cause wrapped in an {@link UnsatisfiedLinkError} if the provider is unavailable.
     */
    public static void ensureAvailability() {
        if (UNAVAILABILITY_CAUSE != null) {
            throw (UnsatisfiedLinkError) new UnsatisfiedLinkError("the OpenSSL provider is unavailable: "
                    + UNAVAILABILITY_CAUSE).initCause(UNAVAILABILITY_CAUSE);
        }
    }

    /** The library's name and version (e.g. {@code "BoringSSL"}), or null if unavailable. */
    public static String versionString() {
        return isAvailable() ? OpenSslLibrary.versionString() : null;
    }

    /** The library's numeric version, or -1 if unavailable. */
    public static int version() {
        return isAvailable() ? OpenSslLibrary.version() : -1;
    }
}
