package io.weir.handler.codec.http.cookie;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.handler.codec.http.DateFormatter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ServerCookieEncoderTest {

    @Test
    void allAttributesAreWrittenInAFixedOrder() {
        DefaultCookie c = new DefaultCookie("SID", "31d4d96e407aad42");
        c.setDomain("example.com");
        c.setPath("/");
        c.setSecure(true);
        c.setHttpOnly(true);
        c.setSameSite(CookieHeaderNames.SameSite.Lax);
        c.setPartitioned(true);
        assertThat(ServerCookieEncoder.STRICT.encode(c)).isEqualTo(
                "SID=31d4d96e407aad42; Domain=example.com; Path=/; Secure; HttpOnly; SameSite=Lax; Partitioned");
    }

    @Test
    void maxAgeComesWithAMatchingExpires() {
        DefaultCookie c = new DefaultCookie("a", "b");
        c.setMaxAge(3600);
        long before = System.currentTimeMillis() / 1000 * 1000;
        String header = ServerCookieEncoder.STRICT.encode(c);
        long after = System.currentTimeMillis();
        assertThat(header).startsWith("a=b; Max-Age=3600; Expires=");
        long expires = DateFormatter.parseMillis(header.substring(header.indexOf("Expires=") + 8));
        assertThat(expires).isBetween(before + 3_600_000L, after + 3_600_000L);
    }

    @Test
    void zeroMaxAgeDeletesTheCookie() {
        DefaultCookie c = new DefaultCookie("a", "");
        c.setMaxAge(0);
        String header = ServerCookieEncoder.LAX.encode(c);
        assertThat(header).startsWith("a=; Max-Age=0; Expires=");
        Cookie back = ClientCookieDecoder.STRICT.decode(header);
        assertThat(back.maxAge()).isZero();
    }

    @Test
    void negativeMaxAgeIsWrittenAsZero() {
        DefaultCookie c = new DefaultCookie("a", "b");
        c.setMaxAge(-5);
        assertThat(ServerCookieEncoder.STRICT.encode(c)).startsWith("a=b; Max-Age=0; Expires=");
    }

    @Test
    void wrappedValueIsQuoted() {
        DefaultCookie c = new DefaultCookie("a", "b");
        c.setWrap(true);
        assertThat(ServerCookieEncoder.STRICT.encode(c)).isEqualTo("a=\"b\"");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a;b", "a\r\nSet-Cookie: x", "a b", "a,b", "a=b", "", "caf\u00e9", "a\u0000",
            "a\u007f", "a\"b", "a:b", "\u4e2d"})
    void namesThatCouldInjectHeaderSyntaxAreRefusedInEveryMode(String name) {
        for (ServerCookieEncoder encoder : List.of(ServerCookieEncoder.STRICT, ServerCookieEncoder.LAX)) {
            assertThatThrownBy(() -> encoder.encode(new TestCookie(name, "v")))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cookie name");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"x; Domain=evil.com", "x\r\nLocation: /evil", "x\n", "x\u0000", "x\u0085"})
    void valuesThatCouldInjectAttributesOrHeadersAreRefusedInEveryMode(String value) {
        for (ServerCookieEncoder encoder : List.of(ServerCookieEncoder.STRICT, ServerCookieEncoder.LAX)) {
            assertThatThrownBy(() -> encoder.encode("a", value)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("value of cookie a");
        }
    }

    @Test
    void laxAllowsSpacesAndCommasInValuesButStrictDoesNot() {
        assertThat(ServerCookieEncoder.LAX.encode("a", "x, y \"z\" caf\u00e9")).isEqualTo("a=x, y \"z\" caf\u00e9");
        assertThatThrownBy(() -> ServerCookieEncoder.STRICT.encode("a", "x y"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("index 1");
        assertThatThrownBy(() -> ServerCookieEncoder.LAX.encode("a", "\u4e2d"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void domainsAndPathsCannotInjectAttributes() {
        DefaultCookie badPath = new DefaultCookie("a", "b");
        badPath.setPath("/; Domain=evil.com");
        DefaultCookie crlfDomain = new DefaultCookie("a", "b");
        crlfDomain.setDomain("example.com\r\nX: y");
        DefaultCookie spaceDomain = new DefaultCookie("a", "b");
        spaceDomain.setDomain("example.com x");
        for (ServerCookieEncoder encoder : List.of(ServerCookieEncoder.STRICT, ServerCookieEncoder.LAX)) {
            assertThatThrownBy(() -> encoder.encode(badPath)).hasMessageContaining("path of cookie a");
            assertThatThrownBy(() -> encoder.encode(crlfDomain)).hasMessageContaining("domain of cookie a");
        }
        assertThatThrownBy(() -> ServerCookieEncoder.STRICT.encode(spaceDomain))
                .hasMessageContaining("domain of cookie a");
    }

    @Test
    void strictRefusesPartitionedWithoutSecure() {
        DefaultCookie c = new DefaultCookie("a", "b");
        c.setPartitioned(true);
        assertThatThrownBy(() -> ServerCookieEncoder.STRICT.encode(c)).hasMessageContaining("not Secure");
        assertThat(ServerCookieEncoder.LAX.encode(c)).isEqualTo("a=b; Partitioned");
    }

    @Test
    void strictKeepsTheLastCookieOfEachNameAndLaxKeepsAll() {
        List<Cookie> cookies = List.of(new DefaultCookie("a", "1"), new DefaultCookie("b", "2"),
                new DefaultCookie("a", "3"));
        assertThat(ServerCookieEncoder.STRICT.encode(cookies)).containsExactly("b=2", "a=3");
        assertThat(ServerCookieEncoder.LAX.encode(cookies)).containsExactly("a=1", "b=2", "a=3");
        assertThat(ServerCookieEncoder.LAX.encode(cookies, true)).containsExactly("b=2", "a=3");
    }

    @Test
    void veryLongValueIsEncodedWhole() {
        String value = "v".repeat(100_000);
        assertThat(ServerCookieEncoder.STRICT.encode("a", value)).hasSize(100_002);
    }

    /** A cookie whose name bypasses DefaultCookie, as a user's own Cookie implementation could. */
    private static final class TestCookie extends DefaultCookie {
        private final String name;

        TestCookie(String name, String value) {
            super("placeholder", value);
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }
    }
}
