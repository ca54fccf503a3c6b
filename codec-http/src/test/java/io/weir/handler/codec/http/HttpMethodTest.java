package io.weir.handler.codec.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HttpMethodTest {
    private static final List<HttpMethod> KNOWN = List.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.POST,
            HttpMethod.PUT, HttpMethod.DELETE, HttpMethod.OPTIONS, HttpMethod.PATCH, HttpMethod.TRACE,
            HttpMethod.CONNECT);

    @Test
    void everyKnownMethodIsFoundAsTheSameConstantFromStringBytesAndBuffer() {
        for (HttpMethod m : KNOWN) {
            byte[] bytes = ("xx" + m.name() + "yy").getBytes(StandardCharsets.US_ASCII);
            ByteBuf buf = Unpooled.wrappedBuffer(bytes);
            try {
                assertThat(HttpMethod.valueOf(m.name())).isSameAs(m);
                assertThat(HttpMethod.valueOf(bytes, 2, m.name().length())).isSameAs(m);
                assertThat(HttpMethod.valueOf(buf, 2, m.name().length())).isSameAs(m);
            } finally {
                buf.release();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"PROPFIND", "MKCOL", "GOT", "POSTS", "PUX", "X", "QUERY", "B!#$%&'*+-.^_`|~9"})
    void unknownTokensAreExtensionMethods(String name) {
        HttpMethod m = HttpMethod.valueOf(name);
        assertThat(m.name()).isEqualTo(name);
        assertThat(m.asciiName().toString()).isEqualTo(name);
        assertThat(KNOWN).doesNotContain(m);
        byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
        assertThat(HttpMethod.valueOf(bytes, 0, bytes.length)).isEqualTo(m);
    }

    @ParameterizedTest
    @ValueSource(strings = {"get", "Get", "gET", "post", "Connect", "delete"})
    void mixedCaseIsAnExtensionMethodNotTheUpperCaseOne(String name) {
        HttpMethod m = HttpMethod.valueOf(name);
        assertThat(m).isNotEqualTo(HttpMethod.valueOf(name.toUpperCase()));
        assertThat(m.name()).isEqualTo(name);
        assertThat(KNOWN).doesNotContain(m);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "GE T", "GET\r", "G\nET", "G\0T", "GET/", "(GET)", "GÉT", "G\"T", " GET"})
    void invalidTokensAreRejectedNamingTheInput(String name) {
        assertThatThrownBy(() -> HttpMethod.valueOf(name))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid HTTP method");
    }

    @Test
    void aSpaceInsideABufferedMethodIsRejected() {
        ByteBuf buf = Unpooled.wrappedBuffer("PO T".getBytes(StandardCharsets.US_ASCII));
        try {
            assertThatThrownBy(() -> HttpMethod.valueOf(buf, 0, 4)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("\"PO T\"");
        } finally {
            buf.release();
        }
    }

    @Test
    void aPrefixOfAKnownMethodWithTheSameHashSlotIsNotMistakenForIt() {
        // 'P' + 3*4 hits POST's slot only for length 4; a different 4-byte P-word must still be unknown.
        assertThat(HttpMethod.valueOf("PUSH")).isNotEqualTo(HttpMethod.POST);
        assertThat(HttpMethod.valueOf("PUSH").name()).isEqualTo("PUSH");
    }

    @Test
    void equalityAndOrderFollowTheName() {
        assertThat(HttpMethod.valueOf("FOO")).isEqualTo(new HttpMethod("FOO"))
                .hasSameHashCodeAs(new HttpMethod("FOO"));
        assertThat(HttpMethod.GET.compareTo(HttpMethod.POST)).isNegative();
        assertThat(HttpMethod.GET).hasToString("GET");
    }
}
