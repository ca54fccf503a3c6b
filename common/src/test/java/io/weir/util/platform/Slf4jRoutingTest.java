package io.weir.util.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/operations.md's logging set-up works: with slf4j-jdk-platform-logging and Logback on the class path, and
 * nothing else, a record Weir logs through {@code System.Logger} comes out of Logback. Run in a child JVM, since
 * the routing is chosen once per JVM.
 */
class Slf4jRoutingTest {
    private static final Path JARS = Path.of("target/slf4j-routing");

    /** The child: one fallback line, as Weir's native components log it. */
    public static final class Child {
        public static void main(String[] args) {
            NativeFallback.report(LoopLogger.of(Slf4jRoutingTest.class), "demo-native", new UnsatisfiedLinkError(
                    "no demo in java.library.path"), "running on the Java twin", "install the demo library");
        }
    }

    @Test
    void weirRecordsComeOutOfLogbackThroughSlf4j() throws Exception {
        List<String> classPath = new ArrayList<>();
        classPath.add(Path.of(NativeFallback.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString());
        classPath.add(Path.of(Child.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        try (Stream<Path> jars = Files.list(JARS)) {
            jars.filter(p -> p.toString().endsWith(".jar")).forEach(p -> classPath.add(p.toString()));
        }
        assertThat(classPath).as("the jars maven-dependency-plugin copied to " + JARS).hasSizeGreaterThan(5);
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", String.join(File.pathSeparator, classPath), Child.class.getName())
                .redirectErrorStream(true).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = child.getInputStream()) {
            in.transferTo(out);
        }
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = out.toString(StandardCharsets.UTF_8);
        assertThat(child.exitValue()).as(output).isZero();
        // Logback's default layout: "HH:mm:ss.SSS [thread] LEVEL logger -- message"; java.util.logging would print
        // "INFO: demo-native unavailable" on a line of its own after a date line instead.
        assertThat(output).as(output).containsPattern(
                "\\d\\d:\\d\\d:\\d\\d\\.\\d{3} \\[main\\] INFO +io\\.weir\\.util\\.platform\\.Slf4jRoutingTest -- demo-native"
                        + " unavailable");
    }
}
