package io.weir.handler.ssl.internal.openssl;

import java.io.ByteArrayInputStream;
import java.security.Principal;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSessionBindingEvent;
import javax.net.ssl.SSLSessionBindingListener;
import javax.net.ssl.SSLSessionContext;

/**
 * The session of one {@link OpenSslEngine}: filled from the native SSL object when the handshake completes and
 * kept in Java afterwards, so that it stays readable after the engine freed its native memory. During the
 * handshake it is the engine's handshake session (peer host and port, protocol, requested server name), which is
 * what the JDK's trust managers read for hostname verification.
 */
final class OpenSslSession extends ExtendedSSLSession {
    /** The largest plaintext of a record (RFC 8446 §5.1, RFC 5246 §6.2.1). */
    static final int MAX_PLAINTEXT_BYTES = 16 * 1024;
    /** The largest record on the wire the engine produces or accepts: header, 2^14 + 2048 (RFC 5246 §6.2.3). */
    static final int MAX_RECORD_BYTES = 5 + MAX_PLAINTEXT_BYTES + 2048;
    private static final X509Certificate[] NO_CERTIFICATES = new X509Certificate[0];
    private static final String[] NO_ALGORITHMS = new String[0];
    private static final byte[] NO_ID = new byte[0];

    private final String peerHost;
    private final int peerPort;
    private volatile long creationTime = System.currentTimeMillis();
    private volatile String protocol = "NONE";
    private volatile String cipherSuite = "SSL_NULL_WITH_NULL_NULL";
    private volatile byte[] id = NO_ID;
    private volatile String serverName;
    private volatile byte[][] peerChainDer;
    private volatile X509Certificate[] peerChain;
    private volatile X509Certificate[] localChain = NO_CERTIFICATES;
    private volatile byte[] statusResponse;
    private Map<String, Object> values;

    OpenSslSession(String peerHost, int peerPort) {
        this.peerHost = peerHost;
        this.peerPort = peerPort;
    }

    /** Called by the engine when the handshake completed (or, for the protocol, when it is known). */
    void handshakeDone(String protocol, String cipherSuite, byte[] id, long creationSeconds, String serverName,
                       byte[][] peerChainDer, X509Certificate[] verifiedPeerChain, X509Certificate[] localChain) {
        if (creationSeconds > 0) {
            // A resumed session keeps the time it was first created, as the JDK's does.
            this.creationTime = creationSeconds * 1000;
        }
        // Interned: a handful of names, each otherwise a copy per connection for as long as it stays open.
        this.protocol = protocol == null ? "NONE" : protocol.intern();
        this.cipherSuite = CipherSuiteNames.toIana(cipherSuite).intern();
        this.id = id == null || id.length == 0 ? NO_ID : id;
        this.serverName = serverName;
        this.peerChainDer = peerChainDer;
        this.peerChain = verifiedPeerChain;
        this.localChain = localChain == null ? NO_CERTIFICATES : localChain;
    }

    void handshakeProtocol(String protocol, String serverName) {
        if (protocol != null) {
            this.protocol = protocol;
        }
        this.serverName = serverName;
    }

    @Override
    public byte[] getId() {
        return id.clone();
    }

    @Override
    public SSLSessionContext getSessionContext() {
        return null;
    }

    @Override
    public long getCreationTime() {
        return creationTime;
    }

    @Override
    public long getLastAccessedTime() {
        return creationTime;
    }

    @Override
    public void invalidate() {
        // Resumption is governed by the context's cache and timeouts; a single session is not withdrawn.
    }

    @Override
    public boolean isValid() {
        return id.length > 0;
    }

    @Override
    public synchronized void putValue(String name, Object value) {
        if (values == null) {
            values = new HashMap<>(4);
        }
        Object old = values.put(name, value);
        if (value instanceof SSLSessionBindingListener l) {
            l.valueBound(new SSLSessionBindingEvent(this, name));
        }
        if (old instanceof SSLSessionBindingListener l) {
            l.valueUnbound(new SSLSessionBindingEvent(this, name));
        }
    }

