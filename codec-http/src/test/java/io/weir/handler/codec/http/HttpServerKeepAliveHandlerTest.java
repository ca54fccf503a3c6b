package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpEncoderTest.ascii;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.ChannelDrainEvent;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.util.ReferenceCountUtil;
import org.junit.jupiter.api.Test;

class HttpServerKeepAliveHandlerTest {

    private static FullHttpRequest request(HttpVersion version, String connection) {
        FullHttpRequest req = new DefaultFullHttpRequest(version, HttpMethod.GET, "/");
        if (connection != null) {
            req.headers().set(HttpHeaderNames.CONNECTION, connection);
        }
        return req;
    }

    private static FullHttpResponse response(HttpVersion version) {
        FullHttpResponse res = new DefaultFullHttpResponse(version, HttpResponseStatus.OK, ascii("ok"));
        HttpUtil.setContentLength(res, 2);
        return res;
    }

    /** Reads one request through the handler and writes {@code res} back; returns the response as written. */
    private static HttpResponse exchange(EmbeddedChannel ch, FullHttpRequest req, HttpResponse res) {
        ch.writeInbound(req);
        ReferenceCountUtil.release(ch.readInbound());
        ch.writeOutbound(res);
        HttpResponse written = ch.readOutbound();
        ReferenceCountUtil.release(written);
        return written;
    }

