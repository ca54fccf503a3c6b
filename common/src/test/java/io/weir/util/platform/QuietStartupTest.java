package io.weir.util.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * On JDK 24+ the first sun.misc.Unsafe memory access prints a warning (JEP 471). Weir must print nothing
 * by default: a child JVM on the same JDK exercises the platform paths and its output must stay empty.
 */
class QuietStartupTest {

    /** Entry point of the child JVM. */
    public static void main(String[] args) {
        Queue<Object> q = Queues.newMpscQueue();
        q.offer("x");
        Queue<Object> bounded = Queues.newMpscQueue(4096);
        bounded.offer("y");
        io.weir.util.concurrent.FastThreadLocal<String> local = new io.weir.util.concurrent.FastThreadLocal<>();
        local.set("z");
        if (q.poll() == null || bounded.poll() == null || local.get() == null) {
            throw new AssertionError("platform paths misbehaved");
        }
        boolean expectUnsafe = PlatformInfo.javaVersion() < PlatformInfo.FIRST_JDK_WARNING_ON_UNSAFE
                && !Boolean.getBoolean(PlatformInfo.NO_UNSAFE_PROPERTY);
        System.exit(PlatformInfo.hasUnsafe() == expectUnsafe ? 0 : 3);
    }

    @Test
    void nothingIsPrintedOnStartupByDefault() throws Exception {
        Path out = Files.createTempFile("weir-quiet", ".txt");
        try {
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.add("-cp");
            cmd.add(System.getProperty("java.class.path"));
            if (Boolean.getBoolean(PlatformInfo.NO_UNSAFE_PROPERTY)) {
                cmd.add("-D" + PlatformInfo.NO_UNSAFE_PROPERTY + "=true");
            }
            cmd.add(QuietStartupTest.class.getName());
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("child JVM finished").isTrue();
            String output = Files.readString(out, StandardCharsets.UTF_8);
            assertThat(output).as("child JVM output").isEmpty();
            assertThat(p.exitValue()).as("Unsafe used exactly when expected").isZero();
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
