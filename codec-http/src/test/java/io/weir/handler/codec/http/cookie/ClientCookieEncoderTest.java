package io.weir.handler.codec.http.cookie;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClientCookieEncoderTest {

    private static Cookie cookie(String name, String value, String path) {
        DefaultCookie c = new DefaultCookie(name, value);
        c.setPath(path);
        c.setSecure(true);
        return c;
    }

    @Test
    void longerPathsComeFirstAndTiesKeepTheirOrder() {
        String header = ClientCookieEncoder.STRICT.encode(List.of(cookie("root", "1", "/"),
                cookie("none", "2", null), cookie("deep", "3", "/a/b"), cookie("mid", "4", "/a"),
                cookie("mid2", "5", "/b")));
        assertThat(header).isEqualTo("deep=3; mid=4; mid2=5; root=1; none=2");
    }

    @Test
    void attributesAreNotSentButQuotesAre() {
        DefaultCookie c = new DefaultCookie("a", "b");
        c.setWrap(true);
        c.setHttpOnly(true);
        assertThat(ClientCookieEncoder.STRICT.encode(c)).isEqualTo("a=\"b\"");
        assertThat(ClientCookieEncoder.STRICT.encode("x", "y")).isEqualTo("x=y");
    }

    @Test
    void headerSyntaxInNamesOrValuesIsRefused() {
        assertThatThrownBy(() -> ClientCookieEncoder.LAX.encode("a;b", "1"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClientCookieEncoder.LAX.encode("a", "1; evil=2"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClientCookieEncoder.LAX.encode("a", "1\r\nHost: evil"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClientCookieEncoder.STRICT.encode("a", "1 2"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(ClientCookieEncoder.LAX.encode("a", "1 2")).isEqualTo("a=1 2");
        assertThatThrownBy(() -> ClientCookieEncoder.STRICT.encode(List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void serverDecoderReadsBackWhatTheClientSent() {
        String header = ClientCookieEncoder.STRICT.encode(List.of(cookie("a", "1", "/"), cookie("b", "2", "/x")));
        assertThat(ServerCookieDecoder.STRICT.decodeAll(header)).extracting(Cookie::name, Cookie::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("b", "2"),
                        org.assertj.core.groups.Tuple.tuple("a", "1"));
    }
}
