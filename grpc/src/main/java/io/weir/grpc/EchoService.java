package io.weir.grpc;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.CompositeByteBuf;

/**
 * The example gRPC service, {@code weir.Echo}, over raw bytes (no protobuf needed to call it):
 * <ul>
 *   <li>{@code weir.Echo/Unary}: answers the request itself;</li>
 *   <li>{@code weir.Echo/ServerStream}: the request is a 4-octet big-endian count {@code n} then a payload; answers
 *       {@code n} messages, each the payload, as fast as the client reads them (INVALID_ARGUMENT for a request under
 *       4 octets or a negative count);</li>
 *   <li>{@code weir.Echo/ClientStream}: answers, at the client's half-close, all the requests joined (RESOURCE_EXHAUSTED
 *       beyond the route's maximum message size);</li>
 *   <li>{@code weir.Echo/Bidi}: answers each request as it comes, and ends when the client does.</li>
 * </ul>
 */
public final class EchoService {
    /** The service's name. */
    public static final String SERVICE = "weir.Echo";
    /** Full name of the unary echo. */
    public static final String UNARY = SERVICE + "/Unary";
    /** Full name of the server-streaming echo. */
    public static final String SERVER_STREAM = SERVICE + "/ServerStream";
    /** Full name of the client-streaming echo. */
    public static final String CLIENT_STREAM = SERVICE + "/ClientStream";
    /** Full name of the bidirectional echo. */
    public static final String BIDI = SERVICE + "/Bidi";

    private EchoService() {
    }

    /** Registers the four methods on {@code route}; returns it. */
    public static GrpcRoute register(GrpcRoute route) {
        int maxJoined = route.maxMessageSize();
        return route
                .unary(UNARY, (call, request) -> request.retain())
                .serverStreaming(SERVER_STREAM, EchoService::serverStream)
                .clientStreaming(CLIENT_STREAM, call -> new Join(call, maxJoined))
                .bidiStreaming(BIDI, Bidi::new);
    }

    private static void serverStream(GrpcServerCall call, ByteBuf request) throws GrpcException {
        if (request.readableBytes() < 4) {
            throw new GrpcException(GrpcStatus.INVALID_ARGUMENT, "expected a 4-octet count before the payload");
        }
        int count = request.getInt(request.readerIndex());
        if (count < 0) {
            throw new GrpcException(GrpcStatus.INVALID_ARGUMENT, "negative count: " + count);
        }
        new Repeat(call, request.retainedSlice(request.readerIndex() + 4, request.readableBytes() - 4), count).run();
    }

    /**
     * Server streaming at the client's pace: sends while the stream is ready and continues when it is ready again,
     * so that a request for two billion copies costs the server one stream window of memory, not two billion
     * buffers.
     */
    private static final class Repeat implements Runnable {
        private final GrpcServerCall call;
        private ByteBuf payload;
        private int remaining;

        Repeat(GrpcServerCall call, ByteBuf payload, int count) {
            this.call = call;
            this.payload = payload;
            this.remaining = count;
            call.onReady(this);
        }

        @Override
        public void run() {
            if (payload == null) {
                return;
            }
            if (call.isDone()) {
                release();
                return;
            }
            while (remaining > 0 && call.isReady()) {
                remaining--;
                call.sendMessage(payload.retainedDuplicate());
            }
            if (remaining == 0) {
                release();
                call.close(GrpcStatus.OK, null);
            }
        }

        private void release() {
            ByteBuf p = payload;
            payload = null;
            if (p != null) {
                p.release();
            }
        }
    }

    /** Client streaming: keeps the requests and answers them joined. */
    private static final class Join implements GrpcCallListener {
        private final GrpcServerCall call;
        private final int maxBytes;
        private CompositeByteBuf joined;

        Join(GrpcServerCall call, int maxBytes) {
            this.call = call;
            this.maxBytes = maxBytes;
        }

        @Override
        public void onMessage(ByteBuf message) {
            if (joined == null) {
                joined = call.alloc().compositeBuffer(Integer.MAX_VALUE);
            }
            if ((long) joined.readableBytes() + message.readableBytes() > maxBytes) {
                message.release();
                release();
                call.close(GrpcStatus.RESOURCE_EXHAUSTED, "joined requests larger than " + maxBytes + " bytes");
                return;
            }
            joined.addComponent(true, message);
        }

        @Override
        public void onHalfClose() {
            ByteBuf answer = joined != null ? joined : call.alloc().buffer(0, 0);
            joined = null;
            call.sendMessage(answer);
            call.close(GrpcStatus.OK, null);
        }

        @Override
        public void onCancel(GrpcStatus reason) {
            release();
        }

        private void release() {
            if (joined != null) {
                joined.release();
                joined = null;
            }
        }
    }

    /** Bidirectional: every request goes straight back. */
    private static final class Bidi implements GrpcCallListener {
        private final GrpcServerCall call;

        Bidi(GrpcServerCall call) {
            this.call = call;
        }

        @Override
        public void onMessage(ByteBuf message) {
            call.sendMessage(message);
        }

        @Override
        public void onHalfClose() {
            call.close(GrpcStatus.OK, null);
        }
    }
}
