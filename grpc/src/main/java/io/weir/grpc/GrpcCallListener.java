package io.weir.grpc;

import io.weir.buffer.ByteBuf;

/**
 * What happens on the request side of one gRPC call, as a streaming handler sees it. Called on the call's event
 * loop, one event at a time; an exception thrown here ends the call with {@link GrpcStatus#UNKNOWN}.
 */
public interface GrpcCallListener {

    /** A request message arrived; the listener owns {@code message} and releases it. */
    void onMessage(ByteBuf message);

    /** The client sent its last message (END_STREAM); the handler should end the call. */
    default void onHalfClose() {
    }

    /**
     * The call ended without the handler: {@link GrpcStatus#CANCELLED} when the client reset the stream
     * (RST_STREAM) or the connection closed, {@link GrpcStatus#DEADLINE_EXCEEDED} when its deadline passed, or the
     * status the route ended it with for a bad request (RESOURCE_EXHAUSTED for an oversized message, INTERNAL for a
     * malformed one, UNKNOWN after the listener threw). The call's end is written already (nothing at all for a
     * client's cancel); resources held for the call should be released.
     */
    default void onCancel(GrpcStatus reason) {
    }
}
