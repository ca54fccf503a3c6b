package io.weir.grpc;

import io.weir.handler.codec.http2.Http2Error;
import io.weir.util.AsciiString;

/**
 * The gRPC status codes (grpc/grpc {@code doc/statuscodes.md}), carried in the {@code grpc-status} trailer as a
 * decimal number.
 */
enum GrpcStatus {
    /** Not an error. */
    OK,
    /** The call was cancelled, typically by the caller. */
    CANCELLED,
    /** An error the server could not classify, such as an exception thrown by a handler. */
    UNKNOWN,
    /** The caller sent an invalid argument. */
    INVALID_ARGUMENT,
    /** The deadline expired before the call completed. */
    DEADLINE_EXCEEDED,
    /** A requested entity was not found. */
    NOT_FOUND,
    /** An entity the caller tried to create exists already. */
    ALREADY_EXISTS,
    /** The caller may not run the call. */
    PERMISSION_DENIED,
    /** A resource ran out, such as a message larger than the receiver's limit. */
    RESOURCE_EXHAUSTED,
    /** The system is not in the state the call needs. */
    FAILED_PRECONDITION,
    /** The call was aborted, typically by a concurrency conflict. */
    ABORTED,
    /** The call went past a valid range. */
    OUT_OF_RANGE,
    /** The method is not implemented or not supported, such as an unknown method. */
    UNIMPLEMENTED,
    /** An invariant of the protocol or the implementation was broken, such as a malformed message. */
    INTERNAL,
    /** The service is unavailable; retrying may work. */
    UNAVAILABLE,
    /** Data was lost or corrupted. */
    DATA_LOSS,
    /** The caller has no valid credentials. */
    UNAUTHENTICATED;

    private static final GrpcStatus[] VALUES = values();

    private final AsciiString text = AsciiString.cached(Integer.toString(ordinal()));

    /** The code's number on the wire (0 for {@link #OK} .. 16 for {@link #UNAUTHENTICATED}). */
    public int code() {
        return ordinal();
    }

    /** The {@code grpc-status} value: {@link #code()} in decimal. */
    public AsciiString text() {
        return text;
    }

    /** The status numbered {@code code}; {@link #UNKNOWN} for a number gRPC does not define. */
    public static GrpcStatus of(int code) {
        return code >= 0 && code < VALUES.length ? VALUES[code] : UNKNOWN;
    }

    /**
     * The status a {@code grpc-status} value names: a decimal number of one or two digits; {@link #UNKNOWN} for
     * anything else (a peer's garbage is not an error of ours).
     */
    public static GrpcStatus parse(CharSequence value) {
        if (value == null || value.length() == 0 || value.length() > 2) {
            return UNKNOWN;
        }
        int code = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return UNKNOWN;
            }
            code = code * 10 + (c - '0');
        }
        return of(code);
    }

    /** doc/PROTOCOL-HTTP2.md, "Errors": the status a RST_STREAM code means to the client. */
    static GrpcStatus ofReset(Http2Error error) {
        if (error == null) {
            return INTERNAL;
        }
        return switch (error) {
            case REFUSED_STREAM -> UNAVAILABLE;
            case CANCEL -> CANCELLED;
            case ENHANCE_YOUR_CALM -> RESOURCE_EXHAUSTED;
            case INADEQUATE_SECURITY -> PERMISSION_DENIED;
            default -> INTERNAL;
        };
    }

    /** doc/http-grpc-status-mapping.md: the status an HTTP status without {@code grpc-status} means. */
    static GrpcStatus ofHttp(CharSequence status) {
        if (status == null) {
            return INTERNAL;
        }
        return switch (status.toString()) {
            case "400" -> INTERNAL;
            case "401" -> UNAUTHENTICATED;
            case "403" -> PERMISSION_DENIED;
            case "404" -> UNIMPLEMENTED;
            case "429", "502", "503", "504" -> UNAVAILABLE;
            default -> UNKNOWN;
        };
    }
}
