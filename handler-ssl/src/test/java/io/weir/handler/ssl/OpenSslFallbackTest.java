package io.weir.handler.ssl;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.util.platform.NativeLibraryLoader;
import io.weir.util.platform.PlatformInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When BoringSSL cannot be loaded, the JDK's TLS engine serves, and one INFO line says why and what would fix it
 * (before, the fallback was silent). A child JVM whose native work directory does not exist makes loading fail.
 */
class OpenSslFallbackTest {

    /** Entry point of the child JVM: picks a provider twice, as two contexts built in a row would. */
    public static void main(String[] args) {
        System.out.println("provider: " + SslProvider.defaultProvider());
        System.out.println("again: " + SslProvider.defaultProvider());
    }

    @Test
    void unloadableBoringSslLogsOneInfoLineAndTheJdkEngineServes(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("missing-workdir");
        Path out = dir.resolve("child.txt");
        Process child = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-D" + NativeLibraryLoader.WORKDIR_PROPERTY + '=' + missing,
                "-cp", System.getProperty("java.class.path"), OpenSslFallbackTest.class.getName()))
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("child JVM finished").isTrue();
        String output = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(child.exitValue()).as(output).isZero();

        assertThat(output).contains("provider: JDK", "again: JDK");
        assertThat(output.lines().filter(l -> l.contains("unavailable (")).toList()).as(output).singleElement()
                .satisfies(line -> assertThat(line)
                        .startsWith("INFO: OpenSSL (BoringSSL) unavailable (java.lang.UnsatisfiedLinkError: ")
                        .contains(missing.toString())
                        .contains("): SslProvider.defaultProvider() uses the JDK's TLS engine; the class path needs"
                                + " io.netty:netty-tcnative-boringssl-static built for " + PlatformInfo.os() + '-'
                                + PlatformInfo.arch()));
    }

    @Test
    void missingTcnativeClassesAreFixedByNamingTheJars() {
        assertThat(OpenSsl.fix(new ClassNotFoundException("io.netty:netty-tcnative-classes is not on the class path")))
                .startsWith("add io.netty:netty-tcnative-classes and io.netty:netty-tcnative-boringssl-static")
                .contains(PlatformInfo.os() + '-' + PlatformInfo.arch());
    }
}
