package io.weir.handler.ssl;

import io.weir.buffer.ByteBufAllocator;
import io.weir.handler.ssl.internal.EngineFactory;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLEngine;

/**
 * A configured TLS endpoint (client or server) from which each connection gets a new {@link SSLEngine} and
 * {@link SslHandler}. Built by {@link SslContextBuilder}; immutable and safe to share between threads and
 * channels. Certificates, keys, trust, protocols, cipher suites, ALPN and the session cache are fixed at build
 * time.
 */
public final class SslContext {
    private final SslProvider provider;
    private final boolean client;
    private final EngineFactory engines;
    private final List<String> applicationProtocols;

    SslContext(SslProvider provider, boolean client, EngineFactory engines, List<String> applicationProtocols) {
        this.provider = provider;
        this.client = client;
        this.engines = engines;
        this.applicationProtocols = List.copyOf(applicationProtocols);
    }

    /** The provider behind this context's engines. */
    public SslProvider provider() {
        return provider;
    }

    /** Whether engines act as clients. */
    public boolean isClient() {
        return client;
    }

    /** Whether engines act as servers. */
    public boolean isServer() {
        return !client;
    }

    /** The ALPN protocols in preference order; empty when ALPN is off. */
    public List<String> applicationProtocols() {
        return applicationProtocols;
    }

    /**
     * A new engine with no peer information: fine for servers; a client engine made this way cannot verify the
     * server's host name, so its handshake fails unless hostname verification was turned off.
     *
     * @param alloc reserved for providers that allocate native buffers; neither provider uses it today
     */
    public SSLEngine newEngine(ByteBufAllocator alloc) {
        return newEngine(alloc, null, -1);
    }

    /**
     * A new engine for a connection to {@code peerHost:peerPort}. On clients the host name is sent as SNI (when it
     * is not an IP literal), verified against the server's certificate, and keys the session cache.
     */
    public SSLEngine newEngine(ByteBufAllocator alloc, String peerHost, int peerPort) {
        Objects.requireNonNull(alloc, "alloc");
        return engines.newEngine(peerHost, peerPort);
    }

    /**
     * Replaces the keys that encrypt and decrypt this server's session tickets (RFC 5077, RFC 8446 §4.6.1), for
     * rotation and for sharing tickets between servers: the first key encrypts new tickets, every key decrypts.
     * Each key is 48 random bytes (16 name, 16 HMAC secret, 16 AES key); keep them secret. Without a call the
     * OpenSSL provider uses random keys it rotates itself. May be called from any thread at any time.
     *
     * @throws UnsupportedOperationException with the {@link SslProvider#JDK} provider (the JDK manages its keys)
     * @throws IllegalStateException on a client context
     * @throws IllegalArgumentException if no key is given or a key is not 48 bytes
     */
    public void setSessionTicketKeys(byte[]... keys) {
        engines.setSessionTicketKeys(keys.clone());
    }

    /**
     * Sets the DER-encoded OCSP response (RFC 6960 {@code OCSPResponse}) this server staples (RFC 6066 §8) from
     * now on, to every new connection whose client requests it; null staples none. Connections already created
     * keep the response they were created with. Replace it before it expires (its {@code nextUpdate}). The array
     * is copied. May be called from any thread at any time.
     *
     * @throws UnsupportedOperationException with the {@link SslProvider#JDK} provider
     * @throws IllegalStateException on a client context, or if {@link SslContextBuilder#enableOcsp(boolean)} was
     *     not turned on
     * @throws IllegalArgumentException if the response is empty or longer than
     *     {@link SslContextBuilder#maxOcspResponseBytes(int)}
     */
    public void setOcspResponse(byte[] response) {
        engines.setOcspResponse(response);
    }

    /** A new {@link SslHandler} over {@link #newEngine(ByteBufAllocator)}. */
    public SslHandler newHandler(ByteBufAllocator alloc) {
        return new SslHandler(newEngine(alloc));
    }

    /** A new {@link SslHandler} over {@link #newEngine(ByteBufAllocator, String, int)}. */
    public SslHandler newHandler(ByteBufAllocator alloc, String peerHost, int peerPort) {
        return new SslHandler(newEngine(alloc, peerHost, peerPort));
    }

    /**
     * A new {@link SslHandler} whose engine's delegated tasks (certificate checks, key agreement) run on
     * {@code delegatedTaskExecutor} rather than on the event loop.
     */
    public SslHandler newHandler(ByteBufAllocator alloc, String peerHost, int peerPort,
                                 Executor delegatedTaskExecutor) {
        return new SslHandler(newEngine(alloc, peerHost, peerPort), false, delegatedTaskExecutor);
    }
}
