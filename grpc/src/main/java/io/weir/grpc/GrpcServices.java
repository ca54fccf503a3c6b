package io.weir.grpc;

import io.grpc.BindableService;
import io.grpc.CompressorRegistry;
import io.grpc.DecompressorRegistry;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.weir.channel.ChannelHandler;
import io.weir.util.AsciiString;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * grpc-java services ({@link BindableService}s, as {@code protoc-gen-grpc-java} generates them, or any
 * {@link ServerServiceDefinition}) served on Weir's HTTP/2 through grpc-java's public API: each call is an
 * {@link io.grpc.ServerCall} driving one HTTP/2 stream. Built once with {@link #builder()}, then mounted on a server
 * through {@link #streamHandler}, the handler of each HTTP/2 stream's child channel: gRPC requests reach the
 * services, other requests the server's ordinary HTTP routes on the same port, over h2c or TLS with ALPN.
 *
 * <p>What every call gets: at most {@link Builder#maxInboundMessageSize} octets a request message, before and after
 * decompression (RESOURCE_EXHAUSTED above); the {@code grpc-encoding}s of the decompressor registry (UNIMPLEMENTED
 * for another, with {@code grpc-accept-encoding} naming the known ones); a {@code grpc-timeout} as the call's
 * {@link io.grpc.Context} deadline (a malformed one ends the call with INTERNAL before the service sees it, as
 * grpc-java's own server does); the client's RST_STREAM as a cancel of that context; {@code request(n)} as the pace
 * at which the stream is read, so that a service that does not ask for messages stops the client at the HTTP/2
 * flow-control window; {@code isReady()} following the stream's writability. An unknown service or method is
 * UNIMPLEMENTED (a trailers-only response, as grpc-java's server answers it).
 *
 * <p>Immutable and thread-safe; one instance may serve any number of servers.
 */
public final class GrpcServices {
    /** The largest request message accepted by default, in octets: 4 MiB, as grpc-java. */
    public static final int DEFAULT_MAX_INBOUND_MESSAGE_SIZE_BYTES = 4 << 20;
    /** The largest response message sent by default, in octets: unlimited, as grpc-java. */
    public static final int DEFAULT_MAX_OUTBOUND_MESSAGE_SIZE_BYTES = Integer.MAX_VALUE;

    private final Map<String, ServerMethodDefinition<?, ?>> methods;
    private final Executor executor;
    private final int maxInboundMessageSize;
    private final int maxOutboundMessageSize;
    private final CompressorRegistry compressors;
    private final DecompressorRegistry decompressors;
    private final AsciiString acceptEncoding;

    private GrpcServices(Builder builder) {
        Map<String, ServerMethodDefinition<?, ?>> byPath = new HashMap<>();
        for (ServerServiceDefinition service : builder.services) {
            ServerServiceDefinition intercepted = builder.interceptors.isEmpty() ? service
                    : ServerInterceptors.intercept(service, builder.interceptors);
            for (ServerMethodDefinition<?, ?> method : intercepted.getMethods()) {
                String path = "/" + method.getMethodDescriptor().getFullMethodName();
                if (byPath.putIfAbsent(path, method) != null) {
                    throw new IllegalArgumentException("method " + path.substring(1) + " is served twice");
                }
            }
        }
        this.methods = Map.copyOf(byPath);
        this.executor = builder.executor;
        this.maxInboundMessageSize = builder.maxInboundMessageSize;
        this.maxOutboundMessageSize = builder.maxOutboundMessageSize;
        this.compressors = builder.compressors;
        this.decompressors = builder.decompressors;
        this.acceptEncoding = AsciiString.of(String.join(",", decompressors.getAdvertisedMessageEncodings()));
    }

    /** A builder with grpc-java's defaults: no service, direct execution, 4 MiB requests, the default codecs. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The handler of each HTTP/2 stream's child channel (give it to an {@code Http2MultiplexHandler} or an
     * {@code Http2ServerInitializer}): a request whose {@code content-type} is {@code application/grpc} (or
     * {@code application/grpc+...}) becomes a call of these services; any other goes to {@code otherRequests} (a
     * {@code ChannelInitializer} or a sharable handler), which replaces this handler in the child's pipeline before
     * it sees the request's HEADERS frame.
     */
    public ChannelHandler streamHandler(ChannelHandler otherRequests) {
        Objects.requireNonNull(otherRequests, "otherRequests");
        // Sharable and stateless: the same router goes into every stream's pipeline.
        return new GrpcStreamRouter(this, otherRequests);
    }

    /**
     * The handler of a call to {@code path} ({@code /package.Service/Method}): the method served there, or one that
     * answers UNIMPLEMENTED.
     */
    ChannelHandler newCall(String path) {
        ServerMethodDefinition<?, ?> method = methods.get(path);
        if (method == null) {
            return new ServerCallStream<>(this, unimplemented(path));
        }
        return new ServerCallStream<>(this, method);
    }

    /** A method that ends every call with UNIMPLEMENTED, named as the client asked (less its leading slash). */
    private static ServerMethodDefinition<Void, Void> unimplemented(String path) {
        MethodDescriptor<Void, Void> descriptor = MethodDescriptor.<Void, Void>newBuilder()
                .setType(MethodDescriptor.MethodType.UNKNOWN)
                .setFullMethodName(path.startsWith("/") ? path.substring(1) : path)
                .setRequestMarshaller(NoMessages.INSTANCE).setResponseMarshaller(NoMessages.INSTANCE).build();
        return ServerMethodDefinition.create(descriptor, NoMessages.INSTANCE);
    }

    /** The marshaller and handler of {@link #unimplemented}: it never asks for a message and sends none. */
    private enum NoMessages implements MethodDescriptor.Marshaller<Void>, ServerCallHandler<Void, Void> {
        INSTANCE;

        @Override
        public InputStream stream(Void value) {
            throw new UnsupportedOperationException("an unimplemented method sends no message");
        }

        @Override
        public Void parse(InputStream stream) {
            throw new UnsupportedOperationException("an unimplemented method reads no message");
        }

        @Override
        public ServerCall.Listener<Void> startCall(ServerCall<Void, Void> call, Metadata headers) {
            // grpc-java's server words it so; clients match on the code, people on the text.
            call.close(Status.UNIMPLEMENTED.withDescription("Method not found: "
                    + call.getMethodDescriptor().getFullMethodName()), new Metadata());
            return new ServerCall.Listener<>() { };
        }
    }

    /** Where listeners run: null for the stream's event loop. */
    Executor executor() {
        return executor;
    }

    int maxInboundMessageSize() {
        return maxInboundMessageSize;
    }

    int maxOutboundMessageSize() {
        return maxOutboundMessageSize;
    }

    CompressorRegistry compressors() {
        return compressors;
    }

    DecompressorRegistry decompressors() {
        return decompressors;
    }

    /** The {@code grpc-accept-encoding} value: the advertised encodings of the decompressor registry. */
    AsciiString acceptEncoding() {
        return acceptEncoding;
    }

    /** Collects services and settings for {@link GrpcServices}. Not thread-safe. */
    public static final class Builder {
        private final List<ServerServiceDefinition> services = new ArrayList<>();
        private final List<ServerInterceptor> interceptors = new ArrayList<>();
        private Executor executor;
        private int maxInboundMessageSize = DEFAULT_MAX_INBOUND_MESSAGE_SIZE_BYTES;
        private int maxOutboundMessageSize = DEFAULT_MAX_OUTBOUND_MESSAGE_SIZE_BYTES;
        private CompressorRegistry compressors = CompressorRegistry.getDefaultInstance();
        private DecompressorRegistry decompressors = DecompressorRegistry.getDefaultInstance();

        private Builder() {
        }

        /** Serves {@code service} (a generated {@code ...ImplBase}, for one); returns this. */
        public Builder addService(BindableService service) {
            return addService(Objects.requireNonNull(service, "service").bindService());
        }

        /** Serves {@code service}; returns this. */
        public Builder addService(ServerServiceDefinition service) {
            services.add(Objects.requireNonNull(service, "service"));
            return this;
        }

        /**
         * Runs {@code interceptor} on every call of every service. As with {@link ServerInterceptors#intercept}, the
         * interceptor added last runs first. Returns this.
         */
        public Builder intercept(ServerInterceptor interceptor) {
            interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
            return this;
        }

        /**
         * Runs the services' listeners on {@code executor} (a pool, or
         * {@code Executors.newVirtualThreadPerTaskExecutor()}), the callbacks of one call one at a time and in order,
         * so a service may block. Returns this.
         */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /**
         * Runs the services' listeners on the stream's event loop (the default): the fastest choice, for services
         * that never block. Returns this.
         */
        public Builder directExecutor() {
            this.executor = null;
            return this;
        }

        /**
         * The largest request message accepted, in octets, as received and once decompressed; a larger one ends
         * its call with RESOURCE_EXHAUSTED. Default {@value #DEFAULT_MAX_INBOUND_MESSAGE_SIZE_BYTES}. Returns this.
         *
         * @throws IllegalArgumentException if {@code bytes} is negative
         */
        public Builder maxInboundMessageSize(int bytes) {
            this.maxInboundMessageSize = checkSize("maxInboundMessageSize", bytes);
            return this;
        }

        /**
         * The largest response message sent, in octets, as it goes on the wire (compressed when the call compresses);
         * a service that sends a larger one ends its call with RESOURCE_EXHAUSTED. Unlimited by default. Returns this.
         *
         * @throws IllegalArgumentException if {@code bytes} is negative
         */
        public Builder maxOutboundMessageSize(int bytes) {
            this.maxOutboundMessageSize = checkSize("maxOutboundMessageSize", bytes);
            return this;
        }

        /** The compressors {@code ServerCall.setCompression} picks from (default: gzip, identity); returns this. */
        public Builder compressorRegistry(CompressorRegistry registry) {
            this.compressors = Objects.requireNonNull(registry, "registry");
            return this;
        }

        /**
         * The decompressors of request messages (default: gzip, identity); the advertised ones are sent as
         * {@code grpc-accept-encoding}. Returns this.
         */
        public Builder decompressorRegistry(DecompressorRegistry registry) {
            this.decompressors = Objects.requireNonNull(registry, "registry");
            return this;
        }

        /**
         * The services with these settings.
         *
         * @throws IllegalArgumentException if two services serve the same method
         */
        public GrpcServices build() {
            return new GrpcServices(this);
        }

        private static int checkSize(String name, int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException(name + ": " + bytes + " (expected >= 0)");
            }
            return bytes;
        }
    }
}
