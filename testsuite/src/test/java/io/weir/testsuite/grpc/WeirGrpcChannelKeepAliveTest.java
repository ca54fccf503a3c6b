package io.weir.testsuite.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.weir.grpc.WeirGrpcChannel;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** WeirGrpcChannel's keepalive: a server that stops answering is found by PING, a live one is left alone. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WeirGrpcChannelKeepAliveTest {

    @Test
    void serverThatStopsAnsweringIsFoundByKeepAlive() throws Exception {
        // Says SETTINGS, then reads everything and answers nothing, PINGs included: a peer or path gone silent.
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread peer = new Thread(() -> {
                try (Socket s = silent.accept()) {
                    OutputStream out = s.getOutputStream();
                    out.write(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0}); // an empty SETTINGS frame
                    out.flush();
                    InputStream in = s.getInputStream();
                    byte[] sink = new byte[4096];
                    while (in.read(sink) >= 0) {
                        // swallowed
                    }
                } catch (IOException e) {
                    // the client closed the connection: the test is over
                }
            }, "silent-h2-peer");
            peer.setDaemon(true);
            peer.start();
            WeirGrpcChannel channel = WeirGrpcChannel.forAddress("127.0.0.1", silent.getLocalPort())
                    .keepAliveTime(1, TimeUnit.SECONDS).keepAliveTimeout(1, TimeUnit.SECONDS).build();
            try {
                // The deadline is far: what ends the call is the unanswered PING, as UNAVAILABLE.
                assertThatThrownBy(() -> SimpleServiceGrpc.newBlockingStub(channel)
                        .withDeadlineAfter(45, TimeUnit.SECONDS).unaryRpc(SimpleServiceImpl.request("hello")))
                        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
                            assertThat(e.getStatus().getDescription()).contains("keepalive PING");
                        });
            } finally {
                channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void answeredPingsKeepALongCallAlive() throws Exception {
        SimpleServiceImpl service = new SimpleServiceImpl();
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .permitKeepAliveTime(1, TimeUnit.SECONDS).addService(service).build().start();
        WeirGrpcChannel channel = WeirGrpcChannel.forAddress("127.0.0.1", server.getPort())
                .keepAliveTime(1, TimeUnit.SECONDS).keepAliveTimeout(1, TimeUnit.SECONDS).build();
        try {
            // A held call outlives four keepalive rounds and ends at its own deadline: had an ACK gone unheard,
            // the connection would have closed after two seconds with UNAVAILABLE.
            assertThatThrownBy(() -> SimpleServiceGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(4, TimeUnit.SECONDS).unaryRpc(SimpleServiceImpl.request("hang")))
                    .isInstanceOfSatisfying(StatusRuntimeException.class,
                            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
            assertThat(SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
                    .unaryRpc(SimpleServiceImpl.request("after")).getResponseMessage()).isEqualTo("after");
        } finally {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void keepAliveTimeBelowTheMinimumIsRefused() {
        assertThatThrownBy(() -> WeirGrpcChannel.forAddress("127.0.0.1", 1).keepAliveTime(10, TimeUnit.MILLISECONDS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keepAliveTime");
    }
}
