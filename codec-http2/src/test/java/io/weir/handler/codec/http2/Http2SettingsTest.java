package io.weir.handler.codec.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class Http2SettingsTest {

    @ParameterizedTest(name = "0x{0} = {1} -> {2}")
    @CsvSource({
        "1, 0, OK", "1, 4294967295, OK",
        "2, 0, OK", "2, 1, OK", "2, 2, PROTOCOL_ERROR",
        "3, 0, OK", "3, 4294967295, OK",
        "4, 0, OK", "4, 2147483647, OK", "4, 2147483648, FLOW_CONTROL_ERROR", "4, 4294967295, FLOW_CONTROL_ERROR",
        "5, 16383, PROTOCOL_ERROR", "5, 16384, OK", "5, 16777215, OK", "5, 16777216, PROTOCOL_ERROR",
        "6, 0, OK", "6, 4294967295, OK",
        "8, 1, OK", "8, 2, PROTOCOL_ERROR",
        "9, 1, OK", "9, 2, PROTOCOL_ERROR",
        "7, 12345, OK", "255, 4294967295, OK", "0, 9, OK",
    })
    void receivedValuesAreValidatedWithTheRfcCode(int id, long value, String expected) {
        Http2Error error = Http2Settings.violation(id, value);
        assertThat(error == null ? "OK" : error.name()).isEqualTo(expected);
    }

    @Test
    void unknownIdsAreIgnored() {
        Http2Settings settings = new Http2Settings();
        assertThat(settings.put(0x7, 1)).isFalse();
        assertThat(settings.put(0xff, 1)).isFalse();
        assertThat(settings.put(0, 1)).isFalse();
        assertThat(settings.isEmpty()).isTrue();
        assertThat(settings.has(0xff)).isFalse();
    }

    @Test
    void typedSettersStoreValuesAndPresence() {
        Http2Settings settings = new Http2Settings().headerTableSize(4096).pushEnabled(false)
                .maxConcurrentStreams(100).initialWindowSize(1 << 20).maxFrameSize(1 << 15)
                .maxHeaderListSize(8192).connectProtocolEnabled(true).noRfc7540Priorities(true);
        assertThat(settings.size()).isEqualTo(8);
        assertThat(settings.get(Http2Settings.HEADER_TABLE_SIZE, -1)).isEqualTo(4096);
        assertThat(settings.get(Http2Settings.ENABLE_PUSH, -1)).isZero();
        assertThat(settings.get(Http2Settings.MAX_CONCURRENT_STREAMS, -1)).isEqualTo(100);
        assertThat(settings.get(Http2Settings.INITIAL_WINDOW_SIZE, -1)).isEqualTo(1 << 20);
        assertThat(settings.get(Http2Settings.MAX_FRAME_SIZE, -1)).isEqualTo(1 << 15);
        assertThat(settings.get(Http2Settings.MAX_HEADER_LIST_SIZE, -1)).isEqualTo(8192);
        assertThat(settings.get(Http2Settings.ENABLE_CONNECT_PROTOCOL, -1)).isEqualTo(1);
        assertThat(settings.get(Http2Settings.NO_RFC7540_PRIORITIES, -1)).isEqualTo(1);
        assertThat(settings.remove(Http2Settings.ENABLE_PUSH)).isTrue();
        assertThat(settings.get(Http2Settings.ENABLE_PUSH, -1)).isEqualTo(-1);
        assertThat(settings.toString()).startsWith("Http2Settings{HEADER_TABLE_SIZE=4096, MAX_CONCURRENT_STREAMS=100");
    }

    @Test
    void outOfRangeValuesAreRefusedWithTheValue() {
        Http2Settings settings = new Http2Settings();
        assertThatThrownBy(() -> settings.maxFrameSize(100)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("100");
        assertThatThrownBy(() -> settings.initialWindowSize(-1)).hasMessageContaining("-1");
        assertThatThrownBy(() -> settings.put(Http2Settings.ENABLE_PUSH, 3)).hasMessageContaining("3");
        assertThatThrownBy(() -> settings.maxHeaderListSize(1L << 32)).hasMessageContaining("4294967296");
        assertThat(settings.isEmpty()).isTrue();
    }

    @Test
    void putAllOverlaysAndEqualityFollowsContent() {
        Http2Settings a = new Http2Settings().maxConcurrentStreams(10).initialWindowSize(100);
        Http2Settings b = new Http2Settings().initialWindowSize(200);
        a.putAll(b);
        assertThat(a.get(Http2Settings.INITIAL_WINDOW_SIZE, -1)).isEqualTo(200);
        assertThat(a).isEqualTo(new Http2Settings().initialWindowSize(200).maxConcurrentStreams(10));
        assertThat(a.hashCode()).isEqualTo(new Http2Settings().initialWindowSize(200).maxConcurrentStreams(10).hashCode());
        assertThat(a.clear().isEmpty()).isTrue();
    }
}
