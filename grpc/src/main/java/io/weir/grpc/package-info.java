/**
 * gRPC on Weir's HTTP/2. Two ways to serve, one to call:
 *
 * <ul>
 *   <li>grpc-java's generated services, on grpc-java's public API ({@code io.grpc}, never {@code io.grpc.internal}):
 *       {@link io.weir.grpc.GrpcServices} takes {@code BindableService}s, interceptors, an executor (the event loop,
 *       a pool, virtual threads), message limits and codecs, and gives a {@link io.weir.grpc.GrpcRoute} that a
 *       server mounts beside its HTTP routes, over h2c or TLS with ALPN:
 * <pre>{@code
 * GrpcServices services = GrpcServices.builder()
 *         .addService(new GreeterImpl())                      // extends GreeterGrpc.GreeterImplBase
 *         .addService(new HealthStatusManager().getHealthService())
 *         .intercept(new AuthInterceptor())
 *         .executor(Executors.newVirtualThreadPerTaskExecutor())
 *         .build();
 * new HttpServer(group).grpc(services.route()).start(new InetSocketAddress(8080));
 * }</pre>
 *   </li>
 *   <li>Raw methods over {@code ByteBuf}s, registered on a {@link io.weir.grpc.GrpcRoute} directly.</li>
 *   <li>{@link io.weir.grpc.WeirGrpcChannel}, an {@code io.grpc.ManagedChannel} for the generated stubs:
 * <pre>{@code
 * WeirGrpcChannel channel = WeirGrpcChannel.forAddress("localhost", 8080).build();
 * HelloReply reply = GreeterGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
 *         .sayHello(HelloRequest.newBuilder().setName("weir").build());
 * }</pre>
 *   (and {@link io.weir.grpc.GrpcClient}, a minimal client over raw bytes).</li>
 * </ul>
 *
 * Both sides read a stream only as fast as the call's {@code request(n)} asks, so a slow reader stops its peer at
 * the HTTP/2 flow-control window; {@code isReady()} and {@code onReady()} follow the stream's writability.
 * Deadlines travel as {@code grpc-timeout} and reach the server's {@code Context}; cancels travel as RST_STREAM.
 */
package io.weir.grpc;
