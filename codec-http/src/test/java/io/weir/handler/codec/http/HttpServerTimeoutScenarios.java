package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpTestSupport.bytes;
import static io.weir.handler.codec.http.HttpTestSupport.outbound;
import static org.assertj.core.api.Assertions.assertThat;

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
 * The timeouts of an HTTP/1.1 server connection, one scenario each, run against every pipeline that provides them:
 * {@link HttpServerCodec} with an {@link HttpServerPolicy} alone ({@link HttpServerCodecPolicyTest}), and the codec
 * followed by an {@link HttpServerTimeoutHandler} ({@link HttpServerTimeoutHandlerTest}). A subclass builds the
 * pipeline with the limits every scenario assumes: head 10 s, idle 60 s, a body of at least 1 KiB/s over 10 s
 * windows after a 5 s grace period. A manual clock drives them: no test waits for wall-clock time.
 */
abstract class HttpServerTimeoutScenarios {
    static final String HEAD = "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n";
    static final String PARTIAL_HEAD = "GET / HTTP/1.1\r\nHost: example.com\r\n";
    static final String OK = "HTTP/1.1 200 OK";

    /** The server pipeline, then {@code app}. */
    abstract EmbeddedChannel server(ChannelHandler app);

    /** {@link #server(ChannelHandler)} counting into {@code metrics}. */
    abstract EmbeddedChannel server(HttpMetrics metrics, ChannelHandler app);

    /** {@link #server(ChannelHandler)} on a channel that can half-close and whose peer can stop reading. */
    abstract HalfClosingTestChannel halfClosingServer(ChannelHandler app);

    /** How long output may stay queued with none of it read. */
    abstract long writeTimeoutSeconds();

    /** How long a closing connection lingers, at most, for its flush and the client's last bytes. */
    abstract long lingerTimeoutSeconds();

