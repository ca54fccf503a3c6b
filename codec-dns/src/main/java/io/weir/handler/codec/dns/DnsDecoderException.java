package io.weir.handler.codec.dns;

import io.weir.handler.codec.CorruptedFrameException;

/**
 * A DNS message that is malformed or exceeds a limit: a truncated record, a compression pointer that does not
 * point backwards, too many records, a name or label too long. The message says what was seen and the limit.
 * It carries no stack trace: a peer can trigger it at will, so it must be cheap.
 */
public final class DnsDecoderException extends CorruptedFrameException {
    private static final long serialVersionUID = 1L;

    /** An exception with {@code message} and no stack trace. */
    public DnsDecoderException(String message) {
        super(message);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
