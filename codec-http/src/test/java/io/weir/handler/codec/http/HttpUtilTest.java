package io.weir.handler.codec.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HttpUtilTest {

    private static HttpRequest request(HttpVersion v) {
        return new DefaultHttpRequest(v, HttpMethod.GET, "/");
    }

    @Test
    void keepAliveFollowsVersionDefaultsAndConnectionTokens() {
        assertThat(HttpUtil.isKeepAlive(request(HttpVersion.HTTP_1_1))).isTrue();
        assertThat(HttpUtil.isKeepAlive(request(HttpVersion.HTTP_1_0))).isFalse();
        HttpRequest r11 = request(HttpVersion.HTTP_1_1);
        r11.headers().set(HttpHeaderNames.CONNECTION, "Upgrade, CLOSE");
        assertThat(HttpUtil.isKeepAlive(r11)).isFalse();
        HttpRequest r10 = request(HttpVersion.HTTP_1_0);
        r10.headers().set(HttpHeaderNames.CONNECTION, "Keep-Alive");
        assertThat(HttpUtil.isKeepAlive(r10)).isTrue();
    }

    @Test
    void setKeepAliveWritesTheMinimalHeaderForTheVersion() {
        HttpRequest r11 = request(HttpVersion.HTTP_1_1);
        HttpUtil.setKeepAlive(r11, false);
        assertThat(r11.headers().get("connection")).isEqualTo("close");
        HttpUtil.setKeepAlive(r11, true);
        assertThat(r11.headers().contains("connection")).isFalse();
        HttpRequest r10 = request(HttpVersion.HTTP_1_0);
        HttpUtil.setKeepAlive(r10, true);
        assertThat(r10.headers().get("connection")).isEqualTo("keep-alive");
        assertThat(HttpUtil.isKeepAlive(r10)).isTrue();
        HttpUtil.setKeepAlive(r10, false);
        assertThat(HttpUtil.isKeepAlive(r10)).isFalse();
    }

    @Test
    void contentLengthIsStrictDecimal() {
        HttpRequest r = request(HttpVersion.HTTP_1_1);
        assertThat(HttpUtil.isContentLengthSet(r)).isFalse();
        assertThat(HttpUtil.getContentLength(r, -1L)).isEqualTo(-1L);
        assertThatThrownBy(() -> HttpUtil.getContentLength(r)).isInstanceOf(NumberFormatException.class);
        HttpUtil.setContentLength(r, 1234);
        assertThat(HttpUtil.getContentLength(r)).isEqualTo(1234);
        assertThat(HttpUtil.isContentLengthSet(r)).isTrue();
        for (String bad : new String[] {"", "-1", "+1", " 1", "1 ", "0x10", "99999999999999999999"}) {
            r.headers().set(HttpHeaderNames.CONTENT_LENGTH, bad);
            assertThatThrownBy(() -> HttpUtil.getContentLength(r, 0L)).as(bad)
                    .isInstanceOf(NumberFormatException.class);
        }
        assertThatThrownBy(() -> HttpUtil.setContentLength(r, -5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-5");
        r.headers().set(HttpHeaderNames.CONTENT_LENGTH, "9999999999");
        assertThat(HttpUtil.getContentLength(r, 0)).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void chunkedReplacesContentLengthAndCanBeRemovedAgain() {
        HttpRequest r = request(HttpVersion.HTTP_1_1);
        HttpUtil.setContentLength(r, 5);
        HttpUtil.setTransferEncodingChunked(r, true);
        assertThat(HttpUtil.isTransferEncodingChunked(r)).isTrue();
        assertThat(HttpUtil.isContentLengthSet(r)).isFalse();
        r.headers().set(HttpHeaderNames.TRANSFER_ENCODING, "gzip, Chunked");
        assertThat(HttpUtil.isTransferEncodingChunked(r)).isTrue();
        HttpUtil.setTransferEncodingChunked(r, false);
        assertThat(r.headers().get(HttpHeaderNames.TRANSFER_ENCODING)).isEqualTo("gzip");
        r.headers().set(HttpHeaderNames.TRANSFER_ENCODING, "chunked");
        HttpUtil.setTransferEncodingChunked(r, false);
        assertThat(r.headers().contains(HttpHeaderNames.TRANSFER_ENCODING)).isFalse();
    }

    @Test
    void expectContinueOnlyCountsForHttp11Requests() {
        HttpRequest r = request(HttpVersion.HTTP_1_1);
        HttpUtil.set100ContinueExpected(r, true);
        assertThat(HttpUtil.is100ContinueExpected(r)).isTrue();
        r.headers().set(HttpHeaderNames.EXPECT, "100-Continue");
        assertThat(HttpUtil.is100ContinueExpected(r)).isTrue();
        r.headers().set(HttpHeaderNames.EXPECT, "something-else");
        assertThat(HttpUtil.is100ContinueExpected(r)).isFalse();
        assertThat(HttpUtil.isUnsupportedExpectation(r)).isTrue();
        HttpRequest r10 = request(HttpVersion.HTTP_1_0);
        HttpUtil.set100ContinueExpected(r10, true);
        assertThat(HttpUtil.is100ContinueExpected(r10)).isFalse();
        HttpUtil.set100ContinueExpected(r, false);
        assertThat(r.headers().contains(HttpHeaderNames.EXPECT)).isFalse();
    }

    @Test
    void charsetAndMimeTypeAreReadFromContentType() {
        HttpRequest r = request(HttpVersion.HTTP_1_1);
        assertThat(HttpUtil.getCharset(r)).isEqualTo(StandardCharsets.ISO_8859_1);
        assertThat(HttpUtil.getMimeType(r)).isNull();
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, " text/html ; foo=bar; CharSet=\"UTF-8\" ");
        assertThat(HttpUtil.getCharset(r)).isEqualTo(StandardCharsets.UTF_8);
        assertThat(HttpUtil.getMimeType(r).toString()).isEqualTo("text/html");
        assertThat(HttpUtil.getCharsetAsSequence("text/plain;charset=utf-16").toString()).isEqualTo("utf-16");
        assertThat(HttpUtil.getCharset("text/plain; charset=no-such-charset!", StandardCharsets.US_ASCII))
                .isEqualTo(StandardCharsets.US_ASCII);
        assertThat(HttpUtil.getCharset("text/plain; charset=", StandardCharsets.US_ASCII))
                .isEqualTo(StandardCharsets.US_ASCII);
        assertThat(HttpUtil.getMimeType(";charset=x")).isNull();
    }
}
