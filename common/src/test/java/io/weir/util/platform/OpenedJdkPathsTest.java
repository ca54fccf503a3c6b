package io.weir.util.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The surefire JVM runs without --add-opens/--add-exports, so the Cleaner-free direct buffers and the
 * uninitialised arrays are checked in a child JVM started with the flags a production user would pass.
 */
class OpenedJdkPathsTest {

    private static String runProbe(String... jvmFlags) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(List.of(jvmFlags));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(PlatformProbe.class.getName());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }

    @Test
    void openedJdkGivesCleanerFreeBuffersAndUninitializedArrays() throws Exception {
        String noUnsafe = System.getProperty(PlatformInfo.NO_UNSAFE_PROPERTY, "false");
        String output = runProbe("--add-opens", "java.base/java.nio=ALL-UNNAMED",
                "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
                "-XX:MaxDirectMemorySize=123m", "-D" + PlatformInfo.NO_UNSAFE_PROPERTY + "=" + noUnsafe);
        boolean unsafe = PlatformInfo.hasUnsafe();
        assertThat(output)
                .contains("uninitialized=" + !Boolean.parseBoolean(noUnsafe))
                .contains("uninitializedLength=4096")
                .contains("cleanerFree=" + unsafe)
                .contains("jvmMax=" + 123L * 1024 * 1024)
                .contains("reallocateKeptContent=true")
                .contains("doubleFree=refused")
                .contains("used=0");
        // Nothing else: in particular no JDK warning about Unsafe or illegal access.
        assertThat(output.lines().filter(l -> l.startsWith("WARNING")).toList()).isEmpty();
    }

    @Test
    void maxDirectMemorySizeFlagIsFoundWithoutJdkInternals() throws Exception {
        String output = runProbe("-XX:MaxDirectMemorySize=77m");
        assertThat(output).contains("jvmMax=" + 77L * 1024 * 1024).contains("uninitialized=false")
                .contains("cleanerFree=false");
    }
}
