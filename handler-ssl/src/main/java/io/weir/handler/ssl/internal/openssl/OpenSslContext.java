package io.weir.handler.ssl.internal.openssl;

import io.netty.internal.tcnative.Buffer;
import io.netty.internal.tcnative.SSL;
import io.netty.internal.tcnative.SSLContext;
import io.netty.internal.tcnative.SessionTicketKey;
import io.weir.handler.ssl.internal.EngineFactory;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Consumer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.X509TrustManager;

/**
 * One BoringSSL {@code SSL_CTX} configured from an {@code SslContextBuilder}, and the factory of
 * {@link OpenSslEngine}s over it. Immutable after construction except for the session ticket keys; thread-safe.
 * The native context is freed by a {@link Cleaner} once this object and every engine made from it are
 * unreachable (each engine holds its context).
 */
public final class OpenSslContext implements EngineFactory {
    /** Key-exchange groups offered when none are configured: the hybrid post-quantum group first. */
    public static final List<String> DEFAULT_GROUPS = List.of("X25519MLKEM768", "X25519", "P-256", "P-384");
    /** Client sessions kept for resumption when the builder sets no cache size. */
    public static final int DEFAULT_CLIENT_SESSION_CACHE_SIZE = 1024;
    /** Server sessions kept (session-id resumption) when the builder sets no cache size; BoringSSL's default. */
    public static final int DEFAULT_SERVER_SESSION_CACHE_SIZE = 20 * 1024;
    /** Session lifetime in seconds when the builder sets none. */
    public static final int DEFAULT_SESSION_TIMEOUT_SECONDS = 300;
    /** Longest certificate chain accepted from a peer. */
    public static final int MAX_VERIFY_DEPTH = 10;
    /** Bytes of one session ticket key: name, HMAC secret and AES key (16 bytes each). */
    public static final int TICKET_KEY_BYTES = 48;

    private static final Cleaner CLEANER = Cleaner.create();

    private final long ctx;
    private final boolean client;
    private final String[] protocols;
    private final List<String> cipherSuites;
    private final String[] cipherSuiteArray;
    private final boolean clientAuthRequired;
    private final boolean clientAuthOptional;
    private final String endpointIdentificationAlgorithm;
    private final String[] applicationProtocols;
    private final X509Certificate[] localChain;
    /** BoringSSL's parsed chain and key ({@code {chain, key}}), given to each SSL object; null without a key. */
    private final long[] keyMaterial;
    private final OpenSslClientSessionCache clientSessions;
    private final boolean ocsp;
    private final int maxOcspResponseBytes;
    /** The DER OCSP response new server engines staple (RFC 6066 §8), or null; replaced at any time. */
    private volatile byte[] ocspResponse;
    // Kept reachable: tcnative holds only a JNI global reference to what it calls back.
    private final OpenSslTrustBridge trustBridge;

