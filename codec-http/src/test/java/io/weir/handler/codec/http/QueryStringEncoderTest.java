package io.weir.handler.codec.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueryStringEncoderTest {

    @Test
    void reservedCharactersAreEscapedAndUnreservedKeptAsIs() {
        QueryStringEncoder e = new QueryStringEncoder("/search");
        e.addParam("q", "weir & netty=+;#?/%");
        e.addParam("safe", "AZaz09-._~");
        e.addParam("flag", null);
        assertThat(e.toString())
                .isEqualTo("/search?q=weir%20%26%20netty%3D%2B%3B%23%3F%2F%25&safe=AZaz09-._~&flag");
    }

    @Test
    void headerSyntaxNeverSurvivesEncoding() {
        QueryStringEncoder e = new QueryStringEncoder("/");
        e.addParam("a\r\nb", "c d\u0000");
        assertThat(e.toString()).isEqualTo("/?a%0D%0Ab=c%20d%00");
    }

    @Test
    void appendsToAnExistingQuery() {
        QueryStringEncoder e = new QueryStringEncoder("/p?x=1");
        e.addParam("y", "2");
        assertThat(e.toString()).isEqualTo("/p?x=1&y=2");
    }

    @Test
    void unicodeIsEncodedAsUtf8AndSurrogatePairsStayTogether() {
        assertThat(QueryStringEncoder.encodeComponent("é€😀", StandardCharsets.UTF_8))
                .isEqualTo("%C3%A9%E2%82%AC%F0%9F%98%80");
        assertThat(QueryStringEncoder.encodeComponent("é", StandardCharsets.ISO_8859_1)).isEqualTo("%E9");
    }

    @Test
    void decoderReadsBackWhatTheEncoderWrote() throws Exception {
        QueryStringEncoder e = new QueryStringEncoder("/p");
        String[] values = {"", " ", "+", "a&b=c", "%zz", "€😀", "line\r\nbreak", "x;y"};
        for (int i = 0; i < values.length; i++) {
            e.addParam("k" + i + values[i], values[i]);
        }
        Map<String, List<String>> params = new QueryStringDecoder(e.toString()).parameters();
        assertThat(params).hasSize(values.length);
        for (int i = 0; i < values.length; i++) {
            assertThat(params.get("k" + i + values[i])).containsExactly(values[i]);
        }
        assertThat(e.toUri().getRawPath()).isEqualTo("/p");
    }
}
