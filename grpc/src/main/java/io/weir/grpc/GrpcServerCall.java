package io.weir.grpc;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.util.concurrent.EventExecutor;

/**
 * The server's side of one gRPC call, given to a method's handler: send response messages, then end the call with
 * a status. Response headers go out with the first message (or, for a call ended without one, as a trailers-only
 * response); trailers carry {@code grpc-status} and {@code grpc-message}.
 *
 * <p>Thread-safe: calls from outside {@link #executor()} are handed to it, in order. Once the call ended (closed
 * here, cancelled by the client, or past its deadline) further messages are released and further closes ignored.
 */
public interface GrpcServerCall {

    /** The method called, as in the request's path without its leading slash: {@code weir.Echo/Unary}. */
    String method();

    /** The call's event loop: where the handler's listener is called. */
    EventExecutor executor();

    /** The allocator for response messages. */
    ByteBufAllocator alloc();

    /**
     * Nanoseconds left before the client's deadline ({@code grpc-timeout}); {@link Long#MAX_VALUE} for a call
     * without one. Negative once it has passed.
     */
    long remainingNanos();

    /** Whether the call ended: closed by {@link #close}, cancelled by the client, or past its deadline. */
    boolean isDone();

    /**
     * Whether the stream can take another message without queueing beyond its flow-control window: a handler that
     * streams much checks it and continues from {@link #onReady} (a message sent anyway is queued, not lost).
     */
    boolean isReady();

    /**
     * Runs {@code handler} on {@link #executor()} each time the stream becomes ready again ({@link #isReady()} turned
     * true), and once more when the call ends ({@link #isDone()} is then true), so that a handler that streams at the
     * pace of the client can release what it holds. Replaces the previous handler; null removes it.
     */
    void onReady(Runnable handler);

    /** Sends one message; takes ownership of {@code message} (released if the call has ended). */
    void sendMessage(ByteBuf message);

    /**
     * Ends the call with {@code status} and {@code description} (for {@code grpc-message}; null for none). If the
     * client is still sending, the stream is reset afterwards (NO_ERROR after OK, CANCEL otherwise). Does nothing
     * once the call has ended.
     */
    void close(GrpcStatus status, String description);
}
