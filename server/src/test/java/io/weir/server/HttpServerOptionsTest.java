package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.handler.codec.http.HttpServerPolicy;
import io.weir.handler.codec.http.HttpServerTimeouts;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The example server's timeout and connection-cap options: parsing, defaults and the usage text. */
class HttpServerOptionsTest {

    @Test
    void durationsTakeUnits() {
        assertThat(HttpServer.parseMillis("--head-timeout", "300ms")).isEqualTo(300);
        assertThat(HttpServer.parseMillis("--head-timeout", "10s")).isEqualTo(10_000);
        assertThat(HttpServer.parseMillis("--idle-timeout", "2m")).isEqualTo(120_000);
        assertThat(HttpServer.parseMillis("--idle-timeout", "75")).as("a bare number is seconds").isEqualTo(75_000);
        assertThat(HttpServer.parseMillis("--idle-timeout", "off")).isZero();
        assertThat(HttpServer.parseMillis("--idle-timeout", "0")).isZero();
    }

    @Test
    void malformedValuesAreRefusedWithTheOptionNamed() {
        assertThatThrownBy(() -> HttpServer.parseMillis("--head-timeout", "soon"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--head-timeout: soon");
        assertThatThrownBy(() -> HttpServer.parseMillis("--head-timeout", "-1s"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected: >= 0");
        assertThatThrownBy(() -> HttpServer.parseCount("--min-body-rate", "fast"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--min-body-rate: fast");
        assertThat(HttpServer.parseCount("--max-connections", "off")).isZero();
        assertThat(HttpServer.parseCount("--max-connections", "500")).isEqualTo(500);
    }

    @Test
    void usageNamesEveryTimeoutOption() throws Exception {
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            HttpServer.main(new String[] {"--help"});
        } finally {
            System.setOut(out);
        }
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("--head-timeout", "--idle-timeout", "--min-body-rate", "--stream-read-timeout",
                        "--write-timeout", "--keep-alive",
                        "--max-connections", "--metrics")
                .contains("HTTP/2 preface", "RST_STREAM CANCEL");
    }

    @Test
    void capDefaultsBelowTheDescriptorLimit() throws Exception {
        long limit = ((com.sun.management.UnixOperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getMaxFileDescriptorCount();
        // The build runs on Linux, where the limit is readable.
        assertThat(HttpServer.defaultMaxConnections()).isPositive()
                .isEqualTo(Math.max(1, Math.min(Integer.MAX_VALUE, limit - HttpServer.RESERVED_DESCRIPTORS)));
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            assertThatThrownBy(() -> new HttpServer(group).maxConnections(-1))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> new HttpServer(group).streamReadTimeout(-1, TimeUnit.SECONDS))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        } finally {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void serverInstallsTheCapAndCopiesTheTimeouts() throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        HttpServerTimeouts timeouts = new HttpServerTimeouts();
        try (HttpServer server = new HttpServer(group).timeouts(timeouts).maxConnections(7)) {
            assertThat(server.connectionLimit()).as("not started").isNull();
            timeouts.setRequestHeadTimeout(1, TimeUnit.MILLISECONDS);
            server.start(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0));
            assertThat(server.connectionLimit().maxConnections()).isEqualTo(7);
        } finally {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void commandLineOptionsMapOntoThePolicy() {
        HttpServerPolicy.Builder b = HttpServer.defaultPolicy().toBuilder();
        String[][] options = {{"--head-timeout", "5s"}, {"--idle-timeout", "2m"}, {"--min-body-rate", "512"},
            {"--write-timeout", "300ms"}, {"--stream-read-timeout", "off"}, {"--keep-alive", "off"},
            {"--max-connections", "9"}};
        for (String[] option : options) {
            assertThat(HttpServer.policyOption(b, option[0], option[1])).as(option[0]).isTrue();
        }
        assertThat(HttpServer.policyOption(b, "--port", "80")).as("not a policy option").isFalse();
        HttpServerPolicy p = b.build();
        assertThat(p.requestHeadTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(p.idleTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(p.minBodyRate()).isEqualTo(512);
        assertThat(p.writeTimeout()).isEqualTo(Duration.ofMillis(300));
        assertThat(p.streamReadTimeout()).isZero();
        assertThat(p.keepAlive()).isFalse();
        assertThat(p.maxConnections()).isEqualTo(9);
    }

    @Test
    void theOlderSettersChangeOnlyTheirValuesOfThePolicy() throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try (HttpServer server = new HttpServer(group)) {
            assertThat(server.policy()).isEqualTo(HttpServer.defaultPolicy());
            server.policy(HttpServerPolicy.builder().keepAlive(false).build())
                    .timeouts(new HttpServerTimeouts().setRequestHeadTimeout(3, TimeUnit.SECONDS))
                    .streamReadTimeout(4, TimeUnit.SECONDS).maxConnections(5);
            HttpServerPolicy p = server.policy();
            assertThat(p.requestHeadTimeout()).isEqualTo(Duration.ofSeconds(3));
            assertThat(p.streamReadTimeout()).isEqualTo(Duration.ofSeconds(4));
            assertThat(p.maxConnections()).isEqualTo(5);
            assertThat(p.keepAlive()).as("kept from the policy").isFalse();
        } finally {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }
}
