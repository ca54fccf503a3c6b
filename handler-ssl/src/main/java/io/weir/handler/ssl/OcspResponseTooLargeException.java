package io.weir.handler.ssl;

import java.security.cert.CertificateException;

/**
 * A server stapled an OCSP response (RFC 6066 §8) larger than the client's
 * {@link SslContextBuilder#maxOcspResponseBytes(int) limit}; the handshake fails with this as its cause.
 */
public final class OcspResponseTooLargeException extends CertificateException {
    private static final long serialVersionUID = 1L;

    private final int sizeBytes;
    private final int limitBytes;

    /** A response of {@code sizeBytes} seen against a limit of {@code limitBytes}. */
    public OcspResponseTooLargeException(int sizeBytes, int limitBytes) {
        super("stapled OCSP response of " + sizeBytes + " bytes exceeds the limit of " + limitBytes + " bytes");
        this.sizeBytes = sizeBytes;
        this.limitBytes = limitBytes;
    }

    /** The size of the stapled response, in bytes. */
    public int sizeBytes() {
        return sizeBytes;
    }

    /** The limit it exceeded, in bytes. */
    public int limitBytes() {
        return limitBytes;
    }
}
