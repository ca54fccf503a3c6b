package io.weir.handler.ssl.internal.openssl;

import io.netty.internal.tcnative.Buffer;
import io.netty.internal.tcnative.Library;
import io.netty.internal.tcnative.SSL;
import io.netty.internal.tcnative.SSLContext;
import io.weir.util.platform.NativeLibraryLoader;
import io.weir.util.platform.PlatformInfo;
import io.weir.util.platform.SystemProperties;
import java.nio.ByteBuffer;

/**
 * Loads BoringSSL (netty-tcnative's statically linked build) once, through Weir's {@link NativeLibraryLoader}, and
 * says whether it works. Only this class and its siblings touch tcnative's classes, so a class path without them
 * costs a caught {@link NoClassDefFoundError} here and nothing elsewhere.
 */
public final class OpenSslLibrary {
    /** {@code io.weir.ssl.noOpenSsl}: true keeps the OpenSSL provider unavailable (the JDK's is used). Default false. */
    public static final String DISABLE_PROPERTY = "io.weir.ssl.noOpenSsl";
    /** The tcnative class whose presence says the JNI classes are on the class path. */
    private static final String PROBE_CLASS = "io.netty.internal.tcnative.SSL";

    private OpenSslLibrary() {
    }

    /** Whether {@value #DISABLE_PROPERTY} turns the provider off. */
    public static boolean isDisabled() {
        return SystemProperties.getBoolean(DISABLE_PROPERTY, false);
    }

    /** Loads and checks the library; returns null when it is usable, else why not. Never throws. */
    public static Throwable load() {
        if (isDisabled()) {
            return new UnsupportedOperationException("disabled by -D" + DISABLE_PROPERTY + "=true");
        }
        ClassLoader loader = OpenSslLibrary.class.getClassLoader() != null
                ? OpenSslLibrary.class.getClassLoader() : ClassLoader.getSystemClassLoader();
        try {
            Class.forName(PROBE_CLASS, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return new ClassNotFoundException("io.netty:netty-tcnative-classes is not on the class path", e);
        }
        try {
            if (alreadyLoaded()) {
                // Another user of tcnative in this JVM (Netty's OpenSsl) loaded it: a second copy would rebind the
                // JNI methods to a library whose BoringSSL state was never initialised.
                Library.initialize("provided", null);
                return null;
            }
            // tcnative's JNI_OnLoad finds its own name in the file name ("...netty_tcnative...") and takes any
            // text before it as a shaded package prefix: the loader's "lib" + name + "-<random>" keeps it empty.
            NativeLibraryLoader.load("netty_tcnative_" + PlatformInfo.os(), loader);
            // "provided": the library is already loaded; tcnative must not look for one itself.
            if (!Library.initialize("provided", null)) {
                return new UnsatisfiedLinkError("netty-tcnative failed to initialise (Library.initialize)");
            }
            long ctx = SSLContext.make(SSL.SSL_PROTOCOL_TLSV1_2 | SSL.SSL_PROTOCOL_TLSV1_3, SSL.SSL_MODE_SERVER);
            SSLContext.free(ctx);
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    /**
     * Whether tcnative's JNI methods are bound already. {@code Buffer} has no static initialiser, so an unbound
     * method costs an {@link UnsatisfiedLinkError} here and leaves the class usable after loading.
     */
    private static boolean alreadyLoaded() {
        try {
            Buffer.size(ByteBuffer.allocateDirect(1));
            return true;
        } catch (UnsatisfiedLinkError notYet) {
            return false;
        }
    }

    /** The library's version text, e.g. {@code "BoringSSL"}; only after a successful {@link #load()}. */
    public static String versionString() {
        return SSL.versionString();
    }

    /** The library's numeric version ({@code OPENSSL_VERSION_NUMBER}); only after a successful {@link #load()}. */
    public static int version() {
        return SSL.version();
    }

    /** Whether the library knows the named key-exchange group; only after a successful {@link #load()}. */
    public static boolean supportsGroup(String group) {
        try {
            long ctx = SSLContext.make(SSL.SSL_PROTOCOL_TLSV1_3, SSL.SSL_MODE_CLIENT);
            try {
                return SSLContext.setCurvesList(ctx, group);
            } finally {
                SSLContext.free(ctx);
            }
        } catch (Exception e) {
            return false;
        }
    }
}
