package io.weir.handler.ssl.internal;

import javax.net.ssl.SSLEngine;

/** Makes one configured {@link SSLEngine} per connection; implemented by each provider. Thread-safe. */
public interface EngineFactory {
    /** A new engine; {@code peerHost} (may be null) feeds SNI, hostname verification and session reuse on clients. */
    SSLEngine newEngine(String peerHost, int peerPort);

    /**
     * Replaces the keys that encrypt and decrypt session tickets (RFC 5077, RFC 8446 §4.6.1): the first encrypts
     * new tickets, all decrypt. Each key is {@code 48} bytes (name, HMAC secret, AES key, 16 bytes each).
     *
     * @throws UnsupportedOperationException if the provider cannot rotate keys
     */
    default void setSessionTicketKeys(byte[][] keys) {
        throw new UnsupportedOperationException("this provider manages its own session ticket keys");
    }

    /**
     * Sets the DER OCSP response (RFC 6960) that servers staple from now on (RFC 6066 §8), or null to staple none.
     *
     * @throws UnsupportedOperationException if the provider cannot staple
     */
    default void setOcspResponse(byte[] response) {
        throw new UnsupportedOperationException("OCSP stapling needs the OPENSSL provider");
    }
}
