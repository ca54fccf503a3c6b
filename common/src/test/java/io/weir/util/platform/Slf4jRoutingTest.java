package io.weir.util.platform;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.testing.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
        classPath.add(ChildJvm.location(NativeFallback.class));
        classPath.add(ChildJvm.location(Child.class));
        try (Stream<Path> jars = Files.list(JARS)) {
            jars.filter(p -> p.toString().endsWith(".jar")).forEach(p -> classPath.add(p.toString()));
        }
        assertThat(classPath).as("the jars maven-dependency-plugin copied to " + JARS).hasSizeGreaterThan(5);
        String output = ChildJvm.run(classPath, Child.class);
        // Logback's default layout: "HH:mm:ss.SSS [thread] LEVEL logger -- message"; java.util.logging would print
        // "INFO: demo-native unavailable" on a line of its own after a date line instead.
        assertThat(output).as(output).containsPattern(
                "\\d\\d:\\d\\d:\\d\\d\\.\\d{3} \\[main\\] INFO +io\\.weir\\.util\\.platform\\.Slf4jRoutingTest -- demo-native"
                        + " unavailable");
    }
}
