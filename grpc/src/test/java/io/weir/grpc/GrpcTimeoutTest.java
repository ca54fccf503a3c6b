package io.weir.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class GrpcTimeoutTest {

    @ParameterizedTest
    @CsvSource({"1H, 3600000000000", "2M, 120000000000", "3S, 3000000000", "250m, 250000000", "7u, 7000",
        "99n, 99", "0m, 0", "99999999H, 359999996400000000000"})
    void everyUnitIsParsed(String value, String nanos) {
        // 99999999H does not fit in a long as nanoseconds: TimeUnit saturates, and the deadline is effectively none.
        long expected = new java.math.BigInteger(nanos).min(java.math.BigInteger.valueOf(Long.MAX_VALUE)).longValue();
        assertThat(GrpcTimeout.parseNanos(value)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "S", "10", "10s", "10x", "-1S", "+1S", "1.5S", "123456789m", " 1S", "1S ", "1 S"})
    void malformedTimeoutIsRejected(String value) {
        assertThatThrownBy(() -> GrpcTimeout.parseNanos(value)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("grpc-timeout");
    }

    @Test
    void formatPicksTheFinestUnitThatFitsEightDigits() {
        assertThat(GrpcTimeout.format(0)).isEqualTo("0n");
        assertThat(GrpcTimeout.format(-5)).isEqualTo("0n");
        assertThat(GrpcTimeout.format(99_999_999)).isEqualTo("99999999n");
        assertThat(GrpcTimeout.format(100_000_000)).isEqualTo("100000u");
        assertThat(GrpcTimeout.format(TimeUnit.SECONDS.toNanos(30))).isEqualTo("30000000u");
        assertThat(GrpcTimeout.format(TimeUnit.HOURS.toNanos(2))).isEqualTo("7200000m");
        assertThat(GrpcTimeout.format(TimeUnit.DAYS.toNanos(365))).isEqualTo("31536000S");
        assertThat(GrpcTimeout.format(Long.MAX_VALUE)).isEqualTo("2562047H");
        for (long nanos : new long[] {1, 12_345, 987_654_321, TimeUnit.MINUTES.toNanos(90)}) {
            assertThat(GrpcTimeout.parseNanos(GrpcTimeout.format(nanos))).isLessThanOrEqualTo(nanos)
                    .isGreaterThan(nanos - TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
