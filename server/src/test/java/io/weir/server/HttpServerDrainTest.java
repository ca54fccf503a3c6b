package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.handler.codec.http2.Http2DataFrame;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.handler.codec.http2.Http2HeadersFrame;
import io.weir.handler.codec.http2.Http2StreamChannel;
import io.weir.handler.codec.http2.Http2StreamChannelBootstrap;
import io.weir.handler.ssl.ApplicationProtocolNames;
import io.weir.handler.ssl.SelfSignedCertificate;
import io.weir.handler.ssl.SslContext;
import io.weir.handler.ssl.SslContextBuilder;
import io.weir.server.WebSocketOverHttp2Test.Collector;
import io.weir.util.concurrent.EventExecutor;
import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.GlobalEventExecutor;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link HttpServer#drain}: a request in flight on each protocol completes during the drain, an idle keep-alive
 * connection is closed at once, a WebSocket hears 1001, and a new connection is refused.
 */
class HttpServerDrainTest {
    private static final int TIMEOUT_SECONDS = 30;

    private EventLoopGroup group;
    private HttpServer server;
    private Channel plainListener;
    private Channel tlsListener;
    private InetSocketAddress plain;
    private InetSocketAddress secure;
    private SslContext clientTls;

    @BeforeEach
    void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        SelfSignedCertificate cert = SelfSignedCertificate.create("localhost");
        server = new HttpServer(group).tls(SslContextBuilder.forServer(cert.privateKey(), cert.certificate())
                .applicationProtocols(ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1).build());
        plainListener = server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        tlsListener = server.startTls(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        plain = (InetSocketAddress) plainListener.localAddress();
        secure = (InetSocketAddress) tlsListener.localAddress();
        clientTls = SslContextBuilder.forClient().trustManager(cert.certificate())
                .applicationProtocols(ApplicationProtocolNames.HTTP_2).build();
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** An HTTP/2 stream carrying {@code POST /echo}, its body still arriving. */
    private record EchoStream(Channel connection, Http2StreamChannel stream, Collector frames) {
    }

    private EchoStream openEcho(boolean tls) throws Exception {
        Channel connection = Http2TestClient.connect(group, tls ? secure : plain, tls ? clientTls : null);
        Collector frames = new Collector();
        Http2StreamChannel stream = new Http2StreamChannelBootstrap(connection).handler(frames).open()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        stream.write(new Http2HeadersFrame(new Http2Headers().method("POST").scheme(tls ? "https" : "http")
                .authority("localhost").path("/echo"), false));
        stream.writeAndFlush(new Http2DataFrame(Unpooled.copiedBuffer("first;", StandardCharsets.US_ASCII), false));
        // The echo answers as the body arrives: the head and the first piece prove the request is in flight.
        Http2HeadersFrame head = frames.next(Http2HeadersFrame.class);
        assertThat(head.headers().status().toString()).isEqualTo("200");
        assertThat(bodyOf(frames.next(Http2DataFrame.class))).isEqualTo("first;");
        return new EchoStream(connection, stream, frames);
    }

    private static String bodyOf(Http2DataFrame data) {
        try {
            return data.content().toString(StandardCharsets.US_ASCII);
        } finally {
            data.release();
        }
    }

    /** Completes the echo: the rest of the body, then the rest of the answer up to its end. */
    private static String finishEcho(EchoStream echo) throws Exception {
        echo.stream().writeAndFlush(new Http2DataFrame(Unpooled.copiedBuffer("last", StandardCharsets.US_ASCII),
                true));
        StringBuilder rest = new StringBuilder();
        for (;;) {
            Object o = echo.frames().messages.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(o).as("the rest of the echo").isNotNull();
            if (o instanceof Http2DataFrame data) {
                boolean end = data.endStream();
                rest.append(bodyOf(data));
                if (end) {
                    return rest.toString();
                }
            } else if (o instanceof Http2HeadersFrame trailers && trailers.endStream()) {
                return rest.toString();
            }
        }
    }

    private static Socket socket(InetSocketAddress address) throws Exception {
        Socket s = new Socket(address.getAddress(), address.getPort());
        s.setSoTimeout(TIMEOUT_SECONDS * 1000);
        return s;
    }

    /** Reads up to the end of a response head (or of the 101's). */
    private static String readHead(InputStream in) throws Exception {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            assertThat(b).as("a response head, got %s", head).isNotNegative();
            head.write(b);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    /**
     * A new connection is refused, or, if it reached the kernel's accept queue before the listening socket was
     * really closed (NIO closes a registered socket at the selector's next pass), reset unserved.
     */
    private static void assertNotServed(InetSocketAddress address) {
        try (Socket s = socket(address)) {
            s.getOutputStream().write("GET /plaintext HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(s.getInputStream().read()).as("an answer on a connection made during the drain").isEqualTo(-1);
        } catch (SocketException refusedOrReset) {
            // ConnectException: refused at once; otherwise reset once the listening socket closed.
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static int contentLength(String head) {
        for (String line : head.split("\r\n")) {
            if (line.regionMatches(true, 0, "content-length:", 0, 15)) {
                return Integer.parseInt(line.substring(15).trim());
            }
        }
        throw new AssertionError("no content-length in " + head);
    }

    @Test
    void requestsInFlightCompleteDuringTheDrainAndNewConnectionsAreRefused() throws Exception {
        // HTTP/1.1: a POST whose head was accepted (100 Continue) and whose body has not arrived.
        try (Socket http1 = socket(plain); Socket idle = socket(plain); Socket ws = socket(plain)) {
            OutputStream out1 = http1.getOutputStream();
            out1.write(("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out1.flush();
            assertThat(readHead(http1.getInputStream())).startsWith("HTTP/1.1 100");
            // A kept-alive connection between requests.
            idle.getOutputStream().write("GET /plaintext HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String idleHead = readHead(idle.getInputStream());
            assertThat(idleHead).startsWith("HTTP/1.1 200");
            idle.getInputStream().readNBytes(contentLength(idleHead));
            // A WebSocket.
            ws.getOutputStream().write(("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            assertThat(readHead(ws.getInputStream())).startsWith("HTTP/1.1 101");
            // HTTP/2 over h2c and over TLS: a POST /echo whose body is still arriving.
            EchoStream h2c = openEcho(false);
            EchoStream h2 = openEcho(true);
            try {
                Future<Integer> drained = server.drain(TIMEOUT_SECONDS, TimeUnit.SECONDS);

                assertThat(plainListener.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
                assertThat(tlsListener.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
                assertNotServed(plain);
                assertNotServed(secure);

                assertThat(idle.getInputStream().read()).as("the idle keep-alive connection, closed at once")
                        .isEqualTo(-1);

                // RFC 6455 §7.4.1: the server goes away with 1001; the client answers, the server closes.
                InputStream wsIn = ws.getInputStream();
                assertThat(wsIn.read()).isEqualTo(0x88);
                int length = wsIn.read();
                byte[] payload = wsIn.readNBytes(length);
                assertThat((payload[0] & 0xff) << 8 | payload[1] & 0xff).isEqualTo(1001);
                ws.getOutputStream().write(new byte[] {(byte) 0x88, (byte) 0x82, 0, 0, 0, 0, 0x03, (byte) 0xe9});
                assertThat(wsIn.read()).as("closed after the close handshake").isEqualTo(-1);

                // The drain reaches each connection as a task on its loop, queued from GlobalEventExecutor (which
                // ran it for the WebSocket above, but maybe not yet for this one): once a task queued after it there,
                // then one on every loop, have run, so has the drain of the connection whose body comes next. Else a
                // loop that finds the body and the drain waiting together may answer the body first, as a keep-alive.
                GlobalEventExecutor.INSTANCE.submit(() -> { }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                for (EventExecutor loop : group) {
                    loop.submit(() -> { }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                }
                out1.write("0123456789".getBytes(StandardCharsets.US_ASCII));
                out1.flush();
                InputStream in1 = http1.getInputStream();
                String head = readHead(in1);
                assertThat(head).startsWith("HTTP/1.1 200").containsIgnoringCase("connection: close");
                assertThat(new String(in1.readNBytes(10), StandardCharsets.US_ASCII)).isEqualTo("0123456789");
                assertThat(in1.read()).as("closed after the response in flight").isEqualTo(-1);

                assertThat(finishEcho(h2c)).isEqualTo("last");
                assertThat(finishEcho(h2)).isEqualTo("last");
                assertThat(h2c.connection().closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
                assertThat(h2.connection().closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();

                assertThat(drained.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("connections reset at the deadline")
                        .isZero();
            } finally {
                h2c.connection().close();
                h2.connection().close();
                h2c.frames().releaseAll();
                h2.frames().releaseAll();
            }
        }
    }

    @Test
    void aClientThatNeverFinishesItsRequestIsResetAtTheDeadline() throws Exception {
        try (Socket http1 = socket(plain)) {
            http1.getOutputStream().write(("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n"
                    + "Expect: 100-continue\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            assertThat(readHead(http1.getInputStream())).startsWith("HTTP/1.1 100");
            Future<Integer> drained = server.drain(300, TimeUnit.MILLISECONDS);
            assertThat(drained.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(1);
            assertThatThrownBy(() -> http1.getInputStream().read()).hasMessageContaining("reset");
        }
    }
}
