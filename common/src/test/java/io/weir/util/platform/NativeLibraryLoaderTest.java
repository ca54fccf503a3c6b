package io.weir.util.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NativeLibraryLoaderTest {

    @Test
    void failureListsEveryPathTriedAndWhy(@TempDir Path jarRoot) throws IOException {
        Path nativeDir = Files.createDirectories(jarRoot.resolve("META-INF/native"));
        String specific = NativeLibraryLoader.resourceNames("weirbroken", PlatformInfo.os(), PlatformInfo.arch()).get(0);
        Files.write(jarRoot.resolve(specific), new byte[] {'n', 'o', 't', ' ', 'E', 'L', 'F'});
        assertThat(nativeDir).isDirectory();
        // A work directory that does not exist makes extraction fail without asking the dynamic linker.
        String previous = System.setProperty(NativeLibraryLoader.WORKDIR_PROPERTY,
                jarRoot.resolve("missing-workdir").toString());
        String previousAllow = allowWarning();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jarRoot.toUri().toURL()}, null)) {
            assertThatThrownBy(() -> NativeLibraryLoader.load("weirbroken", loader))
                    .isInstanceOf(UnsatisfiedLinkError.class)
                    .hasMessageContaining("cannot load native library 'weirbroken'")
                    .hasMessageContaining("System.loadLibrary(\"weirbroken\")")
                    .hasMessageContaining(specific + " (")
                    .hasMessageContaining(NativeLibraryLoader.resourceNames("weirbroken", PlatformInfo.os(),
                            PlatformInfo.arch()).get(1) + ": not found")
                    .hasMessageContaining("missing-workdir")
                    .satisfies(e -> assertThat(e.getSuppressed()).hasSize(2));
        } finally {
            restore(previous);
            restoreAllow(previousAllow);
        }
    }

    /** On JDK 24+ the test JVM has no native access; these tests accept the JDK's warning to exercise loading. */
    private static String allowWarning() {
        return System.setProperty(NativeLibraryLoader.ALLOW_WARNING_PROPERTY, "true");
    }

    private static void restoreAllow(String previous) {
        if (previous == null) {
            System.clearProperty(NativeLibraryLoader.ALLOW_WARNING_PROPERTY);
        } else {
            System.setProperty(NativeLibraryLoader.ALLOW_WARNING_PROPERTY, previous);
        }
    }

    @Test
    void withoutNativeAccessOnNewJdksLoadingIsRefusedRatherThanWarned() {
        if (PlatformInfo.javaVersion() < NativeLibraryLoader.FIRST_JDK_WARNING_ON_JNI) {
            assertThat(NativeLibraryLoader.isNativeAccessAllowed()).isTrue();
            return;
        }
        if (NativeLibraryLoader.isNativeAccessAllowed()) {
            // This JVM was started with --enable-native-access: nothing to refuse.
            return;
        }
        assertThatThrownBy(() -> NativeLibraryLoader.load("weirquiet", getClass().getClassLoader()))
                .isInstanceOf(UnsatisfiedLinkError.class)
                .hasMessageContaining("--enable-native-access=ALL-UNNAMED")
                .hasMessageContaining(NativeLibraryLoader.ALLOW_WARNING_PROPERTY);
    }

    private static void restore(String previous) {
        if (previous == null) {
            System.clearProperty(NativeLibraryLoader.WORKDIR_PROPERTY);
        } else {
            System.setProperty(NativeLibraryLoader.WORKDIR_PROPERTY, previous);
        }
    }

    @Test
    void resourceNamesFollowTheOsConventions() {
        assertThat(NativeLibraryLoader.resourceNames("x", "linux", "x86_64"))
                .containsExactly("META-INF/native/libx_x86_64.so", "META-INF/native/libx.so");
        assertThat(NativeLibraryLoader.resourceNames("x", "osx", "aarch_64"))
                .containsExactly("META-INF/native/libx_aarch_64.dylib", "META-INF/native/libx_aarch_64.jnilib",
                        "META-INF/native/libx.dylib", "META-INF/native/libx.jnilib");
        assertThat(NativeLibraryLoader.resourceNames("x", "windows", "x86_64"))
                .containsExactly("META-INF/native/x_x86_64.dll", "META-INF/native/x.dll");
    }

    @Test
    void pathTraversalInTheNameIsRefused() {
        assertThatThrownBy(() -> NativeLibraryLoader.load("../../etc/evil", getClass().getClassLoader()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("../../etc/evil");
    }

    @Test
    void bundledLibraryIsExtractedLoadedAndItsTempFileDeleted(@TempDir Path jarRoot, @TempDir Path workdir)
            throws Exception {
        if (!PlatformInfo.isLinux()) {
            return;
        }
        Path source = jarRoot.resolve("answer.c");
        Files.writeString(source, "int weir_test_answer(void) { return 42; }\n");
        String resource = NativeLibraryLoader.resourceNames("weiranswer", PlatformInfo.os(), PlatformInfo.arch()).get(0);
        Path library = jarRoot.resolve(resource);
        Files.createDirectories(library.getParent());
        Process gcc;
        try {
            gcc = new ProcessBuilder("gcc", "-shared", "-fPIC", "-Wl,-z,noexecstack", "-o", library.toString(), source.toString())
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError("this test needs a C compiler: apt-get install gcc", e);
        }
        assertThat(gcc.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(gcc.exitValue()).as(new String(gcc.getInputStream().readAllBytes())).isZero();

        String previous = System.setProperty(NativeLibraryLoader.WORKDIR_PROPERTY, workdir.toString());
        String previousAllow = allowWarning();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jarRoot.toUri().toURL()}, null)) {
            NativeLibraryLoader.load("weiranswer", loader);
        } finally {
            restore(previous);
            restoreAllow(previousAllow);
        }
        try (Stream<Path> left = Files.list(workdir)) {
            assertThat(left).as("extracted copies left behind").isEmpty();
        }
        assertThat(List.of(library.toFile().exists())).containsExactly(true);
    }
}
