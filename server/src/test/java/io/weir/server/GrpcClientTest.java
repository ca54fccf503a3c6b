package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.grpc.EchoService;
import io.weir.grpc.GrpcClient;
import io.weir.grpc.GrpcClientCall;
import io.weir.grpc.GrpcException;
import io.weir.grpc.GrpcRoute;
import io.weir.grpc.GrpcStatus;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.server.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Weir's gRPC client against Weir's example server: the four kinds of call, a deadline, a cancel, a refused size,
 * more calls than the server's stream limit.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GrpcClientTest {
    private static EventLoopGroup group;
    private static HttpServer server;
    private static GrpcClient client;
    private static final HangMethod hang = new HangMethod();

    @BeforeAll
    static void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        GrpcRoute route = EchoService.register(new GrpcRoute()).bidiStreaming(HangMethod.NAME, hang);
        server = new HttpServer(group).grpc(route);
        client = GrpcClient.connect(group, Transports.socketChannel(group), (InetSocketAddress) server.start(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).localAddress());
    }

    @AfterAll
    static void stop() throws Exception {
        client.close();
        server.close();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void unary() throws Exception {
        assertThat(client.unary(EchoService.UNARY, ascii("ping"), 10, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS))
                .isEqualTo(ascii("ping"));
    }

    @Test
    void serverStreaming() throws Exception {
        byte[] request = ByteBuffer.allocate(6).putInt(3).put(ascii("ab")).array();
        List<byte[]> answers = client.serverStreaming(EchoService.SERVER_STREAM, request, 10, TimeUnit.SECONDS)
                .get(10, TimeUnit.SECONDS);
        assertThat(answers).hasSize(3).allSatisfy(a -> assertThat(a).isEqualTo(ascii("ab")));
    }

    @Test
    void clientStreaming() throws Exception {
        assertThat(client.clientStreaming(EchoService.CLIENT_STREAM, List.of(ascii("a"), ascii("bc"), ascii("")),
                10, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS)).isEqualTo(ascii("abc"));
    }

    @Test
    void bidi() throws Exception {
        CompletableFuture<GrpcStatus> closed = new CompletableFuture<>();
        StringBuilder received = new StringBuilder();
        GrpcClientCall call = client.newCall(EchoService.BIDI, 10, TimeUnit.SECONDS, new GrpcClientCall.Listener() {
            @Override
            public void onMessage(ByteBuf message) {
                received.append(message.toString(StandardCharsets.US_ASCII)).append(';');
                message.release();
            }

            @Override
            public void onClose(GrpcStatus status, String description) {
                closed.complete(status);
            }
        });
        for (String s : new String[] {"x", "yy", "zzz"}) {
            call.sendMessage(Unpooled.copiedBuffer(s, StandardCharsets.US_ASCII));
        }
        call.halfClose();
        assertThat(closed.get(10, TimeUnit.SECONDS)).isEqualTo(GrpcStatus.OK);
        assertThat(received.toString()).isEqualTo("x;yy;zzz;");
    }

    @Test
    void deadlineEndsTheCallAndCancelReachesTheServer() throws Exception {
        CompletableFuture<byte[]> deadline = client.unary(HangMethod.NAME, ascii("?"), 300, TimeUnit.MILLISECONDS);
        assertThat(statusOf(deadline)).isEqualTo(GrpcStatus.DEADLINE_EXCEEDED);
        assertThat(hang.started.await(10, TimeUnit.SECONDS)).isTrue();
        // Whichever came first on the server: its own deadline, or the client's RST_STREAM at the client's.
        assertThat(hang.ended.get(10, TimeUnit.SECONDS)).isIn(GrpcStatus.DEADLINE_EXCEEDED, GrpcStatus.CANCELLED);
    }

    @Test
    void streamOfBillionsIsPacedByTheClientAndEndsAtItsCancel() throws Exception {
        // Without pacing the server would loop on its event loop for 2^31 messages: the unary call below would hang.
        byte[] request = ByteBuffer.allocate(4 + 1024).putInt(Integer.MAX_VALUE).array();
        CompletableFuture<GrpcStatus> closed = new CompletableFuture<>();
        int[] received = new int[1];
        GrpcClientCall[] call = new GrpcClientCall[1];
        call[0] = client.newCall(EchoService.SERVER_STREAM, 30, TimeUnit.SECONDS, new GrpcClientCall.Listener() {
            @Override
            public void onMessage(ByteBuf message) {
                message.release();
                if (++received[0] == 1000) {
                    call[0].cancel("enough");
                }
            }

            @Override
            public void onClose(GrpcStatus status, String description) {
                closed.complete(status);
            }
        });
        call[0].sendMessage(Unpooled.wrappedBuffer(request));
        call[0].halfClose();
        assertThat(closed.get(30, TimeUnit.SECONDS)).isEqualTo(GrpcStatus.CANCELLED);
        assertThat(received[0]).isEqualTo(1000);
        assertThat(client.unary(EchoService.UNARY, ascii("still here"), 10, TimeUnit.SECONDS)
                .get(10, TimeUnit.SECONDS)).isEqualTo(ascii("still here"));
    }

    @Test
    void thousandCallsWaitForTheServersHundredStreams() throws Exception {
        // The example server allows 100 streams at once: the other 900 calls wait for a slot in the client.
        List<CompletableFuture<byte[]>> calls = new java.util.ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            calls.add(client.unary(EchoService.UNARY, ascii("c" + i), 30, TimeUnit.SECONDS));
        }
        for (int i = 0; i < 1000; i++) {
            assertThat(calls.get(i).get(30, TimeUnit.SECONDS)).isEqualTo(ascii("c" + i));
        }
    }

    @Test
    void oversizedAnswerIsRefusedByTheClient() throws Exception {
        GrpcClient small = GrpcClient.connect(group, Transports.socketChannel(group), (InetSocketAddress) client.channel().remoteAddress())
                .maxMessageSize(10);
        try {
            assertThat(statusOf(small.unary(EchoService.UNARY, new byte[11], 10, TimeUnit.SECONDS)))
                    .isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
            assertThat(small.unary(EchoService.UNARY, new byte[10], 10, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS))
                    .hasSize(10);
        } finally {
            small.close();
        }
    }

    private static GrpcStatus statusOf(CompletableFuture<?> call) throws Exception {
        try {
            call.get(10, TimeUnit.SECONDS);
            return GrpcStatus.OK;
        } catch (ExecutionException e) {
            return ((GrpcException) e.getCause()).status();
        }
    }
}
