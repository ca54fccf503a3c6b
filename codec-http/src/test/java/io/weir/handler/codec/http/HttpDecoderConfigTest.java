package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpTestSupport.decode;
import static io.weir.handler.codec.http.HttpTestSupport.release;
import static io.weir.handler.codec.http.HttpTestSupport.single;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.channel.embedded.EmbeddedChannel;
import java.util.List;
import org.junit.jupiter.api.Test;

class HttpDecoderConfigTest {

    @Test
    void defaultsAreTheDocumentedSafeLimits() {
        HttpDecoderConfig config = new HttpDecoderConfig();
        assertThat(config.getMaxInitialLineLength()).as("RFC 9112 §3: at least 8,000 octets").isEqualTo(8192);
        assertThat(config.getMaxHeaderSize()).isEqualTo(8192);
        assertThat(config.getMaxChunkSize()).isEqualTo(8192);
        assertThat(config.getMaxHeaderCount()).isEqualTo(100);
        assertThat(config.isValidateHeaders()).isTrue();
        assertThat(config.isStrictLineEndings()).isTrue();
        assertThat(config.getMaxDeclaredChunkSize()).isEqualTo(16L << 20);
        assertThat(config.getMaxLeadingEmptyLines()).isEqualTo(16);
        assertThat(config.isRequireHost()).isTrue();
        assertThat(config.isAllowConnect()).isFalse();
    }

    @Test
    void nonPositiveLimitsAreRefusedWithTheOffendingValue() {
        HttpDecoderConfig config = new HttpDecoderConfig();
        assertThatThrownBy(() -> config.setMaxInitialLineLength(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxInitialLineLength: 0");
        assertThatThrownBy(() -> config.setMaxHeaderSize(-1)).hasMessageContaining("maxHeaderSize: -1");
        assertThatThrownBy(() -> config.setMaxChunkSize(0)).hasMessageContaining("maxChunkSize: 0");
        assertThatThrownBy(() -> config.setMaxHeaderCount(0)).hasMessageContaining("maxHeaderCount: 0");
        assertThatThrownBy(() -> config.setMaxContentLength(-5)).hasMessageContaining("maxContentLength: -5");
        assertThatThrownBy(() -> config.setMaxDeclaredChunkSize(0)).hasMessageContaining("maxDeclaredChunkSize: 0");
        assertThatThrownBy(() -> config.setMaxLeadingEmptyLines(-1)).hasMessageContaining("maxLeadingEmptyLines: -1");
        assertThat(config.getMaxHeaderSize()).isEqualTo(HttpDecoderConfig.DEFAULT_MAX_HEADER_SIZE_BYTES);
    }

    @Test
    void aDecoderKeepsTheLimitsItWasBuiltWith() {
        HttpDecoderConfig config = new HttpDecoderConfig().setMaxHeaderCount(1);
        EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestDecoder(config));
        config.setMaxHeaderCount(50);
        List<Object> out = decode(ch, "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\n\r\n");
        assertThat(single(out, HttpRequest.class).decoderResult().cause())
                .isInstanceOf(TooLongHttpHeaderException.class).hasMessageContaining("more than 1 header");
        release(out);
        ch.finishAndReleaseAll();
    }
}
