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

    /**
     * Answers each request with its URI as the body, written with the void promise and flushed at the end of the
     * read, as a load-test server does; a URI ending in "!" is answered with a promise of its own, a URI ending in
     * "+" with a head and a separate last content.
     */
    private static final class VoidPromiseAnswerer implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest req) {
                String uri = req.uri();
                if (uri.endsWith("+")) {
                    HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
                    head.headers().set(HttpHeaderNames.CONTENT_LENGTH, uri.length());
                    ctx.write(head, ctx.voidPromise());
                    ctx.write(new DefaultLastHttpContent(Unpooled.copiedBuffer(uri, StandardCharsets.US_ASCII)),
                            ctx.voidPromise());
                } else {
                    FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                            Unpooled.copiedBuffer(uri, StandardCharsets.US_ASCII));
                    res.headers().set(HttpHeaderNames.CONTENT_LENGTH, uri.length());
                    if (uri.endsWith("!")) {
                        ctx.write(res);
                    } else {
                        ctx.write(res, ctx.voidPromise());
                    }
                }
            }
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    @Test
    void smallPipelinedResponsesLeaveAsOneBufferInRequestOrder() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new VoidPromiseAnswerer());
        StringBuilder wire = new StringBuilder();
        StringBuilder expected = new StringBuilder();
        for (String uri : new String[] {"/1", "/2", "/3!", "/4", "/5+", "/6", "/7"}) {
            wire.append("GET ").append(uri).append(" HTTP/1.1\r\nHost: h\r\n\r\n");
            expected.append("HTTP/1.1 200 OK\r\ncontent-length: ").append(uri.length()).append("\r\n\r\n")
                    .append(uri);
        }
        ch.writeInbound(Unpooled.copiedBuffer(wire, StandardCharsets.US_ASCII));
        // /1 and /2 in one buffer, /3 with its own promise, /4 alone before the head and content of /5, /6 and /7.
        assertThat(ch.outboundMessages()).hasSize(6);
        assertThat(outbound(ch)).isEqualTo(expected.toString());
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void responsesBatchedWithinAReadStopAtTheBatchSize() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new VoidPromiseAnswerer());
        String uri = "/" + "u".repeat(HttpServerCodec.RESPONSE_BATCH_BYTES / 4);
        String request = "GET " + uri + " HTTP/1.1\r\nHost: h\r\n\r\n";
        ch.writeInbound(Unpooled.copiedBuffer(request.repeat(16), StandardCharsets.US_ASCII));
        int buffers = ch.outboundMessages().size();
        String response = "HTTP/1.1 200 OK\r\ncontent-length: " + uri.length() + "\r\n\r\n" + uri;
        assertThat(outbound(ch)).isEqualTo(response.repeat(16));
        // A buffer is passed on once it holds the batch size: a response is about a quarter of it, so 4 apiece.
        assertThat(buffers).isEqualTo(4);
        assertThat(ch.finish()).isFalse();
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
