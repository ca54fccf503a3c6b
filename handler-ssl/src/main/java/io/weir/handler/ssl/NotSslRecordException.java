package io.weir.handler.ssl;

import javax.net.ssl.SSLException;

/**
 * The bytes on a TLS connection are not a TLS record header (RFC 8446 §5.1): plaintext such as an HTTP
 * request, an SSLv2-style header, an unknown content type or version, or a record longer than the protocol
 * allows. Carries what was seen; no stack trace (a peer can trigger it at will).
 */
public final class NotSslRecordException extends SSLException {
    private static final long serialVersionUID = 1L;

    private final int recordLength;
    private final int maxRecordLength;

    /** The header's first bytes (as hex in {@code message}) were not TLS. */
    public NotSslRecordException(String message) {
        this(message, -1, -1);
    }

    /** A record of {@code recordLength} bytes above the limit of {@code maxRecordLength}. */
    public NotSslRecordException(String message, int recordLength, int maxRecordLength) {
        super(message);
        this.recordLength = recordLength;
        this.maxRecordLength = maxRecordLength;
    }

    /** The record length the header announced, or -1 if the header itself was refused. */
    public int recordLength() {
        return recordLength;
    }

    /** The limit the record length broke, or -1 if the header itself was refused. */
    public int maxRecordLength() {
        return maxRecordLength;
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
