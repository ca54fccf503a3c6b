package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpTestSupport.bytes;
import static io.weir.handler.codec.http.HttpTestSupport.outbound;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInputShutdownEvent;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The server codec's backpressure on an embedded channel, whose writability a test turns off and on (a user-defined
 * writability bit stands in for a full outbound buffer): nothing more is decoded or read while the channel is not
 * writable, and what was kept is decoded, in order, once it is.
 */
class HttpServerCodecBackpressureTest {
    private static final int WRITABILITY_BIT = 3;

    /** Answers each request when its last content arrives, with its URI as the body, and unflushed. */
    private static final class Answerer implements ChannelHandler {
        final List<String> seen = new ArrayList<>();
        /** Turns the channel unwritable after answering this many requests (0: never). */
        int unwritableAfter;
        private String uri;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof HttpRequest req) {
                    uri = req.uri();
                    seen.add(uri);
                }
                if (msg instanceof LastHttpContent) {
                    FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                            Unpooled.copiedBuffer(uri, StandardCharsets.US_ASCII));
                    res.headers().set(HttpHeaderNames.CONTENT_LENGTH, uri.length());
                    ctx.writeAndFlush(res);
                    if (seen.size() == unwritableAfter) {
                        ctx.channel().setUserDefinedWritability(WRITABILITY_BIT, false);
                    }
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }
    }

    private static String requests(int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i <= to; i++) {
            sb.append("GET /").append(i).append(" HTTP/1.1\r\nHost: a\r\n\r\n");
        }
        return sb.toString();
    }

    @Test
    void aClientThatDoesNotReadIsNotDecodedFurtherUntilTheChannelIsWritableAgain() {
        Answerer answerer = new Answerer();
        answerer.unwritableAfter = 2;
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), answerer);
        ch.writeInbound(bytes(requests(1, 5)));
        assertThat(answerer.seen).as("decoding stops at the request after the one that filled the buffer")
                .containsExactly("/1", "/2");
        assertThat(ch.config().isAutoRead()).as("reading stops too").isFalse();

        // Another read arriving while paused (what the transport had in flight) is kept, not decoded.
        ch.writeInbound(bytes(requests(6, 6)));
        assertThat(answerer.seen).containsExactly("/1", "/2");

        ch.setUserDefinedWritability(WRITABILITY_BIT, true);
        ch.runPendingTasks();
        assertThat(answerer.seen).containsExactly("/1", "/2", "/3", "/4", "/5", "/6");
        assertThat(ch.config().isAutoRead()).isTrue();
        String out = outbound(ch);
        int at = -1;
        for (int i = 1; i <= 6; i++) {
            int next = out.indexOf("\r\n\r\n/" + i, at + 1);
            assertThat(next).as("response %d after response %d", i, i - 1).isGreaterThan(at);
            at = next;
        }
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void aLargeBodyIsNotDecodedFurtherWhileTheChannelIsNotWritable() {
        HttpServerCodec codec = new HttpServerCodec(new HttpDecoderConfig().setMaxChunkSize(4));
        List<Object> contents = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(codec, new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                contents.add(msg);
                if (contents.size() == 2) {
                    ctx.channel().setUserDefinedWritability(WRITABILITY_BIT, false);
                }
            }
        });
        ch.writeInbound(bytes("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 12\r\n\r\naaaabbbbcccc"));
        assertThat(contents).as("the request and one content of four bytes").hasSize(2);
        ch.setUserDefinedWritability(WRITABILITY_BIT, true);
        ch.runPendingTasks();
        assertThat(contents).hasSize(4);
        assertThat(contents.get(3)).isInstanceOf(LastHttpContent.class);
        contents.forEach(ReferenceCountUtil::release);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void anEndOfInputWhilePausedWaitsUntilTheKeptRequestsAreDecoded() {
        Answerer answerer = new Answerer();
        answerer.unwritableAfter = 1;
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), answerer);
        ch.writeInbound(bytes(requests(1, 3)));
        assertThat(answerer.seen).containsExactly("/1");
        ch.pipeline().fireChannelShutdown(ChannelInputShutdownEvent.INSTANCE);
        assertThat(answerer.seen).containsExactly("/1");
        ch.setUserDefinedWritability(WRITABILITY_BIT, true);
        ch.runPendingTasks();
        assertThat(answerer.seen).as("every request sent before the end of input is answered")
                .containsExactly("/1", "/2", "/3");
        assertThat(outbound(ch)).contains("\r\n\r\n/3").doesNotContain(" 400 ");
        ch.finishAndReleaseAll();
    }
}
