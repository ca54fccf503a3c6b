package io.weir.testsuite.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/benchmarks.md} stays true to the committed results: every chart under {@code docs/img/} was drawn from
 * the result files as they are now ({@code microbench/plots.py --check}, which compares the SHA-256 each chart
 * carries and needs no matplotlib), and every ratio the page quotes is what its result file gives
 * ({@code microbench/ratios.py --docs}).
 */
class DocsChartsAndRatiosTest {
    private static final long SCRIPT_TIMEOUT_SECONDS = 120;

    @Test
    void chartsWereDrawnFromTheCommittedResults() throws Exception {
        Result result = python("microbench/plots.py", "--check");
        assertThat(result.exitCode).as("python3 microbench/plots.py --check said:%n%s", result.output).isZero();
        assertThat(result.output).contains("charts in docs/img/ match their result files");
    }

    @Test
    void quotedRatiosAreWhatTheResultFilesGive() throws Exception {
        Result result = python("microbench/ratios.py", "--docs");
        assertThat(result.exitCode).as("python3 microbench/ratios.py --docs said:%n%s", result.output).isZero();
        assertThat(result.output).contains("Commands that produced each file:");
    }

    private record Result(int exitCode, String output) {
    }

    private static Result python(String script, String argument) throws IOException, InterruptedException {
        Path root = Path.of("").toAbsolutePath().getParent();
        Path output = Files.createTempFile("weir-docs-check", ".txt");
        try {
            Process process;
            try {
                process = new ProcessBuilder(List.of("python3", root.resolve(script).toString(), argument))
                        .directory(root.toFile()).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            } catch (IOException e) {
                throw new AssertionError("python3 is not installed or not on the PATH (install it: apt-get install "
                        + "python3; .ci/run does)", e);
            }
            if (!process.waitFor(SCRIPT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(script + " did not finish within " + SCRIPT_TIMEOUT_SECONDS + " s");
            }
            return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