    /**
     * Answers every complete request to a path other than {@code /hold} with a 200 of {@link #responseBytes} bytes,
     * flushed; counts the body bytes it read.
     */
    static final class Answering implements ChannelHandler {
        final List<String> uris = new ArrayList<>();
        HttpVersion version = HttpVersion.HTTP_1_1;
        boolean withLength = true;
        int responseBytes = 2;
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
                    FullHttpResponse res = new DefaultFullHttpResponse(version, HttpResponseStatus.OK,
                            Unpooled.wrappedBuffer(new byte[responseBytes]));
                    if (withLength) {
                        HttpUtil.setContentLength(res, responseBytes);
                    }
                    ctx.writeAndFlush(res);
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }
    }

    /** Answers the first part of each request of type {@code on} with an empty {@code status}, and nothing else. */
    static ChannelHandler answeringOnly(Class<? extends HttpObject> on, HttpResponseStatus status) {
        return new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (on.isInstance(msg)) {
                    ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                            Unpooled.EMPTY_BUFFER));
                }
                ReferenceCountUtil.release(msg);
            }
        };
    }

    /** A half-closing server whose peer reads nothing and has asked for a 200 kB response. */
    private HalfClosingTestChannel peerAskingForMoreThanItReads() {
        Answering app = new Answering();
        app.responseBytes = 200_000;
        HalfClosingTestChannel ch = halfClosingServer(app);
        ch.peerStopsReading();
        ch.receive(HEAD);
        return ch;
    }

    /**
     * Checks that a head begun now is answered 408 and the connection closed after the 10 s head timeout, and not a
     * second before, however the head goes on: {@code trickle} arrives a second before the deadline.
     */
    static void assertHeadTimesOut(EmbeddedChannel ch, String trickle) {
        advance(ch, 9);
        send(ch, trickle);
        assertThat(ch.isOpen()).isTrue();
        advance(ch, 1);
        assertThat(outbound(ch)).startsWith("HTTP/1.1 408 Request Timeout");
        assertThat(ch.isOpen()).isFalse();
    }

    static void advance(EmbeddedChannel ch, long seconds) {
        ch.advanceTimeBy(seconds, TimeUnit.SECONDS);
        ch.runPendingTasks();
    }

    static void send(EmbeddedChannel ch, String s) {
        ch.writeInbound(bytes(s));
    }

    @Test
    void slowlorisHeadIsAnswered408() {
        Answering app = new Answering();
        EmbeddedChannel ch = server(app);
        send(ch, PARTIAL_HEAD);
        for (int second = 1; second < 10; second++) {
            advance(ch, 1);
            send(ch, "X");
        }
        assertThat(ch.isOpen()).isTrue();
        advance(ch, 1);
        assertThat(outbound(ch)).startsWith("HTTP/1.1 408 Request Timeout").containsIgnoringCase("connection: close");
        assertThat(ch.isOpen()).isFalse();
        assertThat(app.uris).isEmpty();
        ch.finishAndReleaseAll();
    }

    @Test
    void slowlorisOnAKeptAliveConnectionIsTimedFromItsFirstByte() {
        EmbeddedChannel ch = server(new Answering());
        send(ch, HEAD);
        assertThat(outbound(ch)).startsWith(OK);
        advance(ch, 30);
        send(ch, "GET /sec");
        assertHeadTimesOut(ch, "ond");
        ch.finishAndReleaseAll();
    }

    @Test
    void silentConnectionIsClosedQuietlyAfterTheHeadTimeout() {
        EmbeddedChannel ch = server(new Answering());
        advance(ch, 9);
        assertThat(ch.isOpen()).isTrue();
        advance(ch, 1);
        assertThat(ch.isOpen()).isFalse();
        assertThat(outbound(ch)).as("nothing was asked, so nothing is answered").isEmpty();
        ch.finishAndReleaseAll();
    }

    @Test
    void keptAliveConnectionIdleBetweenRequestsIsClosedQuietly() {
        Answering app = new Answering();
        EmbeddedChannel ch = server(app);
        send(ch, HEAD);
        assertThat(outbound(ch)).startsWith(OK);
        advance(ch, 59);
        assertThat(ch.isOpen()).isTrue();
        send(ch, HEAD);
        assertThat(outbound(ch)).as("the idle clock restarts after each response").startsWith(OK);
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
        assertThat(outbound(ch)).startsWith(OK);
        // Well past the head timeout, inside the idle timeout: still open.
        advance(ch, 30);
        assertThat(ch.isOpen()).isTrue();
        assertThat(app.uris).containsExactly("/");
        ch.finishAndReleaseAll();
    }

    @Test
    void slowBodyBelowTheMinimumRateIsAnswered408() {
        EmbeddedChannel ch = server(new Answering());
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
    void bodyAtTheMinimumRateIsServed() {
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
        assertThat(outbound(ch)).startsWith(OK);
        assertThat(ch.isOpen()).isTrue();
        ch.finishAndReleaseAll();
    }

    @Test
    void slowBodyAfterAResponseBegunIsClosedWithoutA408() {
        EmbeddedChannel ch = server(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof HttpRequest) {
                    // Answers at once, before reading the body: a 408 can no longer be sent.
                    DefaultHttpResponse res = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
                    HttpUtil.setTransferEncodingChunked(res, true);
                    ctx.writeAndFlush(res);
                }
                ReferenceCountUtil.release(msg);
            }
        });
        send(ch, "POST / HTTP/1.1\r\nHost: example.com\r\nContent-Length: 100000\r\n\r\n");
        assertThat(outbound(ch)).startsWith(OK);
        advance(ch, 5);
        advance(ch, 10);
        assertThat(ch.isOpen()).isFalse();
        assertThat(outbound(ch)).isEmpty();
        ch.finishAndReleaseAll();
    }

    @Test
    void longDownloadIsNotKilledByTheReadTimers() {
        EmbeddedChannel ch = server(new Answering());
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
        assertThat(outbound(ch)).startsWith(OK).endsWith("0\r\n\r\n");
        advance(ch, 59);
        assertThat(ch.isOpen()).isTrue();
        advance(ch, 1);
        assertThat(ch.isOpen()).as("idle once the download is over").isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void interimResponseDoesNotEndTheWait() {
        EmbeddedChannel ch = server(answeringOnly(HttpRequest.class, HttpResponseStatus.CONTINUE));
        send(ch, HEAD);
        assertThat(outbound(ch)).startsWith("HTTP/1.1 100 Continue");
        // Still owed a final response: the server's time, however long.
        advance(ch, 600);
        assertThat(ch.isOpen()).isTrue();
        ch.finishAndReleaseAll();
    }

    @Test
    void switchingProtocolsStopsTheTimeouts() {
        EmbeddedChannel ch = server(answeringOnly(LastHttpContent.class, HttpResponseStatus.SWITCHING_PROTOCOLS));
        send(ch, "GET / HTTP/1.1\r\nHost: example.com\r\nConnection: upgrade\r\nUpgrade: example\r\n\r\n");
        assertThat(outbound(ch)).startsWith("HTTP/1.1 101 Switching Protocols");
        advance(ch, 3600);
        assertThat(ch.isOpen()).as("the new protocol brings its own timeouts").isTrue();
        ch.finishAndReleaseAll();
    }

    @Test
    void metricsCountEveryResponseAndTheTimeoutThatFired() {
        HttpMetrics metrics = new HttpMetrics();
        EmbeddedChannel ch = server(metrics, new Answering());
        send(ch, HEAD + HEAD);
        assertThat(outbound(ch)).startsWith(OK);
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
    void neverReadingClientIsClosedAfterTheWriteTimeout() {
        // Slowloris in reverse: ask for a large answer, read none of it, hold the connection and the queued bytes.
        HalfClosingTestChannel ch = peerAskingForMoreThanItReads();
        // Time passes a second at a time, as it does: each timer runs when it is due.
        for (long t = 1; t < writeTimeoutSeconds(); t++) {
            ch.advance(1, TimeUnit.SECONDS);
        }
        assertThat(ch.isOpen()).as("within the timeout").isTrue();
        // The clock starts at the first tick that finds output queued: the close begins by 1.25 times the timeout,
        // and the graceful close, whose flush never completes, ends at its linger bound.
        for (long t = 0; t < writeTimeoutSeconds() / 4 + lingerTimeoutSeconds() + 1; t++) {
            ch.advance(1, TimeUnit.SECONDS);
        }
        assertThat(ch.isOpen()).as("closed once no byte was read for the timeout").isFalse();
        ch.finish();
    }

    @Test
    void slowButSteadyReaderIsNeverCutByTheWriteTimeout() {
        HalfClosingTestChannel ch = peerAskingForMoreThanItReads();
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
        assertThat(received.toString()).startsWith(OK).hasSize(30 * 1024);
        ch.peerReads(Long.MAX_VALUE / 2);
        ch.advance(40, TimeUnit.SECONDS);
        assertThat(ch.isOpen()).as("drained: only the idle clock (60 s) runs").isTrue();
        ch.finish();
    }
}
