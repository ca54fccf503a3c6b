package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpTestSupport.content;
import static io.weir.handler.codec.http.HttpTestSupport.decode;
import static io.weir.handler.codec.http.HttpTestSupport.release;
import static io.weir.handler.codec.http.HttpTestSupport.single;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HttpRequestDecoderTest {
    private static final String CHUNKED_POST = "POST /upload HTTP/1.1\r\n"
            + "Host: example.com\r\n"
            + "Transfer-Encoding: chunked\r\n"
            + "Trailer: Expires\r\n"
            + "\r\n"
            + "4\r\nWiki\r\n"
            + "5;name=value;flag\r\npedia\r\n"
            + "E\r\n in\r\n\r\nchunks.\r\n"
            + "0\r\n"
            + "Expires: Wed, 21 Oct 2015 07:28:00 GMT\r\n"
            + "\r\n";

    private static EmbeddedChannel channel() {
        return new EmbeddedChannel(new HttpRequestDecoder());
    }

    private static EmbeddedChannel channel(HttpDecoderConfig config) {
        return new EmbeddedChannel(new HttpRequestDecoder(config));
    }

    @Test
    void simpleGetBecomesARequestAndAnEmptyLastContent() {
        EmbeddedChannel ch = channel();
        List<Object> out = decode(ch, "GET /index.html?q=1 HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\n\r\n");
        assertThat(out).hasSize(2);
        HttpRequest req = (HttpRequest) out.get(0);
        assertThat(req.decoderResult().isSuccess()).isTrue();
        assertThat(req.method()).isSameAs(HttpMethod.GET);
        assertThat(req.uri()).isEqualTo("/index.html?q=1");
        assertThat(req.protocolVersion()).isEqualTo(HttpVersion.HTTP_1_1);
        assertThat(req.headers().get("host")).isEqualTo("example.com");
        assertThat(req.headers().get("Accept")).isEqualTo("*/*");
        assertThat(out.get(1)).isSameAs(LastHttpContent.EMPTY_LAST_CONTENT);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void pipelinedRequestsEachKeepTheirOwnTargetHostAndNameCase() {
        // The decoder shares a repeated target, Host value and common names between requests: sharing must never
        // hand one request another's bytes, nor change the case a client sent.
        EmbeddedChannel ch = channel();
        List<Object> out = decode(ch, "GET /a HTTP/1.1\r\nHost: one.example\r\nAccept: x\r\n\r\n"
                + "GET /a HTTP/1.1\r\nhost: one.example\r\nACCEPT: y\r\n\r\n"
                + "GET /b HTTP/1.1\r\nHOST: two.example:81\r\naccept: z\r\n\r\n"
                + "GET / HTTP/1.1\r\nHost: one.example\r\n\r\n");
        List<String> seen = new ArrayList<>();
        for (Object o : out) {
            if (o instanceof HttpRequest req) {
                StringBuilder sb = new StringBuilder(req.uri());
                req.headers().forEach(e -> sb.append(' ').append(e.getKey()).append('=').append(e.getValue()));
                seen.add(sb.toString());
            }
        }
        assertThat(seen).containsExactly("/a Host=one.example Accept=x", "/a host=one.example ACCEPT=y",
                "/b HOST=two.example:81 accept=z", "/ Host=one.example");
        release(out);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void manyHeadersKeepTheirOrderAndLoseOptionalWhitespace() {
        StringBuilder sb = new StringBuilder("GET / HTTP/1.0\r\n");
        for (int i = 0; i < 60; i++) {
            sb.append("X-Header-").append(i).append(":\t  value ").append(i).append(" \t\r\n");
        }
        sb.append("\r\n");
        EmbeddedChannel ch = channel();
        List<Object> out = decode(ch, sb.toString());
        HttpRequest req = single(out, HttpRequest.class);
        assertThat(req.headers().size()).isEqualTo(60);
        List<String> names = new ArrayList<>();
        req.headers().forEach(e -> names.add(e.getKey().toString()));
        for (int i = 0; i < 60; i++) {
            assertThat(names.get(i)).isEqualTo("X-Header-" + i);
            assertThat(req.headers().get("x-header-" + i)).isEqualTo("value " + i);
        }
        release(out);
        ch.finishAndReleaseAll();
    }

    @Test
    void chunkedPostWithTrailersIsDecoded() {
        EmbeddedChannel ch = channel();
        List<Object> out = decode(ch, CHUNKED_POST);
        HttpRequest req = (HttpRequest) out.get(0);
        assertThat(req.method()).isSameAs(HttpMethod.POST);
        assertThat(HttpUtil.isTransferEncodingChunked(req)).isTrue();
        assertThat(content(out)).isEqualTo("Wikipedia in\r\n\r\nchunks.");
        LastHttpContent last = (LastHttpContent) out.get(out.size() - 1);
        assertThat(last.decoderResult().isSuccess()).isTrue();
        assertThat(last.trailingHeaders().get("expires")).isEqualTo("Wed, 21 Oct 2015 07:28:00 GMT");
        release(out);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void splittingAChunkedPostAtAnyByteGivesTheSameMessage() {
        for (int split = 1; split < CHUNKED_POST.length(); split++) {
            EmbeddedChannel ch = channel();
            List<Object> out = decode(ch, CHUNKED_POST.substring(0, split), CHUNKED_POST.substring(split));
            assertSameChunkedPost(out, "split at " + split);
            assertThat(ch.finish()).isFalse();
        }
    }

    @Test
    void aChunkedPostArrivingOneByteAtATimeGivesTheSameMessage() {
        String[] parts = new String[CHUNKED_POST.length()];
        for (int i = 0; i < parts.length; i++) {
            parts[i] = CHUNKED_POST.substring(i, i + 1);
        }
        EmbeddedChannel ch = channel();
        assertSameChunkedPost(decode(ch, parts), "one byte at a time");
        assertThat(ch.finish()).isFalse();
    }

    private static void assertSameChunkedPost(List<Object> out, String description) {
        try {
            HttpRequest req = single(out, HttpRequest.class);
            assertThat(req.decoderResult().isSuccess()).as(description).isTrue();
            assertThat(req.uri()).as(description).isEqualTo("/upload");
            assertThat(req.headers().get("trailer")).as(description).isEqualTo("Expires");
            assertThat(content(out)).as(description).isEqualTo("Wikipedia in\r\n\r\nchunks.");
            LastHttpContent last = single(out, LastHttpContent.class);
            assertThat(last.decoderResult().isSuccess()).as(description).isTrue();
            assertThat(last.trailingHeaders().get("Expires")).as(description)
                    .isEqualTo("Wed, 21 Oct 2015 07:28:00 GMT");
        } finally {
            release(out);
        }
    }

    @Test
    void pipelinedRequestsAreDecodedOneAfterAnother() {
        EmbeddedChannel ch = channel();
        List<Object> out = decode(ch, "GET /1 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "POST /2 HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello"
                + "DELETE /3 HTTP/1.1\r\nHost: a\r\n\r\n");
        List<String> seen = new ArrayList<>();
        for (Object o : out) {
            if (o instanceof HttpRequest r) {
                seen.add(r.method() + " " + r.uri());
            } else if (o instanceof LastHttpContent c) {
                seen.add("last:" + c.content().readableBytes());
            }
        }
        assertThat(seen).containsExactly("GET /1", "last:0", "POST /2", "last:5", "DELETE /3", "last:0");
        assertThat(content(out)).isEqualTo("hello");
        release(out);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void contentLengthListsAreRejectedEvenWhenIdenticalSoNoProxyCanDisagreeOnTheFraming() {
        for (String headers : new String[] {"Content-Length: 5\r\nContent-Length: 5\r\n", "Content-Length: 5, 5\r\n",
                "Content-Length: 5 ,5\r\nContent-Length:5\r\n"}) {
            EmbeddedChannel ch = channel();
            List<Object> out = decode(ch, "PUT /x HTTP/1.1\r\nHost: a\r\n" + headers
                    + "\r\nabcdeGET / HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(single(out, HttpRequest.class).decoderResult().cause()).as(headers)
                    .isInstanceOfSatisfying(InvalidHttpMessageException.class,
                            e -> assertThat(e.violation()).isEqualTo(HttpViolation.CONTENT_LENGTH_LIST));
            release(out);
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void bareLineFeedsAreAcceptedOnlyWhenLenient() {
        String request = "GET / HTTP/1.1\nHost: a\n\n";
        EmbeddedChannel lenient = channel(new HttpDecoderConfig().setStrictLineEndings(false));
        List<Object> out = decode(lenient, request);
        assertThat(((HttpRequest) out.get(0)).decoderResult().isSuccess()).isTrue();
        assertThat(((HttpRequest) out.get(0)).headers().get("host")).isEqualTo("a");
        release(out);
        lenient.finishAndReleaseAll();

        EmbeddedChannel strict = channel();
        out = decode(strict, request);
        HttpRequest bad = single(out, HttpRequest.class);
        assertThat(bad.decoderResult().cause()).isInstanceOfSatisfying(InvalidHttpMessageException.class,
                e -> assertThat(e.violation()).isEqualTo(HttpViolation.BARE_LF));
        release(out);
        strict.finishAndReleaseAll();
    }

    @Test
    void aBodyLongerThanMaxChunkSizeIsSplitNotRejected() {
        EmbeddedChannel ch = channel(new HttpDecoderConfig().setMaxChunkSize(4));
        List<Object> out = decode(ch, "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n0123456789");
        assertThat(out).hasSize(4);
        assertThat(((HttpContent) out.get(1)).content().readableBytes()).isEqualTo(4);
        assertThat(((HttpContent) out.get(2)).content().readableBytes()).isEqualTo(4);
        assertThat(out.get(3)).isInstanceOf(LastHttpContent.class);
        assertThat(content(out)).isEqualTo("0123456789");
        release(out);
        ch.finishAndReleaseAll();
    }

    @Test
    void limitsAcceptExactlyTheirValue() {
        HttpDecoderConfig config = new HttpDecoderConfig().setMaxInitialLineLength(32).setMaxHeaderCount(3)
                .setMaxHeaderSize(30);
        String line = "GET /" + "a".repeat(32 - 14) + " HTTP/1.0";
        assertThat(line).hasSize(32);
        String headers = "A: 1234567\r\nB: 1234567\r\nC: 12345\r\n"; // 10 + 10 + 8 = 28 bytes of lines
        EmbeddedChannel ok = channel(config);
        List<Object> out = decode(ok, line + "\r\n" + headers + "\r\n");
        assertThat(((HttpRequest) out.get(0)).decoderResult().isSuccess()).isTrue();
        release(out);
        ok.finishAndReleaseAll();

        EmbeddedChannel longLine = channel(config);
        out = decode(longLine, "GET /a" + line.substring(5) + "\r\n\r\n");
        assertThat(single(out, HttpRequest.class).decoderResult().cause()).isInstanceOf(TooLongHttpLineException.class);
        release(out);
        longLine.finishAndReleaseAll();

        EmbeddedChannel tooMany = channel(config);
        out = decode(tooMany, line + "\r\n" + headers + "D: 1\r\n\r\n");
        assertThat(single(out, HttpRequest.class).decoderResult().cause())
                .isInstanceOf(TooLongHttpHeaderException.class);
        release(out);
        tooMany.finishAndReleaseAll();
    }

    @Test
    void emptyLinesBeforeTheRequestLineAreIgnored() {
        EmbeddedChannel ch = channel();
        List<Object> out = decode(ch, "\r\n\r\n", "\r", "\nGET / HTTP/1.0\r\n\r\n");
        HttpRequest req = single(out, HttpRequest.class);
        assertThat(req.decoderResult().isSuccess()).isTrue();
        assertThat(req.protocolVersion()).isEqualTo(HttpVersion.HTTP_1_0);
        release(out);
        ch.finishAndReleaseAll();
    }

    @Test
    void unknownMethodsAreAcceptedAsTokens() {
        EmbeddedChannel ch = channel();
        List<Object> out = decode(ch, "PURGE /cache HTTP/1.1\r\nHost: a\r\n\r\n");
        HttpRequest req = single(out, HttpRequest.class);
        assertThat(req.decoderResult().isSuccess()).isTrue();
        assertThat(req.method().name()).isEqualTo("PURGE");
        release(out);
        ch.finishAndReleaseAll();
    }

    @Test
    void nothingAfterARejectedRequestIsDecoded() {
        EmbeddedChannel ch = channel();
        List<Object> out = decode(ch, "GET / HTTP/1.1\r\nHost: a\r\nBad Name: x\r\n\r\n"
                + "GET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n",
                "GET /later HTTP/1.1\r\nHost: a\r\n\r\n");
        assertThat(out).hasSize(1);
        assertThat(((HttpRequest) out.get(0)).decoderResult().isFailure()).isTrue();
        release(out);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void withValidationOffOddNamesAndValuesPassButFramingChecksStay() {
        HttpDecoderConfig config = new HttpDecoderConfig().setValidateHeaders(false);
        EmbeddedChannel ch = channel(config);
        List<Object> out = decode(ch, "GET / HTTP/1.1\r\nHost: a\r\nX{odd}: a\u0001b\r\n\r\n");
        HttpRequest req = single(out, HttpRequest.class);
        assertThat(req.decoderResult().isSuccess()).isTrue();
        assertThat(req.headers().get("x{odd}")).isEqualTo("a\u0001b");
        release(out);
        ch.finishAndReleaseAll();

        EmbeddedChannel cr = channel(config);
        out = decode(cr, "GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n");
        assertThat(single(out, HttpRequest.class).decoderResult().cause())
                .isInstanceOfSatisfying(InvalidHttpMessageException.class,
                        e -> assertThat(e.violation()).isEqualTo(HttpViolation.BARE_CR));
        release(out);
        cr.finishAndReleaseAll();
    }

    @Test
    void aConnectionClosedInsideTheBodyEndsWithAFailedLastContent() {
        EmbeddedChannel ch = channel();
        List<Object> out = decode(ch, "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n01234");
        ch.finish();
        HttpTestSupport.drain(ch, out);
        LastHttpContent last = single(out, LastHttpContent.class);
        assertThat(last.decoderResult().cause()).isInstanceOf(PrematureChannelClosureException.class);
        assertThat(content(out)).isEqualTo("01234");
        release(out);
    }

    @Test
    void bodiesAboveTheContentLimitAreRejected() {
        HttpDecoderConfig config = new HttpDecoderConfig().setMaxContentLength(8);
        EmbeddedChannel declared = channel(config);
        List<Object> out = decode(declared, "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\n\r\n123456789");
        assertThat(single(out, HttpRequest.class).decoderResult().cause())
                .isInstanceOf(TooLongHttpContentException.class);
        release(out);
        declared.finishAndReleaseAll();

        EmbeddedChannel chunked = channel(config);
        out = decode(chunked, "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5\r\n12345\r\n4\r\n1234\r\n0\r\n\r\n");
        assertThat(content(out)).isEqualTo("12345");
        assertThat(single(out, LastHttpContent.class).decoderResult().cause())
                .isInstanceOf(TooLongHttpContentException.class);
        release(out);
        chunked.finishAndReleaseAll();
    }
}
