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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The read-side timeouts of an HTTP/1.1 server connection, driven by a manual clock: no test waits for wall-clock
 * time. Limits: head 10 s, idle 60 s, body at least 1 KiB/s over 10 s windows after 5 s.
 *
 * <p>{@link EmbeddedChannel} cannot half-close, so behind it {@link HttpServerCodec} closes at once; the tests of
 * the graceful close after a 408 (which the codec does, not the timeout handler) run on a
 * {@link HalfClosingTestChannel}, with the codec's linger bounds.
 */
class HttpServerTimeoutHandlerTest {
    private static final String HEAD = "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n";
    private static final String OK_RESPONSE_START = "HTTP/1.1 200 OK";

    private static HttpServerTimeouts timeouts() {
        return new HttpServerTimeouts()
                .setRequestHeadTimeout(10, TimeUnit.SECONDS)
                .setIdleTimeout(60, TimeUnit.SECONDS)
                .setMinBodyRate(1024)
                .setBodyRateGracePeriod(5, TimeUnit.SECONDS)
                .setBodyRateWindow(10, TimeUnit.SECONDS);
    }

    /** Answers every complete request to a path other than {@code /hold} with a 2-byte 200. */
    private static final class Answering implements ChannelHandler {
        final List<String> uris = new ArrayList<>();
        long bodyBytes;
        private boolean answer;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof HttpRequest req) {
                    uris.add(req.uri());
                    answer = !req.uri().equals("/hold");
                }
                if (msg instanceof HttpContent content) {
                    bodyBytes += content.content().readableBytes();
                }
                if (msg instanceof LastHttpContent && answer) {
                    FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                            Unpooled.copiedBuffer("ok", StandardCharsets.US_ASCII));
                    HttpUtil.setContentLength(res, 2);
                    ctx.writeAndFlush(res);
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }
    }

    private static EmbeddedChannel server(Answering app) {
        return new EmbeddedChannel(new HttpServerCodec(), new HttpServerTimeoutHandler(timeouts()), app);
    }

    private static void advance(EmbeddedChannel ch, long seconds) {
        ch.advanceTimeBy(seconds, TimeUnit.SECONDS);
        ch.runPendingTasks();
    }

    private static void send(EmbeddedChannel ch, String s) {
        ch.writeInbound(bytes(s));
    }

    @Test
    void slowlorisHeadTimesOutWith408() {
        Answering app = new Answering();
        EmbeddedChannel ch = server(app);
        send(ch, "GET / HTTP/1.1\r\nHost: example.com\r\n");
        for (int second = 1; second < 10; second++) {
            advance(ch, 1);
            send(ch, "X");
        }
        assertThat(ch.isOpen()).isTrue();
        advance(ch, 1);
        String written = outbound(ch);
        assertThat(written).startsWith("HTTP/1.1 408 Request Timeout").containsIgnoringCase("connection: close");
        assertThat(ch.isOpen()).isFalse();
        assertThat(app.uris).isEmpty();
        ch.finishAndReleaseAll();
    }

    @Test
    void metricsCountEveryResponseAndTheTimeoutThatFired() {
        HttpMetrics metrics = new HttpMetrics();
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(),
                new HttpServerTimeoutHandler(timeouts(), metrics), new Answering());
        send(ch, HEAD);
        send(ch, HEAD);
        assertThat(outbound(ch)).startsWith(OK_RESPONSE_START);
        send(ch, "GET /slow HTTP/1.1\r\n");
        advance(ch, 10);
        assertThat(outbound(ch)).startsWith("HTTP/1.1 408 Request Timeout");
        assertThat(metrics.responses().counter(1).sum()).as("2xx").isEqualTo(2);
        assertThat(metrics.responses().counter(3).sum()).as("4xx: the 408").isEqualTo(1);
        assertThat(metrics.timeouts().counter(HttpMetrics.Timeout.REQUEST_HEAD.ordinal()).sum()).isEqualTo(1);
        assertThat(metrics.timeouts().total()).isEqualTo(1);
        ch.finishAndReleaseAll();
    }

    @Test
    void slowlorisOnAKeptAliveConnectionIsTimedFromItsFirstByte() {
        Answering app = new Answering();
        EmbeddedChannel ch = server(app);
        send(ch, HEAD);
        assertThat(outbound(ch)).startsWith(OK_RESPONSE_START);
        advance(ch, 30);
        send(ch, "GET /sec");
        advance(ch, 9);
        send(ch, "ond");
        assertThat(ch.isOpen()).isTrue();
        advance(ch, 1);
        assertThat(outbound(ch)).startsWith("HTTP/1.1 408 Request Timeout");
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void silentConnectionIsClosedAfterHeadTimeout() {
        EmbeddedChannel ch = server(new Answering());
        advance(ch, 9);
        assertThat(ch.isOpen()).isTrue();
        advance(ch, 1);
        assertThat(ch.isOpen()).isFalse();
        assertThat(outbound(ch)).as("nothing was asked, so nothing is answered").isEmpty();
        ch.finishAndReleaseAll();
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
    void keepAliveIdleTimeoutClosesBetweenRequests() {
        Answering app = new Answering();
        EmbeddedChannel ch = server(app);
        send(ch, HEAD);
        assertThat(outbound(ch)).startsWith(OK_RESPONSE_START);
        advance(ch, 59);
        assertThat(ch.isOpen()).isTrue();
        send(ch, HEAD);
        assertThat(outbound(ch)).as("the idle clock restarts after each response").startsWith(OK_RESPONSE_START);
        advance(ch, 59);
        assertThat(ch.isOpen()).isTrue();
        advance(ch, 1);
        assertThat(ch.isOpen()).isFalse();
        assertThat(outbound(ch)).as("an idle connection is closed quietly").isEmpty();
        assertThat(app.uris).containsExactly("/", "/");
        ch.finishAndReleaseAll();
    }

    @Test
    void requestThatArrivesInTimeIsUntouched() {
        Answering app = new Answering();
        EmbeddedChannel ch = server(app);
        send(ch, "GET / HT");
        advance(ch, 4);
        send(ch, "TP/1.1\r\nHost: exam");
        advance(ch, 5);
        send(ch, "ple.com\r\n\r\n");
        assertThat(outbound(ch)).startsWith(OK_RESPONSE_START);
        // Well past the head timeout, inside the idle timeout: still open.
        advance(ch, 30);
        assertThat(ch.isOpen()).isTrue();
        assertThat(app.uris).containsExactly("/");
        ch.finishAndReleaseAll();
    }

    @Test
    void slowBodyBelowMinimumRateIsClosed() {
        Answering app = new Answering();
        EmbeddedChannel ch = server(app);
        send(ch, "POST /upload HTTP/1.1\r\nHost: example.com\r\nContent-Length: 100000\r\n\r\n");
        String hundredBytes = "x".repeat(100);
        // 100 bytes/s: through the 5 s grace period and up to the end of the first 10 s window.
        for (int second = 0; second < 14; second++) {
            send(ch, hundredBytes);
            advance(ch, 1);
        }
        assertThat(ch.isOpen()).isTrue();
        send(ch, hundredBytes);
        advance(ch, 1);
        assertThat(outbound(ch)).startsWith("HTTP/1.1 408 Request Timeout");
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void bodyAtTheMinimumRateIsUntouched() {
        Answering app = new Answering();
        EmbeddedChannel ch = server(app);
        int length = 2048 * 120;
        send(ch, "POST /upload HTTP/1.1\r\nHost: example.com\r\nContent-Length: " + length + "\r\n\r\n");
        String twoKiB = "x".repeat(2048);
        for (int second = 0; second < 120; second++) {
            advance(ch, 1);
            assertThat(ch.isOpen()).isTrue();
            send(ch, twoKiB);
        }
        assertThat(app.bodyBytes).isEqualTo(length);
        assertThat(outbound(ch)).startsWith(OK_RESPONSE_START);
        ch.finishAndReleaseAll();
    }

    @Test
    void slowBodyAfterAResponseBegunIsClosedWithoutA408() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new HttpServerTimeoutHandler(timeouts()),
                new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        if (msg instanceof HttpRequest) {
                            // Answers at once, before reading the body: a 408 can no longer be sent.
                            DefaultHttpResponse res = new DefaultHttpResponse(HttpVersion.HTTP_1_1,
                                    HttpResponseStatus.OK);
                            HttpUtil.setTransferEncodingChunked(res, true);
                            ctx.writeAndFlush(res);
                        }
                        ReferenceCountUtil.release(msg);
                    }
                });
        send(ch, "POST / HTTP/1.1\r\nHost: example.com\r\nContent-Length: 100000\r\n\r\n");
        assertThat(outbound(ch)).startsWith(OK_RESPONSE_START);
        advance(ch, 5);
        advance(ch, 10);
        assertThat(ch.isOpen()).isFalse();
        assertThat(outbound(ch)).isEmpty();
        ch.finishAndReleaseAll();
    }

    @Test
    void longDownloadIsNotKilledByTheReadTimers() {
        Answering app = new Answering();
        EmbeddedChannel ch = server(app);
        send(ch, "GET /hold HTTP/1.1\r\nHost: example.com\r\n\r\n");
        DefaultHttpResponse res = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        HttpUtil.setTransferEncodingChunked(res, true);
        ch.writeOutbound(res);
        // Ten minutes of a download, the client sending nothing: neither the head nor the idle clock runs.
        for (int i = 0; i < 60; i++) {
            advance(ch, 10);
            ch.writeOutbound(new DefaultHttpContent(Unpooled.copiedBuffer("chunk", StandardCharsets.US_ASCII)));
            assertThat(ch.isOpen()).isTrue();
        }
        ch.writeOutbound(LastHttpContent.EMPTY_LAST_CONTENT);
        assertThat(outbound(ch)).startsWith(OK_RESPONSE_START).endsWith("0\r\n\r\n");
        advance(ch, 59);
        assertThat(ch.isOpen()).isTrue();
        advance(ch, 1);
        assertThat(ch.isOpen()).as("idle once the download is over").isFalse();
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
        assertThat(outbound(ch)).startsWith(OK_RESPONSE_START);
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
        assertThat(outbound(ch)).startsWith(OK_RESPONSE_START);
        // Answered. The bytes that came with the end of the first request are not visible past the codec, so
        // the head clock starts at the next byte (without one, the idle timeout would close the connection).
        advance(ch, 1);
        send(ch, "TP/1.1\r\n");
        advance(ch, 9);
        assertThat(ch.isOpen()).isTrue();
        advance(ch, 1);
        assertThat(outbound(ch)).startsWith("HTTP/1.1 408 Request Timeout");
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void interimResponseDoesNotEndTheWait() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new HttpServerTimeoutHandler(timeouts()),
                new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        if (msg instanceof HttpRequest) {
                            ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                                    HttpResponseStatus.CONTINUE, Unpooled.EMPTY_BUFFER));
                        }
                        ReferenceCountUtil.release(msg);
                    }
                });
        send(ch, "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n");
        assertThat(outbound(ch)).startsWith("HTTP/1.1 100 Continue");
        // Still owed a final response: the server's time, however long.
        advance(ch, 600);
        assertThat(ch.isOpen()).isTrue();
        ch.finishAndReleaseAll();
    }

    @Test
    void switchingProtocolsStopsTheTimeouts() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new HttpServerTimeoutHandler(timeouts()),
                new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        if (msg instanceof LastHttpContent) {
                            ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                                    HttpResponseStatus.SWITCHING_PROTOCOLS, Unpooled.EMPTY_BUFFER));
                        }
                        ReferenceCountUtil.release(msg);
                    }
                });
        send(ch, "GET / HTTP/1.1\r\nHost: example.com\r\nConnection: upgrade\r\nUpgrade: example\r\n\r\n");
        assertThat(outbound(ch)).startsWith("HTTP/1.1 101 Switching Protocols");
        advance(ch, 600);
        assertThat(ch.isOpen()).isTrue();
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

    private static final String PARTIAL_HEAD = "GET / HTTP/1.1\r\nHost: example.com\r\n";
    private static final long SECOND_NANOS = TimeUnit.SECONDS.toNanos(1);

    private static HalfClosingTestChannel halfClosing(HttpServerCodec codec, ChannelHandler app) {
        return new HalfClosingTestChannel(codec, new HttpServerTimeoutHandler(timeouts()), app);
    }

    /** Answers every request with a 200 of {@code bodyBytes} bytes, flushed. */
    private static ChannelHandler answeringWith(int bodyBytes) {
        return new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof LastHttpContent) {
                    FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                            Unpooled.wrappedBuffer(new byte[bodyBytes]));
                    HttpUtil.setContentLength(res, bodyBytes);
                    ctx.writeAndFlush(res);
                }
                ReferenceCountUtil.release(msg);
            }
        };
    }

    @Test
    void neverReadingClientIsClosedAfterTheWriteProgressTimeout() {
        // Slowloris in reverse: ask for a large answer, read none of it, hold the connection and the queued bytes.
        HalfClosingTestChannel ch = halfClosing(new HttpServerCodec(), answeringWith(200_000));
        ch.peerStopsReading();
        ch.receive(HEAD);
        long timeout = HttpServerTimeouts.DEFAULT_WRITE_PROGRESS_TIMEOUT_MILLIS;
        // Time passes a second at a time, as it does: each timer runs when it is due.
        for (long t = 1000; t < timeout; t += 1000) {
            ch.advance(1, TimeUnit.SECONDS);
        }
        assertThat(ch.isOpen()).as("within the timeout").isTrue();
        // The clock starts at the first tick that finds output queued: the close begins by 1.25 times the timeout,
        // and the codec's graceful close, whose flush never completes, ends at its linger bound.
        for (long t = 0; t < timeout / 4 + HttpServerCodec.DEFAULT_LINGER_TIMEOUT_MILLIS + 1000; t += 1000) {
            ch.advance(1, TimeUnit.SECONDS);
        }
        assertThat(ch.isOpen()).as("closed once no byte was read for the timeout").isFalse();
        ch.finish();
    }

    @Test
    void slowButSteadyReaderIsNeverCutByTheWriteProgressTimeout() {
        HalfClosingTestChannel ch = halfClosing(new HttpServerCodec(), answeringWith(200_000));
        ch.peerStopsReading();
        ch.receive(HEAD);
        // 1 KiB every 20 s: 51 B/s, far below the download's size over the timeout, but never nothing for 30 s.
        StringBuilder received = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            for (int second = 0; second < 20; second++) {
                ch.advance(1, TimeUnit.SECONDS);
            }
            assertThat(ch.isOpen()).as("after %d s", 20 * (i + 1)).isTrue();
            ch.peerReads(1024);
            received.append(ch.takeSent());
        }
        assertThat(received.toString()).startsWith(OK_RESPONSE_START).hasSize(30 * 1024);
        ch.peerReads(Long.MAX_VALUE / 2);
        ch.advance(40, TimeUnit.SECONDS);
        assertThat(ch.isOpen()).as("drained: only the idle clock (60 s) runs").isTrue();
        ch.finish();
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
