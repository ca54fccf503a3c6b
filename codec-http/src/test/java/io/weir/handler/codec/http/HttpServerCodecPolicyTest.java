package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpTestSupport.outbound;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelDrainEvent;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.metrics.HttpMetrics;
import io.weir.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link HttpServerCodec} built with an {@link HttpServerPolicy}, with no other handler in the pipeline: the
 * scenarios of {@link HttpServerTimeoutScenarios}, and what only the codec does (keep-alive, drain, the policy's
 * linger bounds, the head it can see before the response that frees it). Limits: head 10 s, idle 60 s, body at
 * least 1 KiB/s over 10 s windows after 5 s, write 30 s, linger 2 s.
 */
class HttpServerCodecPolicyTest extends HttpServerTimeoutScenarios {
    private static final HttpServerPolicy POLICY = HttpServerPolicy.builder()
            .requestHeadTimeout(Duration.ofSeconds(10))
            .idleTimeout(Duration.ofSeconds(60))
            .minBodyRate(1024, Duration.ofSeconds(5), Duration.ofSeconds(10))
            .build();

    @Override
    EmbeddedChannel server(ChannelHandler app) {
        return server(POLICY, app);
    }

    @Override
    EmbeddedChannel server(HttpMetrics metrics, ChannelHandler app) {
        return new EmbeddedChannel(new HttpServerCodec(new HttpDecoderConfig(), POLICY, metrics), app);
    }

    @Override
    HalfClosingTestChannel halfClosingServer(ChannelHandler app) {
        return new HalfClosingTestChannel(new HttpServerCodec(POLICY), app);
    }

    @Override
    long writeTimeoutSeconds() {
        return POLICY.writeTimeout().toSeconds();
    }

    @Override
    long lingerTimeoutSeconds() {
        return POLICY.lingerTimeout().toSeconds();
    }

    private static EmbeddedChannel server(HttpServerPolicy policy, ChannelHandler app) {
        return new EmbeddedChannel(new HttpServerCodec(policy), app);
    }

    // ---------------------------------------------------------------- timeouts

