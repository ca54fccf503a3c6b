package io.weir.handler.ssl.internal.openssl;

import io.netty.internal.tcnative.Buffer;
import io.netty.internal.tcnative.SSL;
import io.weir.handler.ssl.OcspResponseTooLargeException;
import io.weir.handler.ssl.internal.NativeBufferEngine;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLEngineResult.Status;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;

/**
 * An {@link SSLEngine} over one BoringSSL {@code SSL*} and a BIO pair (netty-tcnative's JNI API). Ciphertext and
 * plaintext move straight between the caller's direct buffers and BoringSSL (the network side of the BIO pair is
 * pointed at the caller's memory for the length of one call); heap buffers and several plaintext buffers for one
 * record go through a per-thread direct buffer.
 *
 * <p>One record per {@code unwrap} call is expected (what {@code SslHandler} hands over); a partial record is
 * kept by BoringSSL. TLS 1.3 and 1.2 only; renegotiation is never accepted (BoringSSL servers do not support it,
 * and clients are set to refuse); no delegated tasks (certificate checks run inside the handshake call).
 *
 * <p>Native memory is freed exactly once: when both {@link #closeInbound()} and {@link #closeOutbound()} have been
 * called (as {@code SslHandler} does when its channel closes) or the close_notify exchange ends; a {@link Cleaner}
 * frees an engine that was dropped without being closed. {@link #liveEngines()} counts engines not yet freed.
 *
 * <p>Thread-safety: the public methods are synchronized; they are meant to be called from one event loop.
 */
public final class OpenSslEngine extends SSLEngine implements NativeBufferEngine {
    /**
     * Bytes BoringSSL may hold for the peer when no output buffer is attached (handshake flights, alerts, a
     * KeyUpdate answer). Allocated per connection for its whole life, so small: an alert or a KeyUpdate (under
     * 64 bytes sealed) fits, and a larger flight (a certificate chain, the session tickets) waits in BoringSSL
     * (SSL_ERROR_WANT_WRITE) and goes out through the next wraps. Measured with idle connections, 2048 bytes
     * (Netty's default) cost 1.8 KB more per connection than this.
     */
    static final int NON_APPLICATION_BUFFER_BYTES = 256;

    private static final Cleaner CLEANER = Cleaner.create();
    private static final AtomicInteger LIVE = new AtomicInteger();
    /** The engine whose handshake is running on this thread, for callbacks that only know the SSL pointer. */
    private static final ThreadLocal<OpenSslEngine> CURRENT = new ThreadLocal<>();
    private static final SSLEngineResult CLOSED_NOT_HANDSHAKING =
            new SSLEngineResult(Status.CLOSED, HandshakeStatus.NOT_HANDSHAKING, 0, 0);

    private enum Handshake { NOT_STARTED, STARTED, FINISHED }

    private final OpenSslContext context;
    private final OpenSslSession session;
    private final NativeSsl nativeSsl;
    private final Cleaner.Cleanable cleanable;
    private final String sessionKey;
    private long ssl;
    private long bio;
    private Handshake handshake = Handshake.NOT_STARTED;
    private boolean finishedReported;
    private boolean clientHelloPending;
    private boolean outboundClosed;
    private boolean inboundDone;
    private boolean receivedCloseNotify;
    private boolean failed;
    private SSLHandshakeException pendingFailure;
    private Throwable verifyFailure;
    private X509Certificate[] verifiedPeerChain;
    private String[] enabledProtocols;
    private String[] enabledCipherSuites;
    private boolean reused;
    private String group;
    private String selectedProtocol;

    OpenSslEngine(OpenSslContext context, String peerHost, int peerPort) {
        super(peerHost, peerPort);
        this.context = context;
        this.session = new OpenSslSession(peerHost, peerPort);
        // The context's arrays, shared until a setter replaces them (never written in place; getters copy).
        this.enabledProtocols = context.sharedProtocols();
        this.enabledCipherSuites = context.sharedCipherSuites();
        boolean client = context.isClient();
        long s = SSL.newSSL(context.address(), !client);
        long b;
        try {
            b = SSL.bioNewByteBuffer(s, NON_APPLICATION_BUFFER_BYTES);
            context.applyKeyMaterial(s);
            if (context.ocspEnabled()) {
                if (client) {
                    // RFC 6066 §8: the client asks for the server's stapled OCSP response (status_request).
                    SSL.enableOcsp(s);
                } else if (context.ocspResponse() != null) {
                    SSL.setOcspResponse(s, context.ocspResponse());
                }
            }
            if (client) {
                SSL.setRenegotiateMode(s, SSL.SSL_RENEGOTIATE_NEVER);
                if (peerHost != null && isHostName(peerHost)) {
                    // RFC 6066 §3: SNI carries host names only, never IP literals.
                    SSL.setTlsExtHostName(s, peerHost);
                }
            }
        } catch (Throwable t) {
            SSL.freeSSL(s);
            throw new IllegalStateException("cannot set up a BoringSSL connection", t);
        }
        this.ssl = s;
        this.bio = b;
        LIVE.incrementAndGet();
        this.nativeSsl = new NativeSsl(s);
        this.cleanable = CLEANER.register(this, nativeSsl);
        this.sessionKey = client && peerHost != null && peerPort > 0 ? peerHost + ':' + peerPort : null;
        if (sessionKey != null) {
            context.clientSessions().resume(s, sessionKey);
        }
    }

