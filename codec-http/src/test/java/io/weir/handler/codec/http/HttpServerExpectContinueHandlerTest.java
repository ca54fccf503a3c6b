package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpEncoderTest.ascii;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.util.ReferenceCountUtil;
import org.junit.jupiter.api.Test;

class HttpServerExpectContinueHandlerTest {

    private static HttpRequest expecting(String expectation) {
        HttpRequest req = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.PUT, "/f");
        req.headers().set(HttpHeaderNames.EXPECT, expectation);
        HttpUtil.setContentLength(req, 1);
        return req;
    }

    @Test
    void continueIsSentAndTheRequestPassedOnWithoutExpect() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerExpectContinueHandler());
        ch.writeInbound(expecting("100-continue"), new DefaultLastHttpContent(ascii("x")));
        HttpResponse interim = ch.readOutbound();
        assertThat(interim.status()).isEqualTo(HttpResponseStatus.CONTINUE);
        ReferenceCountUtil.release(interim);
        HttpRequest req = ch.readInbound();
        assertThat(req.headers().contains(HttpHeaderNames.EXPECT)).isFalse();
        LastHttpContent body = ch.readInbound();
        assertThat(body.content().readableBytes()).isEqualTo(1);
        body.release();
        ch.finish();
    }

    @Test
    void refusedUploadGets417AndItsBodyIsDropped() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerExpectContinueHandler() {
            @Override
            protected HttpResponse acceptMessage(HttpRequest request) {
                return null;
            }
        });
        DefaultLastHttpContent body = new DefaultLastHttpContent(ascii("x"));
        ch.writeInbound(expecting("100-continue"), body);
        HttpResponse res = ch.readOutbound();
        assertThat(res.status()).isEqualTo(HttpResponseStatus.EXPECTATION_FAILED);
        assertThat(res.headers().get(HttpHeaderNames.CONTENT_LENGTH)).isEqualTo("0");
        ReferenceCountUtil.release(res);
        assertThat((Object) ch.readInbound()).isNull();
        assertThat(body.refCnt()).isZero();
        ch.writeInbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/next"));
        FullHttpRequest next = ch.readInbound();
        assertThat(next.uri()).isEqualTo("/next");
        next.release();
        ch.finish();
    }

    @Test
    void unknownExpectationGets417() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerExpectContinueHandler());
        ch.writeInbound(expecting("teapot"));
        HttpResponse res = ch.readOutbound();
        assertThat(res.status().code()).isEqualTo(417);
        ReferenceCountUtil.release(res);
        assertThat((Object) ch.readInbound()).isNull();
        ch.finish();
    }

    @Test
    void requestsWithoutExpectationPassUntouched() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerExpectContinueHandler());
        FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/");
        ch.writeInbound(req);
        assertThat((Object) ch.readInbound()).isSameAs(req);
        assertThat((Object) ch.readOutbound()).isNull();
        req.release();
        ch.finish();
    }

    @Test
    void anUploadDeclaredAboveTheLimitGets413WithoutItsBodyBeingInvited() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerExpectContinueHandler(1024));
        HttpRequest req = expecting("100-continue");
        HttpUtil.setContentLength(req, 1025);
        ch.writeInbound(req);
        HttpResponse res = ch.readOutbound();
        assertThat(res.status()).isEqualTo(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE);
        assertThat(res.headers().get(HttpHeaderNames.CONNECTION)).isEqualToIgnoringCase("close");
        assertThat(res.headers().get(HttpHeaderNames.CONTENT_LENGTH)).isEqualTo("0");
        ReferenceCountUtil.release(res);
        assertThat((Object) ch.readOutbound()).as("no 100 Continue").isNull();
        assertThat((Object) ch.readInbound()).isNull();
        assertThat(ch.isOpen()).as("closed after the 413").isFalse();
        ch.finish();
    }

    @Test
    void anUploadDeclaredAtTheLimitIsInvited() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerExpectContinueHandler(1024));
        HttpRequest req = expecting("100-continue");
        HttpUtil.setContentLength(req, 1024);
        ch.writeInbound(req);
        HttpResponse res = ch.readOutbound();
        assertThat(res.status()).isEqualTo(HttpResponseStatus.CONTINUE);
        ReferenceCountUtil.release(res);
        HttpRequest passed = ch.readInbound();
        assertThat(passed.headers().contains(HttpHeaderNames.EXPECT)).isFalse();
        ch.finish();
    }

    @Test
    void theAggregatorAndStreamingHandlersGiveTheSameAnswers() {
        for (String expectation : new String[] {"100-continue", "teapot"}) {
            for (long length : new long[] {0, 1024, 1025}) {
                HttpRequest req = expecting(expectation);
                HttpUtil.setContentLength(req, length);
                HttpResponse expected = HttpServerExpectContinueHandler.expectationResponse(req, 1024);
                EmbeddedChannel ch = new EmbeddedChannel(new HttpObjectAggregator(1024));
                ch.writeInbound(req);
                HttpResponse aggregator = ch.readOutbound();
                assertThat(aggregator.status()).as("%s, %d bytes", expectation, length).isEqualTo(expected.status());
                ReferenceCountUtil.release(aggregator);
                ReferenceCountUtil.release(expected);
                ch.finishAndReleaseAll();
            }
        }
    }
}
