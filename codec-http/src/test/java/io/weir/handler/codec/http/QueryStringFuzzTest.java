package io.weir.handler.codec.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Fuzz target for {@link QueryStringDecoder}. Run as a plain test it replays the corpus under
 * {@code src/test/resources/io/weir/handler/codec/http/QueryStringFuzzTestInputs/decode/}; with
 * {@code JAZZER_FUZZ=1} Jazzer mutates it. The first byte picks the settings. Invariants: the only exception is
 * {@link IllegalArgumentException}, the parameter limit holds, and anything decoded re-encodes to a URI that
 * decodes to the same parameters.
 */
class QueryStringFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void decode(byte[] data) {
        if (data.length == 0) {
            return;
        }
        int maxParams = (data[0] & 0x07) + 1;
        String uri = new String(data, 1, data.length - 1, StandardCharsets.UTF_8);
        QueryStringDecoder d = QueryStringDecoder.builder().maxParams(maxParams)
                .semicolonIsSeparator((data[0] & 0x08) != 0).strictParams((data[0] & 0x10) != 0).build(uri);
        Map<String, List<String>> params;
        try {
            d.path();
            params = d.parameters();
        } catch (IllegalArgumentException expected) {
            return;
        }
        int count = 0;
        for (List<String> values : params.values()) {
            count += values.size();
        }
        assertThat(count).isLessThanOrEqualTo(maxParams);
        QueryStringEncoder e = new QueryStringEncoder("/");
        for (Map.Entry<String, List<String>> entry : params.entrySet()) {
            for (String value : entry.getValue()) {
                e.addParam(entry.getKey(), value);
            }
        }
        assertThat(QueryStringDecoder.builder().maxParams(maxParams).build(e.toString()).parameters())
                .isEqualTo(params);
    }
}
