package io.weir.grpc.interop;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * grpc-go's interop programs, built from the Go module in descriptors/ (grpc-go v1.85.0), grpc-health-probe, and
 * runs of them.
 */
final class GoInterop {
    private static final Path MODULE = Path.of("descriptors").toAbsolutePath();
    private static final Path BIN = Path.of("target/go-interop").toAbsolutePath();

    private GoInterop() {
    }

    /** What a program printed (stdout and stderr together) and its exit code. */
    record Result(int exitCode, String output) {
    }

    /** The binary of {@code google.golang.org/grpc/interop/<name>} ("client" or "server"), built once. */
    static Path binary(String name) throws IOException, InterruptedException {
        return build(MODULE, "google.golang.org/grpc/interop/" + name, name);
    }

    /** grpc-interop's pingload (descriptors/pingload, the load client of microbench/grpc-load-compare), built once. */
    static Path pingload() throws IOException, InterruptedException {
        return build(MODULE, "weir.io/grpc-interop/pingload", "pingload");
    }

    /** grpc-health-probe v0.4.63, built once from the Go module in health-probe/. */
    static Path healthProbe() throws IOException, InterruptedException {
        return build(Path.of("health-probe").toAbsolutePath(), "github.com/grpc-ecosystem/grpc-health-probe",
                "grpc-health-probe");
    }

    private static synchronized Path build(Path module, String pkg, String name)
            throws IOException, InterruptedException {
        Path out = BIN.resolve(name);
        if (!Files.isExecutable(out)) {
            Result build = run(600, module, List.of(go(), "build", "-o", out.toString(), pkg));
            if (build.exitCode() != 0 || !Files.isExecutable(out)) {
                throw new AssertionError("go build of " + pkg + " failed:\n" + build.output());
            }
        }
        return out;
    }

    private static String go() {
        for (String dir : (System.getenv("PATH") + ":/usr/local/go/bin").split(":")) {
            Path go = Path.of(dir, "go");
            if (Files.isExecutable(go)) {
                return go.toString();
            }
        }
        throw new AssertionError("no go on the PATH: install Go (.ci/run does) to build grpc-go's interop programs");
    }

    /** Runs {@code command} in {@code dir}, killing it after {@code timeoutSeconds}. */
    static Result run(long timeoutSeconds, Path dir, List<String> command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command)).directory(dir.toFile())
                .redirectErrorStream(true);
        pb.environment().put("GOFLAGS", "-mod=mod");
        Process process = pb.start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Thread reader = new Thread(() -> {
            try (InputStream in = process.getInputStream()) {
                in.transferTo(out);
            } catch (IOException e) {
                // The process was killed: what was read is the output.
            }
        });
        reader.start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            reader.join(10_000);
            throw new AssertionError(command + " did not finish within " + timeoutSeconds + " s:\n"
                    + out.toString(StandardCharsets.UTF_8));
        }
        reader.join(10_000);
        return new Result(process.exitValue(), out.toString(StandardCharsets.UTF_8));
    }

    /** Starts {@code command} in the background (a server), its output discarded. */
    static Process start(List<String> command) throws IOException {
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
    }
}
