package io.weir.handler.codec.http.cookie;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ServerCookieDecoderTest {

    private static List<String> pairs(List<Cookie> cookies) {
        return cookies.stream().map(c -> c.name() + "=" + c.value()).toList();
    }

    @Test
    void rfc6265Section5_4ExampleDecodesInOrder() {
        // RFC 6265 §3.1: "Cookie: SID=31d4d96e407aad42; lang=en-US"
        List<Cookie> cookies = ServerCookieDecoder.STRICT.decodeAll("SID=31d4d96e407aad42; lang=en-US");
        assertThat(pairs(cookies)).containsExactly("SID=31d4d96e407aad42", "lang=en-US");
    }

    @Test
    void quotedValueIsUnwrappedAndRemembered() {
        Cookie c = ServerCookieDecoder.STRICT.decodeAll("a=\"quoted\"; b=\"\"").get(0);
        assertThat(c.value()).isEqualTo("quoted");
        assertThat(c.wrap()).isTrue();
        assertThat(ServerCookieDecoder.STRICT.decodeAll("b=\"\"").get(0).value()).isEmpty();
    }

    @Test
    void emptyValuesAndOddSpacingAreAccepted() {
        assertThat(pairs(ServerCookieDecoder.STRICT.decodeAll(" a = ;b=1;;\tc=2 ;")))
                .containsExactly("a=", "b=1", "c=2");
    }

    @Test
    void decodeKeepsTheFirstCookieOfEachNameInOrder() {
        Set<Cookie> set = ServerCookieDecoder.STRICT.decode("z=1; a=2; z=3");
        assertThat(set).extracting(Cookie::name, Cookie::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("z", "1"),
                        org.assertj.core.groups.Tuple.tuple("a", "2"));
        assertThat(ServerCookieDecoder.STRICT.decodeAll("z=1; a=2; z=3")).hasSize(3);
    }

    @Test
    void strictSkipsPairsWithNonCookieOctetsButKeepsTheRest() {
        String header = "ok=1; sp=a b; comma=a,b; quote=a\"b; bs=a\\b; latin=caf\u00e9; ok2=2";
        assertThat(pairs(ServerCookieDecoder.STRICT.decodeAll(header))).containsExactly("ok=1", "ok2=2");
        assertThat(pairs(ServerCookieDecoder.LAX.decodeAll(header))).containsExactly("ok=1", "sp=a b",
                "comma=a,b", "quote=a\"b", "bs=a\\b", "latin=caf\u00e9", "ok2=2");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\rb=1", "a b=1", "a,b=1", "a\"b=1", "=1", "a(b)=1", "a\u0000=1", "\u00e9=1",
            "a\u2028=1", "noequals"})
    void invalidNamesAreSkippedInEveryMode(String pair) {
        assertThat(ServerCookieDecoder.STRICT.decodeAll(pair + "; ok=1")).extracting(Cookie::name)
                .containsExactly("ok");
        assertThat(ServerCookieDecoder.LAX.decodeAll(pair + "; ok=1")).extracting(Cookie::name)
                .containsExactly("ok");
    }

    @Test
    void controlCharactersInValuesAreRefusedEvenWhenLax() {
        assertThat(ServerCookieDecoder.LAX.decodeAll("a=x\r\nSet-Cookie: evil=1; b=\u0000; c=\u007f; d=ok"))
                .extracting(Cookie::name).containsExactly("d");
    }

    @Test
    void rfc2965AttributesAreDropped() {
        assertThat(pairs(ServerCookieDecoder.STRICT.decodeAll("$Version=1; a=b; $Path=/; c=d")))
                .containsExactly("a=b", "c=d");
    }

    @Test
    void cookieCountIsBounded() {
        StringBuilder h = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            h.append('c').append(i).append("=v; ");
        }
        assertThat(ServerCookieDecoder.LAX.decodeAll(h.toString())).hasSize(ServerCookieDecoder.MAX_COOKIES);
    }

    @Test
    void veryLongValueDecodesWhole() {
        String value = "v".repeat(100_000);
        assertThat(ServerCookieDecoder.STRICT.decodeAll("big=" + value).get(0).value()).hasSize(100_000);
    }

    @Test
    void emptyHeaderHasNoCookies() {
        assertThat(ServerCookieDecoder.STRICT.decode("")).isEmpty();
        assertThat(ServerCookieDecoder.STRICT.decodeAll(" ; ;")).isEmpty();
    }
}