    /** Engines whose native SSL object has not been freed yet, over the whole JVM. */
    public static int liveEngines() {
        return LIVE.get();
    }

    /** The engine whose handshake step runs on this thread, or null. */
    static OpenSslEngine current() {
        return CURRENT.get();
    }

    /** The client session cache key ({@code host:port}), or null. */
    String sessionKey() {
        return sessionKey;
    }

    /** Whether the completed handshake resumed an earlier session (by session id or ticket). */
    public synchronized boolean isSessionReused() {
        return reused;
    }


    /** The key-exchange group the completed handshake used (e.g. {@code "X25519MLKEM768"}), or null. */
    public synchronized String keyExchangeGroup() {
        return group;
    }

    /**
     * Server engines: staples {@code response} (a DER OCSP response, RFC 6960) in this connection's handshake
     * instead of the one the context holds; null leaves the context's. Call before the handshake starts.
     *
     * @throws IllegalStateException on a client engine, with stapling off, or once the handshake started
     * @throws IllegalArgumentException if the response is empty or over the context's limit
     */
    public synchronized void setOcspResponse(byte[] response) {
        if (context.isClient()) {
            throw new IllegalStateException("a client engine does not staple OCSP responses");
        }
        if (response == null) {
            return;
        }
        byte[] checked = context.checkedOcspResponse(response);
        if (handshake != Handshake.NOT_STARTED || ssl == 0) {
            throw new IllegalStateException("the handshake has started; the OCSP response is fixed");
        }
        SSL.setOcspResponse(ssl, checked);
    }

    /**
     * Client engines: the DER OCSP response the server stapled (a copy), or null if it stapled none, stapling is
     * off, the session was resumed, or the handshake has not reached the server's certificate. Also {@code getStatusResponses()} of the
     * session, which trust managers read.
     */
    public byte[] getOcspResponse() {
        return session.statusResponse();
    }

