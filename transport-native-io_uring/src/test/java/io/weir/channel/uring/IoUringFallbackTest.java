package io.weir.channel.uring;

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
 * A JVM whose io_uring library cannot be extracted (its work directory does not exist) is told so once, at INFO,
 * with the cause and the fix, and a handler factory then refuses with that cause.
 */
class IoUringFallbackTest {

    /** Entry point of the child JVM: asks twice, as a transport chooser and a later check would. */
    public static void main(String[] args) {
        System.out.println("available: " + IoUring.isAvailable());
        System.out.println("cause: " + IoUring.unavailabilityCause());
        System.out.println("available again: " + IoUring.isAvailable());
        System.out.println("supports NOP: " + IoUring.isOperationSupported(IoUringIoOps.OP_NOP));
        try {
            IoUringIoHandler.newFactory().newHandler(null);
            System.out.println("factory: made a handler");
        } catch (UnsatisfiedLinkError e) {
            System.out.println("factory: " + e.getMessage());
        }
    }

    @Test
    void unavailableIoUringLogsOneInfoLineWithTheCauseAndTheFix(@TempDir Path dir) throws Exception {
        assumeTrue(PlatformInfo.isLinux(), "io_uring exists only on Linux");
        Path out = dir.resolve("child.txt");
        Path missing = dir.resolve("missing-workdir");
        Process child = new ProcessBuilder(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-D" + NativeLibraryLoader.WORKDIR_PROPERTY + '=' + missing,
                "-cp", System.getProperty("java.class.path"),
                IoUringFallbackTest.class.getName()))
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("child JVM finished").isTrue();
        String output = Files.readString(out, StandardCharsets.UTF_8);

        assertThat(child.exitValue()).as(output).isZero();
        assertThat(output).contains("available: false", "cause: java.lang.UnsatisfiedLinkError",
                "available again: false", "supports NOP: false",
                "factory: io_uring transport unavailable: java.lang.UnsatisfiedLinkError");
        List<String> lines = output.lines().filter(l -> l.contains("io_uring unavailable (")).toList();
        assertThat(lines).as(output).singleElement().satisfies(line -> assertThat(line)
                .startsWith("INFO: io_uring unavailable (java.lang.UnsatisfiedLinkError: cannot load native library")
                .contains(missing.toString())
                .contains("): transports chosen by IoUring.isAvailable() run on epoll or NIO; ")
                .endsWith("; the class path needs weir-transport-native-io_uring built for linux-"
                        + IoUring.buildArch(System.getProperty("os.arch")) + ", and its library is extracted to"
                        + " java.io.tmpdir (or -D" + NativeLibraryLoader.WORKDIR_PROPERTY + "=DIR), which must be"
                        + " writable and not mounted noexec"));
    }
}
