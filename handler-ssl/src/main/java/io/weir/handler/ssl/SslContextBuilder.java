package io.weir.handler.ssl;

import io.weir.handler.ssl.internal.EngineFactory;
import io.weir.handler.ssl.internal.jdk.JdkEngineFactory;
import io.weir.handler.ssl.internal.openssl.OpenSslContext;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509KeyManager;
import javax.net.ssl.X509TrustManager;

/**
 * Builds an {@link SslContext}. The provider is {@link SslProvider#defaultProvider()} (OpenSSL where it loads,
 * the JDK's otherwise) unless {@link #sslProvider} names one; when the provider is not named explicitly, a configuration OpenSSL cannot serve (a key that cannot be exported,
 * a plain {@code X509TrustManager} with hostname verification on) is built on the JDK provider instead. Safe by default: TLS 1.3 and 1.2 only, the provider's default cipher suites,
 * hostname verification ({@code "HTTPS"} endpoint identification) on for clients and kept when a custom trust
 * manager is given, no client authentication, no ALPN. Not thread-safe; build on one thread, then share the
 * context.
 *
 * <pre>{@code
 * SslContext server = SslContextBuilder.forServer(Path.of("chain.pem"), Path.of("key.pem"))
 *         .applicationProtocols("h2", "http/1.1").build();
 * SslContext client = SslContextBuilder.forClient().trustManager(Path.of("ca.pem")).build();
 * }</pre>
 */
public final class SslContextBuilder {
    /** The protocols enabled when {@link #protocols} is not called. */
    public static final List<String> DEFAULT_PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");
    /** The server session cache size when none is set: the provider's default (0 keeps it). */
    public static final int DEFAULT_SESSION_CACHE_SIZE = 0;
    /** The session timeout when none is set: the provider's default (0 keeps it). */
    public static final int DEFAULT_SESSION_TIMEOUT_SECONDS = 0;
    /** The endpoint identification algorithm clients use by default (RFC 2818 / RFC 6125 host name checks). */
    public static final String DEFAULT_ENDPOINT_IDENTIFICATION = "HTTPS";
    /**
     * The largest OCSP response a server staples or a client accepts when none is set, in bytes: a response for
     * one certificate with its responder's certificate is 1-4 KiB.
     */
    public static final int DEFAULT_MAX_OCSP_RESPONSE_BYTES = 32 * 1024;
    /** The highest {@link #maxOcspResponseBytes(int)} accepted, in bytes (TLS 1.2's 24-bit length bounds it too). */
    public static final int MAX_OCSP_RESPONSE_BYTES_LIMIT = 1024 * 1024;

    private final boolean client;
    private SslProvider provider;
    private KeyManagerFactory keyManagerFactory;
    private PrivateKey key;
    private X509Certificate[] keyChain;
    private List<String> groups;
    private boolean sessionTickets = true;
    private Consumer<String> keyLog;
    private boolean ocsp;
    private int maxOcspResponseBytes = DEFAULT_MAX_OCSP_RESPONSE_BYTES;
    private TrustManagerFactory trustManagerFactory;
    private List<X509Certificate> trustCertificates;
    private List<String> protocols = DEFAULT_PROTOCOLS;
    private List<String> ciphers;
    private int sessionCacheSize = DEFAULT_SESSION_CACHE_SIZE;
    private int sessionTimeoutSeconds = DEFAULT_SESSION_TIMEOUT_SECONDS;
    private ClientAuth clientAuth = ClientAuth.NONE;
    private List<String> applicationProtocols = List.of();
    private String endpointIdentificationAlgorithm = DEFAULT_ENDPOINT_IDENTIFICATION;

    private SslContextBuilder(boolean client) {
        this.client = client;
    }

    /** A server presenting the PEM certificate chain (leaf first) and unencrypted private key in these files. */
    public static SslContextBuilder forServer(Path certChainPem, Path keyPem) throws IOException {
        return forServer(certChainPem, keyPem, null);
    }

