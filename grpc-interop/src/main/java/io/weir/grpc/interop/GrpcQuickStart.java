package io.weir.grpc.interop;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.integration.Messages.Payload;
import io.grpc.testing.integration.Messages.SimpleRequest;
import io.grpc.testing.integration.Messages.SimpleResponse;
import io.grpc.testing.integration.TestServiceGrpc;
import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.grpc.GrpcServices;
import io.weir.grpc.WeirGrpcChannel;
import io.weir.server.HttpServer;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/** docs/grpc.md's quick start, shown there verbatim: a generated service served on Weir and called through it. */
public final class GrpcQuickStart {
    /** Your service: extend the ImplBase that protoc-gen-grpc-java generated from your .proto. */
    static final class Greeter extends TestServiceGrpc.TestServiceImplBase {
        @Override
        public void unaryCall(SimpleRequest request, StreamObserver<SimpleResponse> responses) {
            String name = request.getPayload().getBody().toStringUtf8();
            responses.onNext(SimpleResponse.newBuilder().setUsername("Hello, " + name + "!").build());
            responses.onCompleted();
        }
    }

    public static void main(String[] args) throws Exception {
        System.out.println(serveAndCall("Weir"));
    }

    /** Serves {@link Greeter} on a free port, calls it once with a generated blocking stub, and stops. */
    public static String serveAndCall(String name) throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        GrpcServices services = GrpcServices.builder().addService(new Greeter()).build();
        HttpServer server = new HttpServer(group).grpc(services);
        Channel bound = server.start(new InetSocketAddress("127.0.0.1", 0)); // h2c; startTls(..) adds h2 over TLS
        int port = ((InetSocketAddress) bound.localAddress()).getPort();
        ManagedChannel channel = WeirGrpcChannel.forAddress("127.0.0.1", port).build();
        try {
            SimpleRequest request = SimpleRequest.newBuilder()
                    .setPayload(Payload.newBuilder().setBody(ByteString.copyFromUtf8(name))).build();
            return TestServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
                    .unaryCall(request).getUsername();
        } finally {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            server.close();
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
        }
    }
}
