package io.weir.testsuite.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.weir.channel.Channel;
import io.weir.channel.WriteBufferWaterMark;
import io.weir.server.HttpServer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Clients that misbehave at the worst moment, against the example server's HTTP pipeline on real sockets (NIO and
 * epoll): they never read, reset the connection inside a request or a response, half-close, or keep sending a body
 * the server has refused. Each test checks what the misbehaving client gets, that another client is served in the
 * meantime, and that the server's queued bytes and this process's file descriptors stay bounded.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HttpServerFaultTest {
    private static final long HIGH_WATER_MARK = WriteBufferWaterMark.DEFAULT_HIGH_WATER_MARK_BYTES;
    /** Descriptors the JVM may open meanwhile for its own reasons (class loading, JIT logs). */
    private static final long FD_SLACK = 8;
    private static final int TEN_MIB = 10 << 20;

    private ExampleServerFixture server;
    private long fdsBefore;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    static Iterable<String> transports() {
        return ExampleServerFixture.transports();
    }

    private void start(String transport) throws Exception {
        server = new ExampleServerFixture(transport);
        fdsBefore = ExampleServerFixture.openFileDescriptors();
    }

    /** A well-behaved client's GET, on its own connection: the server still serves while another one misbehaves. */
    private void anotherClientIsServed() throws IOException {
        try (RawHttpClient other = new RawHttpClient(server.address)) {
            other.write("GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n");
            RawHttpClient.Response response = other.read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.bodyText()).isEqualTo("Hello, World!");
        }
    }

    /** Waits for every server-side connection to close, then checks that no descriptor was left behind. */
    private void allConnectionsCloseAndNoDescriptorLeaks() throws Exception {
        for (Channel ch : new ArrayList<>(server.connections)) {
            assertThat(ch.closeFuture().await(10, TimeUnit.SECONDS)).as("%s closes", ch).isTrue();
        }
        assertThat(ExampleServerFixture.openFileDescriptors()).isLessThanOrEqualTo(fdsBefore + FD_SLACK);
    }

    private static CompletableFuture<Void> writeInBackground(RawHttpClient client, List<byte[]> parts) {
        return CompletableFuture.runAsync(() -> {
            try {
                for (byte[] part : parts) {
                    client.write(part);
                }
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
    }

    private static byte[] ascii(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    private static List<byte[]> pipelinedGets(int count) {
        List<byte[]> parts = new ArrayList<>();
        StringBuilder batch = new StringBuilder(64 * 1024);
        for (int i = 0; i < count; i++) {
            batch.append("GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n");
            if (batch.length() > 60 * 1024 || i == count - 1) {
                parts.add(ascii(batch.toString()));
                batch.setLength(0);
            }
        }
        return parts;
    }

    /** Waits, while the client's writer stays blocked, until the server has stopped reading the connection. */
    private void awaitServerPaused(CompletableFuture<Void> writer) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (;;) {
            try {
                writer.get(20, TimeUnit.MILLISECONDS);
                fail("the never-reading client wrote everything: the server read it all");
            } catch (TimeoutException expected) {
                // The writer is blocked: the kernel buffers are full.
            }
            Channel ch = server.connections.peek();
            if (ch != null && !ch.isWritable() && !ExampleServerFixture.isReading(ch)) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                fail("the server never stopped reading the never-reading client");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void aNeverReadingPipeliningClientIsBoundedAndOthersAreServed(String transport) throws Exception {
        start(transport);
        RawHttpClient hog = new RawHttpClient(server.address);
        CompletableFuture<Void> writer = writeInBackground(hog, pipelinedGets(50_000));
        awaitServerPaused(writer);
        anotherClientIsServed();
        assertThat(server.maxQueuedBytes.get()).isLessThanOrEqualTo(HIGH_WATER_MARK + 4 * 1024);
        hog.close();
        assertThat(writer).failsWithin(30, TimeUnit.SECONDS);
        allConnectionsCloseAndNoDescriptorLeaks();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void aNeverReadingEchoClientIsBoundedAndOthersAreServed(String transport) throws Exception {
        start(transport);
        int size = HttpServer.MAX_CONTENT_LENGTH_BYTES;
        byte[] body = new byte[size];
        List<byte[]> parts = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            parts.add(ascii("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: " + size + "\r\n\r\n"));
            parts.add(body);
        }
        RawHttpClient hog = new RawHttpClient(server.address);
        CompletableFuture<Void> writer = writeInBackground(hog, parts);
        awaitServerPaused(writer);
        anotherClientIsServed();
        assertThat(server.maxQueuedBytes.get()).isLessThanOrEqualTo(HIGH_WATER_MARK + size + 4 * 1024);
        hog.close();
        assertThat(writer).failsWithin(30, TimeUnit.SECONDS);
        allConnectionsCloseAndNoDescriptorLeaks();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void aResetInsideARequestBodyClosesTheConnection(String transport) throws Exception {
        start(transport);
        RawHttpClient client = new RawHttpClient(server.address);
        client.write("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\n" + "x".repeat(40_000));
        anotherClientIsServed();
        // SO_LINGER 0: close sends RST instead of FIN.
        client.socket.setSoLinger(true, 0);
        client.close();
        allConnectionsCloseAndNoDescriptorLeaks();
        anotherClientIsServed();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void aResetWhileResponsesAreQueuedClosesTheConnection(String transport) throws Exception {
        start(transport);
        int size = HttpServer.MAX_CONTENT_LENGTH_BYTES;
        List<byte[]> parts = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            parts.add(ascii("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: " + size + "\r\n\r\n"));
            parts.add(new byte[size]);
        }
        RawHttpClient client = new RawHttpClient(server.address);
        CompletableFuture<Void> writer = writeInBackground(client, parts);
        awaitServerPaused(writer);
        // The first echo's head has arrived: the reset lands in the middle of a response.
        assertThat(client.read().status()).isEqualTo(200);
        client.socket.setSoLinger(true, 0);
        client.close();
        assertThat(writer).failsWithin(30, TimeUnit.SECONDS);
        allConnectionsCloseAndNoDescriptorLeaks();
        anotherClientIsServed();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void aClientThatHalfClosesAfterItsRequestsStillGetsEveryResponse(String transport) throws Exception {
        start(transport);
        try (RawHttpClient client = new RawHttpClient(server.address)) {
            client.write("GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\nPOST /echo HTTP/1.1\r\nHost: a\r\n"
                    + "Content-Length: 5\r\n\r\nhello");
            client.socket.shutdownOutput();
            assertThat(client.read().bodyText()).isEqualTo("Hello, World!");
            assertThat(client.read().bodyText()).isEqualTo("hello");
            assertThat(client.readsEndOfStream()).as("then the server closes").isTrue();
        }
        allConnectionsCloseAndNoDescriptorLeaks();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void aClientStillSendingARefusedBodyReceivesTheComplete413(String transport) throws Exception {
        start(transport);
        refusedWhileStillSending("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: " + TEN_MIB + "\r\n\r\n", 413);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void aClientStillSendingAfterARejectedHeadReceivesTheComplete431(String transport) throws Exception {
        start(transport);
        refusedWhileStillSending("POST /echo HTTP/1.1\r\nHost: a\r\nX-Big: " + "b".repeat(16 * 1024) + "\r\n"
                + "Content-Length: " + TEN_MIB + "\r\n\r\n", 431);
    }

    /**
     * Sends {@code head} and then a 10 MiB body the server refuses with {@code status}, and checks that the answer
     * arrives whole, followed by an orderly end of stream rather than a reset.
     */
    private void refusedWhileStillSending(String head, int status) throws Exception {
        try (RawHttpClient client = new RawHttpClient(server.address)) {
            List<byte[]> parts = new ArrayList<>();
            parts.add(ascii(head));
            for (int i = 0; i < TEN_MIB / (64 * 1024); i++) {
                parts.add(new byte[64 * 1024]);
            }
            CompletableFuture<Void> writer = writeInBackground(client, parts);
            // The server stops listening after a bounded number of bytes, so the rest of the body cannot be sent;
            // only then does the client look at what it received. Had the server closed at once, with the body
            // still arriving, its kernel would have answered with a reset instead of the end of the stream.
            assertThat(writer).failsWithin(30, TimeUnit.SECONDS);
            RawHttpClient.Response response = client.read();
            assertThat(response.status()).isEqualTo(status);
            assertThat(response.head()).contains("\r\nconnection: close\r\n");
            assertThat(client.readsEndOfStream()).as("an orderly end of stream, not a reset").isTrue();
        }
        allConnectionsCloseAndNoDescriptorLeaks();
        anotherClientIsServed();
    }
}
