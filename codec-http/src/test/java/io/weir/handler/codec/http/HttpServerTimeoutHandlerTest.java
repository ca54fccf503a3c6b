package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpTestSupport.bytes;
import static io.weir.handler.codec.http.HttpTestSupport.outbound;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.metrics.HttpMetrics;
import io.weir.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link HttpServerTimeoutHandler} after an {@link HttpServerCodec}: the scenarios of
 * {@link HttpServerTimeoutScenarios} on this pipeline, and what only the handler has (its settings, its refusal to
 * run without the codec, the clock it cannot see past the codec). Limits: head 10 s, idle 60 s, body at least
 * 1 KiB/s over 10 s windows after 5 s.
 *
 * <p>{@link EmbeddedChannel} cannot half-close, so behind it {@link HttpServerCodec} closes at once; the tests of
 * the graceful close after a 408 (which the codec does, not the timeout handler) run on a
 * {@link HalfClosingTestChannel}, with the codec's linger bounds.
 */
class HttpServerTimeoutHandlerTest extends HttpServerTimeoutScenarios {
    private static HttpServerTimeouts timeouts() {
        return new HttpServerTimeouts()
                .setRequestHeadTimeout(10, TimeUnit.SECONDS)
                .setIdleTimeout(60, TimeUnit.SECONDS)
                .setMinBodyRate(1024)
                .setBodyRateGracePeriod(5, TimeUnit.SECONDS)
                .setBodyRateWindow(10, TimeUnit.SECONDS);
    }

    @Override
    EmbeddedChannel server(ChannelHandler app) {
        return new EmbeddedChannel(new HttpServerCodec(), new HttpServerTimeoutHandler(timeouts()), app);
    }

    @Override
    EmbeddedChannel server(HttpMetrics metrics, ChannelHandler app) {
        return new EmbeddedChannel(new HttpServerCodec(), new HttpServerTimeoutHandler(timeouts(), metrics), app);
    }

    @Override
    HalfClosingTestChannel halfClosingServer(ChannelHandler app) {
        return halfClosing(new HttpServerCodec(), app);
    }

    @Override
    long writeTimeoutSeconds() {
        return TimeUnit.MILLISECONDS.toSeconds(HttpServerTimeouts.DEFAULT_WRITE_PROGRESS_TIMEOUT_MILLIS);
    }

    @Override
    long lingerTimeoutSeconds() {
        return TimeUnit.MILLISECONDS.toSeconds(HttpServerCodec.DEFAULT_LINGER_TIMEOUT_MILLIS);
    }

