package io.weir.testsuite.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.weir.channel.Channel;
import io.weir.channel.WriteBufferWaterMark;
import io.weir.server.HttpServer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A client that pipelines requests and never reads must not make the server queue its responses without bound:
 * the server stops reading once the connection is not writable (the kernel's buffers then fill and the client's
 * writes block), holds about the high-water mark of responses, and serves everything, in order, once the client
 * reads. Over real sockets, on NIO and epoll, through the example server's handlers.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HttpServerBackpressureTest {
    private static final int PIPELINED_REQUESTS = 50_000;
    /** How long the test waits for the server to pause before calling it a failure. */
    private static final long PAUSE_DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final long HIGH_WATER_MARK = WriteBufferWaterMark.DEFAULT_HIGH_WATER_MARK_BYTES;
    /**
     * What a pipelining client may have queued past the high-water mark: the write that crossed it, at most one
     * /headers response (about 400 bytes) with the outbound buffer's estimate for an entry. The codec's response
     * batch is passed on before it would cross the mark, so it adds nothing.
     */
    private static final long PAST_THE_MARK = 512;

    private ExampleServerFixture server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    static Iterable<String> transports() {
        return ExampleServerFixture.transports();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void aPipeliningClientThatNeverReadsHoldsOnlyTheHighWaterMarkOfResponses(String transport) throws Exception {
        server = new ExampleServerFixture(transport);
        try (RawHttpClient client = new RawHttpClient(server.address)) {
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                StringBuilder batch = new StringBuilder(64 * 1024);
                try {
                    for (int i = 0; i < PIPELINED_REQUESTS; i++) {
                        batch.append("GET /headers HTTP/1.1\r\nHost: a\r\nX-N: ").append(i).append("\r\n\r\n");
                        if (batch.length() > 60 * 1024 || i == PIPELINED_REQUESTS - 1) {
                            client.write(batch.toString());
                            batch.setLength(0);
                        }
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            Channel connection = awaitPausedConnection(writer);
            long decodedWhilePaused = server.requestsDecoded.get();
            assertThat(decodedWhilePaused).as("requests read before the server stopped").isLessThan(PIPELINED_REQUESTS);
            assertThat(server.maxQueuedBytes.get()).as("bytes queued for the connection")
                    .isLessThanOrEqualTo(HIGH_WATER_MARK + PAST_THE_MARK);
            // The responses themselves, without the outbound buffer's estimate per entry: within the mark.
            assertThat(server.maxQueuedResponseBytes.get()).as("response bytes queued for the connection")
                    .isLessThanOrEqualTo(HIGH_WATER_MARK);

            for (int i = 0; i < PIPELINED_REQUESTS; i++) {
                RawHttpClient.Response response = client.read();
                assertThat(response.status()).isEqualTo(200);
                if (!response.bodyText().contains("\"x-n\":[\"" + i + "\"]")) {
                    fail("response " + i + " out of order: " + response.bodyText());
                }
            }
            writer.get(30, TimeUnit.SECONDS);
            assertThat(server.maxQueuedBytes.get()).as("bytes queued while the client caught up")
                    .isLessThanOrEqualTo(HIGH_WATER_MARK + PAST_THE_MARK);
            assertThat(ExampleServerFixture.readsAgain(connection)).as("reading again").isTrue();
            System.out.printf("[%s] pipelining, never reading: at most %d bytes queued (%d of them response "
                    + "bytes); %d of %d requests read before the server paused%n", transport,
                    server.maxQueuedBytes.get(), server.maxQueuedResponseBytes.get(), decodedWhilePaused,
                    PIPELINED_REQUESTS);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void aClientPostingLargeEchoBodiesThatNeverReadsIsNotReadFurther(String transport) throws Exception {
        server = new ExampleServerFixture(transport);
        int bodies = 16;
        int size = HttpServer.MAX_CONTENT_LENGTH_BYTES;
        byte[] body = new byte[size];
        for (int i = 0; i < size; i++) {
            body[i] = (byte) ('a' + i % 26);
        }
        try (RawHttpClient client = new RawHttpClient(server.address)) {
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    for (int i = 0; i < bodies; i++) {
                        client.write("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: " + size + "\r\n\r\n");
                        client.write(body);
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            awaitPausedConnection(writer);
            long decodedWhilePaused = server.requestsDecoded.get();
            assertThat(decodedWhilePaused).as("echo requests read before the server stopped").isLessThan(bodies);
            // One echoed body (the aggregator's limit) plus the high-water mark, not one per request sent.
            long bound = HIGH_WATER_MARK + size + 4 * 1024;
            assertThat(server.maxQueuedBytes.get()).as("bytes queued for the connection").isLessThanOrEqualTo(bound);
            for (int i = 0; i < bodies; i++) {
                RawHttpClient.Response response = client.read();
                assertThat(response.status()).isEqualTo(200);
                assertThat(response.body()).as("echo %d", i).isEqualTo(body);
            }
            writer.get(30, TimeUnit.SECONDS);
            assertThat(server.maxQueuedBytes.get()).isLessThanOrEqualTo(bound);
            System.out.printf("[%s] echoing 16 x 1 MiB, never reading: at most %d bytes queued; %d of %d requests "
                    + "read before the server paused%n", transport, server.maxQueuedBytes.get(), decodedWhilePaused,
                    bodies);
        }
    }

    /**
     * Waits until the (only) connection is unwritable with reading off, checking all the while that the client's
     * writer has not finished: it cannot, once the server has stopped reading.
     */
    private Channel awaitPausedConnection(CompletableFuture<Void> writer) throws Exception {
        long deadline = System.nanoTime() + PAUSE_DEADLINE_NANOS;
        for (;;) {
            try {
                writer.get(20, TimeUnit.MILLISECONDS);
                fail("the client wrote everything without reading a byte: the server read it all (at most "
                        + server.maxQueuedBytes.get() + " bytes queued, " + server.requestsDecoded.get()
                        + " requests read)");
            } catch (TimeoutException expected) {
                // Still blocked, as it should be once the server stops reading.
            }
            Channel ch = server.connections.peek();
            if (ch != null && !ch.isWritable() && !ExampleServerFixture.isReading(ch)) {
                return ch;
            }
            if (System.nanoTime() - deadline > 0) {
                fail("the server never stopped reading: " + server.maxQueuedBytes.get() + " bytes queued at most, "
                        + server.requestsDecoded.get() + " requests read");
            }
        }
    }
}
