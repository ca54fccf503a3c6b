package io.weir.handler.ssl.internal.openssl;

import io.netty.internal.tcnative.SSL;
import io.netty.internal.tcnative.SSLSession;
import io.netty.internal.tcnative.SSLSessionCache;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A client's resumable sessions (session ids and tickets), one per {@code host:port}, bounded and least recently
 * used first out. BoringSSL hands each new session over (with a reference this cache owns and frees); a new
 * engine for the same peer offers it. Sessions BoringSSL marks single-use (TLS 1.3 tickets, RFC 8446 §C.4) are
 * offered once. Thread-safe.
 */
final class OpenSslClientSessionCache implements SSLSessionCache {
    private final int maxSessions;
    private final LinkedHashMap<String, Long> sessions = new LinkedHashMap<>(16, 0.75f, true);

    OpenSslClientSessionCache(int maxSessions) {
        this.maxSessions = maxSessions;
    }

    @Override
    public boolean sessionCreated(long ssl, long session) {
        OpenSslEngine engine = OpenSslEngine.current();
        String key = engine == null ? null : engine.sessionKey();
        if (key == null) {
            return false;
        }
        synchronized (this) {
            Long old = sessions.put(key, session);
            if (old != null) {
                SSLSession.free(old);
            }
            Iterator<Map.Entry<String, Long>> it = sessions.entrySet().iterator();
            while (sessions.size() > maxSessions && it.hasNext()) {
                SSLSession.free(it.next().getValue());
                it.remove();
            }
        }
        return true;
    }

    @Override
    public long getSession(long ssl, byte[] sessionId) {
        return -1; // server-side lookups only; this cache serves clients
    }

    /** Offers the cached session for {@code key} to {@code ssl}, if one is still valid. */
    synchronized void resume(long ssl, String key) {
        Long s = sessions.get(key);
        if (s == null) {
            return;
        }
        long session = s;
        long now = System.currentTimeMillis() / 1000;
        if (SSLSession.getTime(session) + SSLSession.getTimeout(session) < now) {
            sessions.remove(key);
            SSLSession.free(session);
            return;
        }
        SSL.setSession(ssl, session);
        if (SSLSession.shouldBeSingleUse(session)) {
            sessions.remove(key);
            SSLSession.free(session);
        }
    }

    /** Frees every cached session (the context is going away). */
    synchronized void clear() {
        for (Long s : sessions.values()) {
            SSLSession.free(s);
        }
        sessions.clear();
    }
}
