package io.weir.server;

import io.grpc.KnownLength;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.weir.grpc.GrpcServices;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The example server's gRPC service, {@code weir.Echo}, as a grpc-java {@link ServerServiceDefinition} over raw
 * bytes (the message is its bytes on the wire, so no protobuf is needed to call it):
 * <ul>
 *   <li>{@code weir.Echo/Unary}: answers the request itself;</li>
 *   <li>{@code weir.Echo/ServerStream}: the request is a 4-octet big-endian count {@code n} then a payload; answers
 *       {@code n} messages, each the payload, as fast as the client reads them ({@code isReady()} and
 *       {@code onReady()}), so a request for two billion copies costs one stream window of memory; INVALID_ARGUMENT
 *       for a request under 4 octets or a negative count;</li>
 *   <li>{@code weir.Echo/ClientStream}: answers, at the client's half-close, all the requests joined
 *       (RESOURCE_EXHAUSTED beyond {@value #MAX_JOINED_BYTES} octets);</li>
 *   <li>{@code weir.Echo/Bidi}: answers each request as it comes, and ends when the client does.</li>
 * </ul>
 * A unary or server-streaming call with no request or more than one ends INTERNAL, as grpc-java's.
 *
 * <p>Served by {@link HttpServer} unless its {@link HttpServer#grpc} is set; the descriptors here call it from a
 * grpc-java {@code Channel}. Thread-safe: the definition holds no state, each call has its own listener.
 */
public final class GrpcEchoService {
    /** The service's name. */
    public static final String SERVICE = "weir.Echo";
    /** The largest answer of {@code ClientStream}, in octets: the default largest message a server accepts. */
    public static final int MAX_JOINED_BYTES = GrpcServices.DEFAULT_MAX_INBOUND_MESSAGE_SIZE_BYTES;

    /**
     * Messages as raw bytes: a message is its bytes on the wire. A stream that knows its length ({@link KnownLength},
     * as both Weir's and grpc-java's are) is read into one array of that length, as protobuf's marshaller does.
     */
    public static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new java.io.ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                if (!(stream instanceof KnownLength)) {
                    return stream.readAllBytes();
                }
                int length = stream.available();
                byte[] message = new byte[length];
                if (stream.readNBytes(message, 0, length) != length || stream.read() != -1) {
                    throw new IOException("the message is not the " + length + " bytes its stream announced");
                }
                return message;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    /** {@code weir.Echo/Unary}. */
    public static final MethodDescriptor<byte[], byte[]> UNARY = method("Unary", MethodType.UNARY);
    /** {@code weir.Echo/ServerStream}. */
    public static final MethodDescriptor<byte[], byte[]> SERVER_STREAM =
            method("ServerStream", MethodType.SERVER_STREAMING);
    /** {@code weir.Echo/ClientStream}. */
    public static final MethodDescriptor<byte[], byte[]> CLIENT_STREAM =
            method("ClientStream", MethodType.CLIENT_STREAMING);
    /** {@code weir.Echo/Bidi}. */
    public static final MethodDescriptor<byte[], byte[]> BIDI = method("Bidi", MethodType.BIDI_STREAMING);

    private GrpcEchoService() {
    }

    private static MethodDescriptor<byte[], byte[]> method(String name, MethodType type) {
        return MethodDescriptor.<byte[], byte[]>newBuilder().setType(type)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
                .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();
    }

    /** The service's four methods, for {@code GrpcServices.Builder.addService} or any grpc-java server. */
    public static ServerServiceDefinition definition() {
        return ServerServiceDefinition.builder(SERVICE)
                .addMethod(UNARY, (ServerCallHandler<byte[], byte[]>) (call, headers) -> new SingleRequest(call, false))
                .addMethod(SERVER_STREAM, (call, headers) -> new SingleRequest(call, true))
                .addMethod(CLIENT_STREAM, (call, headers) -> new Join(call))
                .addMethod(BIDI, (call, headers) -> new Bidi(call))
                .build();
    }

    /** What every method's listener shares: headers before the first answer, and nothing once the call ended. */
    private abstract static class EchoListener extends ServerCall.Listener<byte[]> {
        final ServerCall<byte[], byte[]> call;
        private boolean headersSent;
        boolean done;

        EchoListener(ServerCall<byte[], byte[]> call) {
            this.call = call;
        }

        final void send(byte[] message) {
            if (!headersSent) {
                headersSent = true;
                call.sendHeaders(new Metadata());
            }
            call.sendMessage(message);
        }

        final void finish(Status status) {
            if (!done) {
                done = true;
                call.close(status, new Metadata());
            }
        }

        @Override
        public void onCancel() {
            done = true;
        }

        @Override
        public void onComplete() {
            done = true;
        }
    }

    /**
     * Unary and server streaming: exactly one request, then the half-close that answers it; the stream goes at the
     * client's pace.
     */
    private static final class SingleRequest extends EchoListener {
        private final boolean streaming;
        private byte[] request;
        private byte[] payload;
        private int remaining;

        SingleRequest(ServerCall<byte[], byte[]> call, boolean streaming) {
            super(call);
            this.streaming = streaming;
            // Two, so that a second request is seen (and refused) before the half-close.
            call.request(2);
        }

        @Override
        public void onMessage(byte[] message) {
            if (request != null) {
                finish(Status.INTERNAL.withDescription("too many requests for a single-request method"));
                return;
            }
            request = message;
        }

        @Override
        public void onHalfClose() {
            if (done) {
                return;
            }
            byte[] req = request;
            request = null;
            if (req == null) {
                finish(Status.INTERNAL.withDescription("half-closed without a request"));
            } else if (!streaming) {
                send(req);
                finish(Status.OK);
            } else if (req.length < 4) {
                finish(Status.INVALID_ARGUMENT.withDescription("expected a 4-octet count before the payload"));
            } else if ((remaining = ByteBuffer.wrap(req).getInt()) < 0) {
                finish(Status.INVALID_ARGUMENT.withDescription("negative count: " + remaining));
            } else {
                payload = Arrays.copyOfRange(req, 4, req.length);
                onReady();
            }
        }

        @Override
        public void onReady() {
            if (payload == null || done) {
                return;
            }
            while (remaining > 0 && call.isReady()) {
                remaining--;
                send(payload);
            }
            if (remaining == 0) {
                payload = null;
                finish(Status.OK);
            }
        }
    }

    /** Client streaming: keeps the requests and answers them joined. */
    private static final class Join extends EchoListener {
        private final ByteArrayOutputStream joined = new ByteArrayOutputStream();

        Join(ServerCall<byte[], byte[]> call) {
            super(call);
            call.request(1);
        }

        @Override
        public void onMessage(byte[] message) {
            if (done) {
                return;
            }
            if ((long) joined.size() + message.length > MAX_JOINED_BYTES) {
                finish(Status.RESOURCE_EXHAUSTED.withDescription("joined requests larger than " + MAX_JOINED_BYTES
                        + " bytes"));
                return;
            }
            joined.writeBytes(message);
            call.request(1);
        }

        @Override
        public void onHalfClose() {
            if (!done) {
                send(joined.toByteArray());
                finish(Status.OK);
            }
        }
    }

    /** Bidirectional: every request goes straight back; the next is asked for once it went. */
    private static final class Bidi extends EchoListener {
        Bidi(ServerCall<byte[], byte[]> call) {
            super(call);
            call.request(1);
        }

        @Override
        public void onMessage(byte[] message) {
            if (!done) {
                send(message);
                call.request(1);
            }
        }

        @Override
        public void onHalfClose() {
            finish(Status.OK);
        }
    }
}
