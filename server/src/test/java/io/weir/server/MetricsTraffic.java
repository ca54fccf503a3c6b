package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.handler.codec.http.HttpServerTimeouts;
import io.weir.handler.ssl.ApplicationProtocolNames;
import io.weir.handler.ssl.SelfSignedCertificate;
import io.weir.handler.ssl.SslContextBuilder;
import io.weir.metrics.WeirMetrics;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyStore;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A started server with metrics (or without) on both ports, and the traffic the metrics and JFR tests send it:
 * plain and TLS requests with the JDK's client, and a raw HTTP/2 connection that resets a stream and then breaks
 * the protocol, so that the server answers with GOAWAY(PROTOCOL_ERROR) and closes.
 */
final class MetricsTraffic implements AutoCloseable {
    static final int RST_STREAM = 0x3;
    static final long CANCEL = 0x8;
    private static final int SOCKET_TIMEOUT_MILLIS = 10_000;

    final EventLoopGroup group = new MultiThreadIoEventLoopGroup(2, Transports.ioHandlerFactory());
    final HttpServer server;
    final InetSocketAddress plain;
    final InetSocketAddress tls;
    private final HttpClient h1;
    private final HttpClient h2c;
    private final HttpClient https;

    MetricsTraffic(WeirMetrics metrics) throws Exception {
        this(metrics, new HttpServerTimeouts());
    }

    MetricsTraffic(WeirMetrics metrics, HttpServerTimeouts timeouts) throws Exception {
        SelfSignedCertificate cert = SelfSignedCertificate.create("localhost");
        server = new HttpServer(group).metrics(metrics).timeouts(timeouts).tls(SslContextBuilder.forServer(cert.privateKey(),
                cert.certificate()).applicationProtocols(ApplicationProtocolNames.HTTP_2,
                ApplicationProtocolNames.HTTP_1_1).build());
        Channel ch = server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        plain = (InetSocketAddress) ch.localAddress();
        tls = (InetSocketAddress) server.startTls(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .localAddress();
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("weir-test", cert.certificate());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, tmf.getTrustManagers(), null);
        h1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10))
                .build();
        h2c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).connectTimeout(Duration.ofSeconds(10))
                .build();
        https = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(ssl)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    /** GET {@code path} on the plain port over HTTP/1.1. */
    HttpResponse<String> get(String path) throws Exception {
        return send(h1, "http://127.0.0.1:" + plain.getPort() + path);
    }

    /** GET {@code path} on the plain port over h2c (the JDK's client upgrades). */
    HttpResponse<String> getH2c(String path) throws Exception {
        return send(h2c, "http://127.0.0.1:" + plain.getPort() + path);
    }

    /** GET {@code path} on the TLS port (h2 by ALPN). */
    HttpResponse<String> getTls(String path) throws Exception {
        return send(https, "https://localhost:" + tls.getPort() + path);
    }

    private static HttpResponse<String> send(HttpClient client, String uri) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Opens stream 1 on a raw HTTP/2 connection, resets it (RST_STREAM CANCEL), then sends DATA on stream 0, which
     * the server answers with GOAWAY(PROTOCOL_ERROR) and a close; returns once the server has closed, so both
     * frames have been handled.
     */
    void resetThenBreakHttp2() throws IOException {
        try (Http2Attacker peer = new Http2Attacker(plain)) {
            peer.socket.setSoTimeout(SOCKET_TIMEOUT_MILLIS);
            peer.handshake();
            peer.headers(1, false, ":method", "POST", ":scheme", "http", ":authority", "localhost", ":path", "/echo");
            peer.frame(RST_STREAM, 0, 1, new byte[] {0, 0, 0, (byte) CANCEL});
            // RFC 9113 §6.1: DATA on stream 0 is a connection error of type PROTOCOL_ERROR.
            peer.frame(Http2Attacker.DATA, 0, 0, new byte[] {1});
            peer.flush();
            InputStream in = peer.socket.getInputStream();
            byte[] sink = new byte[4096];
            try {
                while (in.read(sink) >= 0) {
                    // Drains the server's SETTINGS and GOAWAY until it closes.
                }
            } catch (SocketException reset) {
                // Closed as well: a server closes after GOAWAY (RFC 9113 §5.4.1), and octets of ours that were still
                // on their way then make its kernel answer with a reset.
            }
        }
    }

    /** Connects to the plain port, sends nothing, and returns once the server has closed the connection. */
    void connectSilently() throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(plain, SOCKET_TIMEOUT_MILLIS);
            socket.setSoTimeout(SOCKET_TIMEOUT_MILLIS);
            assertThat(socket.getInputStream().read()).as("closed without an answer").isEqualTo(-1);
        }
    }

    @Override
    public void close() throws Exception {
        server.close();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
    }
}