    /**
     * Builds the native context.
     *
     * @param protocols {@code "TLSv1.3"} and/or {@code "TLSv1.2"}
     * @param cipherSuites IANA names in preference order, or null for the defaults
     * @param key the private key to present (null for a client without one)
     * @param chain its certificate chain, leaf first
     * @param trustManager checks the peer's chain; null on a server that does not ask for client certificates
     * @param clientAuth 0 none, 1 optional, 2 required (servers)
     * @param groups key-exchange groups in preference order, or null for {@link #DEFAULT_GROUPS}
     * @param keyLog receives NSS key log lines (debugging only), or null
     * @param ocsp whether OCSP stapling (RFC 6066 §8) is on: clients request it, servers staple a response
     * @param maxOcspResponseBytes the largest OCSP response stapled or accepted, in bytes
     * @throws SSLException if BoringSSL refuses any of it
     */
    public OpenSslContext(boolean client, List<String> protocols, List<String> cipherSuites, PrivateKey key,
                          X509Certificate[] chain, X509TrustManager trustManager, int clientAuth,
                          String endpointIdentificationAlgorithm, List<String> applicationProtocols,
                          int sessionCacheSize, int sessionTimeoutSeconds, boolean sessionTickets,
                          List<String> groups, Consumer<String> keyLog, boolean ocsp, int maxOcspResponseBytes)
            throws SSLException {
        this.client = client;
        this.ocsp = ocsp;
        this.maxOcspResponseBytes = maxOcspResponseBytes;
        List<String> suites = cipherSuites == null ? CipherSuiteNames.supported() : cipherSuites;
        String tls12Suites = CipherSuiteNames.toOpenSsl(suites);
        List<String> enabled = new ArrayList<>();
        int mask = 0;
        for (String p : protocols) {
            if ("TLSv1.3".equals(p)) {
                mask |= SSL.SSL_PROTOCOL_TLSV1_3;
                enabled.add(p);
            } else if ("TLSv1.2".equals(p)) {
                if (!tls12Suites.isEmpty()) {
                    mask |= SSL.SSL_PROTOCOL_TLSV1_2;
                    enabled.add(p);
                }
            } else {
                throw new SSLException("protocol " + p + " is not supported by the OpenSSL provider (TLSv1.3, TLSv1.2)");
            }
        }
        if (mask == 0) {
            throw new SSLException("no protocol left to enable from " + protocols + " with cipher suites " + suites);
        }
        this.protocols = enabled.toArray(new String[0]);
        List<String> kept = new ArrayList<>();
        for (String s : suites) {
            if ((mask & SSL.SSL_PROTOCOL_TLSV1_3) != 0 && CipherSuiteNames.TLS13.contains(s)
                    || (mask & SSL.SSL_PROTOCOL_TLSV1_2) != 0 && !CipherSuiteNames.toOpenSsl(List.of(s)).isEmpty()) {
                kept.add(s);
            }
        }
        if (kept.isEmpty()) {
            throw new SSLException("none of the cipher suites " + suites + " is supported by OPENSSL; supported: "
                    + CipherSuiteNames.supported());
        }
        this.cipherSuites = List.copyOf(kept);
        this.cipherSuiteArray = this.cipherSuites.toArray(new String[0]);
        this.clientAuthRequired = !client && clientAuth == 2;
        this.clientAuthOptional = !client && clientAuth == 1;
        this.endpointIdentificationAlgorithm = client ? endpointIdentificationAlgorithm : null;
        this.applicationProtocols = applicationProtocols.toArray(new String[0]);
        this.localChain = chain == null ? new X509Certificate[0] : chain.clone();
        long c;
        try {
            c = SSLContext.make(mask, client ? SSL.SSL_MODE_CLIENT : SSL.SSL_MODE_SERVER);
        } catch (Exception e) {
            throw new SSLException("BoringSSL refused to create a context", e);
        }
        this.ctx = c;
        this.clientSessions = client ? new OpenSslClientSessionCache(
                sessionCacheSize > 0 ? sessionCacheSize : DEFAULT_CLIENT_SESSION_CACHE_SIZE) : null;
        NativeContext nativeContext = new NativeContext(c, clientSessions);
        CLEANER.register(this, nativeContext);
        long[] keyMaterial = null;
        try {
            if ((mask & SSL.SSL_PROTOCOL_TLSV1_2) != 0 && !SSLContext.setCipherSuite(c, tls12Suites, false)) {
                throw new SSLException("BoringSSL refused the cipher suites " + tls12Suites);
            }
            List<String> g = groups == null ? DEFAULT_GROUPS : groups;
            if (!SSLContext.setCurvesList(c, g.toArray(new String[0]))) {
                throw new SSLException("BoringSSL refused the key-exchange groups " + g);
            }
            SSLContext.setMode(c, SSLContext.getMode(c) | SSL.SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
            // The protocol mask alone does not bound BoringSSL's versions: the options do.
            int options = SSL.SSL_OP_NO_COMPRESSION | SSL.SSL_OP_CIPHER_SERVER_PREFERENCE | SSL.SSL_OP_NO_SSLv2
                    | SSL.SSL_OP_NO_SSLv3 | SSL.SSL_OP_NO_TLSv1 | SSL.SSL_OP_NO_TLSv1_1;
            if ((mask & SSL.SSL_PROTOCOL_TLSV1_3) == 0) {
                options |= SSL.SSL_OP_NO_TLSv1_3;
            }
            if ((mask & SSL.SSL_PROTOCOL_TLSV1_2) == 0) {
                options |= SSL.SSL_OP_NO_TLSv1_2;
            }
            SSLContext.setOptions(c, options);
            if (!sessionTickets) {
                SSLContext.setOptions(c, SSL.SSL_OP_NO_TICKET);
            }
            long timeout = sessionTimeoutSeconds > 0 ? sessionTimeoutSeconds : DEFAULT_SESSION_TIMEOUT_SECONDS;
            SSLContext.setSessionCacheTimeout(c, timeout);
            if (client) {
                SSLContext.setSessionCacheMode(c, SSL.SSL_SESS_CACHE_CLIENT);
                SSLContext.setSSLSessionCache(c, clientSessions);
            } else {
                SSLContext.setSessionCacheMode(c, SSL.SSL_SESS_CACHE_SERVER);
                SSLContext.setSessionCacheSize(c,
                        sessionCacheSize > 0 ? sessionCacheSize : DEFAULT_SERVER_SESSION_CACHE_SIZE);
                byte[] idContext = new byte[16];
                new SecureRandom().nextBytes(idContext);
                SSLContext.setSessionIdContext(c, idContext);
            }
            if (key != null) {
                keyMaterial = parseKeyMaterial(key, localChain);
                nativeContext.keyMaterial = keyMaterial;
            }
            int verify = client ? SSL.SSL_CVERIFY_REQUIRED
                    : clientAuth == 2 ? SSL.SSL_CVERIFY_REQUIRED
                    : clientAuth == 1 ? SSL.SSL_CVERIFY_OPTIONAL : SSL.SSL_CVERIFY_NONE;
            SSLContext.setVerify(c, verify, MAX_VERIFY_DEPTH);
            if (trustManager != null && verify != SSL.SSL_CVERIFY_NONE) {
                this.trustBridge = new OpenSslTrustBridge(trustManager, client);
                SSLContext.setCertVerifyCallback(c, trustBridge);
            } else {
                this.trustBridge = null;
            }
            if (this.applicationProtocols.length > 0) {
                // RFC 7301 §3.2: with no protocol in common the server answers without ALPN.
                SSLContext.setAlpnProtos(c, this.applicationProtocols, SSL.SSL_SELECTOR_FAILURE_NO_ADVERTISE);
            }
            this.keyMaterial = keyMaterial;
            if (ocsp) {
                SSLContext.enableOcsp(c, client);
            }
            if (keyLog != null) {
                SSLContext.setKeyLogCallback(c, (ssl, line) -> keyLog.accept(new String(line, StandardCharsets.US_ASCII)));
            }
        } catch (SSLException e) {
            throw e;
        } catch (Exception e) {
            throw new SSLException("BoringSSL refused the configuration: " + e.getMessage(), e);
        }
    }

    /** Parses the chain and key into BoringSSL objects, once per context: {@code {chain, key}}. */
    private static long[] parseKeyMaterial(PrivateKey key, X509Certificate[] chain) throws Exception {
        StringBuilder chainPem = new StringBuilder();
        for (X509Certificate cert : chain) {
            pem(chainPem, "CERTIFICATE", encoded(cert));
        }
        byte[] keyDer = key.getEncoded();
        if (keyDer == null || !"PKCS#8".equals(key.getFormat())) {
            throw new SSLException("the " + key.getAlgorithm() + " key cannot be exported (format "
                    + key.getFormat() + "); the OpenSSL provider needs its PKCS#8 encoding");
        }
        String keyPem = pem(new StringBuilder(), "PRIVATE KEY", keyDer).toString();
        long chainBio = memoryBio(chainPem.toString());
        long keyBio = memoryBio(keyPem);
        try {
            long chainPointer = SSL.parseX509Chain(chainBio);
            long keyPointer;
            try {
                keyPointer = SSL.parsePrivateKey(keyBio, null);
            } catch (Exception e) {
                SSL.freeX509Chain(chainPointer);
                throw e;
            }
            return new long[] {chainPointer, keyPointer};
        } finally {
            SSL.freeBIO(chainBio);
            SSL.freeBIO(keyBio);
            java.util.Arrays.fill(keyDer, (byte) 0);
        }
    }

    private static byte[] encoded(X509Certificate cert) throws SSLException {
        try {
            return cert.getEncoded();
        } catch (CertificateEncodingException e) {
            throw new SSLException("cannot encode " + cert.getSubjectX500Principal(), e);
        }
    }

    private static StringBuilder pem(StringBuilder b, String type, byte[] der) {
        b.append("-----BEGIN ").append(type).append("-----\n")
                .append(Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der))
                .append("\n-----END ").append(type).append("-----\n");
        return b;
    }