    /** An application that answers nothing itself: it keeps the context of each complete request in {@code held}. */
    private static ChannelHandler holding(List<ChannelHandlerContext> held) {
        return new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof LastHttpContent) {
                    held.add(ctx);
                }
                ReferenceCountUtil.release(msg);
            }
        };
    }

    private static FullHttpResponse emptyOk() {
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.EMPTY_BUFFER);
        HttpUtil.setContentLength(res, 0);
        return res;
    }

    @Test
    void slowApplicationIsNotCutByTheClientsClocks() {
        // The codec's own count says a response is owed: neither the head nor the idle clock runs meanwhile, even
        // with a pipelined request's head half sent behind it.
        List<ChannelHandlerContext> held = new ArrayList<>();
        EmbeddedChannel ch = server(POLICY, holding(held));
        send(ch, HEAD + "GET /next HTTP/1.1\r\n");
        advance(ch, 3600);
        assertThat(ch.isOpen()).as("the wait is the server's").isTrue();
        held.get(0).writeAndFlush(emptyOk());
        assertThat(outbound(ch)).startsWith(OK);
        advance(ch, 10);
        assertThat(outbound(ch)).as("once answered, the half-sent head has its 10 s")
                .startsWith("HTTP/1.1 408 Request Timeout");
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void aResponseWrittenAfterItsReadStartsTheIdleClockWhenWrittenNotWhenRead() {
        // Within a read the clocks take the read's time; a response written later must not inherit it.
        List<ChannelHandlerContext> held = new ArrayList<>();
        EmbeddedChannel ch = server(POLICY, holding(held));
        send(ch, HEAD);
        advance(ch, 3600);
        held.get(0).writeAndFlush(emptyOk());
        assertThat(outbound(ch)).startsWith(OK);
        advance(ch, 59);
        assertThat(ch.isOpen()).as("59 s of its 60 s idle").isTrue();
        advance(ch, 2);
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    // ---------------------------------------------------------------- the graceful close, with the policy's bounds

    @Test
    void slowlorisStillSendingAfterIts408IsDroppedUntilThePolicysLingerBound() {
        HttpServerPolicy policy = POLICY.toBuilder().linger(Duration.ofSeconds(1), 1024).build();
        Answering app = new Answering();
        HalfClosingTestChannel ch = new HalfClosingTestChannel(new HttpServerCodec(policy), app);
        ch.receive(PARTIAL_HEAD);
        ch.advance(10, TimeUnit.SECONDS);
        assertThat(ch.takeSent()).startsWith("HTTP/1.1 408 Request Timeout");
        assertThat(ch.isOutputShutdown()).as("the 408 is followed by the end of the output").isTrue();
        ch.receive("X-Late: 1\r\n\r\n" + HEAD);
        assertThat(ch.isOpen()).as("lingering").isTrue();
        assertThat(app.uris).as("dropped unread").isEmpty();
        ch.receive("x".repeat(1024));
        assertThat(ch.isOpen()).as("more than the policy's 1 KiB dropped").isFalse();
        assertThat(ch.takeSent()).as("no second answer").isEmpty();
        ch.finish();
    }

    // ---------------------------------------------------------------- keep-alive

    @Test
    void connectionCloseRequestClosesAfterItsResponse() {
        EmbeddedChannel ch = server(POLICY, new Answering());
        send(ch, "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
        assertThat(outbound(ch)).startsWith(OK).containsIgnoringCase("connection: close");
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void pipelinedRequestsBeforeAConnectionCloseAreAllAnswered() {
        Answering app = new Answering();
        EmbeddedChannel ch = server(POLICY, app);
        send(ch, "GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
        String written = outbound(ch);
        assertThat(written.split("HTTP/1.1 200 OK", -1)).as("two responses").hasSize(3);
        assertThat(written.indexOf("connection: close")).as("only the last says close")
                .isGreaterThan(written.lastIndexOf(OK));
        assertThat(ch.isOpen()).isFalse();
        assertThat(app.uris).containsExactly("/1", "/2");
        ch.finishAndReleaseAll();
    }

    @Test
    void http10KeepAliveIsAnsweredKeepAliveAndPersists() {
        Answering app = new Answering();
        EmbeddedChannel ch = server(POLICY, app);
        send(ch, "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
        assertThat(outbound(ch)).startsWith(OK).containsIgnoringCase("connection: keep-alive");
        assertThat(ch.isOpen()).isTrue();
        send(ch, "GET /again HTTP/1.0\r\n\r\n");
        assertThat(outbound(ch)).startsWith(OK).containsIgnoringCase("connection: close");
        assertThat(ch.isOpen()).as("HTTP/1.0 without keep-alive closes").isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void responseWhoseEndOnlyTheCloseCanTellClosesTheConnection() {
        Answering app = new Answering();
        app.withLength = false;
        EmbeddedChannel ch = server(POLICY, app);
        send(ch, HEAD);
        assertThat(outbound(ch)).startsWith(OK).containsIgnoringCase("connection: close");
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void keepAliveOffClosesAfterEveryResponse() {
        Answering app = new Answering();
        EmbeddedChannel ch = server(POLICY.toBuilder().keepAlive(false).build(), app);
        send(ch, HEAD + HEAD);
        String written = outbound(ch);
        assertThat(written).startsWith(OK).containsIgnoringCase("connection: close");
        assertThat(written.split(OK, -1)).as("one response: the pipelined second request is not answered")
                .hasSize(2);
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void drainClosesAnIdleConnectionAtOnceAndABusyOneAfterItsResponse() {
        EmbeddedChannel idle = server(POLICY, new Answering());
        send(idle, HEAD);
        assertThat(outbound(idle)).startsWith(OK);
        idle.pipeline().fireUserEventTriggered(ChannelDrainEvent.INSTANCE);
        assertThat(idle.isOpen()).as("nothing owed: closed at once").isFalse();
        idle.finishAndReleaseAll();

        List<ChannelHandlerContext> held = new ArrayList<>();
        EmbeddedChannel busy = server(POLICY, new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                held.add(ctx);
                ReferenceCountUtil.release(msg);
            }
        });
        send(busy, HEAD);
        busy.pipeline().fireUserEventTriggered(ChannelDrainEvent.INSTANCE);
        assertThat(busy.isOpen()).as("a response is owed").isTrue();
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.copiedBuffer("ok", StandardCharsets.US_ASCII));
        HttpUtil.setContentLength(res, 2);
        held.get(0).writeAndFlush(res);
        assertThat(outbound(busy)).startsWith(OK).containsIgnoringCase("connection: close");
        assertThat(busy.isOpen()).as("closed after the last response").isFalse();
        busy.finishAndReleaseAll();
    }

    @Test
    void withoutAPolicyTheCodecNeitherTimesOutNorClosesAfterAResponse() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new Answering());
        send(ch, "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
        assertThat(outbound(ch)).startsWith(OK).doesNotContainIgnoringCase("connection: close");
        advance(ch, 3600);
        assertThat(ch.isOpen()).as("closing is left to the handlers after the codec").isTrue();
        ch.finishAndReleaseAll();
    }
}
