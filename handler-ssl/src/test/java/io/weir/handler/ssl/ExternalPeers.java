package io.weir.handler.ssl;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Locates the real peers the interop tests drive, failing with the install command when one is missing. */
final class ExternalPeers {
    private ExternalPeers() {
    }

    static String require(String program, String install) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            Path p = Path.of(dir, program);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        throw new AssertionError(program + " is not on the PATH; install it: " + install);
    }

    /** Waits for {@code process} to exit (destroying it after the timeout) and returns its exit code. */
    static int waitFor(Process process) throws InterruptedException {
        if (!process.waitFor(TlsTestSupport.TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("the peer did not exit within " + TlsTestSupport.TIMEOUT_SECONDS + " s");
        }
        return process.exitValue();
    }

    /**
     * Reads {@code out} line by line until a line equals {@code expected}, within the tests' timeout, and returns
     * every line read.
     *
     * @throws AssertionError if the peer's output ends first
     */
    static List<String> readUntilLine(BufferedReader out, String expected) throws Exception {
        List<String> lines = new ArrayList<>();
        CompletableFuture.runAsync(() -> {
            try {
                for (String line; (line = out.readLine()) != null; ) {
                    lines.add(line);
                    if (line.equals(expected)) {
                        return;
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            throw new AssertionError("the peer's output ended before \"" + expected + "\": " + lines);
        }).get(TlsTestSupport.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return lines;
    }

    /** Writes {@code pem} to a temporary file deleted on exit. */
    static Path tempPem(String prefix, String pem) throws IOException {
        Path f = Files.createTempFile(prefix, ".pem");
        f.toFile().deleteOnExit();
        Files.writeString(f, pem);
        return f;
    }
}
