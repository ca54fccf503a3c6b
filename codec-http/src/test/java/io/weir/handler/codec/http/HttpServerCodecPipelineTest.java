package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpTestSupport.bytes;
import static io.weir.handler.codec.http.HttpTestSupport.outbound;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link HttpServerCodec} in the pipeline users build: with the aggregator and the keep-alive handler. */
class HttpServerCodecPipelineTest {

    /** Answers each well-formed full request with "method uri body"; ignores failed ones, as handlers should. */
    private static final class Echo implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                FullHttpRequest req = (FullHttpRequest) msg;
                if (req.decoderResult().isFailure()) {
                    return;
                }
                String body = req.method() + " " + req.uri() + " " + req.content().toString(StandardCharsets.US_ASCII);
                FullHttpResponse res = new DefaultFullHttpResponse(req.protocolVersion(), HttpResponseStatus.OK,
                        Unpooled.copiedBuffer(body, StandardCharsets.US_ASCII));
                res.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.length());
                ctx.writeAndFlush(res);
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }
    }

    private static EmbeddedChannel channel() {
        return new EmbeddedChannel(new HttpServerCodec(), new HttpServerKeepAliveHandler(),
                new HttpObjectAggregator(16), new Echo());
    }

    @Test
    void pipelinedRequestsThroughTheAggregatorAreAnsweredInOrder() {
        EmbeddedChannel ch = channel();
        ch.writeInbound(bytes("GET /a HTTP/1.1\r\nHost: a\r\n\r\n"
                + "POST /b HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nxyz"
                + "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n"));
        assertThat(outbound(ch)).isEqualTo("HTTP/1.1 200 OK\r\ncontent-length: 7\r\n\r\nGET /a "
                + "HTTP/1.1 200 OK\r\ncontent-length: 11\r\n\r\nPOST /b xyz"
                + "HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nPOST /c hi");
        assertThat(ch.isOpen()).isTrue();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void aBodyAboveTheAggregatorLimitGetsOneAnswer() {
        EmbeddedChannel ch = channel();
        ch.writeInbound(bytes("POST /big HTTP/1.1\r\nHost: a\r\nContent-Length: 17\r\n\r\n" + "x".repeat(17)));
        String out = outbound(ch);
        assertThat(out).startsWith("HTTP/1.1 413 ");
        assertThat(out.indexOf("HTTP/1.1", 1)).as("a single answer").isEqualTo(-1);
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void aBadChunkBehindTheAggregatorIsAnsweredOnceByTheCodec() {
        EmbeddedChannel ch = channel();
        ch.writeInbound(bytes("POST /up HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\nzz\r\n"));
        String out = outbound(ch);
        assertThat(out).isEqualTo("HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void anHttp10RequestWithoutKeepAliveIsAnsweredThenClosed() {
        EmbeddedChannel ch = channel();
        ch.writeInbound(bytes("GET /old HTTP/1.0\r\n\r\n"));
        String out = outbound(ch);
        assertThat(out).startsWith("HTTP/1.0 200 OK\r\n").endsWith("GET /old ");
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }
}
