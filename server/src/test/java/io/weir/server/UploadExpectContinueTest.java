package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.IoHandlerFactory;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.epoll.EpollIoHandler;
import io.weir.channel.nio.NioIoHandler;
import io.weir.handler.codec.http.multipart.HttpPostDecoderConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code POST /upload} with {@code Expect: 100-continue}, which curl sends for bodies above 1 MiB: the server
 * invites the body at once ({@code 100 Continue}) instead of leaving curl to wait a second for it, and refuses
 * an upload whose declared length no limit could accept with {@code 413} before the body is sent. Driven by the
 * {@code curl} binary and by a raw socket; fails, rather than skips, when curl is missing.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UploadExpectContinueTest {
    @TempDir
    Path dir;

    private EventLoopGroup group;
    private HttpServer server;
    private InetSocketAddress address;

    static List<String> transports() {
        return HttpServerTest.transports();
    }

    private void start(String transport, HttpPostDecoderConfig limits, long maxFileBytes) throws Exception {
        IoHandlerFactory io = transport.equals("epoll") ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        group = new MultiThreadIoEventLoopGroup(2, io);
        Path uploads = Files.createDirectory(dir.resolve("uploads"));
        server = new HttpServer(group).uploadDirectory(uploads).uploadLimits(limits, maxFileBytes);
        Channel channel = server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        address = (InetSocketAddress) channel.localAddress();
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }

    private record Curl(int exit, String out, String err) {
    }

    private Curl curlUpload(Path file) throws Exception {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "-v", "--max-time", "30",
                "-w", "\\nstatus=%{http_code}", "-F", "data=@" + file,
                "http://127.0.0.1:" + address.getPort() + "/upload"));
        Process p;
        try {
            p = new ProcessBuilder(command).redirectError(dir.resolve("curl.err").toFile()).start();
        } catch (IOException e) {
            fail("curl is not installed: apt-get install -y curl (" + e.getMessage() + ")");
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(40, TimeUnit.SECONDS)).isTrue();
        return new Curl(p.exitValue(), out, Files.readString(dir.resolve("curl.err")));
    }

    private Path file(int size) throws IOException {
        byte[] data = new byte[size];
        for (int i = 0; i < size; i++) {
            data[i] = (byte) (i * 7);
        }
        return Files.write(dir.resolve("big.bin"), data);
    }

    @ParameterizedTest
    @MethodSource("transports")
    void curlUploadingTwoMebibytesIsInvitedAtOnce(String transport) throws Exception {
        start(transport, new HttpPostDecoderConfig(), UploadHandler.DEFAULT_MAX_FILE_SIZE_BYTES);
        Curl curl = curlUpload(file(2 << 20));
        assertThat(curl.exit()).as(curl.err()).isZero();
        assertThat(curl.err()).as("curl asked").contains("Expect: 100-continue");
        assertThat(curl.err()).as("and was answered, so it did not wait").contains("< HTTP/1.1 100 Continue")
                .doesNotContain("Done waiting for 100-continue");
        assertThat(curl.out()).contains("{\"name\":\"data\",\"file\":true,\"filename\":\"big.bin\",\"size\":"
                + (2 << 20) + "}").endsWith("status=200");
    }

    @ParameterizedTest
    @MethodSource("transports")
    void anUploadNoLimitCouldAcceptIsRefusedBeforeItsBodyIsSent(String transport) throws Exception {
        // One part of at most 1 MiB: a 4 MiB body can never fit.
        start(transport, new HttpPostDecoderConfig().setMaxFields(1), 1 << 20);
        Curl curl = curlUpload(file(4 << 20));
        assertThat(curl.err()).doesNotContain("< HTTP/1.1 100 Continue");
        assertThat(curl.out()).endsWith("status=413");
    }

    @ParameterizedTest
    @MethodSource("transports")
    void theContinueArrivesBeforeAnyBodyByteIsSent(String transport) throws Exception {
        start(transport, new HttpPostDecoderConfig(), UploadHandler.DEFAULT_MAX_FILE_SIZE_BYTES);
        String boundary = "b0undary";
        String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nxyz\r\n--"
                + boundary + "--\r\n";
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(("POST /upload HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Type: multipart/form-data;"
                    + " boundary=" + boundary + "\r\nContent-Length: " + body.length() + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String interim = "HTTP/1.1 100 Continue\r\n\r\n";
            byte[] got = in.readNBytes(interim.length());
            assertThat(new String(got, StandardCharsets.US_ASCII)).isEqualTo(interim);
            out.write(body.getBytes(StandardCharsets.US_ASCII));
            byte[] head = in.readNBytes(15);
            assertThat(new String(head, StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 200 OK");
        }
    }
}
