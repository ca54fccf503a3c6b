package io.weir.channel.epoll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
 * A JVM whose epoll library cannot be extracted (its work directory does not exist) is told so once, at INFO,
 * with the cause and the fix, instead of running on NIO without a word.
 */
class EpollFallbackTest {

    /** Entry point of the child JVM: asks twice, as a transport chooser and a later check would. */
    public static void main(String[] args) {
        System.out.println("available: " + Epoll.isAvailable());
        System.out.println("cause: " + Epoll.unavailabilityCause());
        System.out.println("available again: " + Epoll.isAvailable());
    }

    @Test
    void unavailableEpollLogsOneInfoLineWithTheCauseAndTheFix(@TempDir Path dir) throws Exception {
        assumeTrue(PlatformInfo.isLinux(), "epoll exists only on Linux");
        Path out = dir.resolve("child.txt");
        Path missing = dir.resolve("missing-workdir");
        Process child = new ProcessBuilder(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-D" + NativeLibraryLoader.WORKDIR_PROPERTY + '=' + missing,
                "-cp", System.getProperty("java.class.path"),
                EpollFallbackTest.class.getName()))
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("child JVM finished").isTrue();
        String output = Files.readString(out, StandardCharsets.UTF_8);

        assertThat(child.exitValue()).as(output).isZero();
        assertThat(output).contains("available: false", "cause: java.lang.UnsatisfiedLinkError");
        List<String> lines = output.lines().filter(l -> l.contains("epoll unavailable (")).toList();
        assertThat(lines).as(output).singleElement().satisfies(line -> assertThat(line)
                .startsWith("INFO: epoll unavailable (java.lang.UnsatisfiedLinkError: cannot load native library")
                .contains(missing.toString())
                .contains("): transports chosen by Epoll.isAvailable() run on NIO; ")
                .endsWith("; the class path needs weir-transport-native-epoll built for linux-"
                        + Epoll.buildArch(System.getProperty("os.arch")) + ", and its library is extracted to"
                        + " java.io.tmpdir (or -D" + NativeLibraryLoader.WORKDIR_PROPERTY + "=DIR), which must be"
                        + " writable and not mounted noexec"));
    }
}
