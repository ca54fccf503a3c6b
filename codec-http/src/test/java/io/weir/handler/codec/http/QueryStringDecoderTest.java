package io.weir.handler.codec.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QueryStringDecoderTest {

    @Test
    void pathAndParametersKeepTheirOrder() {
        QueryStringDecoder d = new QueryStringDecoder("/search?q=weir&tag=b&tag=a&empty=&flag");
        assertThat(d.path()).isEqualTo("/search");
        assertThat(d.rawPath()).isEqualTo("/search");
        assertThat(d.rawQuery()).isEqualTo("q=weir&tag=b&tag=a&empty=&flag");
        assertThat(d.parameters()).containsExactly(
                Map.entry("q", List.of("weir")),
                Map.entry("tag", List.of("b", "a")),
                Map.entry("empty", List.of("")),
                Map.entry("flag", List.of("")));
    }

    @Test
    void uriWithoutQueryHasNoParameters() {
        QueryStringDecoder d = new QueryStringDecoder("/a%20b");
        assertThat(d.path()).isEqualTo("/a b");
        assertThat(d.rawQuery()).isEmpty();
        assertThat(d.parameters()).isEmpty();
    }

    @Test
    void fragmentIsNeitherPathNorQuery() {
        QueryStringDecoder d = new QueryStringDecoder("/p?a=1#frag&b=2");
        assertThat(d.path()).isEqualTo("/p");
        assertThat(d.rawQuery()).isEqualTo("a=1");
        assertThat(d.parameters()).containsOnlyKeys("a");
        QueryStringDecoder noQuery = new QueryStringDecoder("/p#x?a=1");
        assertThat(noQuery.path()).isEqualTo("/p");
        assertThat(noQuery.parameters()).isEmpty();
    }

    @Test
    void plusIsASpaceInTheQueryButNotInThePath() {
        QueryStringDecoder d = new QueryStringDecoder("/c++/a+b?x=1+2&y%2B=%2B");
        assertThat(d.path()).isEqualTo("/c++/a+b");
        assertThat(d.parameters().get("x")).containsExactly("1 2");
        assertThat(d.parameters().get("y+")).containsExactly("+");
    }

    @Test
    void percentEncodedUtf8SpanningSeveralEscapesIsOneCharacter() {
        QueryStringDecoder d = new QueryStringDecoder("/caf%C3%A9?name=%E2%82%AC%F0%9F%98%80x&k%3D=v%26w");
        assertThat(d.path()).isEqualTo("/café");
        assertThat(d.parameters().get("name")).containsExactly("€😀x");
        assertThat(d.parameters().get("k=")).containsExactly("v&w");
    }

    @Test
    void otherCharsetDecodesItsBytes() {
        QueryStringDecoder d = QueryStringDecoder.builder().charset(StandardCharsets.ISO_8859_1).build("/?x=%E9");
        assertThat(d.parameters().get("x")).containsExactly("é");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "/?a=%zz        | invalid percent-encoding at offset 4",
            "/?a=%4         | truncated percent-encoding at offset 4",
            "/?a=%          | truncated percent-encoding at offset 4",
            "/?a=1%2        | truncated percent-encoding at offset 5",
            "/%G0           | invalid percent-encoding at offset 1",
            "/?%1-=x        | invalid percent-encoding at offset 2",
            "/?a=%٣٣        | invalid percent-encoding at offset 4",
    })
    void invalidPercentEncodingIsRejectedWithItsOffset(String uri, String message) {
        QueryStringDecoder d = new QueryStringDecoder(uri);
        assertThatThrownBy(() -> {
            d.path();
            d.parameters();
        }).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }

    @Test
    void invalidUtf8IsRejectedNotReplaced() {
        // An overlong encoding of '/' and a lone continuation byte: replacing them would let two raw
        // strings decode to the same name.
        assertThatThrownBy(() -> new QueryStringDecoder("/?a=%C0%AF").parameters())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("offset 4")
                .hasMessageContaining("UTF-8");
        assertThatThrownBy(() -> new QueryStringDecoder("/%80").path())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("offset 1");
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"%ED%A0%80", "%F4%90%80%80", "%E2%82", "%E2%82x",
            "%F0%9F%98", "%C3%28", "%FF", "%E0%80%AF"})
    void malformedUtf8SequencesAreRejected(String escaped) {
        assertThatThrownBy(() -> new QueryStringDecoder("/?v=" + escaped).parameters())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not valid UTF-8");
    }

    @Test
    void wellFormedUtf8BoundariesDecode() {
        assertThat(new QueryStringDecoder("/?v=%C2%80%DF%BF%E0%A0%80%EF%BF%BF%F0%90%80%80%F4%8F%BF%BF").parameters()
                .get("v")).containsExactly("\u0080\u07ff\u0800\uffff\ud800\udc00\udbff\udfff");
    }

    @Test
    void semicolonIsPartOfTheValueByDefault() {
        QueryStringDecoder d = new QueryStringDecoder("/?a=1;b=2&c=3");
        assertThat(d.parameters()).containsExactly(
                Map.entry("a", List.of("1;b=2")), Map.entry("c", List.of("3")));
    }

    @Test
    void semicolonSeparatesWhenEnabled() {
        QueryStringDecoder d = QueryStringDecoder.builder().semicolonIsSeparator(true).build("/?a=1;b=2&c=3");
        assertThat(d.parameters()).containsExactly(
                Map.entry("a", List.of("1")), Map.entry("b", List.of("2")), Map.entry("c", List.of("3")));
    }

    @Test
    void parametersPastTheLimitAreIgnored() {
        QueryStringDecoder d = QueryStringDecoder.builder().maxParams(2).build("/?a=1&&b=2&c=3&d=4");
        assertThat(d.parameters()).containsOnlyKeys("a", "b");
    }

    @Test
    void defaultLimitBoundsAHugeQuery() {
        StringBuilder q = new StringBuilder("/?");
        for (int i = 0; i < 5000; i++) {
            q.append('p').append(i).append("=v&");
        }
        QueryStringDecoder d = new QueryStringDecoder(q.toString());
        assertThat(d.parameters()).hasSize(QueryStringDecoder.DEFAULT_MAX_PARAMS);
        assertThat(d.parameters()).containsKey("p1023").doesNotContainKey("p1024");
    }

    @Test
    void strictModeThrowsPastTheLimit() {
        QueryStringDecoder d = QueryStringDecoder.builder().maxParams(2).strictParams(true).build("/?a&b&c");
        assertThatThrownBy(d::parameters).isInstanceOf(QueryStringDecoder.TooManyParametersException.class)
                .hasMessageContaining("2");
        QueryStringDecoder exact = QueryStringDecoder.builder().maxParams(2).strictParams(true).build("/?a&b&");
        assertThat(exact.parameters()).containsOnlyKeys("a", "b");
    }

    @Test
    void bareQueryStringHasNoPath() {
        QueryStringDecoder d = new QueryStringDecoder("a=1&b=%20", false);
        assertThat(d.path()).isEmpty();
        assertThat(d.rawQuery()).isEqualTo("a=1&b=%20");
        assertThat(d.parameters().get("b")).containsExactly(" ");
    }

    @Test
    void emptyNamesAndSeparatorsAreSkipped() {
        QueryStringDecoder d = new QueryStringDecoder("/?&&=x&a=1=2&");
        assertThat(d.parameters()).containsExactly(Map.entry("", List.of("x")), Map.entry("a", List.of("1=2")));
    }

    @Test
    void parametersAreUnmodifiable() {
        Map<String, List<String>> p = new QueryStringDecoder("/?a=1").parameters();
        assertThatThrownBy(() -> p.put("b", List.of())).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void javaNetUriIsDecodedFromItsRawParts() {
        QueryStringDecoder d = new QueryStringDecoder(java.net.URI.create("http://h:8080/a%20b?x=%26&y=1#frag"));
        assertThat(d.path()).isEqualTo("/a b");
        assertThat(d.parameters()).containsExactly(Map.entry("x", List.of("&")), Map.entry("y", List.of("1")));
        assertThat(new QueryStringDecoder(java.net.URI.create("mailto:x@y")).path()).isEmpty();
    }

    @Test
    void decodeComponentDefaultsToUtf8WithPlusAsSpace() {
        assertThat(QueryStringDecoder.decodeComponent("a+b%20%C3%A9")).isEqualTo("a b é");
        assertThat(QueryStringDecoder.decodeComponent("a+b", StandardCharsets.UTF_8, false)).isEqualTo("a+b");
        assertThatThrownBy(() -> QueryStringDecoder.decodeComponent("%")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void badSettingsFailFast() {
        assertThatThrownBy(() -> QueryStringDecoder.builder().maxParams(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
        assertThatThrownBy(() -> new QueryStringDecoder((String) null)).isInstanceOf(NullPointerException.class);
    }
}
