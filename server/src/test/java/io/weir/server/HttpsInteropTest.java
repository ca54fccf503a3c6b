package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.server.Transports;
import io.weir.handler.ssl.ApplicationProtocolNames;
import io.weir.handler.ssl.SelfSignedCertificate;
import io.weir.handler.ssl.SslContextBuilder;
import io.weir.handler.ssl.SslProvider;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The example server's HTTPS port (JDK TLS engine, self-signed certificate) against real clients: ALPN chooses h2
 * or http/1.1, and both reach the same routes. The client trusts exactly the server's certificate and checks the
 * host name, so this is a verified connection, not a trust-all one.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HttpsInteropTest {
    private static EventLoopGroup group;
    private static HttpServer server;
    private static String base;
    private static HttpClient h2Client;
    private static HttpClient h1Client;
    private static Path caFile;

    @BeforeAll
    static void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(2, Transports.ioHandlerFactory());
        SelfSignedCertificate selfSigned = SelfSignedCertificate.create("localhost");
        X509Certificate cert = selfSigned.certificate();
        server = new HttpServer(group).tls(SslContextBuilder.forServer(selfSigned.privateKey(), cert)
                .applicationProtocols(ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1).build());
        server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Channel tls = server.startTls(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        base = "https://localhost:" + ((InetSocketAddress) tls.localAddress()).getPort();
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("weir-example", cert);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, tmf.getTrustManagers(), null);
        h2Client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(ssl)
                .connectTimeout(Duration.ofSeconds(10)).build();
        h1Client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(ssl)
                .connectTimeout(Duration.ofSeconds(10)).build();
        caFile = Files.createTempFile("weir-example-ca", ".pem");
        Files.writeString(caFile, "-----BEGIN CERTIFICATE-----\n"
                + java.util.Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(cert.getEncoded())
                + "\n-----END CERTIFICATE-----\n");
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        Files.deleteIfExists(caFile);
    }

    @Test
    void theDefaultContextIsSelfSignedOnTheDefaultEngineAndOffersBothProtocols() throws Exception {
        // OpenSSL where it loads, the JDK's otherwise.
        assertThat(HttpServer.selfSignedTls().provider()).isEqualTo(SslProvider.defaultProvider());
        assertThat(HttpServer.selfSignedTls().applicationProtocols())
                .containsExactly(ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1);
    }

    @Test
    void alpnChoosesH2AndTheRoutesAnswer() throws Exception {
        for (String path : List.of("/plaintext", "/json", "/headers")) {
            HttpResponse<String> response = h2Client.send(HttpRequest.newBuilder(URI.create(base + path))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.version()).as(path).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(response.statusCode()).as(path).isEqualTo(200);
        }
        HttpResponse<String> echo = h2Client.send(HttpRequest.newBuilder(URI.create(base + "/echo"))
                .POST(HttpRequest.BodyPublishers.ofString("over h2 and TLS")).timeout(Duration.ofSeconds(30))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(echo.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(echo.body()).isEqualTo("over h2 and TLS");
    }

    @Test
    void http11ClientGetsHttp11OverTls() throws Exception {
        HttpResponse<String> response = h1Client.send(HttpRequest.newBuilder(URI.create(base + "/plaintext"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("Hello, World!");
    }

    @Test
    void curlSpeaksBothProtocolsWithAVerifiedCertificate() throws Exception {
        Path curl = ExternalTool.find("curl", "apt-get install curl");
        ExternalTool.Result h2 = ExternalTool.run(60, List.of(curl.toString(), "-sS", "--http2", "--cacert",
                caFile.toString(), "-o", "/dev/null", "-w", "%{http_version} %{http_code}", base + "/plaintext"));
        assertThat(h2.output().trim()).isEqualTo("2 200");
        ExternalTool.Result h1 = ExternalTool.run(60, List.of(curl.toString(), "-sS", "--http1.1", "--cacert",
                caFile.toString(), "-o", "/dev/null", "-w", "%{http_version} %{http_code}", base + "/plaintext"));
        assertThat(h1.output().trim()).isEqualTo("1.1 200");
    }
}