    @Override
    public synchronized Object getValue(String name) {
        return values == null ? null : values.get(name);
    }

    @Override
    public synchronized void removeValue(String name) {
        Object old = values == null ? null : values.remove(name);
        if (old instanceof SSLSessionBindingListener l) {
            l.valueUnbound(new SSLSessionBindingEvent(this, name));
        }
    }

    @Override
    public synchronized String[] getValueNames() {
        return values == null ? new String[0] : values.keySet().toArray(new String[0]);
    }

    @Override
    public Certificate[] getPeerCertificates() throws SSLPeerUnverifiedException {
        X509Certificate[] chain = peerChain();
        if (chain.length == 0) {
            throw new SSLPeerUnverifiedException("the peer presented no certificate");
        }
        return chain.clone();
    }

    private X509Certificate[] peerChain() throws SSLPeerUnverifiedException {
        X509Certificate[] chain = peerChain;
        if (chain != null) {
            return chain;
        }
        byte[][] der = peerChainDer;
        if (der == null || der.length == 0) {
            return NO_CERTIFICATES;
        }
        try {
            chain = decode(der);
        } catch (CertificateException e) {
            throw (SSLPeerUnverifiedException) new SSLPeerUnverifiedException("the peer's certificate cannot be read: "
                    + e.getMessage()).initCause(e);
        }
        peerChain = chain;
        return chain;
    }

    /** Decodes DER certificates (leaf first). */
    static X509Certificate[] decode(byte[][] der) throws CertificateException {
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        X509Certificate[] chain = new X509Certificate[der.length];
        for (int i = 0; i < der.length; i++) {
            chain[i] = (X509Certificate) factory.generateCertificate(new ByteArrayInputStream(der[i]));
        }
        return chain;
    }

    @Override
    public Certificate[] getLocalCertificates() {
        return localChain.length == 0 ? null : localChain.clone();
    }

    @Override
    @SuppressWarnings("removal")
    public javax.security.cert.X509Certificate[] getPeerCertificateChain() throws SSLPeerUnverifiedException {
        throw new UnsupportedOperationException("javax.security.cert is deprecated; use getPeerCertificates()");
    }

    @Override
    public Principal getPeerPrincipal() throws SSLPeerUnverifiedException {
        return ((X509Certificate) getPeerCertificates()[0]).getSubjectX500Principal();
    }

    @Override
    public Principal getLocalPrincipal() {
        return localChain.length == 0 ? null : localChain[0].getSubjectX500Principal();
    }

    @Override
    public String getCipherSuite() {
        return cipherSuite;
    }

    @Override
    public String getProtocol() {
        return protocol;
    }

    @Override
    public String getPeerHost() {
        return peerHost;
    }

    @Override
    public int getPeerPort() {
        return peerPort;
    }

    @Override
    public int getPacketBufferSize() {
        return MAX_RECORD_BYTES;
    }

    @Override
    public int getApplicationBufferSize() {
        return MAX_PLAINTEXT_BYTES;
    }

    @Override
    public String[] getLocalSupportedSignatureAlgorithms() {
        return NO_ALGORITHMS;
    }

    @Override
    public String[] getPeerSupportedSignatureAlgorithms() {
        return NO_ALGORITHMS;
    }

    /** Records the OCSP response the server stapled (RFC 6066 §8); owned by the session from now on. */
    void statusResponse(byte[] der) {
        this.statusResponse = der;
    }

    /** A copy of the stapled OCSP response, or null. */
    byte[] statusResponse() {
        byte[] r = statusResponse;
        return r == null ? null : r.clone();
    }

    /** The server's stapled OCSP response (one DER {@code OCSPResponse}), or an empty list if none was stapled. */
    @Override
    public List<byte[]> getStatusResponses() {
        byte[] r = statusResponse;
        return r == null ? List.of() : List.of(r.clone());
    }

    @Override
    public List<SNIServerName> getRequestedServerNames() {
        String name = serverName;
        if (name == null) {
            return List.of();
        }
        try {
            return List.of(new SNIHostName(name));
        } catch (IllegalArgumentException notAHostName) {
            return List.of();
        }
    }
}
