package io.weir.handler.codec.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Date;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DateFormatterTest {
    /** RFC 9110 §5.6.7's example instant: Sun, 06 Nov 1994 08:49:37 GMT. */
    private static final long EXAMPLE_MILLIS = 784_111_777_000L;

    @ParameterizedTest
    @ValueSource(strings = {
            "Sun, 06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
            "Sun Nov 06 08:49:37 1994",
            "  Sun, 06 Nov 1994 08:49:37 GMT\t"})
    void theThreeFormsOfTheRfcExampleParseToTheSameInstant(String text) {
        assertThat(DateFormatter.parseMillis(text)).isEqualTo(EXAMPLE_MILLIS);
        assertThat(DateFormatter.parseHttpDate(text)).isEqualTo(new Date(EXAMPLE_MILLIS));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "Thu, 01 Jan 1970 00:00:00 GMT|0",
            "Tue, 29 Feb 2000 23:59:59 GMT|951868799000",
            "Fri, 31 Dec 9999 23:59:59 GMT|253402300799000",
            "Mon, 01 Jan 1900 00:00:00 GMT|-2208988800000",
            "Wednesday, 09-Jan-30 10:00:00 GMT|1894183200000",
            "Thu Jan  1 00:00:00 1970|0"})
    void tableOfDates(String text, long millis) {
        assertThat(DateFormatter.parseMillis(text)).isEqualTo(millis);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "", "garbage", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 1994 08:49:37 gmt",
            "Sun, 06 nov 1994 08:49:37 GMT", "Sun, 06 Nox 1994 08:49:37 GMT", "Xyz, 06 Nov 1994 08:49:37 GMT",
            "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 29 Feb 1900 08:49:37 GMT", "Sun, 00 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Nov 1994 08:49:61 GMT",
            "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT", "Sun, 06 Nov 1994 08-49-37 GMT",
            "Sun, 06 Nov 199x 08:49:37 GMT", "Sun,  6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMTX",
            "Sonday, 06-Nov-94 08:49:37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT", "Sunday 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 94", "Sun Nov 6 08:49:37 1994", "Sun Nov  x 08:49:37 1994",
            "\u0000\u0000\u0000, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GM\uffff"})
    void garbageIsInvalidWithoutThrowing(String text) {
        assertThat(DateFormatter.parseMillis(text)).isEqualTo(DateFormatter.INVALID_DATE);
        assertThat(DateFormatter.parseHttpDate(text)).isNull();
    }

    @Test
    void nullIsInvalid() {
        assertThat(DateFormatter.parseHttpDate(null)).isNull();
    }

    @Test
    void leapSecondIsAccepted() {
        assertThat(DateFormatter.parseMillis("Sat, 31 Dec 2016 23:59:60 GMT"))
                .isEqualTo(Instant.parse("2017-01-01T00:00:00Z").toEpochMilli());
    }

    @Test
    void formatsImfFixdateAndRoundTrips() {
        assertThat(DateFormatter.format(EXAMPLE_MILLIS + 999)).isEqualTo("Sun, 06 Nov 1994 08:49:37 GMT");
        assertThat(DateFormatter.format(new Date(0))).isEqualTo("Thu, 01 Jan 1970 00:00:00 GMT");
        for (long m = -2_000_000_000_000L; m < 4_000_000_000_000L; m += 97_654_321_987L) {
            long seconds = Math.floorDiv(m, 1000) * 1000;
            assertThat(DateFormatter.parseMillis(DateFormatter.format(m))).as("%d", m).isEqualTo(seconds);
        }
    }

    @Test
    void formattingAYearTheFormatCannotHoldIsRejected() {
        assertThatThrownBy(() -> DateFormatter.format(Instant.parse("+10000-01-01T00:00:00Z").toEpochMilli()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("10000");
    }

    @Test
    void currentDateIsParseableAndStableWithinASecond() {
        String a = DateFormatter.currentDate().toString();
        long before = System.currentTimeMillis();
        assertThat(DateFormatter.parseMillis(a)).isBetween(before - 2_000, before + 1_000);
        assertThat(DateFormatter.currentDate().length()).isEqualTo(29);
    }
}