    @Test
    void drainClosesAnIdleKeepAliveConnectionAtOnce() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerKeepAliveHandler());
        exchange(ch, request(HttpVersion.HTTP_1_1, null), response(HttpVersion.HTTP_1_1));
        assertThat(ch.isOpen()).isTrue();
        ch.pipeline().fireUserEventTriggered(ChannelDrainEvent.INSTANCE);
        assertThat(ch.isOpen()).as("nothing owed: closed at once").isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void drainLetsTheResponseInFlightFinishWithConnectionClose() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerKeepAliveHandler());
        ch.writeInbound(request(HttpVersion.HTTP_1_1, null));
        ReferenceCountUtil.release(ch.readInbound());
        ch.pipeline().fireUserEventTriggered(ChannelDrainEvent.INSTANCE);
        assertThat(ch.isOpen()).as("a response is owed").isTrue();
        ch.writeOutbound(response(HttpVersion.HTTP_1_1));
        HttpResponse written = ch.readOutbound();
        assertThat(written.headers().get(HttpHeaderNames.CONNECTION)).isEqualTo("close");
        ReferenceCountUtil.release(written);
        assertThat(ch.isOpen()).as("closed after the last response").isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void drainDuringAStreamedResponseClosesAfterItsLastContent() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerKeepAliveHandler());
        ch.writeInbound(request(HttpVersion.HTTP_1_1, null));
        ReferenceCountUtil.release(ch.readInbound());
        DefaultHttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        HttpUtil.setTransferEncodingChunked(head, true);
        ch.writeOutbound(head);
        ch.pipeline().fireUserEventTriggered(ChannelDrainEvent.INSTANCE);
        assertThat(ch.isOpen()).as("the body is still being sent").isTrue();
        ch.writeOutbound(new DefaultHttpContent(ascii("part")));
        assertThat(ch.isOpen()).isTrue();
        ch.writeOutbound(LastHttpContent.EMPTY_LAST_CONTENT);
        assertThat(ch.isOpen()).as("closed after the last content").isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void http11StaysOpenByDefault() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerKeepAliveHandler());
        HttpResponse res = exchange(ch, request(HttpVersion.HTTP_1_1, null), response(HttpVersion.HTTP_1_1));
        assertThat(res.headers().contains(HttpHeaderNames.CONNECTION)).isFalse();
        assertThat(ch.isOpen()).isTrue();
        ch.finish();
    }

    @Test
    void http11ConnectionCloseClosesAfterTheResponse() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerKeepAliveHandler());
        HttpResponse res = exchange(ch, request(HttpVersion.HTTP_1_1, "close"), response(HttpVersion.HTTP_1_1));
        assertThat(res.headers().get(HttpHeaderNames.CONNECTION)).isEqualTo("close");
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void http10ClosesUnlessKeepAliveIsAsked() {
        EmbeddedChannel plain = new EmbeddedChannel(new HttpServerKeepAliveHandler());
        HttpResponse res = exchange(plain, request(HttpVersion.HTTP_1_0, null), response(HttpVersion.HTTP_1_1));
        assertThat(res.headers().get(HttpHeaderNames.CONNECTION)).isEqualTo("close");
        assertThat(plain.isOpen()).isFalse();
        plain.finishAndReleaseAll();

        EmbeddedChannel keep = new EmbeddedChannel(new HttpServerKeepAliveHandler());
        res = exchange(keep, request(HttpVersion.HTTP_1_0, "keep-alive"), response(HttpVersion.HTTP_1_0));
        assertThat(res.headers().get(HttpHeaderNames.CONNECTION)).isEqualTo("keep-alive");
        assertThat(keep.isOpen()).isTrue();
        keep.finish();
    }

    @Test
    void responseSayingCloseClosesEvenIfTheClientWantedToKeepAlive() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerKeepAliveHandler());
        FullHttpResponse res = response(HttpVersion.HTTP_1_1);
        HttpUtil.setKeepAlive(res, false);
        exchange(ch, request(HttpVersion.HTTP_1_1, null), res);
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void responseWithoutALengthClosesSoTheClientCanFindItsEnd() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerKeepAliveHandler());
        HttpResponse res = exchange(ch, request(HttpVersion.HTTP_1_1, null),
                new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, ascii("body")));
        assertThat(res.headers().get(HttpHeaderNames.CONNECTION)).isEqualTo("close");
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void pipelinedRequestsAreAllAnsweredBeforeTheClose() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerKeepAliveHandler());
        ch.writeInbound(request(HttpVersion.HTTP_1_1, null), request(HttpVersion.HTTP_1_1, null),
                request(HttpVersion.HTTP_1_1, "close"));
        for (int i = 0; i < 3; i++) {
            ReferenceCountUtil.release(ch.readInbound());
        }
        ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
        ch.writeOutbound(response(HttpVersion.HTTP_1_1));
        assertThat(ch.isOpen()).as("open after the first of three").isTrue();
        ch.writeOutbound(response(HttpVersion.HTTP_1_1));
        assertThat(ch.isOpen()).as("open after the second of three").isTrue();
        ch.writeOutbound(response(HttpVersion.HTTP_1_1));
        assertThat(ch.isOpen()).as("closed after the third").isFalse();
        HttpResponse last = null;
        for (Object o; (o = ch.readOutbound()) != null; ) {
            last = (HttpResponse) o;
            ReferenceCountUtil.release(o);
        }
        assertThat(last.headers().get(HttpHeaderNames.CONNECTION)).isEqualTo("close");
        ch.finishAndReleaseAll();
    }

    @Test
    void interimResponsesDoNotEndTheExchange() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerKeepAliveHandler());
        ch.writeInbound(request(HttpVersion.HTTP_1_1, "close"));
        ReferenceCountUtil.release(ch.readInbound());
        ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
        assertThat(ch.isOpen()).isTrue();
        ch.writeOutbound(response(HttpVersion.HTTP_1_1));
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void streamedResponseClosesOnlyAfterItsLastContent() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerKeepAliveHandler());
        ch.writeInbound(request(HttpVersion.HTTP_1_1, "close"));
        ReferenceCountUtil.release(ch.readInbound());
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        HttpUtil.setTransferEncodingChunked(head, true);
        ch.writeOutbound(head, new DefaultHttpContent(ascii("a")));
        assertThat(ch.isOpen()).isTrue();
        ch.writeOutbound(LastHttpContent.EMPTY_LAST_CONTENT);
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }
}
