package io.weir.handler.ssl.internal.der;

/** Malformed DER: what was expected and where. Carries no stack trace (input can trigger it at will). */
public final class DerException extends Exception {
    private static final long serialVersionUID = 1L;

    /** An exception with {@code message} saying what was seen and what was expected. */
    public DerException(String message) {
        super(message, null, false, false);
    }
}
