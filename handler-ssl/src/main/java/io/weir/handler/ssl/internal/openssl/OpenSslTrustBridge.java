package io.weir.handler.ssl.internal.openssl;

import io.netty.internal.tcnative.CertificateVerifier;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Replaces BoringSSL's certificate verification with a JDK {@link X509TrustManager}: called by BoringSSL inside
 * the handshake, on the thread running it, with the peer's chain as DER. An {@link X509ExtendedTrustManager} is
 * given the engine, so it applies the engine's endpoint identification (hostname verification, RFC 6125) as it
 * does for the JDK's own engine.
 */
final class OpenSslTrustBridge extends CertificateVerifier {
    private final X509TrustManager trustManager;
    private final boolean client;

    OpenSslTrustBridge(X509TrustManager trustManager, boolean client) {
        this.trustManager = trustManager;
        this.client = client;
    }

    @Override
    public int verify(long ssl, byte[][] chainDer, String authMethod) {
        OpenSslEngine engine = OpenSslEngine.current();
        if (engine == null) {
            return X509_V_ERR_UNSPECIFIED;
        }
        if (chainDer == null || chainDer.length == 0) {
            engine.verifyFailed(new java.security.cert.CertificateException("the peer sent no certificate"));
            return X509_V_ERR_UNSPECIFIED;
        }
        String authType = authMethod == null || authMethod.isEmpty() ? "UNKNOWN" : authMethod;
        try {
            X509Certificate[] chain = OpenSslSession.decode(chainDer);
            engine.verifying();
            if (trustManager instanceof X509ExtendedTrustManager extended) {
                if (client) {
                    extended.checkServerTrusted(chain, authType, engine);
                } else {
                    extended.checkClientTrusted(chain, authType, engine);
                }
            } else if (client) {
                trustManager.checkServerTrusted(chain, authType);
            } else {
                trustManager.checkClientTrusted(chain, authType);
            }
            engine.verified(chain);
            return X509_V_OK;
        } catch (Throwable t) {
            engine.verifyFailed(t);
            return errorCode(t);
        }
    }

    private static int errorCode(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof CertificateExpiredException) {
                return X509_V_ERR_CERT_HAS_EXPIRED;
            }
            if (c instanceof CertificateNotYetValidException) {
                return X509_V_ERR_CERT_NOT_YET_VALID;
            }
        }
        return X509_V_ERR_CERT_UNTRUSTED;
    }
}
