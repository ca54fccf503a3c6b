package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpTestSupport.content;
import static io.weir.handler.codec.http.HttpTestSupport.decode;
import static io.weir.handler.codec.http.HttpTestSupport.drain;
import static io.weir.handler.codec.http.HttpTestSupport.release;
import static io.weir.handler.codec.http.HttpTestSupport.single;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class HttpResponseDecoderTest {

    private static EmbeddedChannel channel() {
        return new EmbeddedChannel(new HttpResponseDecoder());
    }

    @Test
    void contentLengthDelimitsTheBody() {
        EmbeddedChannel ch = channel();
        List<Object> out = decode(ch, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel", "loHTTP/1.1 204 No Content\r\n\r\n");
        HttpResponse first = (HttpResponse) out.get(0);
        assertThat(first.status()).isEqualTo(HttpResponseStatus.OK);
        assertThat(first.status().reasonPhrase().toString()).isEqualTo("OK");
        assertThat(out.get(2)).isInstanceOf(LastHttpContent.class);
        assertThat(content(out.subList(0, 3))).isEqualTo("hello");
        assertThat(((HttpResponse) out.get(3)).status().code()).isEqualTo(204);
        assertThat(out.get(4)).isSameAs(LastHttpContent.EMPTY_LAST_CONTENT);
        release(out);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void chunkedBodyWithTrailersIsDecoded() {
        EmbeddedChannel ch = channel();
        List<Object> out = decode(ch, "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
                + "3\r\nabc\r\n2\r\nde\r\n0\r\nX-Checksum: 42\r\n\r\n");
        assertThat(content(out)).isEqualTo("abcde");
        LastHttpContent last = (LastHttpContent) out.get(out.size() - 1);
        assertThat(last.trailingHeaders().get("x-checksum")).isEqualTo("42");
        release(out);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void aResponseWithoutFramingRunsUntilTheConnectionCloses() {
        EmbeddedChannel ch = channel();
        List<Object> out = decode(ch, "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nfirst ", "second");
        assertThat(out.stream().filter(o -> o instanceof LastHttpContent).count()).isZero();
        ch.finish();
        drain(ch, out);
        LastHttpContent last = (LastHttpContent) out.get(out.size() - 1);
        assertThat(last.decoderResult().isSuccess()).isTrue();
        assertThat(content(out)).isEqualTo("first second");
        release(out);
    }

    @Test
    void aFinalCodingOtherThanChunkedAlsoRunsUntilClose() {
        EmbeddedChannel ch = channel();
        List<Object> out = decode(ch, "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n0\r\n\r\n");
        ch.finish();
        drain(ch, out);
        assertThat(content(out)).isEqualTo("0\r\n\r\n");
        release(out);
    }

    @Test
    void noContentAndNotModifiedHaveNoBodyWhateverTheirHeadersSay() {
        EmbeddedChannel ch = channel();
        List<Object> out = decode(ch, "HTTP/1.1 304 Not Modified\r\nContent-Length: 100\r\n\r\n"
                + "HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        assertThat(out).hasSize(6);
        assertThat(((HttpResponse) out.get(0)).status().code()).isEqualTo(304);
        assertThat(out.get(1)).isSameAs(LastHttpContent.EMPTY_LAST_CONTENT);
        assertThat(((HttpResponse) out.get(2)).status().code()).isEqualTo(204);
        assertThat(out.get(3)).isSameAs(LastHttpContent.EMPTY_LAST_CONTENT);
        assertThat(content(out)).isEqualTo("ok");
        release(out);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void interimResponsesPrecedeTheFinalOne() {
        EmbeddedChannel ch = channel();
        List<Object> out = decode(ch, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
                + "HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n");
        assertThat(out).hasSize(6);
        assertThat(((HttpResponse) out.get(0)).status().code()).isEqualTo(100);
        assertThat(((HttpResponse) out.get(2)).status().code()).isEqualTo(103);
        assertThat(((HttpResponse) out.get(4)).status().code()).isEqualTo(201);
        release(out);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void switchingProtocolsPassesTheRestThroughAsBytes() {
        EmbeddedChannel ch = channel();
        List<Object> out = decode(ch, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n\u0081\u0002hi",
                "more");
        assertThat(((HttpResponse) out.get(0)).status().code()).isEqualTo(101);
        assertThat(out.get(1)).isSameAs(LastHttpContent.EMPTY_LAST_CONTENT);
        StringBuilder raw = new StringBuilder();
        for (Object o : out.subList(2, out.size())) {
            raw.append(((ByteBuf) o).toString(StandardCharsets.ISO_8859_1));
        }
        assertThat(raw.toString()).isEqualTo("\u0081\u0002himore");
        release(out);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void aStatusLineWithoutReasonIsAccepted() {
        EmbeddedChannel ch = channel();
        List<Object> out = decode(ch, "HTTP/1.1 404\r\nContent-Length: 0\r\n\r\nHTTP/1.1 500 \r\nContent-Length: 0\r\n\r\n");
        assertThat(((HttpResponse) out.get(0)).status().code()).isEqualTo(404);
        assertThat(((HttpResponse) out.get(0)).decoderResult().isSuccess()).isTrue();
        assertThat(((HttpResponse) out.get(2)).status().code()).isEqualTo(500);
        release(out);
        ch.finishAndReleaseAll();
    }

    @Test
    void malformedStatusLinesAreRejected() {
        String[][] cases = {
            {"HTTP/1.1 2000 OK\r\n\r\n", "INVALID_STATUS"},
            {"HTTP/1.1 20 OK\r\n\r\n", "INVALID_STATUS"},
            {"HTTP/1.1 099 Low\r\n\r\n", "INVALID_STATUS"},
            {"HTTP/1.1 200 O\u0000K\r\n\r\n", "CONTROL_CHARACTER"},
            {"HTTP/1.1 200 O\rK\r\n\r\n", "BARE_CR"},
            {"HTTP/3.0 200 OK\r\n\r\n", "UNSUPPORTED_VERSION"},
            {"ICY 200 OK\r\n\r\n", "INVALID_VERSION"},
            {"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
                "CONTENT_LENGTH_WITH_TRANSFER_ENCODING"},
            {"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", "CONFLICTING_CONTENT_LENGTH"},
        };
        for (String[] c : cases) {
            EmbeddedChannel ch = channel();
            List<Object> out = decode(ch, c[0]);
            HttpResponse res = single(out, HttpResponse.class);
            assertThat(res.decoderResult().cause()).as(c[0]).isInstanceOfSatisfying(InvalidHttpMessageException.class,
                    e -> assertThat(e.violation().name()).isEqualTo(c[1]));
            release(out);
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void aResponseCutShortInItsHeadersFailsOnClose() {
        EmbeddedChannel ch = channel();
        List<Object> out = decode(ch, "HTTP/1.1 200 OK\r\nContent-Le");
        ch.finish();
        drain(ch, out);
        assertThat(single(out, HttpResponse.class).decoderResult().cause())
                .isInstanceOf(PrematureChannelClosureException.class);
        release(out);
    }
}
