package io.weir.util.platform;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.URL;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Loads a JNI library shipped inside a jar, for the native transports.
 *
 * <p>{@link #load} tries, in order, until one works:
 * <ol>
 *   <li>{@code System.loadLibrary(name)}: a library the user installed on {@code java.library.path};</li>
 *   <li>the resource {@code META-INF/native/lib<name>_<arch>.<ext>} of {@code loader}, then
 *       {@code META-INF/native/lib<name>.<ext>} ({@code ext} is {@code so}, {@code dylib} (then {@code jnilib}) or {@code dll}, and
 *       Windows names drop the {@code lib} prefix; {@code arch} is {@link PlatformInfo#arch()}), copied to a
 *       fresh owner-only temporary file in {@value #WORKDIR_PROPERTY} (default {@code java.io.tmpdir}) and
 *       loaded with {@code System.load}. The file is deleted right after loading on POSIX systems (the
 *       mapping stays valid) and on exit elsewhere.</li>
 * </ol>
 * If nothing works, the {@link UnsatisfiedLinkError} lists every attempt with its reason, and carries each
 * underlying failure as a suppressed exception. Thread-safe; loading a library twice is harmless.
 *
 * <p>From JDK {@value #FIRST_JDK_WARNING_ON_JNI} on, loading a library from a module without native access
 * makes the JDK print a warning (JEP 472). Weir never makes an application print it unasked: unless native
 * access is enabled for this module ({@code --enable-native-access=io.weir.common}, or {@code =ALL-UNNAMED}
 * on the class path) or {@value #ALLOW_WARNING_PROPERTY} is true, {@link #load} refuses with an
 * {@link UnsatisfiedLinkError} that says so, and callers fall back to their pure-Java path.
 */
public final class NativeLibraryLoader {
    /** {@code io.weir.native.workdir}: where native libraries are extracted. Default: {@code java.io.tmpdir}. */
    public static final String WORKDIR_PROPERTY = "io.weir.native.workdir";
    /** The folder inside jars that holds native libraries. */
    public static final String NATIVE_RESOURCE_FOLDER = "META-INF/native/";

    /**
     * {@code io.weir.native.allowWarning}: on JDK {@value #FIRST_JDK_WARNING_ON_JNI}+ without native access,
     * load anyway and let the JDK print its warning. Default false. Read on every {@link #load}.
     */
    public static final String ALLOW_WARNING_PROPERTY = "io.weir.native.allowWarning";
    /** The first JDK feature release that warns when JNI libraries are loaded without native access. */
    public static final int FIRST_JDK_WARNING_ON_JNI = 24;

    private static final LoopLogger LOGGER = LoopLogger.of(NativeLibraryLoader.class);
    private static final Pattern LIBRARY_NAME = Pattern.compile("[A-Za-z0-9_.-]+");
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private NativeLibraryLoader() {
    }

    /**
     * Loads library {@code name} (without {@code lib} prefix or extension), looking for the bundled copy
     * through {@code loader}.
     *
     * @throws IllegalArgumentException if {@code name} holds anything but letters, digits, {@code _ . -}
     * @throws UnsatisfiedLinkError if no attempt succeeded; its message lists every attempt
     */
    public static void load(String name, ClassLoader loader) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(loader, "loader");
        if (!LIBRARY_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("library name: " + name + " (expected: letters, digits, '_', '.', '-')");
        }
        if (refusesWithoutNativeAccess()) {
            throw new UnsatisfiedLinkError("not loading native library '" + name + "': JDK "
                    + PlatformInfo.javaVersion() + " would print a warning because native access is not enabled;"
                    + " add " + enableNativeAccessOption()
                    + " (or -D" + ALLOW_WARNING_PROPERTY + "=true to load anyway and accept the warning)");
        }
        List<String> attempts = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        try {
            System.loadLibrary(name);
            LOGGER.log(Level.DEBUG, "loaded " + name + " from java.library.path");
            return;
        } catch (Throwable t) {
            attempts.add("System.loadLibrary(\"" + name + "\") on java.library.path="
                    + System.getProperty("java.library.path") + ": " + t);
            failures.add(t);
        }
        for (String resource : resourceNames(name, PlatformInfo.os(), PlatformInfo.arch())) {
            URL url = loader.getResource(resource);
            if (url == null) {
                attempts.add(resource + ": not found by " + loader);
                continue;
            }
            try {
                loadFromResource(url, resource);
                return;
            } catch (Throwable t) {
                attempts.add(resource + " (" + url + "): " + t);
                failures.add(t);
            }
        }
        StringBuilder message = new StringBuilder("cannot load native library '").append(name)
                .append("'; tried:");
        for (String attempt : attempts) {
            message.append("\n  - ").append(attempt);
        }
        UnsatisfiedLinkError error = new UnsatisfiedLinkError(message.toString());
        for (Throwable failure : failures) {
            error.addSuppressed(failure);
        }
        throw error;
    }

    /**
     * Whether this module may load native libraries without the JDK printing a warning: always before JDK
     * {@value #FIRST_JDK_WARNING_ON_JNI}, afterwards only with native access enabled for it.
     */
    public static boolean isNativeAccessAllowed() {
        if (PlatformInfo.javaVersion() < FIRST_JDK_WARNING_ON_JNI) {
            return true;
        }
        try {
            // Module.isNativeAccessEnabled() exists from JDK 22 on; compiled for 17, so reached reflectively.
            return (boolean) Module.class.getMethod("isNativeAccessEnabled")
                    .invoke(NativeLibraryLoader.class.getModule());
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Whether {@link #load} refuses every library in this JVM because native access is not enabled (and
     * {@value #ALLOW_WARNING_PROPERTY} is not set); see the class comment.
     */
    public static boolean refusesWithoutNativeAccess() {
        return !isNativeAccessAllowed() && !SystemProperties.getBoolean(ALLOW_WARNING_PROPERTY, false);
    }

    /**
     * The JVM option that gives Weir native access: {@code --enable-native-access=ALL-UNNAMED} on the class
     * path, {@code --enable-native-access=io.weir.common} on the module path.
     */
    public static String enableNativeAccessOption() {
        Module module = NativeLibraryLoader.class.getModule();
        return "--enable-native-access=" + (module.isNamed() ? module.getName() : "ALL-UNNAMED");
    }

    /** The resource paths tried for {@code name}, most specific first. */
    static List<String> resourceNames(String name, String os, String arch) {
        String prefix = "windows".equals(os) ? "" : "lib";
        String extension = switch (os) {
            case "windows" -> ".dll";
            case "osx" -> ".dylib";
            default -> ".so";
        };
        if ("osx".equals(os)) {
            // JNI libraries built for macOS often keep the older .jnilib extension (netty-tcnative's do).
            return List.of(NATIVE_RESOURCE_FOLDER + prefix + name + '_' + arch + extension,
                    NATIVE_RESOURCE_FOLDER + prefix + name + '_' + arch + ".jnilib",
                    NATIVE_RESOURCE_FOLDER + prefix + name + extension,
                    NATIVE_RESOURCE_FOLDER + prefix + name + ".jnilib");
        }
        return List.of(NATIVE_RESOURCE_FOLDER + prefix + name + '_' + arch + extension,
                NATIVE_RESOURCE_FOLDER + prefix + name + extension);
    }

    private static void loadFromResource(URL url, String resource) throws IOException {
        Path workdir = Paths.get(SystemProperties.get(WORKDIR_PROPERTY, System.getProperty("java.io.tmpdir")));
        String fileName = resource.substring(resource.lastIndexOf('/') + 1);
        int dot = fileName.lastIndexOf('.');
        Path file = POSIX
                ? Files.createTempFile(workdir, fileName.substring(0, dot) + '-', fileName.substring(dot),
                        ownerOnly())
                : Files.createTempFile(workdir, fileName.substring(0, dot) + '-', fileName.substring(dot));
        boolean loaded = false;
        try {
            try (InputStream in = url.openStream(); OutputStream out = Files.newOutputStream(file)) {
                in.transferTo(out);
            }
            System.load(file.toAbsolutePath().toString());
            loaded = true;
            LOGGER.log(Level.DEBUG, "loaded " + url + " through " + file);
        } finally {
            if (loaded && !POSIX) {
                // Windows keeps a loaded DLL open and locked; it can only go when the JVM exits.
                file.toFile().deleteOnExit();
            } else {
                // POSIX keeps the mapping after unlink; a file that failed to load is useless either way.
                Files.deleteIfExists(file);
            }
        }
    }

    private static FileAttribute<?> ownerOnly() {
        return PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
    }
}
