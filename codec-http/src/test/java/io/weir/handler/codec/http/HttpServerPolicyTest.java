package io.weir.handler.codec.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The one server policy: its defaults, the checks on every option, and the conversion to the older dialect. */
class HttpServerPolicyTest {

    @Test
    void defaultsAreTheSafeOnes() {
        HttpServerPolicy p = HttpServerPolicy.defaults();
        assertThat(p.requestHeadTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(p.idleTimeout()).isEqualTo(Duration.ofSeconds(75));
        assertThat(p.minBodyRate()).isEqualTo(1024);
        assertThat(p.bodyRateGracePeriod()).isEqualTo(Duration.ofSeconds(5));
        assertThat(p.bodyRateWindow()).isEqualTo(Duration.ofSeconds(10));
        assertThat(p.writeTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(p.lingerTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(p.lingerMaxBytes()).isEqualTo(1 << 20);
        assertThat(p.keepAlive()).isTrue();
        assertThat(p.streamReadTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(p.maxConnections()).isEqualTo(HttpServerPolicy.NO_CONNECTION_LIMIT);
        assertThat(HttpServerPolicy.builder().build()).isEqualTo(p).hasSameHashCodeAs(p);
    }

    @Test
    void builderSetsEveryOptionAndToBuilderKeepsThem() {
        HttpServerPolicy p = HttpServerPolicy.builder()
                .requestHeadTimeout(Duration.ofSeconds(3))
                .idleTimeout(Duration.ofSeconds(20))
                .minBodyRate(512, Duration.ofSeconds(2), Duration.ofSeconds(4))
                .writeTimeout(Duration.ofSeconds(7))
                .linger(Duration.ofMillis(500), 4096)
                .keepAlive(false)
                .streamReadTimeout(Duration.ZERO)
                .maxConnections(100)
                .build();
        assertThat(p.requestHeadTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(p.idleTimeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(p.minBodyRate()).isEqualTo(512);
        assertThat(p.bodyRateGracePeriod()).isEqualTo(Duration.ofSeconds(2));
        assertThat(p.bodyRateWindow()).isEqualTo(Duration.ofSeconds(4));
        assertThat(p.writeTimeout()).isEqualTo(Duration.ofSeconds(7));
        assertThat(p.lingerTimeout()).isEqualTo(Duration.ofMillis(500));
        assertThat(p.lingerMaxBytes()).isEqualTo(4096);
        assertThat(p.keepAlive()).isFalse();
        assertThat(p.streamReadTimeout()).isEqualTo(Duration.ZERO);
        assertThat(p.maxConnections()).isEqualTo(100);
        assertThat(p.toBuilder().build()).isEqualTo(p);
        assertThat(p.toBuilder().maxConnections(5).build()).isNotEqualTo(p);
        assertThat(p.toString()).contains("head 3000 ms", "keep-alive off", "at most 100 connections");
    }

    @Test
    void everyInvalidValueIsRefusedNamingTheOption() {
        HttpServerPolicy.Builder b = HttpServerPolicy.builder();
        Duration negative = Duration.ofMillis(-1);
        assertThatThrownBy(() -> b.requestHeadTimeout(negative)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("requestHeadTimeout: ");
        assertThatThrownBy(() -> b.idleTimeout(negative)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("idleTimeout: ");
        assertThatThrownBy(() -> b.minBodyRate(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("minBodyRate: -1");
        assertThatThrownBy(() -> b.minBodyRate(1, negative, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("bodyRateGracePeriod: ");
        assertThatThrownBy(() -> b.minBodyRate(1, Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("bodyRateWindow: ");
        assertThatThrownBy(() -> b.writeTimeout(negative)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("writeTimeout: ");
        assertThatThrownBy(() -> b.linger(negative, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("lingerTimeout: ");
        assertThatThrownBy(() -> b.linger(Duration.ZERO, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("lingerMaxBytes: -1");
        assertThatThrownBy(() -> b.streamReadTimeout(negative)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("streamReadTimeout: ");
        assertThatThrownBy(() -> b.maxConnections(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("maxConnections: -1");
        assertThatThrownBy(() -> b.idleTimeout(Duration.ofDays(365 * 300L)))
                .as("longer than a timer can count in nanoseconds").isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("idleTimeout: ");
        assertThatThrownBy(() -> b.idleTimeout(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("idleTimeout");
        assertThat(b.build()).as("a refused value changes nothing").isEqualTo(HttpServerPolicy.defaults());
    }

    @Test
    void theOlderTimeoutsConvertBothWays() {
        HttpServerTimeouts timeouts = new HttpServerTimeouts().setRequestHeadTimeout(4, TimeUnit.SECONDS)
                .setIdleTimeout(0, TimeUnit.SECONDS).setMinBodyRate(10)
                .setBodyRateGracePeriod(1, TimeUnit.SECONDS).setBodyRateWindow(2, TimeUnit.SECONDS)
                .setWriteProgressTimeout(9, TimeUnit.SECONDS);
        HttpServerPolicy p = HttpServerPolicy.of(timeouts);
        assertThat(p.requestHeadTimeout()).isEqualTo(Duration.ofSeconds(4));
        assertThat(p.idleTimeout()).isZero();
        assertThat(p.minBodyRate()).isEqualTo(10);
        assertThat(p.bodyRateGracePeriod()).isEqualTo(Duration.ofSeconds(1));
        assertThat(p.bodyRateWindow()).isEqualTo(Duration.ofSeconds(2));
        assertThat(p.writeTimeout()).isEqualTo(Duration.ofSeconds(9));
        assertThat(p.toTimeouts()).hasToString(timeouts.toString());
    }
}
