package io.weir.handler.ssl;

/** Whether a server asks its clients for a certificate (mutual TLS). */
public enum ClientAuth {
    /** No client certificate is requested. */
    NONE,
    /** A certificate is requested; a client without one is still accepted, one with an untrusted one is not. */
    OPTIONAL,
    /** A trusted client certificate is required; the handshake fails without one. */
    REQUIRE
}
