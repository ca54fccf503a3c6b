package io.weir.testsuite.grpc;

import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.weir.channel.epoll.Epoll;
import io.weir.server.GrpcEchoService;
import io.weir.server.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * What the gRPC interop tests share: raw-bytes method descriptors beside {@link GrpcEchoService}'s (no protoc), a
 * TLS client, the transports, and request payloads.
 */
final class GrpcJava {
    /** A method no server serves. */
    static final MethodDescriptor<byte[], byte[]> UNKNOWN = method("weir.Echo/NoSuchMethod", MethodType.UNARY);

    private GrpcJava() {
    }

    static MethodDescriptor<byte[], byte[]> method(String name, MethodType type) {
        return MethodDescriptor.<byte[], byte[]>newBuilder().setType(type).setFullMethodName(name)
                .setRequestMarshaller(GrpcEchoService.BYTES).setResponseMarshaller(GrpcEchoService.BYTES).build();
    }

    /**
     * grpc-java's Netty client over TLS (trusting any certificate, authority {@code localhost}) to {@code server}'s
     * HTTPS port, started here: ALPN picks h2.
     */
    static ManagedChannel tlsChannelTo(HttpServer server) throws Exception {
        InetSocketAddress tls = (InetSocketAddress) server.startTls(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).localAddress();
        return NettyChannelBuilder.forAddress(tls.getHostString(), tls.getPort())
                .sslContext(GrpcSslContexts.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE).build())
                .overrideAuthority("localhost").build();
    }

    /** The transports the Weir side runs on: NIO, and epoll where it loads. */
    static List<String> transports() {
        List<String> transports = new ArrayList<>();
        transports.add("nio");
        if (Epoll.isAvailable()) {
            transports.add("epoll");
        }
        return transports;
    }

    /** A server-streaming request for {@link GrpcEchoService}: {@code count} then {@code payload}. */
    static byte[] streamRequest(int count, byte[] payload) {
        return ByteBuffer.allocate(4 + payload.length).putInt(count).put(payload).array();
    }

    /** {@code length} bytes of a pattern, so that a shifted or truncated copy does not compare equal. */
    static byte[] pattern(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + (i >>> 8));
        }
        return bytes;
    }
}
