package io.weir.handler.ssl;

import io.weir.handler.ssl.internal.openssl.OpenSslEngine;
import io.weir.metrics.TlsMetrics;
import io.weir.metrics.TlsMetrics.Engine;
import io.weir.metrics.TlsMetrics.FailureReason;
import io.weir.metrics.WeirEvents;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.util.Locale;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;

/**
 * Records how an {@link SslHandler}'s handshake ended: into its {@link TlsMetrics}, if it has one, and as the JFR
 * event {@code io.weir.TlsHandshake}. Event loop only; called once per handshake.
 */
final class HandshakeMetrics {
    /** Causes followed when looking for a certificate failure under the engine's exception. */
    private static final int MAX_CAUSE_DEPTH = 8;

    private HandshakeMetrics() {
    }

    /**
     * A handshake that completed. Resumption comes from BoringSSL itself; the JDK's engine does not say, so a
     * session created before this handshake began counts as resumed (best effort).
     */
    static void completed(TlsMetrics metrics, SSLEngine engine, Object remoteAddress, long startNanos,
                          long startMillis) {
        if (metrics == null && !WeirEvents.isTlsHandshakeEnabled()) {
            return;
        }
        SSLSession session = engine.getSession();
        Engine kind = engineOf(engine);
        boolean resumed = engine instanceof OpenSslEngine openSsl ? openSsl.isSessionReused()
                : session.getCreationTime() < startMillis;
        if (metrics != null) {
            metrics.handshakeCompleted(kind, resumed);
        }
        WeirEvents.tlsHandshake(remoteAddress, kind, session, resumed, null, null, System.nanoTime() - startNanos);
    }

    /** A handshake that failed with {@code cause}. */
    static void failed(TlsMetrics metrics, SSLEngine engine, Object remoteAddress, Throwable cause, long startNanos) {
        FailureReason reason = reasonOf(cause);
        if (metrics != null) {
            metrics.handshakeFailed(reason);
        }
        WeirEvents.tlsHandshake(remoteAddress, engineOf(engine), null, false, reason, cause,
                startNanos == 0 ? 0 : System.nanoTime() - startNanos);
    }

    private static Engine engineOf(SSLEngine engine) {
        return engine instanceof OpenSslEngine ? Engine.OPENSSL : Engine.JDK;
    }

    /** Sorts a handshake failure into the closed set of {@link FailureReason}s. */
    static FailureReason reasonOf(Throwable cause) {
        if (cause instanceof SslHandshakeTimeoutException) {
            return FailureReason.TIMEOUT;
        }
        if (cause instanceof NotSslRecordException) {
            return FailureReason.NOT_TLS;
        }
        Throwable t = cause;
        for (int depth = 0; t != null && depth < MAX_CAUSE_DEPTH; depth++, t = t.getCause()) {
            if (t instanceof CertificateException || t instanceof CertPathValidatorException
                    || t instanceof CertPathBuilderException) {
                return FailureReason.CERTIFICATE;
            }
            String message = t.getMessage();
            // BoringSSL names its verification failures (CERTIFICATE_VERIFY_FAILED, BAD_CERTIFICATE, ...).
            if (t instanceof SSLException && message != null
                    && message.toUpperCase(Locale.ROOT).contains("CERTIFICATE")) {
                return FailureReason.CERTIFICATE;
            }
        }
        if (cause instanceof SSLException || cause instanceof GeneralSecurityException) {
            return FailureReason.PROTOCOL;
        }
        if (cause instanceof IOException) {
            return FailureReason.CLOSED;
        }
        return FailureReason.OTHER;
    }
}
