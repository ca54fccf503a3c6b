package io.weir.handler.codec.http.cookie;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.handler.codec.http.DateFormatter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ClientCookieDecoderTest {

    @Test
    void rfc6265Section3_1ExamplesDecode() {
        Cookie sid = ClientCookieDecoder.STRICT.decode("SID=31d4d96e407aad42; Path=/; Secure; HttpOnly");
        assertThat(sid.name()).isEqualTo("SID");
        assertThat(sid.value()).isEqualTo("31d4d96e407aad42");
        assertThat(sid.path()).isEqualTo("/");
        assertThat(sid.isSecure()).isTrue();
        assertThat(sid.isHttpOnly()).isTrue();
        assertThat(sid.maxAge()).isEqualTo(Cookie.UNDEFINED_MAX_AGE);

        Cookie lang = ClientCookieDecoder.STRICT.decode("lang=en-US; Path=/; Domain=example.com");
        assertThat(lang.domain()).isEqualTo("example.com");

        // The RFC's deletion example: an Expires in the past.
        Cookie gone = ClientCookieDecoder.STRICT.decode("lang=; Expires=Sun, 06 Nov 1994 08:49:37 GMT");
        assertThat(gone.value()).isEmpty();
        assertThat(gone.maxAge()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"Wed, 09 Jun 2100 10:18:14 GMT", "Wednesday, 09-Jun-60 10:18:14 GMT",
            "Wed Jun  9 10:18:14 2100"})
    void expiresInAnyOfTheThreeDateFormsBecomesAMaxAge(String date) {
        Cookie c = ClientCookieDecoder.STRICT.decode("a=b; expires=" + date);
        long expected = (DateFormatter.parseMillis(date) - System.currentTimeMillis()) / 1000;
        assertThat(c.maxAge()).isBetween(expected - 5, expected + 5).isPositive();
    }

    @Test
    void maxAgeWinsOverExpiresWhateverTheOrder() {
        assertThat(ClientCookieDecoder.STRICT.decode("a=b; Max-Age=60; Expires=Sun, 06 Nov 1994 08:49:37 GMT")
                .maxAge()).isEqualTo(60);
        assertThat(ClientCookieDecoder.STRICT.decode("a=b; Expires=Sun, 06 Nov 1994 08:49:37 GMT; max-age=60")
                .maxAge()).isEqualTo(60);
    }

    @Test
    void invalidMaxAgeIsIgnoredAndNonPositiveMeansDelete() {
        assertThat(ClientCookieDecoder.STRICT.decode("a=b; Max-Age=soon").maxAge())
                .isEqualTo(Cookie.UNDEFINED_MAX_AGE);
        assertThat(ClientCookieDecoder.STRICT.decode("a=b; Max-Age=-5").maxAge()).isZero();
        assertThat(ClientCookieDecoder.STRICT.decode("a=b; Max-Age=99999999999999999999999").maxAge())
                .isEqualTo(Long.MAX_VALUE);
        assertThat(ClientCookieDecoder.STRICT.decode("a=b; Expires=never").maxAge())
                .isEqualTo(Cookie.UNDEFINED_MAX_AGE);
    }

    @Test
    void attributeNamesAreCaseInsensitive() {
        Cookie c = ClientCookieDecoder.STRICT.decode(
                "a=b;PATH=/x;DOMAIN=.Example.com;SECURE;httponly;samesite=strict;PARTITIONED;Unknown=1");
        assertThat(c.path()).isEqualTo("/x");
        assertThat(c.domain()).isEqualTo("Example.com");
        assertThat(c.isSecure()).isTrue();
        assertThat(c.isHttpOnly()).isTrue();
        assertThat(c.sameSite()).isEqualTo(CookieHeaderNames.SameSite.Strict);
        assertThat(c.isPartitioned()).isTrue();
    }

    @Test
    void pathNotStartingWithSlashAndUnknownSameSiteAreIgnored() {
        Cookie c = ClientCookieDecoder.STRICT.decode("a=b; Path=relative; SameSite=Bogus; Domain=");
        assertThat(c.path()).isNull();
        assertThat(c.sameSite()).isNull();
        assertThat(c.domain()).isNull();
    }

    @Test
    void quotedValueIsUnwrapped() {
        Cookie c = ClientCookieDecoder.STRICT.decode("a=\"b\"; Path=/");
        assertThat(c.value()).isEqualTo("b");
        assertThat(c.wrap()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "novalue", "=b", "a b=c", "a\r\n=b", "a=b\u0000", "\u00e9=x"})
    void unparseableHeadersGiveNull(String header) {
        assertThat(ClientCookieDecoder.STRICT.decode(header)).isNull();
        assertThat(ClientCookieDecoder.LAX.decode(header)).isNull();
    }

    @Test
    void laxAcceptsBrowserStyleValuesThatStrictRefuses() {
        assertThat(ClientCookieDecoder.STRICT.decode("a=x y,z; Path=/")).isNull();
        Cookie lax = ClientCookieDecoder.LAX.decode("a=x y,z; Path=/");
        assertThat(lax.value()).isEqualTo("x y,z");
        assertThat(lax.path()).isEqualTo("/");
    }

    @Test
    void serverEncoderOutputDecodesToTheSameCookie() {
        DefaultCookie c = new DefaultCookie("id", "a1b2");
        c.setDomain("example.com");
        c.setPath("/app");
        c.setMaxAge(120);
        c.setSecure(true);
        c.setHttpOnly(true);
        c.setSameSite(CookieHeaderNames.SameSite.None);
        c.setPartitioned(true);
        Cookie back = ClientCookieDecoder.STRICT.decode(ServerCookieEncoder.STRICT.encode(c));
        assertThat(back).isEqualTo(c);
        assertThat(back.value()).isEqualTo("a1b2");
        assertThat(back.maxAge()).isEqualTo(120);
        assertThat(back.isSecure()).isTrue();
        assertThat(back.isHttpOnly()).isTrue();
        assertThat(back.sameSite()).isEqualTo(CookieHeaderNames.SameSite.None);
        assertThat(back.isPartitioned()).isTrue();
    }
}
