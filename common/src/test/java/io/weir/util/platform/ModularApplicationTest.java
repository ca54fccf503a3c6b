package io.weir.util.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * weir-common's module descriptor is real: an application module that requires {@code io.weir.common}
 * compiles against it, runs on the module path, and links into a runtime image with jlink.
 */
class ModularApplicationTest {

    private static final String MAIN = """
            package demo;

            public class Main {
                public static void main(String[] args) throws Exception {
                    io.weir.util.concurrent.DefaultEventExecutor executor = new io.weir.util.concurrent.DefaultEventExecutor();
                    String greeting = executor.submit(() -> io.weir.util.AsciiString.of("Hello, Weir").toLowerCase().toString())
                            .get(10, java.util.concurrent.TimeUnit.SECONDS);
                    executor.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).sync();
                    System.out.print(greeting);
                }
            }
            """;

    /** weir-common's classes and JCTools, from this test's class path. */
    private static String modulePath() {
        return Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> e.endsWith(Path.of("common", "target", "classes").toString()) || e.contains("jctools-core"))
                .collect(Collectors.joining(File.pathSeparator));
    }

    private static String runTool(String name, String... args) {
        Optional<ToolProvider> tool = ToolProvider.findFirst(name);
        assertThat(tool).as(name + " tool of this JDK").isPresent();
        StringWriter out = new StringWriter();
        int status = tool.get().run(new PrintWriter(out), new PrintWriter(out), args);
        assertThat(status).as(name + " " + String.join(" ", args) + "\n" + out).isZero();
        return out.toString();
    }

    @Test
    void applicationModuleRunsOnTheModulePathAndLinks(@TempDir Path dir) throws Exception {
        String modulePath = modulePath();
        assertThat(modulePath.split(File.pathSeparator)).as("weir-common classes and JCTools").hasSize(2);
        Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("demo"));
        Files.writeString(src.resolve("module-info.java"), "module demo { requires io.weir.common; }");
        Files.writeString(src.resolve("demo/Main.java"), MAIN);
        Path classes = dir.resolve("classes");
        runTool("javac", "--release", "17", "--module-path", modulePath, "-d", classes.toString(),
                src.resolve("module-info.java").toString(), src.resolve("demo/Main.java").toString());

        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        String fullPath = modulePath + File.pathSeparator + classes;
        assertThat(run(dir, java.toString(), "--module-path", fullPath, "-m", "demo/demo.Main")).isEqualTo("hello, weir");

        Path image = dir.resolve("image");
        runTool("jlink", "--module-path", fullPath, "--add-modules", "demo", "--output", image.toString());
        assertThat(run(dir, image.resolve("bin").resolve("java").toString(), "-m", "demo/demo.Main"))
                .isEqualTo("hello, weir");
    }

    private static String run(Path dir, String... command) throws Exception {
        Path out = dir.resolve("out-" + System.nanoTime() + ".txt");
        Process p = new ProcessBuilder(List.of(command)).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("finished: " + String.join(" ", command)).isTrue();
        String output = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(output).isZero();
        return output;
    }
}
