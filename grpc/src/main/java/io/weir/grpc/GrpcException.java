package io.weir.grpc;

import java.util.Objects;

/**
 * A call ended with a status other than {@link GrpcStatus#OK}: thrown by handlers to end their call with that status,
 * by the message reader at a malformed or oversized message, and given to clients for a failed call. Carries the
 * status and its description ({@code grpc-message}). No stack trace: a peer can cause these at will.
 */
final class GrpcException extends Exception {
    private static final long serialVersionUID = 1L;

    private final GrpcStatus status;

    /**
     * @param status the status, not {@link GrpcStatus#OK}
     * @param description what went wrong, for {@code grpc-message}; may be null
     * @throws IllegalArgumentException for {@link GrpcStatus#OK}
     */
    public GrpcException(GrpcStatus status, String description) {
        super(description, null, false, false);
        this.status = Objects.requireNonNull(status, "status");
        if (status == GrpcStatus.OK) {
            throw new IllegalArgumentException("a GrpcException needs a status other than OK");
        }
    }

    /** The call's status. */
    public GrpcStatus status() {
        return status;
    }

    /** The description sent as {@code grpc-message}, or null. */
    public String description() {
        return getMessage();
    }

    @Override
    public String toString() {
        return "GrpcException: " + status + (getMessage() == null ? "" : ": " + getMessage());
    }
}
