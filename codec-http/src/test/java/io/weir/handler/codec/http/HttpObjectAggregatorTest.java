package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpEncoderTest.ascii;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.DecoderException;
import io.weir.handler.codec.DecoderResult;
import io.weir.handler.codec.TooLongFrameException;
import java.nio.charset.StandardCharsets;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class HttpObjectAggregatorTest {

    private static HttpRequest post(String uri) {
        return new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, uri);
    }

    @Test
    void chunkedRequestBecomesOneFullRequestWithLengthAndTrailers() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpObjectAggregator(1024));
        HttpRequest head = post("/upload");
        HttpUtil.setTransferEncodingChunked(head, true);
        LastHttpContent last = new DefaultLastHttpContent(ascii("world"));
        last.trailingHeaders().add("x-trailer", "t");
        assertThat(ch.writeInbound(head, new DefaultHttpContent(ascii("hello ")))).isFalse();
        assertThat(ch.writeInbound(last)).isTrue();
        FullHttpRequest full = ch.readInbound();
        try {
            assertThat(full.uri()).isEqualTo("/upload");
            assertThat(full.content().toString(StandardCharsets.US_ASCII)).isEqualTo("hello world");
            assertThat(full.headers().get(HttpHeaderNames.CONTENT_LENGTH)).isEqualTo("11");
            assertThat(HttpUtil.isTransferEncodingChunked(full)).isFalse();
            assertThat(full.trailingHeaders().get("x-trailer")).isEqualTo("t");
            assertThat(full.decoderResult().isSuccess()).isTrue();
        } finally {
            full.release();
        }
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void announcedLengthOverTheLimitIsAnswered413AndClosedBeforeTheBody() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpObjectAggregator(4));
        HttpRequest head = post("/big");
        HttpUtil.setContentLength(head, 5);
        ch.writeInbound(head);
        FullHttpResponse res = ch.readOutbound();
        assertThat(res.status()).isEqualTo(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE);
        assertThat(res.headers().get(HttpHeaderNames.CONNECTION)).isEqualTo("close");
        assertThat(res.headers().get(HttpHeaderNames.CONTENT_LENGTH)).isEqualTo("0");
        res.release();
        assertThat(ch.isOpen()).isFalse();
        assertThat((Object) ch.readInbound()).isNull();
        ch.finishAndReleaseAll();
    }

    @Test
    void bodyGrowingPastTheLimitIsAnswered413AndNothingIsPassedOn() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpObjectAggregator(4));
        HttpRequest head = post("/big");
        HttpUtil.setTransferEncodingChunked(head, true);
        DefaultHttpContent first = new DefaultHttpContent(ascii("abc"));
        DefaultHttpContent second = new DefaultHttpContent(ascii("de"));
        ch.writeInbound(head, first, second);
        assertThat(first.refCnt()).isZero();
        assertThat(second.refCnt()).isZero();
        FullHttpResponse res = ch.readOutbound();
        assertThat(res.status().code()).isEqualTo(413);
        res.release();
        assertThat(ch.isOpen()).isFalse();
        assertThat((Object) ch.readInbound()).isNull();
        ch.finishAndReleaseAll();
    }

    @Test
    void contentExactlyAtTheLimitIsAccepted() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpObjectAggregator(4));
        HttpRequest head = post("/ok");
        HttpUtil.setContentLength(head, 4);
        ch.writeInbound(head, new DefaultLastHttpContent(ascii("abcd")));
        FullHttpRequest full = ch.readInbound();
        assertThat(full.content().readableBytes()).isEqualTo(4);
        full.release();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void oversizedResponseOnTheClientSideIsAnException() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpObjectAggregator(2));
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        HttpUtil.setContentLength(head, 3);
        ch.writeInbound(head);
        DefaultLastHttpContent body = new DefaultLastHttpContent(ascii("abc"));
        Assertions.assertThatThrownBy(() -> ch.writeInbound(body)).isInstanceOf(TooLongFrameException.class)
                .hasMessageContaining("2 bytes");
        assertThat(body.refCnt()).isZero();
        assertThat((Object) ch.readInbound()).isNull();
        ch.finishAndReleaseAll();
    }

    @Test
    void responseToHeadAnnouncingALargeLengthIsNotOversized() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpObjectAggregator(2));
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        HttpUtil.setContentLength(head, 1_000_000);
        ch.writeInbound(head, LastHttpContent.EMPTY_LAST_CONTENT);
        FullHttpResponse full = ch.readInbound();
        assertThat(full.headers().get(HttpHeaderNames.CONTENT_LENGTH)).isEqualTo("1000000");
        assertThat(full.content().readableBytes()).isZero();
        full.release();
        ch.finish();
    }

    @Test
    void expectContinueIsAnswered100AndTheHeaderRemoved() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpObjectAggregator(16));
        HttpRequest head = post("/upload");
        HttpUtil.set100ContinueExpected(head, true);
        HttpUtil.setContentLength(head, 3);
        ch.writeInbound(head);
        FullHttpResponse interim = ch.readOutbound();
        assertThat(interim.status()).isEqualTo(HttpResponseStatus.CONTINUE);
        interim.release();
        ch.writeInbound(new DefaultLastHttpContent(ascii("abc")));
        FullHttpRequest full = ch.readInbound();
        assertThat(full.headers().contains(HttpHeaderNames.EXPECT)).isFalse();
        assertThat(full.content().toString(StandardCharsets.US_ASCII)).isEqualTo("abc");
        full.release();
        assertThat(ch.isOpen()).isTrue();
        ch.finish();
    }

    @Test
    void expectContinueOverTheLimitIsAnswered413AndClosed() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpObjectAggregator(2));
        HttpRequest head = post("/upload");
        HttpUtil.set100ContinueExpected(head, true);
        HttpUtil.setContentLength(head, 3);
        ch.writeInbound(head);
        FullHttpResponse res = ch.readOutbound();
        assertThat(res.status().code()).isEqualTo(413);
        assertThat(res.headers().get(HttpHeaderNames.CONNECTION)).isEqualTo("close");
        res.release();
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void unknownExpectationIsAnswered417AndTheConnectionStaysUsable() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpObjectAggregator(16));
        HttpRequest head = post("/upload");
        head.headers().set(HttpHeaderNames.EXPECT, "something-else");
        ch.writeInbound(head, new DefaultLastHttpContent(ascii("ignored")));
        FullHttpResponse res = ch.readOutbound();
        assertThat(res.status()).isEqualTo(HttpResponseStatus.EXPECTATION_FAILED);
        res.release();
        assertThat((Object) ch.readInbound()).isNull();
        assertThat(ch.isOpen()).isTrue();
        ch.writeInbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/next"));
        FullHttpRequest next = ch.readInbound();
        assertThat(next.uri()).isEqualTo("/next");
        next.release();
        ch.finish();
    }

    @Test
    void expectationFailureClosesWhenConfigured() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpObjectAggregator(16, true));
        HttpRequest head = post("/upload");
        head.headers().set(HttpHeaderNames.EXPECT, "nope");
        ch.writeInbound(head);
        FullHttpResponse res = ch.readOutbound();
        assertThat(res.status().code()).isEqualTo(417);
        res.release();
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void overriddenPolicyCanRefuseAnUploadBeforeItsBody() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpObjectAggregator(16) {
            @Override
            protected HttpResponse newContinueResponse(HttpMessage start, int maxContentLength) {
                return HttpUtil.is100ContinueExpected(start)
                        ? new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.UNAUTHORIZED) : null;
            }
        });
        HttpRequest head = post("/upload");
        HttpUtil.set100ContinueExpected(head, true);
        ch.writeInbound(head);
        FullHttpResponse res = ch.readOutbound();
        assertThat(res.status().code()).isEqualTo(401);
        res.release();
        ch.finishAndReleaseAll();
    }

    @Test
    void decoderFailurePassesThroughAsAFailedFullMessage() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpObjectAggregator(16));
        HttpRequest bad = post("/bad");
        bad.setDecoderResult(DecoderResult.failure(new DecoderException("broken")));
        ch.writeInbound(bad, new DefaultLastHttpContent(ascii("rest")));
        FullHttpRequest full = ch.readInbound();
        assertThat(full.decoderResult().isFailure()).isTrue();
        assertThat(full.decoderResult().cause()).hasMessage("broken");
        assertThat(full.content().readableBytes()).isZero();
        full.release();
        assertThat((Object) ch.readInbound()).isNull();
        ch.finish();
    }

    @Test
    void failedContentEndsTheMessageWithTheFailure() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpObjectAggregator(16));
        HttpRequest head = post("/x");
        HttpUtil.setTransferEncodingChunked(head, true);
        DefaultHttpContent bad = new DefaultHttpContent(ascii("ab"));
        bad.setDecoderResult(DecoderResult.failure(new DecoderException("bad chunk")));
        ch.writeInbound(head, bad);
        FullHttpRequest full = ch.readInbound();
        assertThat(full.decoderResult().cause()).hasMessage("bad chunk");
        assertThat(full.content().toString(StandardCharsets.US_ASCII)).isEqualTo("ab");
        full.release();
        ch.finish();
    }

    @Test
    void fullMessagesAndOtherObjectsPassThrough() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpObjectAggregator(16));
        FullHttpRequest full = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/", ascii("x"));
        ch.writeInbound(full, "text");
        assertThat((Object) ch.readInbound()).isSameAs(full);
        assertThat((Object) ch.readInbound()).isEqualTo("text");
        full.release();
        ch.finish();
    }

    @Test
    void partialMessageIsReleasedWhenTheConnectionCloses() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpObjectAggregator(16));
        HttpRequest head = post("/x");
        HttpUtil.setTransferEncodingChunked(head, true);
        io.weir.buffer.ByteBuf data = ascii("ab");
        ch.writeInbound(head, new DefaultHttpContent(data));
        assertThat(data.refCnt()).as("held by the aggregator").isEqualTo(1);
        ch.close();
        assertThat(data.refCnt()).isZero();
        ch.finishAndReleaseAll();
    }
}
