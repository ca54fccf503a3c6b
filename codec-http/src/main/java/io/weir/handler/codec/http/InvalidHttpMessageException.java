package io.weir.handler.codec.http;

import io.weir.handler.codec.DecoderException;
import java.util.Objects;

/**
 * A message broke the HTTP/1.1 syntax (RFC 9112) in a way {@link HttpObjectDecoder} refuses to guess around.
 * Carried as the cause of a failed {@link io.weir.handler.codec.DecoderResult}; {@link #violation()} says which
 * rule was broken. Created without a stack trace: a peer can provoke it at will.
 */
public final class InvalidHttpMessageException extends DecoderException {
    private static final long serialVersionUID = 1L;

    private final HttpViolation violation;

    /**
     * @param violation the rule that was broken
     * @param message what was seen, for logs
     * @throws NullPointerException if {@code violation} is null
     */
    public InvalidHttpMessageException(HttpViolation violation, String message) {
        super(violation + ": " + message, null, false, false);
        this.violation = Objects.requireNonNull(violation, "violation");
    }

    /** The rule that was broken. */
    public HttpViolation violation() {
        return violation;
    }
}
