package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpContentCompressorTest.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.compression.CompressionLibrary;
import io.weir.handler.codec.compression.CompressionOptions;
import io.weir.util.ReferenceCountUtil;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * Runs only in the surefire execution that removes brotli4j and zstd-jni from the class path (see this module's
 * pom): codec-http must work, and say why, without its optional compression libraries.
 */
class CompressionLibrariesAbsentTest {

    @Test
    void librariesReportTheMissingClassesInsteadOfThrowing() {
        for (CompressionLibrary library : CompressionLibrary.values()) {
            assertThat(library.isAvailable()).as(library.name()).isFalse();
            assertThat(library.unavailabilityCause()).isInstanceOf(NoClassDefFoundError.class);
            assertThatThrownBy(library::ensureAvailable).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(library.contentCoding()).hasCauseInstanceOf(NoClassDefFoundError.class);
        }
        assertThat(CompressionOptions.brotli().isAvailable()).isFalse();
        assertThat(CompressionOptions.zstd().isAvailable()).isFalse();
    }

    @Test
    void compressorOffersOnlyTheJdkCodings() throws IOException {
        HttpContentCompressor compressor = new HttpContentCompressor(0, CompressionOptions.brotli(),
                CompressionOptions.zstd(), CompressionOptions.gzip());
        assertThat(compressor.offers("br")).isFalse();
        assertThat(compressor.offers("zstd")).isFalse();
        assertThat(compressor.offers("gzip")).isTrue();
        String[][] cases = {{"br, zstd, gzip", "gzip"}, {"br, zstd", null}, {"*", "gzip"}};
        for (String[] c : cases) {
            EmbeddedChannel ch = new EmbeddedChannel(new HttpContentCompressor());
            HttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/");
            req.headers().set(HttpHeaderNames.ACCEPT_ENCODING, c[0]);
            ch.writeInbound(req);
            ReferenceCountUtil.release(ch.readInbound());
            byte[] body = text(4096);
            ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    Unpooled.copiedBuffer(body)));
            FullHttpResponse out = ch.readOutbound();
            assertThat(out.headers().get(HttpHeaderNames.CONTENT_ENCODING)).as(c[0]).isEqualTo(c[1]);
            byte[] wire = ByteBufUtil.getBytes(out.content());
            if (c[1] == null) {
                assertThat(wire).isEqualTo(body);
            } else {
                try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(wire))) {
                    assertThat(in.readAllBytes()).isEqualTo(body);
                }
            }
            out.release();
            assertThat(ch.finishAndReleaseAll()).isFalse();
        }
    }

    @Test
    void decompressorPassesBrAndZstdBodiesThroughUntouched() {
        for (String coding : new String[] {"br", "zstd"}) {
            EmbeddedChannel ch = new EmbeddedChannel(new HttpContentDecompressor());
            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    Unpooled.copiedBuffer(new byte[] {1, 2, 3}));
            res.headers().set(HttpHeaderNames.CONTENT_ENCODING, coding);
            ch.writeInbound(res);
            FullHttpResponse out = ch.readInbound();
            assertThat(out).isSameAs(res);
            assertThat(out.headers().get(HttpHeaderNames.CONTENT_ENCODING)).isEqualTo(coding);
            assertThat(ByteBufUtil.getBytes(out.content())).containsExactly(1, 2, 3);
            out.release();
            assertThat(ch.finishAndReleaseAll()).isFalse();
        }
    }
}