    /**
     * A server presenting the PEM certificate chain and private key in these files; {@code keyPassword} decrypts
     * an {@code ENCRYPTED PRIVATE KEY} (null for an unencrypted key).
     *
     * @throws PemException if either file is malformed
     */
    public static SslContextBuilder forServer(Path certChainPem, Path keyPem, char[] keyPassword) throws IOException {
        return new SslContextBuilder(false).keyManager(certChainPem, keyPem, keyPassword);
    }

    /** As {@link #forServer(Path, Path, char[])}, reading (not closing) the two streams. */
    public static SslContextBuilder forServer(InputStream certChainPem, InputStream keyPem, char[] keyPassword)
            throws IOException {
        return new SslContextBuilder(false).keyManager(certChainPem, keyPem, keyPassword);
    }

    /** As {@link #forServer(Path, Path)}, reading (not closing) the two streams. */
    public static SslContextBuilder forServer(InputStream certChainPem, InputStream keyPem) throws IOException {
        return forServer(certChainPem, keyPem, null);
    }

    /** A server presenting {@code key} and {@code certChain} (leaf first). */
    public static SslContextBuilder forServer(PrivateKey key, X509Certificate... certChain) {
        return new SslContextBuilder(false).keyManager(key, certChain);
    }

    /** A server whose certificates and keys come from {@code keyManagerFactory} (already initialised). */
    public static SslContextBuilder forServer(KeyManagerFactory keyManagerFactory) {
        return new SslContextBuilder(false).keyManager(keyManagerFactory);
    }

    /** A client trusting the JDK's default trust store until {@code trustManager(...)} says otherwise. */
    public static SslContextBuilder forClient() {
        return new SslContextBuilder(true);
    }

    /**
     * The provider; null (the default) means {@link SslProvider#defaultProvider()}. Naming
     * {@link SslProvider#OPENSSL} makes {@link #build()} fail where it is unavailable or cannot serve the
     * configuration, rather than fall back.
     */
    public SslContextBuilder sslProvider(SslProvider provider) {
        this.provider = provider;
        return this;
    }

    /** The certificate chain and key to present (a client's for mutual TLS), from PEM files. */
    public SslContextBuilder keyManager(Path certChainPem, Path keyPem, char[] keyPassword) throws IOException {
        return keyManager(PemReader.readPrivateKey(keyPem, keyPassword),
                PemReader.readCertificates(certChainPem).toArray(new X509Certificate[0]));
    }

    /** The certificate chain and key to present, from PEM streams (read, not closed). */
    public SslContextBuilder keyManager(InputStream certChainPem, InputStream keyPem, char[] keyPassword)
            throws IOException {
        List<X509Certificate> chain = PemReader.readCertificates(certChainPem);
        return keyManager(PemReader.readPrivateKey(keyPem, keyPassword), chain.toArray(new X509Certificate[0]));
    }

