package io.weir.handler.codec.http2.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.handler.codec.http2.Http2FrameCodec;
import io.weir.handler.codec.http2.Http2PriorityUpdateFrame;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class Http2PrioritiesTest {

    @ParameterizedTest(name = "[{0}] -> u={1} i={2}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
        "''                  | 3 | false",
        "u=1, i              | 1 | true",
        "u=0                 | 0 | false",
        "u=7                 | 7 | false",
        "i                   | 3 | true",
        "i=?1                | 3 | true",
        "i=?0                | 3 | false",
        "u=5,i               | 5 | true",
        "'u=2 ,  i'          | 2 | true",
        // RFC 9218 §4: out of range or of the wrong type: that parameter is ignored
        "u=8, i              | 3 | true",
        "u=-1                | 3 | false",
        "u=1.5               | 3 | false",
        "u=a, i              | 3 | true",
        "u=1, i=1            | 1 | false",
        "u=\"1\"             | 3 | false",
        // unknown members and parameters are ignored; the last duplicate counts (RFC 8941 §3.2)
        "u=1;x=2, i;y, z=:AA==: | 1 | true",
        "u=1, u=6            | 6 | false",
        "x=\"a, u=0\", u=4   | 4 | false",
        // not a dictionary: the whole value is ignored
        "u=1 i               | 3 | false",
        "u=1,                | 3 | false",
        "U=1                 | 3 | false",
        "u=1, i, \"s\"       | 3 | false",
        "u=1;                | 3 | false",
        "x=\"open, u=1       | 3 | false",
    })
    void priorityFieldValuesAreParsedAsStructuredFields(String value, int urgency, boolean incremental) {
        int packed = Http2Priorities.parse(value, Http2FrameCodec.DEFAULT_MAX_PRIORITY_FIELD_VALUE_BYTES);
        assertThat(Http2Priorities.urgency(packed)).isEqualTo(urgency);
        assertThat(Http2Priorities.incremental(packed)).isEqualTo(incremental);
    }

    @Test
    void oversizedPriorityFieldIsIgnored() {
        String value = "u=1, i, " + "x".repeat(Http2FrameCodec.DEFAULT_MAX_PRIORITY_FIELD_VALUE_BYTES);
        assertThat(Http2Priorities.parse(value, Http2FrameCodec.DEFAULT_MAX_PRIORITY_FIELD_VALUE_BYTES))
                .isEqualTo(Http2Priorities.DEFAULT);
    }

    @Test
    void formatRoundTrips() {
        for (int u = 0; u <= 7; u++) {
            for (boolean i : new boolean[] {false, true}) {
                int packed = Http2Priorities.pack(u, i);
                assertThat(Http2Priorities.parse(Http2Priorities.format(packed), 64)).isEqualTo(packed);
            }
        }
        assertThat(Http2Priorities.format(Http2Priorities.pack(1, true))).isEqualTo("u=1, i");
        assertThat(Http2Priorities.format(Http2Priorities.DEFAULT)).isEmpty();
    }

    @Test
    void urgencyOutOfRangeIsRefusedOutbound() {
        assertThatThrownBy(() -> new Http2PriorityUpdateFrame(8, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("urgency: 8");
    }
}
