package io.weir.grpc;

import io.weir.buffer.ByteBuf;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelInitializer;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Serves gRPC on HTTP/2 streams: the methods registered here, each under its full name ({@code package.Service/Method},
 * requested as the path {@code /package.Service/Method}), with the limits set here. {@link #streamHandler} gives the
 * handler of each stream's child channel: a request whose {@code content-type} is {@code application/grpc} (or
 * {@code application/grpc+...}) becomes a call, any other goes to the HTTP handlers given there.
 *
 * <p>Messages are raw bytes ({@link ByteBuf}); what they encode (protobuf, JSON, ...) is the methods' business.
 * What the route does for every call (see {@code GrpcServerStream}): the 5-octet message prefix, at most
 * {@link #maxMessageSize()} octets a message (RESOURCE_EXHAUSTED above), identity encoding only (a compressed
 * message is INTERNAL, a {@code grpc-encoding} other than identity UNIMPLEMENTED), the {@code grpc-timeout} deadline
 * (DEADLINE_EXCEEDED, then RST_STREAM NO_ERROR if the client is still sending), the client's RST_STREAM seen as a
 * cancel, UNIMPLEMENTED for an unknown method, and errors as trailers-only responses.
 *
 * <p>grpc-java's generated services are served here too, through {@link #services}: their calls get
 * {@link io.grpc.ServerCall}s with the settings of {@link GrpcServices} (compression, flow control by
 * {@code request(n)}, the call's {@code Context}) instead of the raw handling above.
 *
 * <p>Thread-safe: register methods before serving (a method registered later serves the streams opened after).
 */
public final class GrpcRoute {
    /** The largest message accepted by default, in octets: 4 MiB, as grpc-java. */
    public static final int DEFAULT_MAX_MESSAGE_SIZE_BYTES = 4 << 20;

    /** A unary method: one request, one response. */
    @FunctionalInterface
    public interface UnaryMethod {
        /**
         * Answers {@code request} (released by the caller after the return; retain it to keep it) with the response
         * message, which the route owns from then on. Runs on the call's event loop: do not block.
         *
         * @throws GrpcException to end the call with its status instead
         */
        ByteBuf invoke(GrpcServerCall call, ByteBuf request) throws GrpcException;
    }

    /** A server-streaming method: one request, any number of responses. */
    @FunctionalInterface
    public interface ServerStreamingMethod {
        /**
         * Starts answering {@code request} (released by the caller after the return): sends messages on
         * {@code call} and ends it with {@link GrpcServerCall#close}, now or later, from any thread.
         *
         * @throws GrpcException to end the call with its status instead
         */
        void invoke(GrpcServerCall call, ByteBuf request) throws GrpcException;
    }

    /** A client-streaming or bidirectional method: request messages as they come, responses at any time. */
    @FunctionalInterface
    public interface StreamingMethod {
        /** Starts the call: returns the listener of its requests; answers on {@code call}. */
        GrpcCallListener start(GrpcServerCall call);
    }

    private final ConcurrentHashMap<String, Object> methods = new ConcurrentHashMap<>();
    private volatile int maxMessageSize = DEFAULT_MAX_MESSAGE_SIZE_BYTES;
    private volatile GrpcServices services;

    /**
     * Serves grpc-java's {@code services} on this route too, each call as an {@link io.grpc.ServerCall} with the
     * settings given there (a raw method registered here under the same name wins). Replaces services set before;
     * returns this.
     */
    public GrpcRoute services(GrpcServices services) {
        this.services = Objects.requireNonNull(services, "services");
        return this;
    }

    /**
     * The handler of a call {@code path} names when grpc-java's services serve it (and no raw method does), or
     * null.
     */
    ChannelHandler serviceCall(String path) {
        GrpcServices s = services;
        if (s == null || methods.containsKey(path)) {
            return null;
        }
        io.grpc.ServerMethodDefinition<?, ?> method = s.method(path);
        return method == null ? null : new ServerCallStream<>(s, method);
    }

    /** Registers a unary method; returns this. */
    public GrpcRoute unary(String fullMethodName, UnaryMethod method) {
        return register(fullMethodName, Objects.requireNonNull(method, "method"));
    }

    /** Registers a server-streaming method; returns this. */
    public GrpcRoute serverStreaming(String fullMethodName, ServerStreamingMethod method) {
        return register(fullMethodName, Objects.requireNonNull(method, "method"));
    }

    /** Registers a client-streaming method (the listener answers once, typically at half-close); returns this. */
    public GrpcRoute clientStreaming(String fullMethodName, StreamingMethod method) {
        return register(fullMethodName, Objects.requireNonNull(method, "method"));
    }

    /** Registers a bidirectional-streaming method; returns this. */
    public GrpcRoute bidiStreaming(String fullMethodName, StreamingMethod method) {
        return register(fullMethodName, Objects.requireNonNull(method, "method"));
    }

    private GrpcRoute register(String fullMethodName, Object method) {
        int slash = fullMethodName.indexOf('/');
        if (slash <= 0 || slash == fullMethodName.length() - 1 || fullMethodName.indexOf('/', slash + 1) >= 0) {
            throw new IllegalArgumentException("fullMethodName: '" + fullMethodName
                    + "' (expected package.Service/Method)");
        }
        methods.put("/" + fullMethodName, method);
        return this;
    }

    /**
     * The largest request message accepted, in octets; a larger one ends its call with RESOURCE_EXHAUSTED.
     * Default {@value #DEFAULT_MAX_MESSAGE_SIZE_BYTES}. Returns this.
     *
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public GrpcRoute maxMessageSize(int bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("maxMessageSize: " + bytes + " (expected >= 0)");
        }
        this.maxMessageSize = bytes;
        return this;
    }

    /** The largest request message accepted, in octets. */
    public int maxMessageSize() {
        return maxMessageSize;
    }

    /**
     * The handler of each HTTP/2 stream's child channel (give it to an {@code Http2MultiplexHandler} or an
     * {@code Http2ServerInitializer}): gRPC requests are served here, other requests go to {@code otherRequests}
     * (a {@code ChannelInitializer} or a sharable handler), which replaces this route's handler in the child's
     * pipeline before it sees the request's HEADERS frame.
     */
    public ChannelHandler streamHandler(ChannelHandler otherRequests) {
        Objects.requireNonNull(otherRequests, "otherRequests");
        return new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new GrpcServerStream(GrpcRoute.this, otherRequests));
            }
        };
    }

    /**
     * Starts {@code path}'s method on {@code call}: the listener of its requests, or null for a path no method is
     * registered under.
     */
    GrpcCallListener start(String path, GrpcServerCall call) {
        Object method = methods.get(path);
        if (method instanceof StreamingMethod streaming) {
            return streaming.start(call);
        }
        if (method instanceof UnaryMethod unary) {
            return new SingleRequest(call, unary, null);
        }
        if (method instanceof ServerStreamingMethod serverStreaming) {
            return new SingleRequest(call, null, serverStreaming);
        }
        return null;
    }

    /**
     * The requests of a unary or server-streaming call: exactly one message, then the half-close that runs the
     * method (as grpc-java, INTERNAL for none or more than one).
     */
    private static final class SingleRequest implements GrpcCallListener {
        private final GrpcServerCall call;
        private final UnaryMethod unary;
        private final ServerStreamingMethod serverStreaming;
        private ByteBuf request;

        SingleRequest(GrpcServerCall call, UnaryMethod unary, ServerStreamingMethod serverStreaming) {
            this.call = call;
            this.unary = unary;
            this.serverStreaming = serverStreaming;
        }

        @Override
        public void onMessage(ByteBuf message) {
            if (request != null) {
                message.release();
                release();
                call.close(GrpcStatus.INTERNAL, "too many requests for a single-request method");
                return;
            }
            request = message;
        }

        @Override
        public void onHalfClose() {
            ByteBuf req = request;
            if (req == null) {
                call.close(GrpcStatus.INTERNAL, "half-closed without a request");
                return;
            }
            request = null;
            try {
                if (unary != null) {
                    ByteBuf response = unary.invoke(call, req);
                    call.sendMessage(response);
                    call.close(GrpcStatus.OK, null);
                } else {
                    serverStreaming.invoke(call, req);
                }
            } catch (GrpcException e) {
                call.close(e.status(), e.description());
            } finally {
                req.release();
            }
        }

        @Override
        public void onCancel(GrpcStatus reason) {
            release();
        }

        private void release() {
            if (request != null) {
                request.release();
                request = null;
            }
        }
    }
}