    /** Whether {@code host} is a DNS name rather than an IPv4 or IPv6 literal. */
    static boolean isHostName(String host) {
        if (host.isEmpty() || host.indexOf(':') >= 0) {
            return false;
        }
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (c != '.' && (c < '0' || c > '9')) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------------------------------ wrap

    @Override
    public synchronized SSLEngineResult wrap(ByteBuffer[] srcs, int offset, int length, ByteBuffer dst)
            throws SSLException {
        Objects.checkFromIndexSize(offset, length, srcs.length);
        Objects.requireNonNull(dst, "dst");
        if (dst.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
        if (ssl == 0) {
            return CLOSED_NOT_HANDSHAKING;
        }
        ByteBuffer out = dst.isDirect() ? dst : NativeScratch.get(1).limit(Math.min(dst.remaining(),
                NativeScratch.CAPACITY_BYTES));
        int capacity = out.remaining();
        SSL.bioSetByteBuffer(bio, Buffer.address(out) + out.position(), capacity, true);
        int produced = 0;
        int consumed = 0;
        SSLEngineResult result;
        try {
            result = wrapLocked(srcs, offset, length, capacity);
        } finally {
            if (ssl != 0) {
                produced = capacity - SSL.bioLengthByteBuffer(bio);
                SSL.bioClearByteBuffer(bio);
            }
        }
        if (produced > 0) {
            if (out != dst) {
                dst.put(out.limit(out.position() + produced));
            } else {
                dst.position(dst.position() + produced);
            }
        }
        consumed = result.bytesConsumed();
        return finish(result.getStatus(), result.getHandshakeStatus(), consumed, produced);
    }

    /** Wraps with the output buffer attached; byte counts of the result are filled in by the caller. */
    private SSLEngineResult wrapLocked(ByteBuffer[] srcs, int offset, int length, int capacity) throws SSLException {
        SSL.bioFlushByteBuffer(bio);
        if (SSL.bioLengthNonApplication(bio) > 0) {
            return result(Status.OK, HandshakeStatus.NEED_WRAP, 0);
        }
        if (pendingFailure != null) {
            if (SSL.bioLengthByteBuffer(bio) < capacity) {
                // The alert was just flushed into dst: report it as produced (an exception would lose it), and
                // the failure on the next wrap.
                return result(Status.OK, HandshakeStatus.NEED_WRAP, 0);
            }
            // The alert went out with an earlier wrap; now the failure is reported.
            SSLHandshakeException e = pendingFailure;
            pendingFailure = null;
            fail();
            throw e;
        }
        if (failed) {
            return result(Status.CLOSED, HandshakeStatus.NOT_HANDSHAKING, 0);
        }
        if (handshake != Handshake.FINISHED) {
            if (outboundClosed) {
                return result(Status.CLOSED, HandshakeStatus.NOT_HANDSHAKING, 0);
            }
            handshake = Handshake.STARTED;
            HandshakeStatus hs = handshakeStep();
            return result(Status.OK, hs, 0);
        }
        if (!finishedReported) {
            finishedReported = true;
            return result(Status.OK, HandshakeStatus.FINISHED, 0);
        }
        if (outboundClosed) {
            if ((SSL.getShutdown(ssl) & SSL.SSL_SENT_SHUTDOWN) == 0) {
                // RFC 8446 §6.1: close_notify.
                SSL.shutdownSSL(ssl);
                SSL.bioFlushByteBuffer(bio);
            }
            return result(Status.CLOSED, HandshakeStatus.NOT_HANDSHAKING, 0);
        }
        return writePlaintext(srcs, offset, length, capacity);
    }

    private SSLEngineResult writePlaintext(ByteBuffer[] srcs, int offset, int length, int capacity)
            throws SSLException {
        int total = 0;
        int nonEmpty = 0;
        ByteBuffer single = null;
        for (int i = offset; i < offset + length; i++) {
            int r = srcs[i].remaining();
            if (r > 0) {
                nonEmpty++;
                single = srcs[i];
                total += r;
                if (total >= OpenSslSession.MAX_PLAINTEXT_BYTES) {
                    break;
                }
            }
        }
        if (total == 0) {
            return result(Status.OK, HandshakeStatus.NOT_HANDSHAKING, 0);
        }
        int n = Math.min(total, OpenSslSession.MAX_PLAINTEXT_BYTES);
        if (capacity < n + SSL.getMaxWrapOverhead(ssl)) {
            return result(Status.BUFFER_OVERFLOW, HandshakeStatus.NOT_HANDSHAKING, 0);
        }
        int written;
        if (nonEmpty == 1 && single.isDirect()) {
            written = SSL.writeToSSL(ssl, Buffer.address(single) + single.position(), n);
            if (written > 0) {
                single.position(single.position() + written);
            }
        } else {
            // Several small writes become one record: gathered once into native memory.
            ByteBuffer gather = NativeScratch.get(0);
            int left = n;
            for (int i = offset; i < offset + length && left > 0; i++) {
                ByteBuffer src = srcs[i];
                int take = Math.min(src.remaining(), left);
                if (take > 0) {
                    ByteBuffer slice = src.duplicate();
                    slice.limit(slice.position() + take);
                    gather.put(slice);
                    left -= take;
                }
            }
            written = SSL.writeToSSL(ssl, Buffer.address(gather), n);
            if (written > 0) {
                int advance = written;
                for (int i = offset; i < offset + length && advance > 0; i++) {
                    ByteBuffer src = srcs[i];
                    int step = Math.min(src.remaining(), advance);
                    src.position(src.position() + step);
                    advance -= step;
                }
            }
        }
        if (written > 0) {
            return result(Status.OK, HandshakeStatus.NOT_HANDSHAKING, written);
        }
        int error = SSL.getError(ssl, written);
        if (error == SSL.SSL_ERROR_WANT_WRITE || error == SSL.SSL_ERROR_WANT_READ) {
            return result(Status.BUFFER_OVERFLOW, HandshakeStatus.NOT_HANDSHAKING, 0);
        }
        if (error == SSL.SSL_ERROR_ZERO_RETURN) {
            return result(Status.CLOSED, HandshakeStatus.NOT_HANDSHAKING, 0);
        }
        throw fatal(new SSLException(lastError()));
    }

    // ------------------------------------------------------------------------------------------ unwrap

    @Override
    public synchronized SSLEngineResult unwrap(ByteBuffer src, ByteBuffer[] dsts, int offset, int length)
            throws SSLException {
        Objects.requireNonNull(src, "src");
        Objects.checkFromIndexSize(offset, length, dsts.length);
        if (ssl == 0 || inboundDone) {
            return CLOSED_NOT_HANDSHAKING;
        }
        int len = Math.min(src.remaining(), OpenSslSession.MAX_RECORD_BYTES);
        ByteBuffer in = src;
        if (!src.isDirect() && len > 0) {
            in = NativeScratch.get(0);
            ByteBuffer slice = src.duplicate();
            slice.limit(slice.position() + len);
            in.put(slice).flip();
        }
        if (len > 0) {
            SSL.bioSetByteBuffer(bio, Buffer.address(in) + in.position(), len, false);
        }
        int consumed = 0;
        SSLEngineResult result;
        boolean track = sessionKey != null;
        if (track) {
            // TLS 1.3 tickets arrive after the handshake, inside SSL_read: the session cache asks who we are.
            CURRENT.set(this);
        }
        try {
            result = unwrapLocked(dsts, offset, length);
        } finally {
            if (track) {
                CURRENT.remove();
            }
            if (ssl != 0 && len > 0) {
                consumed = len - SSL.bioLengthByteBuffer(bio);
                SSL.bioClearByteBuffer(bio);
            }
            if (consumed > 0) {
                src.position(src.position() + consumed);
            }
        }
        return finish(result.getStatus(), result.getHandshakeStatus(), consumed, result.bytesProduced());
    }

    private SSLEngineResult unwrapLocked(ByteBuffer[] dsts, int offset, int length) throws SSLException {
        HandshakeStatus hs = HandshakeStatus.NOT_HANDSHAKING;
        if (handshake != Handshake.FINISHED) {
            handshake = Handshake.STARTED;
            hs = handshakeStep();
            if (handshake != Handshake.FINISHED) {
                return new SSLEngineResult(Status.OK, hs, 0, 0);
            }
        }
        int produced = 0;
        for (int i = offset; i < offset + length; i++) {
            ByteBuffer dst = dsts[i];
            if (dst.isReadOnly()) {
                throw new ReadOnlyBufferException();
            }
            while (dst.hasRemaining()) {
                int read = readInto(dst);
                if (read > 0) {
                    produced += read;
                    continue;
                }
                int error = SSL.getError(ssl, read);
                if (error == SSL.SSL_ERROR_WANT_READ || error == SSL.SSL_ERROR_WANT_WRITE) {
                    return new SSLEngineResult(Status.OK, pendingOutput(hs), 0, produced);
                }
                if (error == SSL.SSL_ERROR_ZERO_RETURN) {
                    // RFC 8446 §6.1: the peer's close_notify.
                    receivedCloseNotify = true;
                    inboundDone = true;
                    return new SSLEngineResult(Status.CLOSED, pendingOutput(hs), 0, produced);
                }
                SSLException e = new SSLException("SSL_read: " + lastError());
                if (SSL.bioLengthNonApplication(bio) > 0) {
                    // Send the alert first (the caller wraps), then fail.
                    pendingFailure = handshakeFailure(e.getMessage());
                    return new SSLEngineResult(Status.OK, HandshakeStatus.NEED_WRAP, 0, produced);
                }
                throw fatal(e);
            }
        }
        if (SSL.sslPending(ssl) > 0) {
            return new SSLEngineResult(Status.BUFFER_OVERFLOW, pendingOutput(hs), 0, produced);
        }
        return new SSLEngineResult(Status.OK, pendingOutput(hs), 0, produced);
    }

    private int readInto(ByteBuffer dst) {
        int want = dst.remaining();
        if (dst.isDirect()) {
            int read = SSL.readFromSSL(ssl, Buffer.address(dst) + dst.position(), want);
            if (read > 0) {
                dst.position(dst.position() + read);
            }
            return read;
        }
        ByteBuffer scratch = NativeScratch.get(1);
        int read = SSL.readFromSSL(ssl, Buffer.address(scratch), Math.min(want, scratch.capacity()));
        if (read > 0) {
            scratch.limit(read);
            dst.put(scratch);
        }
        return read;
    }

    /** NEED_WRAP when BoringSSL holds bytes for the peer (a KeyUpdate answer, an alert), else {@code hs}. */
    private HandshakeStatus pendingOutput(HandshakeStatus hs) {
        if (hs == HandshakeStatus.FINISHED && SSL.bioLengthNonApplication(bio) > 0) {
            finishedReported = false;
            return HandshakeStatus.NEED_WRAP;
        }
        if (hs == HandshakeStatus.NOT_HANDSHAKING && SSL.bioLengthNonApplication(bio) > 0) {
            return HandshakeStatus.NEED_WRAP;
        }
        return hs;
    }

    // ------------------------------------------------------------------------------------------ handshake

    /** One {@code SSL_do_handshake}; returns what the caller must do next. */
    private HandshakeStatus handshakeStep() throws SSLException {
        clientHelloPending = false;
        OpenSslEngine outer = CURRENT.get();
        CURRENT.set(this);
        int r;
        try {
            r = SSL.doHandshake(ssl);
        } finally {
            CURRENT.set(outer);
        }
        if (r == 1) {
            handshakeCompleted();
            if (SSL.bioLengthNonApplication(bio) > 0) {
                return HandshakeStatus.NEED_WRAP;
            }
            finishedReported = true;
            return HandshakeStatus.FINISHED;
        }
        int error = SSL.getError(ssl, r);
        if (error == SSL.SSL_ERROR_WANT_READ || error == SSL.SSL_ERROR_WANT_WRITE) {
            return SSL.bioLengthNonApplication(bio) > 0 ? HandshakeStatus.NEED_WRAP : HandshakeStatus.NEED_UNWRAP;
        }
        SSLHandshakeException e = handshakeFailure(lastError());
        // The alert (held by BoringSSL, or already in the caller's output buffer) reaches the peer through the
        // next wrap, which then reports the failure.
        pendingFailure = e;
        return HandshakeStatus.NEED_WRAP;
    }

    /**
     * The handshake's failure. When the trust manager refused the peer's chain, its reason leads the message
     * ({@code certificate verification failed: PKIX path building failed: ...}) and its exception is the cause:
     * BoringSSL's own text ({@code CERTIFICATE_VERIFY_FAILED}) says only that the callback said no.
     */
    private SSLHandshakeException handshakeFailure(String reason) {
        Throwable refused = verifyFailure;
        if (refused == null) {
            return new SSLHandshakeException(reason);
        }
        String why = refused.getMessage() != null ? refused.getMessage() : refused.getClass().getName();
        SSLHandshakeException e = new SSLHandshakeException("certificate verification failed: " + why + " ("
                + reason + ')');
        e.initCause(refused);
        return e;
    }

    private void handshakeCompleted() {
        handshake = Handshake.FINISHED;
        reused = SSL.isSessionReused(ssl);
        // Interned: one of the names this side offered, otherwise a copy per connection while it stays open.
        selectedProtocol = intern(SSL.getAlpnSelected(ssl));
        try {
            group = intern(SSL.getGroupName(ssl));
        } catch (Exception unknown) {
            group = null; // a resumed TLS 1.2 session has no key exchange of its own
        }
        byte[][] peer = null;
        if (verifiedPeerChain == null) {
            peer = peerChainDer();
        }
        String sni = context.isClient() ? (sessionKey == null ? null : sniOf(getPeerHost())) : SSL.getSniHostname(ssl);
        session.handshakeDone(SSL.getVersion(ssl), SSL.getCipherForSSL(ssl), SSL.getSessionId(ssl), SSL.getTime(ssl),
                sni, peer,
                verifiedPeerChain, context.localChain());
    }

    private static String intern(String s) {
        return s == null ? null : s.intern();
    }

    private static String sniOf(String host) {
        return host != null && isHostName(host) ? host : null;
    }

    private byte[][] peerChainDer() {
        byte[][] chain = SSL.getPeerCertChain(ssl);
        byte[] leaf = SSL.getPeerCertificate(ssl);
        if (leaf == null) {
            return chain;
        }
        if (chain != null && chain.length > 0 && java.util.Arrays.equals(chain[0], leaf)) {
            return chain;
        }
        // A server's view of the client's chain leaves the leaf out.
        byte[][] full = new byte[chain == null ? 1 : chain.length + 1][];
        full[0] = leaf;
        if (chain != null) {
            System.arraycopy(chain, 0, full, 1, chain.length);
        }
        return full;
    }

    /**
     * Called by the trust bridge inside the handshake: the protocol is known, the peer chain is being checked, and
     * a stapled OCSP response has arrived (TLS 1.3: in the Certificate message; TLS 1.2: CertificateStatus, read
     * before the chain is verified), so trust managers see it in {@code getStatusResponses()}.
     *
     * @throws OcspResponseTooLargeException if the server stapled more than the context's limit
     */
    void verifying() throws OcspResponseTooLargeException {
        if (context.isClient() && context.ocspEnabled()) {
            byte[] stapled = SSL.getOcspResponse(ssl);
            if (stapled != null && stapled.length > 0) {
                if (stapled.length > context.maxOcspResponseBytes()) {
                    throw new OcspResponseTooLargeException(stapled.length, context.maxOcspResponseBytes());
                }
                session.statusResponse(stapled);
            }
        }
        session.handshakeProtocol(SSL.getVersion(ssl), context.isClient() ? sniOf(getPeerHost())
                : SSL.getSniHostname(ssl));
    }

    void verified(X509Certificate[] chain) {
        verifiedPeerChain = chain;
    }

    void verifyFailed(Throwable cause) {
        verifyFailure = cause;
    }

    @Override
    public synchronized void beginHandshake() throws SSLException {
        if (ssl == 0 || outboundClosed) {
            throw new SSLException("the engine is closed");
        }
        if (handshake == Handshake.FINISHED) {
            // Renegotiation is refused (RFC 5746 is not offered; TLS 1.3 has none).
            throw new SSLException("renegotiation is not supported");
        }
        if (handshake == Handshake.NOT_STARTED) {
            handshake = Handshake.STARTED;
            clientHelloPending = context.isClient();
        }
    }

    @Override
    public synchronized HandshakeStatus getHandshakeStatus() {
        if (ssl == 0 || handshake == Handshake.NOT_STARTED) {
            return HandshakeStatus.NOT_HANDSHAKING;
        }
        boolean pending = SSL.bioLengthNonApplication(bio) > 0;
        if (handshake != Handshake.FINISHED || !finishedReported) {
            return pendingFailure != null || clientHelloPending || pending || handshake == Handshake.FINISHED
                    ? HandshakeStatus.NEED_WRAP : HandshakeStatus.NEED_UNWRAP;
        }
        return pending ? HandshakeStatus.NEED_WRAP : HandshakeStatus.NOT_HANDSHAKING;
    }

    // ------------------------------------------------------------------------------------------ closing

    @Override
    public synchronized void closeInbound() throws SSLException {
        if (inboundDone) {
            maybeFree();
            return;
        }
        inboundDone = true;
        boolean truncated = handshake != Handshake.NOT_STARTED && !receivedCloseNotify && !failed;
        maybeFree();
        if (truncated) {
            throw new SSLException("inbound closed before the peer's close_notify (possible truncation)");
        }
    }

    @Override
    public synchronized boolean isInboundDone() {
        return inboundDone || ssl == 0;
    }

    @Override
    public synchronized void closeOutbound() {
        outboundClosed = true;
        if (inboundDone && (handshake != Handshake.FINISHED || failed)) {
            // Nothing left to say: no close_notify before the handshake completed or after a failure.
            free();
        }
        // Otherwise the next wrap sends close_notify and frees the engine (finish()).
    }

    @Override
    public synchronized boolean isOutboundDone() {
        return ssl == 0 || outboundClosed && SSL.bioLengthNonApplication(bio) == 0
                && (handshake != Handshake.FINISHED || (SSL.getShutdown(ssl) & SSL.SSL_SENT_SHUTDOWN) != 0);
    }

    private SSLEngineResult finish(Status status, HandshakeStatus hs, int consumed, int produced) {
        if (ssl != 0 && outboundClosed && inboundDone && SSL.bioLengthNonApplication(bio) == 0) {
            free();
            return new SSLEngineResult(Status.CLOSED, HandshakeStatus.NOT_HANDSHAKING, consumed, produced);
        }
        return new SSLEngineResult(status, hs, consumed, produced);
    }

    private void maybeFree() {
        if (outboundClosed && inboundDone) {
            free();
        }
    }

    private SSLException fatal(SSLException e) {
        fail();
        return e;
    }

    private void fail() {
        failed = true;
        outboundClosed = true;
        inboundDone = true;
        free();
    }

    private void free() {
        if (ssl != 0) {
            ssl = 0;
            bio = 0;
            cleanable.clean();
        }
    }

    private static String lastError() {
        String reason = SSL.getErrorString(SSL.getLastErrorNumber());
        SSL.clearError();
        return reason;
    }

    private static SSLEngineResult result(Status status, HandshakeStatus hs, int consumed) {
        return new SSLEngineResult(status, hs, consumed, 0);
    }

    /** Frees one SSL object once, from the engine or from the Cleaner; holds no reference to the engine. */
    private static final class NativeSsl implements Runnable {
        private final long ssl;

        NativeSsl(long ssl) {
            this.ssl = ssl;
        }

        @Override
        public void run() {
            SSL.freeSSL(ssl);
            LIVE.decrementAndGet();
        }
    }

    // ------------------------------------------------------------------------------------------ configuration

    @Override
    public Runnable getDelegatedTask() {
        return null;
    }

    @Override
    public String[] getSupportedCipherSuites() {
        return CipherSuiteNames.supported().toArray(new String[0]);
    }

    @Override
    public synchronized String[] getEnabledCipherSuites() {
        return enabledCipherSuites.clone();
    }

    /**
     * Narrows this engine's cipher suites to {@code suites}, each of which must be enabled in its
     * {@code SslContext} (see {@link #getEnabledCipherSuites()} before any call). BoringSSL enables TLS 1.3's suites
     * as a set (RFC 8446 §9.1), so either all of the context's TLS 1.3 suites are given or none, which turns TLS 1.3
     * off for this engine; likewise no TLS 1.2 suite turns TLS 1.2 off. Call before the handshake starts.
     *
     * @throws IllegalArgumentException for a suite outside the context's set, part of the TLS 1.3 set, or a choice
     *     that leaves no protocol to negotiate
     * @throws IllegalStateException once the handshake started or the engine closed
     */
    @Override
    public synchronized void setEnabledCipherSuites(String[] suites) {
        Objects.requireNonNull(suites, "suites");
        checkConfigurable("cipher suites");
        List<String> allowed = context.cipherSuites();
        List<String> kept = new ArrayList<>();
        int tls13 = 0;
        for (String suite : suites) {
            if (suite == null || !allowed.contains(suite)) {
                throw new IllegalArgumentException("cipher suite " + suite + " is not enabled in this engine's "
                        + "SslContext; enabled: " + allowed);
            }
            if (!kept.contains(suite)) {
                kept.add(suite);
                tls13 += CipherSuiteNames.TLS13.contains(suite) ? 1 : 0;
            }
        }
        int contextTls13 = 0;
        for (int i = 0; i < allowed.size(); i++) {
            contextTls13 += CipherSuiteNames.TLS13.contains(allowed.get(i)) ? 1 : 0;
        }
        if (tls13 != 0 && tls13 != contextTls13) {
            throw new IllegalArgumentException("BoringSSL enables TLS 1.3's cipher suites together (RFC 8446 §9.1): "
                    + "give all of the context's TLS 1.3 suites or none; given " + kept);
        }
        String[] chosen = kept.toArray(new String[0]);
        restrict(enabledProtocols, chosen);
        enabledCipherSuites = chosen;
    }

    @Override
    public String[] getSupportedProtocols() {
        return new String[] {"TLSv1.3", "TLSv1.2"};
    }

    @Override
    public synchronized String[] getEnabledProtocols() {
        return enabledProtocols.clone();
    }

    /**
     * Narrows this engine's protocol versions to {@code protocols}, each of which must be enabled in its
     * {@code SslContext}. Call before the handshake starts.
     *
     * @throws IllegalArgumentException for a protocol outside the context's set, or a choice that leaves no
     *     protocol with an enabled cipher suite
     * @throws IllegalStateException once the handshake started or the engine closed
     */
    @Override
    public synchronized void setEnabledProtocols(String[] protocols) {
        Objects.requireNonNull(protocols, "protocols");
        checkConfigurable("protocols");
        List<String> allowed = List.of(context.protocols());
        List<String> kept = new ArrayList<>();
        for (String protocol : protocols) {
            if (protocol == null || !allowed.contains(protocol)) {
                throw new IllegalArgumentException("protocol " + protocol + " is not enabled in this engine's "
                        + "SslContext; enabled: " + allowed);
            }
            if (!kept.contains(protocol)) {
                kept.add(protocol);
            }
        }
        String[] chosen = kept.toArray(new String[0]);
        restrict(chosen, enabledCipherSuites);
        enabledProtocols = chosen;
    }

    private void checkConfigurable(String what) {
        if (ssl == 0) {
            throw new IllegalStateException("the engine is closed; its " + what + " can no longer change");
        }
        if (handshake != Handshake.NOT_STARTED) {
            throw new IllegalStateException("the handshake has started; the " + what + " are fixed");
        }
    }

    /** Applies a protocol and cipher suite choice to the SSL object, or throws leaving it as it was. */
    private void restrict(String[] protocols, String[] suites) {
        List<String> suiteList = List.of(suites);
        String tls12Suites = CipherSuiteNames.toOpenSsl(suiteList);
        boolean tls13Suites = false;
        for (String suite : suites) {
            tls13Suites |= CipherSuiteNames.TLS13.contains(suite);
        }
        List<String> protocolList = List.of(protocols);
        boolean tls13 = tls13Suites && protocolList.contains("TLSv1.3");
        boolean tls12 = !tls12Suites.isEmpty() && protocolList.contains("TLSv1.2");
        if (!tls13 && !tls12) {
            throw new IllegalArgumentException("no protocol left to negotiate: protocols " + protocolList
                    + " with cipher suites " + suiteList);
        }
        if (tls12) {
            boolean accepted;
            try {
                accepted = SSL.setCipherSuites(ssl, tls12Suites, false);
            } catch (Exception e) {
                accepted = false;
            }
            if (!accepted) {
                SSL.clearError();
                throw new IllegalArgumentException("BoringSSL refused the cipher suites " + tls12Suites);
            }
        }
        // The context's options already exclude what it does not allow; only its protocols are cleared here.
        if (tls13) {
            SSL.clearOptions(ssl, SSL.SSL_OP_NO_TLSv1_3);
        } else {
            SSL.setOptions(ssl, SSL.SSL_OP_NO_TLSv1_3);
        }
        if (tls12) {
            SSL.clearOptions(ssl, SSL.SSL_OP_NO_TLSv1_2);
        } else {
            SSL.setOptions(ssl, SSL.SSL_OP_NO_TLSv1_2);
        }
    }

    @Override
    public SSLSession getSession() {
        return session;
    }

    @Override
    public synchronized SSLSession getHandshakeSession() {
        return handshake == Handshake.STARTED ? session : null;
    }

    @Override
    public synchronized String getApplicationProtocol() {
        if (handshake != Handshake.FINISHED) {
            return null;
        }
        String p = selectedProtocol;
        return p == null ? "" : p;
    }

    @Override
    public synchronized String getHandshakeApplicationProtocol() {
        return handshake == Handshake.STARTED && ssl != 0 ? SSL.getAlpnSelected(ssl) : null;
    }

    @Override
    public void setUseClientMode(boolean mode) {
        if (mode != context.isClient()) {
            throw new IllegalArgumentException("this engine's mode is fixed by its SslContext (client: "
                    + context.isClient() + ")");
        }
    }

    @Override
    public boolean getUseClientMode() {
        return context.isClient();
    }

    /**
     * Accepts the context's own setting (so {@code setSSLParameters(getSSLParameters())} works); client
     * authentication is chosen on the {@code SslContextBuilder}.
     *
     * @throws UnsupportedOperationException for any other value
     */
    @Override
    public void setNeedClientAuth(boolean need) {
        if (need != context.clientAuthRequired()) {
            throw new UnsupportedOperationException("client authentication is set on the SslContextBuilder");
        }
    }

    @Override
    public boolean getNeedClientAuth() {
        return context.clientAuthRequired();
    }

    /**
     * Accepts the context's own setting (and false when it requires client certificates, which is what
     * {@code SSLEngine.setSSLParameters} passes then); client authentication is chosen on the
     * {@code SslContextBuilder}.
     *
     * @throws UnsupportedOperationException for any other value
     */
    @Override
    public void setWantClientAuth(boolean want) {
        if (want != context.clientAuthOptional() && !(context.clientAuthRequired() && !want)) {
            throw new UnsupportedOperationException("client authentication is set on the SslContextBuilder");
        }
    }

    @Override
    public boolean getWantClientAuth() {
        return context.clientAuthOptional();
    }

    @Override
    public void setEnableSessionCreation(boolean flag) {
        if (!flag) {
            throw new UnsupportedOperationException("session creation is always enabled");
        }
    }

    @Override
    public boolean getEnableSessionCreation() {
        return true;
    }

    @Override
    public SSLParameters getSSLParameters() {
        SSLParameters p = new SSLParameters(getEnabledCipherSuites(), getEnabledProtocols());
        p.setEndpointIdentificationAlgorithm(context.endpointIdentificationAlgorithm());
        p.setNeedClientAuth(context.clientAuthRequired());
        if (!context.clientAuthRequired()) {
            p.setWantClientAuth(context.clientAuthOptional());
        }
        p.setApplicationProtocols(context.applicationProtocols());
        String sni = context.isClient() ? sniOf(getPeerHost()) : null;
        if (sni != null) {
            p.setServerNames(List.of(new SNIHostName(sni)));
        }
        return p;
    }
}
