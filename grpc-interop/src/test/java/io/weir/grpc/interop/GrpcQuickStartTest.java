package io.weir.grpc.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/grpc.md shows GrpcQuickStart.java verbatim, and it serves and calls. */
class GrpcQuickStartTest {
    @Test
    void theDocsShowTheQuickStartExactlyAsItIsCompiled() throws Exception {
        String source = Files.readString(Path.of("src/main/java/io/weir/grpc/interop/GrpcQuickStart.java"));
        assertThat(Files.readString(Path.of("../docs/grpc.md")))
                .as("docs/grpc.md must show GrpcQuickStart.java verbatim in a java code block")
                .contains("```java\n" + source + "```\n");
    }

    @Test
    void aGeneratedServiceIsServedAndCalledOnWeir() throws Exception {
        assertThat(GrpcQuickStart.serveAndCall("Weir")).isEqualTo("Hello, Weir!");
    }
}
