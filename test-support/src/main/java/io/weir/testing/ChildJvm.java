package io.weir.testing;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A test's child JVM: this JVM's {@code java}, given a minute to end, its output and errors read as one. */
public final class ChildJvm {
    private static final long TIMEOUT_SECONDS = 60;

    private ChildJvm() {
    }

    /**
     * Runs {@code mainClass} on {@code classPath} with the JVM options {@code jvmOptions} and returns what it
     * printed; an {@link AssertionError} (with the output) if it ran over a minute, killed then, or ended with a
     * status other than 0.
     */
    public static String run(List<String> classPath, Class<?> mainClass, String... jvmOptions)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(jvmOptions));
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classPath));
        command.add(mainClass.getName());
        Path output = Files.createTempFile("weir-child-jvm", ".out");
        try {
            Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
                    .start();
            boolean ended = child.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (!ended) {
                child.destroyForcibly().waitFor();
            }
            String printed = Files.readString(output, StandardCharsets.UTF_8);
            if (!ended) {
                throw new AssertionError("child JVM still running after " + TIMEOUT_SECONDS + " s, killed:\n"
                        + printed);
            }
            if (child.exitValue() != 0) {
                throw new AssertionError("child JVM ended with status " + child.exitValue() + ":\n" + printed);
            }
            return printed;
        } finally {
            Files.deleteIfExists(output);
        }
    }

    /** Where {@code type}'s class file came from, a directory or a jar: an entry of a child's class path. */
    public static String location(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("no file location for " + type, e);
        }
    }
}
