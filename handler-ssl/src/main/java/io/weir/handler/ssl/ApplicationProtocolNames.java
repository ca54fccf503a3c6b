package io.weir.handler.ssl;

/** ALPN protocol identifiers (IANA "TLS Application-Layer Protocol Negotiation (ALPN) Protocol IDs"). */
public final class ApplicationProtocolNames {
    /** HTTP/2 over TLS (RFC 9113 §3.2). */
    public static final String HTTP_2 = "h2";
    /** HTTP/1.1 (RFC 7301 §6). */
    public static final String HTTP_1_1 = "http/1.1";

    private ApplicationProtocolNames() {
    }
}