    @Test
    void silentConnectionIsClosedAfterIdleTimeoutWhenTheHeadTimeoutIsOff() {
        HttpServerTimeouts timeouts = timeouts().setRequestHeadTimeout(0, TimeUnit.SECONDS);
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new HttpServerTimeoutHandler(timeouts),
                new Answering());
        advance(ch, 59);
        assertThat(ch.isOpen()).isTrue();
        advance(ch, 1);
        assertThat(ch.isOpen()).isFalse();
        assertThat(outbound(ch)).isEmpty();
        ch.finishAndReleaseAll();
    }

    @Test
    void responseStillQueuedForASlowReaderIsNotIdle() {
        // The write-progress clock (its own tests below) is off: this is about the read-side clocks only.
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new HttpServerTimeoutHandler(
                timeouts().setWriteProgressTimeout(0, TimeUnit.SECONDS)),
                new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        if (msg instanceof LastHttpContent) {
                            // Written, with the void promise, but not flushed: the bytes wait in the outbound
                            // buffer as they do for a client that reads slowly.
                            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                                    HttpResponseStatus.OK, Unpooled.copiedBuffer("ok", StandardCharsets.US_ASCII));
                            HttpUtil.setContentLength(res, 2);
                            ctx.write(res, ctx.voidPromise());
                        }
                        ReferenceCountUtil.release(msg);
                    }
                });
        send(ch, HEAD);
        advance(ch, 300);
        assertThat(ch.isOpen()).as("output still queued after five minutes").isTrue();
        ch.flush();
        assertThat(outbound(ch)).startsWith(OK);
        advance(ch, 59);
        assertThat(ch.isOpen()).isTrue();
        advance(ch, 1);
        assertThat(ch.isOpen()).as("idle from the drain").isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void pipelinedHeadWaitsWhileTheServerOwesAResponse() {
        Answering app = new Answering();
        EmbeddedChannel ch = server(app);
        // The first request is held by the application; the second one's head is only begun.
        send(ch, "GET /hold HTTP/1.1\r\nHost: example.com\r\n\r\nGET / HT");
        advance(ch, 600);
        assertThat(ch.isOpen()).as("the server's time, not the client's").isTrue();
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.EMPTY_BUFFER);
        HttpUtil.setContentLength(res, 0);
        ch.writeOutbound(res);
        assertThat(outbound(ch)).startsWith(OK);
        // Answered. The bytes that came with the end of the first request are not visible past the codec, so
        // the head clock starts at the next byte (without one, the idle timeout would close the connection).
        advance(ch, 1);
        send(ch, "TP/1.1\r\n");
        assertHeadTimesOut(ch, "Host: example.com\r\n");
        ch.finishAndReleaseAll();
    }

    @Test
    void disabledTimeoutsNeverClose() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(),
                new HttpServerTimeoutHandler(HttpServerTimeouts.disabled()), new Answering());
        send(ch, "GET / HT");
        advance(ch, 3600);
        assertThat(ch.isOpen()).isTrue();
        assertThat(ch.hasPendingTasks()).as("no timer at all").isFalse();
        ch.finishAndReleaseAll();
    }

    // ---------------------------------------------------------------- the close, through the codec

    private static final long SECOND_NANOS = TimeUnit.SECONDS.toNanos(1);

    private static HalfClosingTestChannel halfClosing(HttpServerCodec codec, ChannelHandler app) {
        return new HalfClosingTestChannel(codec, new HttpServerTimeoutHandler(timeouts()), app);
    }

    @Test
    void slowlorisStillSendingAfterIts408IsDroppedWhileTheCodecLingers() {
        Answering app = new Answering();
        HalfClosingTestChannel ch = halfClosing(new HttpServerCodec(), app);
        ch.receive(PARTIAL_HEAD);
        ch.advance(10, TimeUnit.SECONDS);
        assertThat(ch.takeSent()).startsWith("HTTP/1.1 408 Request Timeout").containsIgnoringCase("connection: close");
        assertThat(ch.isOutputShutdown()).as("the 408 is followed by the end of the output").isTrue();
        assertThat(ch.isOpen()).as("open while the client may still be sending").isTrue();
        assertThat(ch.nextScheduledTaskNanos()).as("the codec's linger deadline is the only timer left")
                .isEqualTo(HttpServerCodec.DEFAULT_LINGER_TIMEOUT_MILLIS * 1_000_000L);
        // The client completes its head and sends another request: both dropped unread, nothing answered.
        ch.receive("X-Late: 1\r\n\r\n" + HEAD);
        ch.advance(1, TimeUnit.SECONDS);
        assertThat(ch.isOpen()).isTrue();
        assertThat(app.uris).isEmpty();
        ch.advance(HttpServerCodec.DEFAULT_LINGER_TIMEOUT_MILLIS - 1000, TimeUnit.MILLISECONDS);
        assertThat(ch.isOpen()).as("closed at the codec's linger timeout").isFalse();
        assertThat(ch.takeSent()).as("no second answer").isEmpty();
        ch.finish();
    }

    @Test
    void clientThatClosesAfterReadingIts408EndsTheLingerAtOnce() {
        HalfClosingTestChannel ch = halfClosing(new HttpServerCodec(), new Answering());
        ch.receive(PARTIAL_HEAD);
        ch.advance(10, TimeUnit.SECONDS);
        assertThat(ch.takeSent()).startsWith("HTTP/1.1 408 Request Timeout");
        ch.peerClosesOutput();
        assertThat(ch.isOpen()).isFalse();
        assertThat(ch.nextScheduledTaskNanos()).as("no timer left").isEqualTo(-1);
        ch.finish();
    }

    @Test
    void slowlorisFloodingAfterIts408IsClosedAtTheCodecsByteLimit() {
        HalfClosingTestChannel ch = halfClosing(new HttpServerCodec().setLingerMaxBytes(1024), new Answering());
        ch.receive(PARTIAL_HEAD);
        ch.advance(10, TimeUnit.SECONDS);
        assertThat(ch.takeSent()).startsWith("HTTP/1.1 408 Request Timeout");
        ch.receive("x".repeat(1000));
        assertThat(ch.isOpen()).isTrue();
        ch.receive("x".repeat(100));
        assertThat(ch.isOpen()).as("more than 1 KiB dropped").isFalse();
        ch.finish();
    }

    @Test
    void silentConnectionIsClosedAtOnceWithoutLingering() {
        HalfClosingTestChannel ch = halfClosing(new HttpServerCodec(), new Answering());
        ch.advance(10, TimeUnit.SECONDS);
        assertThat(ch.isOpen()).as("nothing was sent, so nothing to linger for").isFalse();
        assertThat(ch.takeSent()).isEmpty();
        ch.finish();
    }

    @Test
    void rejectedHeadWhileTheClientKeepsSendingGetsNoSecondAnswerFromTheTimeouts() {
        // The codec lingers longer than the head timeout: the handler must not time the bytes it drops.
        HalfClosingTestChannel ch = halfClosing(new HttpServerCodec().setLingerTimeoutMillis(30_000),
                new Answering());
        ch.receive("GET / HTTP/1.1\r\nHost: example.com\r\nBad Name: v\r\n");
        assertThat(ch.takeSent()).startsWith("HTTP/1.1 400 Bad Request").containsIgnoringCase("connection: close");
        assertThat(ch.isOutputShutdown()).isTrue();
        assertThat(ch.nextScheduledTaskNanos()).as("only the codec's linger deadline, no head clock")
                .isEqualTo(30 * SECOND_NANOS);
        for (int second = 1; second < 30; second++) {
            ch.receive("more of the head, ");
            ch.advance(1, TimeUnit.SECONDS);
            assertThat(ch.isOpen()).as("still lingering after %d s", second).isTrue();
        }
        ch.advance(1, TimeUnit.SECONDS);
        assertThat(ch.isOpen()).isFalse();
        assertThat(ch.takeSent()).as("no 408 after the 400").isEmpty();
        ch.finish();
    }

    @Test
    void applicationCloseInsideASlowBodyStopsTheBodyClock() {
        HalfClosingTestChannel ch = halfClosing(new HttpServerCodec().setLingerTimeoutMillis(60_000),
                new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        if (msg instanceof HttpRequest) {
                            // Refuses the body before it arrives, as a size check would, and closes.
                            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                                    HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, Unpooled.EMPTY_BUFFER);
                            HttpUtil.setContentLength(res, 0);
                            ctx.writeAndFlush(res).addListener(f -> ctx.close());
                        }
                        ReferenceCountUtil.release(msg);
                    }
                });
        ch.receive("POST / HTTP/1.1\r\nHost: example.com\r\nContent-Length: 100000\r\n\r\n");
        assertThat(ch.takeSent()).startsWith("HTTP/1.1 413");
        assertThat(ch.nextScheduledTaskNanos()).as("only the codec's linger deadline, no body clock")
                .isEqualTo(60 * SECOND_NANOS);
        // Far past the grace period and a window with nothing received: the codec's linger decides alone.
        for (int second = 1; second < 60; second++) {
            ch.advance(1, TimeUnit.SECONDS);
            assertThat(ch.isOpen()).as("still lingering after %d s", second).isTrue();
        }
        ch.advance(1, TimeUnit.SECONDS);
        assertThat(ch.isOpen()).isFalse();
        assertThat(ch.takeSent()).isEmpty();
        ch.finish();
    }

    @Test
    void withoutTheCodecThe408IsFollowedByAnImmediateClose() {
        Answering app = new Answering();
        HalfClosingTestChannel ch = new HalfClosingTestChannel(new HttpRequestDecoder(), new HttpResponseEncoder(),
                new HttpServerTimeoutHandler(timeouts()), app);
        ch.receive(PARTIAL_HEAD);
        ch.advance(10, TimeUnit.SECONDS);
        assertThat(ch.takeSent()).startsWith("HTTP/1.1 408 Request Timeout");
        assertThat(ch.isOpen()).as("nothing lingers without HttpServerCodec").isFalse();
        assertThat(app.uris).isEmpty();
        ch.finish();
    }

    @Test
    void handlerWithoutACodecBeforeItIsRefused() {
        EmbeddedChannel ch = new EmbeddedChannel();
        assertThatThrownBy(() -> {
            ch.pipeline().addLast(new HttpServerTimeoutHandler());
            ch.checkException();
        }).hasRootCauseInstanceOf(IllegalStateException.class).rootCause().hasMessageContaining("HttpServerCodec");
        assertThat(ch.pipeline().context(HttpServerTimeoutHandler.class)).as("removed again").isNull();
        ch.finishAndReleaseAll();
    }

    @Test
    void invalidLimitsAreRefused() {
        HttpServerTimeouts t = new HttpServerTimeouts();
        assertThatThrownBy(() -> t.setRequestHeadTimeout(-1, TimeUnit.SECONDS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        assertThatThrownBy(() -> t.setMinBodyRate(-5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> t.setBodyRateWindow(0, TimeUnit.SECONDS))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(t.requestHeadTimeoutNanos())
                .isEqualTo(TimeUnit.MILLISECONDS.toNanos(HttpServerTimeouts.DEFAULT_REQUEST_HEAD_TIMEOUT_MILLIS));
    }
}
