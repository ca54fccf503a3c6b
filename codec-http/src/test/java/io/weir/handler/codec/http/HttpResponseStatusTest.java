package io.weir.handler.codec.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HttpResponseStatusTest {

    @Test
    void registeredCodesAreConstants() {
        assertThat(HttpResponseStatus.valueOf(200)).isSameAs(HttpResponseStatus.OK);
        assertThat(HttpResponseStatus.valueOf(413)).isSameAs(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE);
        assertThat(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE.reasonPhrase().toString()).isEqualTo("Content Too Large");
        assertThat(HttpResponseStatus.valueOf(431).reasonPhrase().toString())
                .isEqualTo("Request Header Fields Too Large");
        assertThat(HttpResponseStatus.NOT_FOUND).hasToString("404 Not Found");
    }

    @Test
    void unregisteredCodesGetTheirClassPhrase() {
        HttpResponseStatus s = HttpResponseStatus.valueOf(499);
        assertThat(s.reasonPhrase().toString()).isEqualTo("Client Error");
        assertThat(s.codeClass()).isEqualTo(HttpStatusClass.CLIENT_ERROR);
        assertThat(HttpResponseStatus.valueOf(799).codeClass()).isEqualTo(HttpStatusClass.UNKNOWN);
        assertThat(HttpStatusClass.valueOf(42)).isEqualTo(HttpStatusClass.UNKNOWN);
        assertThat(HttpStatusClass.INFORMATIONAL.contains(101)).isTrue();
    }

    @Test
    void codesOutsideThreeDigitsAreRejected() {
        assertThatThrownBy(() -> HttpResponseStatus.valueOf(99)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("99");
        assertThatThrownBy(() -> HttpResponseStatus.valueOf(1000)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void reasonPhraseCannotSmuggleALineBreak() {
        assertThatThrownBy(() -> new HttpResponseStatus(200, "OK\r\nSet-Cookie: x=1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reason phrase");
    }

    @Test
    void statusLinesAreParsed() {
        assertThat(HttpResponseStatus.parseLine("200 OK")).isSameAs(HttpResponseStatus.OK);
        assertThat(HttpResponseStatus.parseLine("404")).isSameAs(HttpResponseStatus.NOT_FOUND);
        HttpResponseStatus custom = HttpResponseStatus.parseLine("200 Fine");
        assertThat(custom).isEqualTo(HttpResponseStatus.OK);
        assertThat(custom.reasonPhrase().toString()).isEqualTo("Fine");
        assertThat(HttpResponseStatus.parseLine("204 ").reasonPhrase().toString()).isEqualTo("No Content");
        for (String bad : new String[] {"", "20", "2000 OK", "abc OK", "200OK", "-20 x"}) {
            assertThatThrownBy(() -> HttpResponseStatus.parseLine(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void versionsAreParsedAndRecognisedInBuffers() {
        assertThat(HttpVersion.valueOf("HTTP/1.1")).isSameAs(HttpVersion.HTTP_1_1);
        assertThat(HttpVersion.valueOf(" HTTP/1.0 ")).isSameAs(HttpVersion.HTTP_1_0);
        HttpVersion v = HttpVersion.valueOf("RTSP/1.0");
        assertThat(v.protocolName()).isEqualTo("RTSP");
        assertThat(v.majorVersion()).isEqualTo(1);
        assertThat(v.isKeepAliveDefault()).isTrue();
        assertThat(HttpVersion.HTTP_1_0.isKeepAliveDefault()).isFalse();
        for (String bad : new String[] {"HTTP/1", "HTTP/1.10", "http/1.1", "/1.1", "HTTP/x.1", "HTTP 1.1"}) {
            assertThatThrownBy(() -> HttpVersion.valueOf(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
        ByteBuf buf = Unpooled.wrappedBuffer("GET / HTTP/1.1\r\nHTTP/1.2".getBytes(StandardCharsets.US_ASCII));
        try {
            assertThat(HttpVersion.ofHttp1(buf, 6, 8)).isSameAs(HttpVersion.HTTP_1_1);
            assertThat(HttpVersion.ofHttp1(buf, 16, 8)).isNull();
            assertThat(HttpVersion.ofHttp1(buf, 6, 7)).isNull();
        } finally {
            buf.release();
        }
    }
}
