/**
 * gRPC on Weir's HTTP/2, through grpc-java's public API ({@code io.grpc}, never {@code io.grpc.internal}). One way
 * to serve, one to call:
 *
 * <ul>
 *   <li>{@link io.weir.grpc.GrpcServices} takes {@code BindableService}s (as {@code protoc-gen-grpc-java} generates
 *       them) or any {@code ServerServiceDefinition}, interceptors, an executor (the event loop, a pool, virtual
 *       threads), message limits and codecs; a server mounts it beside its HTTP routes, over h2c or TLS with ALPN:
 * <pre>{@code
 * GrpcServices services = GrpcServices.builder()
 *         .addService(new GreeterImpl())                      // extends GreeterGrpc.GreeterImplBase
 *         .addService(new HealthStatusManager().getHealthService())
 *         .intercept(new AuthInterceptor())
 *         .executor(Executors.newVirtualThreadPerTaskExecutor())
 *         .build();
 * new HttpServer(group).grpc(services).start(new InetSocketAddress(8080));
 * }</pre>
 *       (with a pipeline of your own, {@link io.weir.grpc.GrpcServices#streamHandler} is the handler of each
 *       HTTP/2 stream's child channel).</li>
 *   <li>{@link io.weir.grpc.WeirGrpcChannel}, an {@code io.grpc.ManagedChannel} for the generated stubs:
 * <pre>{@code
 * WeirGrpcChannel channel = WeirGrpcChannel.forAddress("localhost", 8080).build();
 * HelloReply reply = GreeterGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
 *         .sayHello(HelloRequest.newBuilder().setName("weir").build());
 * }</pre>
 *   </li>
 * </ul>
 *
 * Both sides read a stream only as fast as the call's {@code request(n)} asks, so a slow reader stops its peer at
 * the HTTP/2 flow-control window; {@code isReady()} and {@code onReady()} follow the stream's writability.
 * Deadlines travel as {@code grpc-timeout} and reach the server's {@code Context}; cancels travel as RST_STREAM.
 * {@link io.weir.grpc.GrpcTimeout} and {@link io.weir.grpc.GrpcStatusMessage} are the wire formats of
 * {@code grpc-timeout} and {@code grpc-message}.
 */
package io.weir.grpc;
