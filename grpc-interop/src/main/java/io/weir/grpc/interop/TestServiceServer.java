package io.weir.grpc.interop;

import io.grpc.ServerInterceptors;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.testing.integration.TestServiceGrpc;
import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.grpc.GrpcServices;
import io.weir.handler.ssl.SslContext;
import io.weir.handler.ssl.SslContextBuilder;
import io.weir.server.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The interop server: {@code grpc.testing.TestService} on Weir, named and flagged as grpc-java's interop-testing
 * server is, so other implementations' interop clients can point at it.
 *
 * <pre>
 * java -jar grpc-interop/target/weir-grpc-interop.jar --port=10000 [--use_tls=true]
 *      [--tls_cert_file=chain.pem --tls_key_file=key.pem]
 * </pre>
 *
 * With TLS on and no certificate given, a new self-signed one is used (for {@code localhost}). The server serves
 * over h2c by prior knowledge, or over TLS with ALPN {@code h2}, until it is stopped; beside TestService it serves
 * the standard health service ({@code grpc.health.v1.Health}, grpc-services' {@link HealthStatusManager}).
 */
public final class TestServiceServer implements AutoCloseable {
    private final EventLoopGroup group;
    private final ScheduledExecutorService timer;
    private final HttpServer server;
    private final HealthStatusManager health;
    private final Channel channel;

    private TestServiceServer(EventLoopGroup group, SocketAddress address, SslContext tls) throws Exception {
        this.group = group;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "interop-timer");
            t.setDaemon(true);
            return t;
        });
        health = new HealthStatusManager();
        health.setStatus(TestServiceGrpc.SERVICE_NAME, HealthCheckResponse.ServingStatus.SERVING);
        GrpcServices services = GrpcServices.builder()
                .addService(ServerInterceptors.intercept(new TestServiceImpl(timer), new EchoMetadata()))
                .addService(health.getHealthService())
                .build();
        server = new HttpServer(group).grpc(services);
        if (tls == null) {
            channel = server.start(address);
        } else {
            // The plain port is required first; it goes to an ephemeral port the clients are not told of.
            server.tls(tls).start(new InetSocketAddress(((InetSocketAddress) address).getAddress(), 0));
            channel = server.startTls(address);
        }
    }

    /** Starts a server on {@code address}: over TLS with {@code tls} when it is not null, else h2c. */
    public static TestServiceServer start(SocketAddress address, SslContext tls) throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            return new TestServiceServer(group, address, tls);
        } catch (Exception | Error e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** The standard health service's statuses: SERVING for the server ("") and for TestService. */
    public HealthStatusManager health() {
        return health;
    }

    /** The port it listens on. */
    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() throws Exception {
        health.enterTerminalState();
        server.close();
        timer.shutdownNow();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
    }

    public static void main(String[] args) throws Exception {
        InteropFlags flags = InteropFlags.parse(args);
        int port = flags.intValue("port", 10000);
        SslContext tls = null;
        if (flags.booleanValue("use_tls", false)) {
            String cert = flags.value("tls_cert_file", null);
            String key = flags.value("tls_key_file", null);
            tls = cert == null ? HttpServer.selfSignedTls() : serverContext(Path.of(cert), Path.of(key));
        }
        flags.rejectUnknown();
        try (TestServiceServer server = start(new InetSocketAddress(port), tls)) {
            System.out.println("grpc.testing.TestService on port " + server.port() + (tls != null ? " (TLS)" : ""));
            server.channel.closeFuture().sync();
        }
    }

    /** A server context from PEM files, offering h2 by ALPN. */
    public static SslContext serverContext(Path certChain, Path key) throws IOException {
        return SslContextBuilder.forServer(certChain, key).applicationProtocols("h2").build();
    }
}
