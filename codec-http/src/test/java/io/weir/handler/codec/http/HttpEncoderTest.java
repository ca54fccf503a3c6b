package io.weir.handler.codec.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.buffer.UnpooledByteBufAllocator;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.EncoderException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Queue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HttpEncoderTest {

    static ByteBuf ascii(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }

    /** Everything written so far, as text; every buffer is released. */
    static String drain(EmbeddedChannel ch) {
        StringBuilder sb = new StringBuilder();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            ByteBuf b = (ByteBuf) o;
            sb.append(b.toString(StandardCharsets.ISO_8859_1));
            b.release();
        }
        return sb.toString();
    }

    @Test
    void fullResponseWithContentLengthIsOneExactByteSequence() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder());
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                ascii("Hello, World!"));
        res.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN);
        HttpUtil.setContentLength(res, 13);
        assertThat(ch.writeOutbound(res)).isTrue();
        assertThat(ch.outboundMessages()).hasSize(1);
        assertThat(drain(ch)).isEqualTo("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 13\r\n\r\n"
                + "Hello, World!");
        assertThat(ch.finish()).isFalse();
    }

    /**
     * A response head bound for a direct buffer is assembled in a scratch array and copied at once, one bound for
     * a heap buffer is written in place, one too large for the scratch array is written field by field: the bytes
     * must be the same every way, whatever the headers hold.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void headBytesAreTheSameWhicheverWayTheHeadIsAssembled(boolean direct) {
        String big = "v".repeat(HttpObjectEncoder.HEAD_SCRATCH_BYTES);
        for (String value : new String[] {"plain", "caf\u00e9", big}) {
            EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder());
            ch.config().setAllocator(new UnpooledByteBufAllocator(direct));
            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CREATED,
                    ascii("body"));
            res.headers().add("X-Text", value).add(HttpHeaderNames.CONTENT_LENGTH, new StringBuilder("4"));
            ch.writeOutbound(res);
            assertThat(drain(ch)).isEqualTo("HTTP/1.1 201 Created\r\nX-Text: " + value
                    + "\r\ncontent-length: 4\r\n\r\nbody");
            assertThat(ch.finish()).isFalse();
        }
    }

    @Test
    void aSubclassWritingItsOwnStatusLineIsHeardOnADirectBuffer() {
        HttpResponseEncoder encoder = new HttpResponseEncoder() {
            @Override
            protected void encodeInitialLine(ByteBuf buf, HttpResponse response) {
                buf.writeCharSequence("HTTP/1.1 299 Custom\r\n", StandardCharsets.US_ASCII);
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(encoder);
        ch.config().setAllocator(new UnpooledByteBufAllocator(true));
        HttpResponse res = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        res.headers().add("a", "b");
        ch.writeOutbound(res, LastHttpContent.EMPTY_LAST_CONTENT);
        assertThat(drain(ch)).isEqualTo("HTTP/1.1 299 Custom\r\na: b\r\n\r\n");
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void headerNamesKeepTheCaseTheyWereGiven() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder());
        HttpResponse res = new DefaultHttpResponse(HttpVersion.HTTP_1_0, HttpResponseStatus.NOT_FOUND);
        res.headers().add("X-Custom", "a").add("x-custom", "b");
        ch.writeOutbound(res, LastHttpContent.EMPTY_LAST_CONTENT);
        assertThat(drain(ch)).isEqualTo("HTTP/1.0 404 Not Found\r\nX-Custom: a\r\nx-custom: b\r\n\r\n");
        ch.finish();
    }

    @Test
    void chunkedResponseFramesEveryPieceAndWritesTrailers() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder());
        HttpResponse res = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        HttpUtil.setTransferEncodingChunked(res, true);
        LastHttpContent last = new DefaultLastHttpContent(ascii("tail"));
        last.trailingHeaders().add("x-checksum", "abc");
        ch.writeOutbound(res, new DefaultHttpContent(ascii("0123456789abcdefX")),
                new DefaultHttpContent(Unpooled.EMPTY_BUFFER), last);
        assertThat(drain(ch)).isEqualTo("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n"
                + "11\r\n0123456789abcdefX\r\n"
                + "4\r\ntail\r\n"
                + "0\r\nx-checksum: abc\r\n\r\n");
        ch.finish();
    }

    @Test
    void largeChunksArePassedOnWithoutCopying() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder());
        HttpResponse res = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        HttpUtil.setTransferEncodingChunked(res, true);
        String body = "x".repeat(HttpObjectEncoder.COPY_CONTENT_THRESHOLD_BYTES + 1);
        ch.writeOutbound(res, new DefaultLastHttpContent(ascii(body)));
        assertThat(ch.outboundMessages()).hasSizeGreaterThan(2);
        assertThat(drain(ch)).isEqualTo("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n"
                + "1001\r\n" + body + "\r\n0\r\n\r\n");
        ch.finish();
    }

    @Test
    void streamedContentLengthBodyIsWrittenAsIs() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder());
        HttpResponse res = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        HttpUtil.setContentLength(res, 6);
        ch.writeOutbound(res, new DefaultHttpContent(ascii("abc")), new DefaultLastHttpContent(ascii("def")));
        assertThat(drain(ch)).isEqualTo("HTTP/1.1 200 OK\r\ncontent-length: 6\r\n\r\nabcdef");
        ch.finish();
    }

    @Test
    void bodylessStatusesDropContentAndFraming() {
        for (HttpResponseStatus status : new HttpResponseStatus[] {HttpResponseStatus.NO_CONTENT,
                HttpResponseStatus.NOT_MODIFIED, HttpResponseStatus.CONTINUE}) {
            EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder());
            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, ascii("body"));
            HttpUtil.setTransferEncodingChunked(res, true);
            res.headers().add("x", "y");
            ch.writeOutbound(res);
            assertThat(drain(ch)).as(status.toString())
                    .isEqualTo("HTTP/1.1 " + status + "\r\nx: y\r\n\r\n");
            ch.finish();
        }
    }

    @Test
    void notModifiedKeepsContentLengthButNoContentDropsIt() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder());
        FullHttpResponse notModified = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.NOT_MODIFIED);
        HttpUtil.setContentLength(notModified, 42);
        FullHttpResponse noContent = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NO_CONTENT);
        HttpUtil.setContentLength(noContent, 0);
        ch.writeOutbound(notModified, noContent);
        assertThat(drain(ch)).isEqualTo("HTTP/1.1 304 Not Modified\r\ncontent-length: 42\r\n\r\n"
                + "HTTP/1.1 204 No Content\r\n\r\n");
        ch.finish();
    }

    @Test
    void headResponsesKeepTheirHeadersButSendNoBody() {
        Queue<HttpMethod> methods = new ArrayDeque<>();
        methods.add(HttpMethod.HEAD);
        methods.add(HttpMethod.GET);
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder() {
            @Override
            protected HttpMethod pollRequestMethod() {
                return methods.poll();
            }
        });
        HttpResponse interim = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE);
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        HttpUtil.setTransferEncodingChunked(head, true);
        FullHttpResponse get = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, ascii("hi"));
        HttpUtil.setContentLength(get, 2);
        ch.writeOutbound(interim, head, new DefaultHttpContent(ascii("ignored")), LastHttpContent.EMPTY_LAST_CONTENT,
                get);
        assertThat(drain(ch)).isEqualTo("HTTP/1.1 100 Continue\r\n\r\n"
                + "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n"
                + "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nhi");
        assertThat(methods).isEmpty();
        ch.finish();
    }

    @Test
    void successfulConnectResponseStartsATunnelWithoutBody() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder() {
            @Override
            protected HttpMethod pollRequestMethod() {
                return HttpMethod.CONNECT;
            }
        });
        ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, ascii("x")));
        assertThat(drain(ch)).isEqualTo("HTTP/1.1 200 OK\r\n\r\n");
        ch.finish();
    }

    @Test
    void requestGoldenBytes() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestEncoder());
        FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/echo?x=1",
                ascii("{}"));
        req.headers().set(HttpHeaderNames.HOST, "example.com").set(HttpHeaderNames.CONTENT_LENGTH, "2");
        ch.writeOutbound(req);
        assertThat(drain(ch)).isEqualTo("POST /echo?x=1 HTTP/1.1\r\nhost: example.com\r\ncontent-length: 2\r\n\r\n{}");
        ch.finish();
    }

    @Test
    void chunkedRequestWithTrailers() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestEncoder());
        HttpRequest req = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.PUT, "/upload");
        HttpUtil.setTransferEncodingChunked(req, true);
        LastHttpContent last = new DefaultLastHttpContent();
        last.trailingHeaders().add("x-sum", "1");
        ch.writeOutbound(req, new DefaultHttpContent(ascii("abc")), last);
        assertThat(drain(ch)).isEqualTo("PUT /upload HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n"
                + "3\r\nabc\r\n0\r\nx-sum: 1\r\n\r\n");
        ch.finish();
    }

    @Test
    void emptyAndPathlessTargetsGetASlash() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestEncoder());
        ch.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, ""),
                new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "http://a.example"),
                new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "http://a.example?q"),
                new DefaultFullHttpRequest(HttpVersion.HTTP_1_0, HttpMethod.OPTIONS, "*"));
        assertThat(drain(ch)).isEqualTo("GET / HTTP/1.1\r\n\r\nGET http://a.example/ HTTP/1.1\r\n\r\n"
                + "GET http://a.example/?q HTTP/1.1\r\n\r\nOPTIONS * HTTP/1.0\r\n\r\n");
        ch.finish();
    }

    @Test
    void requestTargetWithLineBreakCannotSplitTheRequest() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestEncoder());
        FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET,
                "/a HTTP/1.1\r\nHost: evil\r\n\r\nGET /b", ascii("body"));
        assertThatThrownBy(() -> ch.writeOutbound(req)).isInstanceOf(EncoderException.class)
                .hasMessageContaining("request-target");
        assertThat(ch.outboundMessages()).isEmpty();
        assertThat(req.refCnt()).isZero();
        ch.finishAndReleaseAll();
    }

    @Test
    void contentBeforeAMessageIsAnEncoderException() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder());
        DefaultHttpContent content = new DefaultHttpContent(ascii("x"));
        assertThatThrownBy(() -> ch.writeOutbound(content)).isInstanceOf(EncoderException.class)
                .hasMessageContaining("before an HttpMessage");
        assertThat(content.refCnt()).isZero();
        ch.finishAndReleaseAll();
    }

    @Test
    void aSecondHeadBeforeTheLastContentIsAnEncoderException() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder());
        HttpResponse first = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        HttpUtil.setTransferEncodingChunked(first, true);
        ch.writeOutbound(first);
        drain(ch);
        assertThatThrownBy(() -> ch.writeOutbound(new DefaultHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.OK))).isInstanceOf(EncoderException.class).hasMessageContaining("not ended");
        ch.finishAndReleaseAll();
    }

    @Test
    void requestsPassThroughAResponseEncoderUntouched() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder());
        FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/");
        ch.writeOutbound(req);
        assertThat((Object) ch.readOutbound()).isSameAs(req);
        req.release();
        ch.finish();
    }
}
