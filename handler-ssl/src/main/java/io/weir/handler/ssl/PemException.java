package io.weir.handler.ssl;

import java.io.IOException;

/**
 * PEM input that cannot be turned into certificates or a private key. {@link #reason()} says which rule was
 * broken; the message says what was seen (and the limit, where one applies) without echoing key material or
 * the parser's internals.
 */
public final class PemException extends IOException {
    private static final long serialVersionUID = 1L;

    /** Why the input was refused. */
    public enum Reason {
        /** The input is larger than {@link PemReader#DEFAULT_MAX_PEM_BYTES} (or the limit given). */
        TOO_LARGE,
        /** No {@code -----BEGIN ...-----} block of the wanted kind, or a block without its END line. */
        NO_PEM_BLOCK,
        /** The body of a block is not valid Base64. */
        BAD_BASE64,
        /** The decoded bytes are not the DER structure the block's label announces. */
        MALFORMED_DER,
        /** A certificate the JDK's X.509 factory refused. */
        BAD_CERTIFICATE,
        /** A key algorithm, curve, encryption scheme or legacy (OpenSSL {@code Proc-Type}) encryption not supported. */
        UNSUPPORTED,
        /** An encrypted key without a password. */
        PASSWORD_REQUIRED,
        /** An encrypted key whose password does not decrypt it. */
        WRONG_PASSWORD
    }

    private final Reason reason;

    /** An exception for {@code reason}; {@code message} says what was seen. */
    public PemException(Reason reason, String message) {
        super(reason + ": " + message);
        this.reason = reason;
    }

    /** Why the input was refused. */
    public Reason reason() {
        return reason;
    }
}