    private static long memoryBio(String text) throws Exception {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length);
        direct.put(bytes).flip();
        long bio = SSL.newMemBIO();
        int written = SSL.bioWrite(bio, Buffer.address(direct), bytes.length);
        if (written != bytes.length) {
            SSL.freeBIO(bio);
            throw new SSLException("could not hand " + bytes.length + " bytes to BoringSSL (wrote " + written + ')');
        }
        return bio;
    }

    @Override
    public SSLEngine newEngine(String peerHost, int peerPort) {
        return new OpenSslEngine(this, peerHost, peerPort);
    }

    @Override
    public void setSessionTicketKeys(byte[][] keys) {
        if (client) {
            throw new IllegalStateException("session ticket keys belong to servers");
        }
        if (keys.length == 0) {
            throw new IllegalArgumentException("no session ticket key given");
        }
        SessionTicketKey[] native_ = new SessionTicketKey[keys.length];
        for (int i = 0; i < keys.length; i++) {
            byte[] k = keys[i];
            if (k == null || k.length != TICKET_KEY_BYTES) {
                throw new IllegalArgumentException("session ticket key " + i + ": "
                        + (k == null ? "null" : k.length + " bytes") + " (expected " + TICKET_KEY_BYTES + ")");
            }
            native_[i] = new SessionTicketKey(java.util.Arrays.copyOfRange(k, 0, 16),
                    java.util.Arrays.copyOfRange(k, 16, 32), java.util.Arrays.copyOfRange(k, 32, 48));
        }
        SSLContext.setSessionTicketKeys(ctx, native_);
    }

    @Override
    public void setOcspResponse(byte[] response) {
        if (client) {
            throw new IllegalStateException("OCSP responses are stapled by servers; a client context only requests them");
        }
        this.ocspResponse = response == null ? null : checkedOcspResponse(response);
    }

    /** A copy of {@code response} if stapling is on and it is within the limit; throws otherwise. */
    byte[] checkedOcspResponse(byte[] response) {
        if (!ocsp) {
            throw new IllegalStateException("OCSP stapling is off; turn it on with SslContextBuilder.enableOcsp(true)");
        }
        if (response.length == 0 || response.length > maxOcspResponseBytes) {
            throw new IllegalArgumentException("OCSP response of " + response.length + " bytes (expected 1.."
                    + maxOcspResponseBytes + ", SslContextBuilder.maxOcspResponseBytes)");
        }
        return response.clone();
    }

    boolean ocspEnabled() {
        return ocsp;
    }

    int maxOcspResponseBytes() {
        return maxOcspResponseBytes;
    }

    /** The response new server engines staple, or null; not a copy (never modified after it was set). */
    byte[] ocspResponse() {
        return ocspResponse;
    }

    /** Gives {@code ssl} this context's certificate chain and key, if it has one (BoringSSL takes its own references). */
    void applyKeyMaterial(long ssl) throws Exception {
        if (keyMaterial != null) {
            SSL.setKeyMaterial(ssl, keyMaterial[0], keyMaterial[1]);
        }
    }

    long address() {
        return ctx;
    }

    boolean isClient() {
        return client;
    }

    String[] protocols() {
        return protocols.clone();
    }

    /** The protocols array itself, for engines that share it and never write to it. */
    String[] sharedProtocols() {
        return protocols;
    }

    /** The cipher suites as one array shared by engines that never write to it. */
    String[] sharedCipherSuites() {
        return cipherSuiteArray;
    }

    List<String> cipherSuites() {
        return cipherSuites;
    }

    boolean clientAuthRequired() {
        return clientAuthRequired;
    }

    boolean clientAuthOptional() {
        return clientAuthOptional;
    }

    String endpointIdentificationAlgorithm() {
        return endpointIdentificationAlgorithm;
    }

    String[] applicationProtocols() {
        return applicationProtocols.clone();
    }

    X509Certificate[] localChain() {
        return localChain;
    }

    OpenSslClientSessionCache clientSessions() {
        return clientSessions;
    }

    /** Frees the native context and the client sessions it cached; holds no reference to the context object. */
    private static final class NativeContext implements Runnable {
        private final long ctx;
        private final OpenSslClientSessionCache sessions;
        long[] keyMaterial;

        NativeContext(long ctx, OpenSslClientSessionCache sessions) {
            this.ctx = ctx;
            this.sessions = sessions;
        }

        @Override
        public void run() {
            if (sessions != null) {
                sessions.clear();
            }
            if (keyMaterial != null) {
                SSL.freeX509Chain(keyMaterial[0]);
                SSL.freePrivateKey(keyMaterial[1]);
            }
            SSLContext.free(ctx);
        }
    }
}
