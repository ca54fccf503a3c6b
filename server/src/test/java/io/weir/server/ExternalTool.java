package io.weir.server;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Finds and runs a command-line peer (curl, nghttp, h2load, h2spec); a missing one fails with its install command. */
final class ExternalTool {
    private ExternalTool() {
    }

    /** The tool's path on PATH or in {@code $HOME/go/bin}; fails the test with {@code install} when missing. */
    static Path find(String name, String install) {
        List<Path> candidates = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                candidates.add(Path.of(dir, name));
            }
        }
        candidates.add(Path.of(System.getProperty("user.home"), "go", "bin", name));
        for (Path p : candidates) {
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        throw new AssertionError(name + " is not installed (looked on PATH and in $HOME/go/bin); install it with: "
                + install);
    }

    /** Output (stdout and stderr) and exit code of a finished command. */
    record Result(int exitCode, String output) {
    }

    /** Runs a command to completion within {@code timeoutSeconds}, killing it after that. */
    static Result run(long timeoutSeconds, List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Thread reader = new Thread(() -> {
            try (InputStream in = process.getInputStream()) {
                in.transferTo(out);
            } catch (IOException e) {
                // The process was killed: what was read so far is the output.
            }
        });
        reader.start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            reader.join(10_000);
            throw new AssertionError(command.get(0) + " did not finish within " + timeoutSeconds + " s; output:\n"
                    + out.toString(StandardCharsets.UTF_8));
        }
        reader.join(10_000);
        return new Result(process.exitValue(), out.toString(StandardCharsets.UTF_8));
    }
}