    /** The key and certificate chain (leaf first) to present. */
    public SslContextBuilder keyManager(PrivateKey key, X509Certificate... certChain) {
        Objects.requireNonNull(key, "key");
        if (certChain.length == 0) {
            throw new IllegalArgumentException("the certificate chain is empty");
        }
        checkKeyMatches(key, certChain[0]);
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            char[] password = new char[0];
            store.setKeyEntry("key", key, password, certChain.clone());
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(store, password);
            this.keyManagerFactory = kmf;
            this.key = key;
            this.keyChain = certChain.clone();
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("the key does not match the certificate chain or cannot be stored", e);
        }
        return this;
    }

    /**
     * Refuses a key that is not the leaf certificate's: a mismatch would otherwise surface only as a failed
     * handshake on the first connection. Proved by signing a probe and verifying it with the certificate's key.
     */
    private static void checkKeyMatches(PrivateKey key, X509Certificate leaf) {
        String algorithm;
        switch (key.getAlgorithm()) {
            case "RSA":
                algorithm = "SHA256withRSA";
                break;
            case "EC":
                algorithm = "SHA256withECDSA";
                break;
            case "EdDSA":
            case "Ed25519":
            case "Ed448":
                algorithm = leaf.getPublicKey().getAlgorithm();
                break;
            default:
                return; // RSASSA-PSS, DSA: left to the handshake
        }
        byte[] probe = {'w', 'e', 'i', 'r'};
        try {
            java.security.Signature signer = java.security.Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            java.security.Signature verifier = java.security.Signature.getInstance(algorithm);
            verifier.initVerify(leaf.getPublicKey());
            verifier.update(probe);
            if (verifier.verify(signer.sign())) {
                return;
            }
        } catch (GeneralSecurityException | RuntimeException mismatch) {
            // A key of another type than the certificate's: reported below.
        }
        throw new IllegalArgumentException("the " + key.getAlgorithm() + " private key does not belong to the "
                + leaf.getPublicKey().getAlgorithm() + " certificate " + leaf.getSubjectX500Principal());
    }

    /** Certificates and keys from {@code keyManagerFactory} (already initialised). */
    public SslContextBuilder keyManager(KeyManagerFactory keyManagerFactory) {
        this.keyManagerFactory = Objects.requireNonNull(keyManagerFactory, "keyManagerFactory");
        this.key = null;
        this.keyChain = null;
        return this;
    }

    /** Trust exactly the certificates in this PEM file (replacing the JDK's default trust store). */
    public SslContextBuilder trustManager(Path trustedPem) throws IOException {
        return trustManager(PemReader.readCertificates(trustedPem).toArray(new X509Certificate[0]));
    }

    /** Trust exactly the certificates in this PEM stream (read, not closed). */
    public SslContextBuilder trustManager(InputStream trustedPem) throws IOException {
        return trustManager(PemReader.readCertificates(trustedPem).toArray(new X509Certificate[0]));
    }

    /** Trust exactly these certificates; hostname verification stays as configured. */
    public SslContextBuilder trustManager(X509Certificate... trusted) {
        if (trusted.length == 0) {
            throw new IllegalArgumentException("no trusted certificate given");
        }
        this.trustCertificates = List.of(trusted);
        this.trustManagerFactory = null;
        return this;
    }

    /**
     * Trust decisions from {@code trustManagerFactory} (already initialised). Hostname verification stays on:
     * the engine keeps its endpoint identification algorithm, which the JDK's trust managers (and any
     * {@code X509ExtendedTrustManager} honouring {@code SSLParameters}) enforce.
     */
    public SslContextBuilder trustManager(TrustManagerFactory trustManagerFactory) {
        this.trustManagerFactory = Objects.requireNonNull(trustManagerFactory, "trustManagerFactory");
        this.trustCertificates = null;
        return this;
    }

    /** The protocol versions to enable (e.g. {@code "TLSv1.3"}); each must be supported by the provider. */
    public SslContextBuilder protocols(String... protocols) {
        if (protocols.length == 0) {
            throw new IllegalArgumentException("no protocol given");
        }
        this.protocols = List.of(protocols);
        return this;
    }

    /**
     * The cipher suites to enable, in preference order. Suites the provider does not support are dropped at
     * {@link #build()}; if none remains, {@code build()} fails. Null restores the provider's defaults.
     */
    public SslContextBuilder ciphers(Iterable<String> cipherSuites) {
        if (cipherSuites == null) {
            this.ciphers = null;
            return this;
        }
        List<String> list = new ArrayList<>();
        cipherSuites.forEach(list::add);
        this.ciphers = list;
        return this;
    }

    /** The number of sessions cached for resumption; 0 keeps the provider's default. */
    public SslContextBuilder sessionCacheSize(int sessions) {
        if (sessions < 0) {
            throw new IllegalArgumentException("sessionCacheSize: " + sessions + " (expected >= 0)");
        }
        this.sessionCacheSize = sessions;
        return this;
    }

    /** How long a cached session may be resumed, in seconds; 0 keeps the provider's default. */
    public SslContextBuilder sessionTimeout(int seconds) {
        if (seconds < 0) {
            throw new IllegalArgumentException("sessionTimeout: " + seconds + " (expected >= 0)");
        }
        this.sessionTimeoutSeconds = seconds;
        return this;
    }

    /** Whether a server asks for client certificates; meaningless (and refused at build) on clients. */
    public SslContextBuilder clientAuth(ClientAuth clientAuth) {
        this.clientAuth = Objects.requireNonNull(clientAuth, "clientAuth");
        return this;
    }

    /**
     * ALPN (RFC 7301) protocols in preference order, e.g. {@code "h2", "http/1.1"}. A server selects the first
     * of its own protocols that the client offered; with no overlap the handshake completes without ALPN. The
     * result is {@link SslHandler#applicationProtocol()}.
     */
    public SslContextBuilder applicationProtocols(String... protocols) {
        for (String p : protocols) {
            if (p == null || p.isEmpty() || p.length() > 255) {
                throw new IllegalArgumentException("an ALPN protocol is 1..255 bytes: '" + p + "'");
            }
        }
        this.applicationProtocols = List.of(protocols);
        return this;
    }

    /**
     * The endpoint identification algorithm clients apply to the server's certificate; default
     * {@link #DEFAULT_ENDPOINT_IDENTIFICATION}. Null turns hostname verification off (tests against servers with
     * certificates for other names only).
     */
    public SslContextBuilder endpointIdentificationAlgorithm(String algorithm) {
        this.endpointIdentificationAlgorithm = algorithm;
        return this;
    }

    /**
     * The key-exchange groups to offer, in preference order, by their TLS names ({@code "X25519MLKEM768"},
     * {@code "X25519"}, {@code "P-256"}, {@code "P-384"}); null restores the default, which with OpenSSL is
     * {@link OpenSslContext#DEFAULT_GROUPS} (the hybrid post-quantum group first) and with the JDK the JDK's own
     * list. The JDK provider applies them through {@code SSLParameters.setNamedGroups} on JDK 20 and later; on
     * older JDKs {@link #build()} fails when groups are set and the provider is (or falls back to) the JDK's: set
     * the system property {@code jdk.tls.namedGroups} instead (it uses {@code secp256r1} for {@code P-256}).
     */
    public SslContextBuilder groups(String... groups) {
        this.groups = groups == null ? null : List.of(groups);
        return this;
    }

    /**
     * Whether session tickets (RFC 5077; TLS 1.3 resumption, RFC 8446 §4.6.1) are issued and used; default true.
     * Off, TLS 1.2 resumes by session id only and TLS 1.3 does not resume. Applied by the OpenSSL provider.
     */
    public SslContextBuilder sessionTickets(boolean enabled) {
        this.sessionTickets = enabled;
        return this;
    }

    /**
     * Debugging only: receives each connection's secrets as NSS key log lines (what Wireshark reads from an
     * {@code SSLKEYLOGFILE}); anyone holding them can decrypt the traffic. Off (null) by default. Called on the
     * event loop during handshakes. OpenSSL provider only: the JDK has no such hook, so {@link #build()} fails when
     * a key log is set and {@link SslProvider#JDK} is named explicitly; when the JDK provider is only the fallback
     * (OpenSSL unavailable), no lines are logged.
     */
    public SslContextBuilder keyLog(Consumer<String> lines) {
        this.keyLog = lines;
        return this;
    }

    /**
     * OCSP stapling (RFC 6066 §8, the {@code status_request} extension); off by default. A server staples the
     * response given to {@link SslContext#setOcspResponse(byte[])} (or, per connection,
     * {@link SslHandler#setOcspResponse(byte[])}) to every handshake whose client asks for it; fetching and
     * refreshing that response from the CA's responder before it expires is the application's job. A client asks
     * for a stapled response and exposes it as {@link SslHandler#ocspResponse()} and as
     * {@code ExtendedSSLSession.getStatusResponses()} during certificate checks (what revocation-checking trust
     * managers read); it does not require one. OpenSSL provider only: {@link #build()} fails when stapling is on
     * and the provider is (or falls back to) {@link SslProvider#JDK}, whose stapling is configured by the
     * {@code jdk.tls.server.enableStatusRequestExtension} system property instead.
     */
    public SslContextBuilder enableOcsp(boolean enabled) {
        this.ocsp = enabled;
        return this;
    }

    /**
     * The largest OCSP response a server may staple ({@link SslContext#setOcspResponse(byte[])} refuses larger)
     * and a client accepts (a larger one fails the handshake with {@link OcspResponseTooLargeException}), in
     * bytes; default {@link #DEFAULT_MAX_OCSP_RESPONSE_BYTES}.
     *
     * @throws IllegalArgumentException outside 1..{@link #MAX_OCSP_RESPONSE_BYTES_LIMIT}
     */
    public SslContextBuilder maxOcspResponseBytes(int bytes) {
        if (bytes < 1 || bytes > MAX_OCSP_RESPONSE_BYTES_LIMIT) {
            throw new IllegalArgumentException("maxOcspResponseBytes: " + bytes + " (expected 1.."
                    + MAX_OCSP_RESPONSE_BYTES_LIMIT + ")");
        }
        this.maxOcspResponseBytes = bytes;
        return this;
    }

    /**
     * Builds the context.
     *
     * @throws SSLException if the provider cannot create it, a protocol is not supported, no requested cipher
     *     suite is supported, a server has no key, or OCSP stapling is on and the provider is the JDK's
     */
    public SslContext build() throws SSLException {
        if (!client && keyManagerFactory == null) {
            throw new SSLException("a server needs a certificate chain and key");
        }
        if (client && clientAuth != ClientAuth.NONE) {
            throw new SSLException("clientAuth is a server setting; a client presents its keyManager(...) when asked");
        }
        SslProvider chosen = provider != null ? provider : SslProvider.defaultProvider();
        if (chosen == SslProvider.OPENSSL) {
            if (!OpenSsl.isAvailable()) {
                throw new SSLException("the OpenSSL provider is unavailable", OpenSsl.unavailabilityCause());
            }
            try {
                TrustManager[] tms = trustManagers();
                X509TrustManager tm = x509TrustManager(tms);
                String unsuitable = openSslUnsuitability(tm);
                if (unsuitable == null) {
                    return buildOpenSsl(tm);
                }
                if (provider == SslProvider.OPENSSL || ocsp) {
                    throw new SSLException("the OpenSSL provider cannot serve this configuration: " + unsuitable);
                }
            } catch (GeneralSecurityException e) {
                throw new SSLException("cannot build the OPENSSL TLS context", e);
            }
        }
        if (ocsp) {
            throw new SSLException("OCSP stapling needs the OPENSSL provider; the " + SslProvider.JDK
                    + " provider was " + (provider == SslProvider.JDK ? "chosen" : "the fallback, OpenSSL being unavailable")
                    + " (the JDK staples through -Djdk.tls.server.enableStatusRequestExtension=true)",
                    provider == SslProvider.JDK ? null : OpenSsl.unavailabilityCause());
        }
        if (keyLog != null && provider == SslProvider.JDK) {
            throw new SSLException("keyLog is not supported by the JDK provider (the JDK has no key log hook); "
                    + "use the OPENSSL provider");
        }
        if (groups != null && !JdkEngineFactory.namedGroupsSupported()) {
            throw new SSLException("the JDK provider on JDK " + Runtime.version().feature() + " cannot set the "
                    + "key-exchange groups " + groups + " per context (SSLParameters.setNamedGroups needs JDK 20); "
                    + "set -Djdk.tls.namedGroups instead", provider == SslProvider.JDK ? null
                    : OpenSsl.unavailabilityCause());
        }
        return buildJdk();
    }

    private SslContext buildOpenSsl(X509TrustManager tm) throws SSLException {
        int auth = clientAuth == ClientAuth.REQUIRE ? 2 : clientAuth == ClientAuth.OPTIONAL ? 1 : 0;
        EngineFactory engines = new OpenSslContext(client, protocols, ciphers, key, keyChain,
                client || auth != 0 ? tm : null, auth, endpointIdentificationAlgorithm, applicationProtocols,
                sessionCacheSize, sessionTimeoutSeconds, sessionTickets, groups, keyLog, ocsp,
                maxOcspResponseBytes);
        return new SslContext(SslProvider.OPENSSL, client, engines, applicationProtocols);
    }

    /** Why OpenSSL cannot take this configuration, or null if it can; also exports a key manager's key. */
    private String openSslUnsuitability(X509TrustManager tm) {
        if (keyManagerFactory != null && key == null) {
            exportKey();
            if (key == null) {
                return "no exportable RSA or EC key in the KeyManagerFactory";
            }
        }
        if (key != null && (key.getEncoded() == null || !"PKCS#8".equals(key.getFormat()))) {
            return "the " + key.getAlgorithm() + " key cannot be exported as PKCS#8";
        }
        if (client && endpointIdentificationAlgorithm != null && !(tm instanceof X509ExtendedTrustManager)) {
            return "hostname verification needs an X509ExtendedTrustManager, not " + tm.getClass().getName();
        }
        return null;
    }

    /** Takes the first RSA, EC or EdDSA key (and its chain) a KeyManagerFactory's X509KeyManager holds. */
    private void exportKey() {
        for (KeyManager km : keyManagerFactory.getKeyManagers()) {
            if (!(km instanceof X509KeyManager x509)) {
                continue;
            }
            for (String type : new String[] {"RSA", "EC", "EdDSA", "Ed25519"}) {
                String[] aliases = client ? x509.getClientAliases(type, null) : x509.getServerAliases(type, null);
                if (aliases == null) {
                    continue;
                }
                for (String alias : aliases) {
                    PrivateKey k = x509.getPrivateKey(alias);
                    X509Certificate[] chain = x509.getCertificateChain(alias);
                    if (k != null && k.getEncoded() != null && chain != null && chain.length > 0) {
                        this.key = k;
                        this.keyChain = chain;
                        return;
                    }
                }
            }
        }
    }

    private static X509TrustManager x509TrustManager(TrustManager[] tms) throws GeneralSecurityException {
        if (tms == null) {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init((KeyStore) null);
            tms = tmf.getTrustManagers();
        }
        for (TrustManager tm : tms) {
            if (tm instanceof X509TrustManager x509) {
                return x509;
            }
        }
        throw new GeneralSecurityException("no X509TrustManager among " + Arrays.toString(tms));
    }

    private SslContext buildJdk() throws SSLException {
        SslProvider provider = SslProvider.JDK;
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagerFactory == null ? null : keyManagerFactory.getKeyManagers(), trustManagers(), null);
            SSLSessionContext sessions = client ? context.getClientSessionContext() : context.getServerSessionContext();
            if (sessionCacheSize > 0) {
                sessions.setSessionCacheSize(sessionCacheSize);
            }
            if (sessionTimeoutSeconds > 0) {
                sessions.setSessionTimeout(sessionTimeoutSeconds);
            }
            Set<String> supportedProtocols = new HashSet<>(
                    Arrays.asList(context.getSupportedSSLParameters().getProtocols()));
            for (String p : protocols) {
                if (!supportedProtocols.contains(p)) {
                    throw new SSLException("protocol " + p + " is not supported; supported: " + supportedProtocols);
                }
            }
            String[] suites = null;
            if (ciphers != null) {
                Set<String> supported = new HashSet<>(Arrays.asList(JdkEngineFactory.supportedCipherSuites(context)));
                List<String> kept = new ArrayList<>();
                for (String c : ciphers) {
                    if (supported.contains(c) && !kept.contains(c)) {
                        kept.add(c);
                    }
                }
                if (kept.isEmpty()) {
                    throw new SSLException("none of the cipher suites " + ciphers + " is supported by " + provider);
                }
                suites = kept.toArray(new String[0]);
            }
            JdkEngineFactory engines = new JdkEngineFactory(context, client, protocols.toArray(new String[0]), suites,
                    clientAuth == ClientAuth.REQUIRE, clientAuth == ClientAuth.OPTIONAL,
                    client ? endpointIdentificationAlgorithm : null, applicationProtocols.toArray(new String[0]),
                    groups == null ? null : JdkEngineFactory.jdkGroupNames(groups));
            return new SslContext(provider, client, engines, applicationProtocols);
        } catch (GeneralSecurityException e) {
            throw new SSLException("cannot build the " + provider + " TLS context", e);
        }
    }

    private TrustManager[] trustManagers() throws GeneralSecurityException {
        if (trustManagerFactory != null) {
            return trustManagerFactory.getTrustManagers();
        }
        if (trustCertificates == null) {
            return null;
        }
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            for (int i = 0; i < trustCertificates.size(); i++) {
                store.setCertificateEntry("trusted-" + i, trustCertificates.get(i));
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            return tmf.getTrustManagers();
        } catch (IOException e) {
            throw new GeneralSecurityException("cannot build a trust store", e);
        }
    }
}
