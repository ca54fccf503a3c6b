package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpTestSupport.bytes;
import static io.weir.handler.codec.http.HttpTestSupport.outbound;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HttpServerCodecTest {

    /** Answers each request, when its last content arrives, with a body naming the request. */
    private static final class EchoUri implements ChannelHandler {
        private String uri;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof HttpRequest req) {
                    uri = req.uri();
                }
                if (msg instanceof LastHttpContent last && last.decoderResult().isSuccess()) {
                    ctx.writeAndFlush(response(uri));
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }
    }

    /** Keeps the requests it sees, answering none, so a test can answer them later. */
    private static final class Holder implements ChannelHandler {
        final List<String> uris = new ArrayList<>();
        final List<HttpObject> failures = new ArrayList<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest req) {
                uris.add(req.uri());
            }
            if (((HttpObject) msg).decoderResult().isFailure()) {
                failures.add((HttpObject) msg);
            }
            ReferenceCountUtil.release(msg);
        }
    }

    private static FullHttpResponse response(String body) {
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.copiedBuffer(body, StandardCharsets.US_ASCII));
        res.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.length());
        return res;
    }

    @Test
    void aClientPipeliningFasterThanTheServerAnswersStopsBeingRead() {
        Holder holder = new Holder();
        HttpServerCodec codec = new HttpServerCodec().setMaxPendingRequests(4);
        EmbeddedChannel ch = new EmbeddedChannel(codec, holder);
        ch.writeInbound(bytes("GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /3 HTTP/1.1\r\nHost: a\r\n\r\n"));
        assertThat(ch.config().isAutoRead()).isTrue();
        // What one read brought is still decoded, but nothing more is read until the application catches up.
        ch.writeInbound(bytes("GET /4 HTTP/1.1\r\nHost: a\r\n\r\nGET /5 HTTP/1.1\r\nHost: a\r\n\r\n"));
        assertThat(holder.uris).containsExactly("/1", "/2", "/3", "/4", "/5");
        assertThat(ch.config().isAutoRead()).isFalse();
        for (int i = 1; i <= 2; i++) {
            ch.writeOutbound(response("/" + i));
            assertThat(ch.config().isAutoRead()).as("after answering %d of 5", i).isFalse();
        }
        ch.writeOutbound(response("/3"));
        assertThat(ch.config().isAutoRead()).isTrue();
        for (int i = 4; i <= 5; i++) {
            ch.writeOutbound(response("/" + i));
        }
        assertThat(outbound(ch)).contains("/1").contains("/5");
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void aNonPositivePendingRequestLimitIsRefused() {
        assertThatThrownBy(() -> new HttpServerCodec().setMaxPendingRequests(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
    }

    @Test
    void gracefulCloseLimitsHaveSafeDefaultsAndRefuseNegativeValues() {
        HttpServerCodec codec = new HttpServerCodec();
        assertThat(codec.lingerTimeoutMillis()).isEqualTo(2_000);
        assertThat(codec.lingerMaxBytes()).isEqualTo(1 << 20);
        assertThatThrownBy(() -> codec.setLingerTimeoutMillis(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lingerTimeoutMillis: -1");
        assertThatThrownBy(() -> codec.setLingerMaxBytes(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lingerMaxBytes: -1");
        assertThat(codec.setLingerTimeoutMillis(0).setLingerMaxBytes(0).lingerTimeoutMillis()).isZero();
    }

    @Test
    void aChannelThatCannotHalfCloseClosesAtOnceAfterARejection() {
        // EmbeddedChannel is not a DuplexChannel: no graceful close, the connection ends with the answer.
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec());
        ch.writeInbound(bytes("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;\r\nhello"));
        assertThat(outbound(ch)).startsWith("HTTP/1.1 400 ");
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void pipelinedRequestsAreAnsweredInRequestOrder() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new EchoUri());
        ch.writeInbound(bytes("GET /first HTTP/1.1\r\nHost: a\r\n\r\n"
                + "POST /second HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc"
                + "GET /third HTTP/1.1\r\nHost: a\r\n\r\n"));
        String out = outbound(ch);
        assertThat(out).isEqualTo("HTTP/1.1 200 OK\r\ncontent-length: 6\r\n\r\n/first"
                + "HTTP/1.1 200 OK\r\ncontent-length: 7\r\n\r\n/second"
                + "HTTP/1.1 200 OK\r\ncontent-length: 6\r\n\r\n/third");
        assertThat(ch.isOpen()).isTrue();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void aResponseToHeadKeepsItsHeadersButNotItsBody() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new EchoUri());
        ch.writeInbound(bytes("HEAD /head HTTP/1.1\r\nHost: a\r\n\r\nGET /get HTTP/1.1\r\nHost: a\r\n\r\n"));
        assertThat(outbound(ch)).isEqualTo("HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n"
                + "HTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\n/get");
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void aRejectionWaitsForTheResponsesToEarlierPipelinedRequests() {
        Holder holder = new Holder();
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), holder);
        ch.writeInbound(bytes("GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /3 HTTP/1.1\r\nHost: a\r\nBad Header: x\r\n\r\n"));
        assertThat(holder.uris).containsExactly("/1", "/2");
        assertThat(holder.failures).isEmpty();
        assertThat(outbound(ch)).isEmpty();
        assertThat(ch.isOpen()).isTrue();

        ch.writeAndFlush(response("one"));
        assertThat(outbound(ch)).isEqualTo("HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\none");
        assertThat(ch.isOpen()).isTrue();

        ch.writeAndFlush(response("two"));
        assertThat(outbound(ch)).isEqualTo("HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\ntwo"
                + "HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void aBodyRejectedAfterTheHandlerBeganItsResponseClosesWithoutASecondAnswer() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof HttpRequest) {
                    // Answers at once, before reading the body.
                    DefaultHttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
                    head.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
                    ctx.writeAndFlush(head);
                }
                ReferenceCountUtil.release(msg);
            }
        });
        ch.writeInbound(bytes("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\nzz\r\n"));
        assertThat(outbound(ch)).isEqualTo("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n");
        assertThat(ch.isOpen()).as("stays open until the begun response ends").isTrue();
        ch.writeAndFlush(new DefaultLastHttpContent());
        assertThat(outbound(ch)).isEqualTo("0\r\n\r\n");
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void aBodyRejectedBeforeAnyResponseIsAnsweredByTheCodec() {
        Holder holder = new Holder();
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), holder);
        ch.writeInbound(bytes("POST /up HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc"
                + "POST /up2 HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX"));
        assertThat(holder.uris).containsExactly("/up", "/up2");
        assertThat(holder.failures).hasSize(1);
        assertThat(outbound(ch)).as("the answer to /up comes first").isEmpty();
        ch.writeAndFlush(response("ok"));
        assertThat(outbound(ch)).isEqualTo("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok"
                + "HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void interimResponsesDoNotCountAsAnswers() {
        Holder holder = new Holder();
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), holder);
        ch.writeInbound(bytes("HEAD /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n"));
        ch.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
        ch.writeAndFlush(response("head"));
        ch.writeAndFlush(response("get"));
        // The interim response took no method: HEAD still paired with the first final response.
        assertThat(outbound(ch)).isEqualTo("HTTP/1.1 100 Continue\r\n\r\n"
                + "HTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\n"
                + "HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\nget");
        assertThat(ch.finish()).isFalse();
    }
}
