package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpEncoderTest.ascii;
import static io.weir.handler.codec.http.HttpEncoderTest.drain;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.util.ReferenceCountUtil;
import org.junit.jupiter.api.Test;

/**
 * The server-side handlers together, as an application stacks them after the codec: response encoder,
 * keep-alive, aggregator, application. Requests are injected as decoded objects; what the client would
 * receive is checked byte for byte.
 */
class HttpServerPipelineTest {

    /** Answers every full request with its URI as the body. */
    private static final class EchoUri implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            FullHttpRequest req = (FullHttpRequest) msg;
            String uri = req.uri();
            req.release();
            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    ascii(uri));
            HttpUtil.setContentLength(res, uri.length());
            ctx.writeAndFlush(res);
        }
    }

    private static EmbeddedChannel server(int maxContentLength) {
        return new EmbeddedChannel(new HttpResponseEncoder(), new HttpServerKeepAliveHandler(),
                new HttpObjectAggregator(maxContentLength), new EchoUri());
    }

    private static HttpRequest get(String uri, HttpVersion version) {
        HttpRequest req = new DefaultHttpRequest(version, HttpMethod.GET, uri);
        HttpUtil.setContentLength(req, 0);
        return req;
    }

    @Test
    void pipelinedHttp11RequestsAreAnsweredInOrderOnOneConnection() {
        EmbeddedChannel ch = server(64);
        ch.writeInbound(get("/a", HttpVersion.HTTP_1_1), LastHttpContent.EMPTY_LAST_CONTENT,
                get("/b", HttpVersion.HTTP_1_1), LastHttpContent.EMPTY_LAST_CONTENT);
        assertThat(drain(ch)).isEqualTo("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n/a"
                + "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n/b");
        assertThat(ch.isOpen()).isTrue();
        ch.finish();
    }

    @Test
    void http10RequestIsAnsweredWithCloseOnTheWireAndTheConnectionClosed() {
        EmbeddedChannel ch = server(64);
        ch.writeInbound(get("/old", HttpVersion.HTTP_1_0), LastHttpContent.EMPTY_LAST_CONTENT);
        assertThat(drain(ch)).isEqualTo("HTTP/1.1 200 OK\r\ncontent-length: 4\r\nconnection: close\r\n\r\n/old");
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void oversizedUploadGets413WithCloseOnTheWire() {
        EmbeddedChannel ch = server(8);
        HttpRequest post = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/upload");
        HttpUtil.setContentLength(post, 9);
        ch.writeInbound(post);
        assertThat(drain(ch)).isEqualTo("HTTP/1.1 413 Content Too Large\r\ncontent-length: 0\r\n"
                + "connection: close\r\n\r\n");
        assertThat(ch.isOpen()).isFalse();
        ReferenceCountUtil.release(ch.readInbound());
        ch.finishAndReleaseAll();
    }

    @Test
    void expectContinueGetsAnInterimResponseThenTheAnswer() {
        EmbeddedChannel ch = server(8);
        HttpRequest post = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/up");
        HttpUtil.setContentLength(post, 3);
        HttpUtil.set100ContinueExpected(post, true);
        ch.writeInbound(post);
        assertThat(drain(ch)).isEqualTo("HTTP/1.1 100 Continue\r\n\r\n");
        ch.writeInbound(new DefaultLastHttpContent(ascii("abc")));
        assertThat(drain(ch)).isEqualTo("HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\n/up");
        assertThat(ch.isOpen()).isTrue();
        ch.finish();
    }
}
