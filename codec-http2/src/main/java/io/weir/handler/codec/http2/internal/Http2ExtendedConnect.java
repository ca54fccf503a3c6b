package io.weir.handler.codec.http2.internal;

import static io.weir.handler.codec.http2.Http2Exception.connectionError;
import static io.weir.handler.codec.http2.Http2Exception.streamError;

import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.handler.codec.http2.Http2Settings;
import io.weir.util.concurrent.EventExecutor;
import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.Promise;
import java.nio.channels.ClosedChannelException;

/**
 * The extended CONNECT method of RFC 8441 (WebSocket and other protocols tunnelled in a stream) on one
 * connection: what each side said in SETTINGS_ENABLE_CONNECT_PROTOCOL and what it allows. Kept apart from
 * {@link Http2Connection} so the connection only calls it at three points (settings received, headers received, headers
 * written). Only used on the connection's event loop.
 */
final class Http2ExtendedConnect {
    private final boolean localEnabled;
    private boolean peerEnabled;
    private boolean peerSettingsSeen;
    private Promise<Boolean> peerSupport;

    /** {@code localSettings}: what this side sends in its first SETTINGS. */
    Http2ExtendedConnect(Http2Settings localSettings) {
        this.localEnabled = localSettings.get(Http2Settings.ENABLE_CONNECT_PROTOCOL, 0) == 1;
    }

    /** Whether this side advertised SETTINGS_ENABLE_CONNECT_PROTOCOL = 1. */
    boolean localEnabled() {
        return localEnabled;
    }

    /** Whether the peer advertised SETTINGS_ENABLE_CONNECT_PROTOCOL = 1 (and has not taken it back). */
    boolean peerEnabled() {
        return peerEnabled;
    }

    /**
     * Applies the peer's SETTINGS (or the HTTP2-Settings of an h2c upgrade).
     *
     * @throws Http2Exception connection PROTOCOL_ERROR when the peer turns the setting from 1 back to 0
     */
    void onPeerSettings(Http2Settings settings) throws Http2Exception {
        if (settings.has(Http2Settings.ENABLE_CONNECT_PROTOCOL)) {
            boolean enabled = settings.get(Http2Settings.ENABLE_CONNECT_PROTOCOL, 0) == 1;
            if (peerEnabled && !enabled) {
                // RFC 8441 §3: once sent as 1, SETTINGS_ENABLE_CONNECT_PROTOCOL MUST NOT be sent as 0.
                throw connectionError(Http2Error.PROTOCOL_ERROR,
                        "SETTINGS_ENABLE_CONNECT_PROTOCOL went from 1 to 0 (RFC 8441 §3)");
            }
            peerEnabled = enabled;
        }
        peerSettingsSeen = true;
        if (peerSupport != null) {
            peerSupport.trySuccess(peerEnabled);
        }
    }

    /**
     * Checks a request received (server side) for {@code :protocol}.
     *
     * @return a stream error PROTOCOL_ERROR, or {@code null} when the request may be served
     */
    Http2Exception checkReceived(int streamId, Http2Headers headers) {
        if (!localEnabled && headers.protocol() != null) {
            // RFC 8441 §4: :protocol is only meaningful once SETTINGS_ENABLE_CONNECT_PROTOCOL = 1 was sent; a
            // request carrying it otherwise is malformed (RFC 9113 §8.1.1).
            return streamError(streamId, Http2Error.PROTOCOL_ERROR, ":protocol on stream " + streamId
                    + " but SETTINGS_ENABLE_CONNECT_PROTOCOL was not sent (RFC 8441 §4)");
        }
        return null;
    }

    /** Why {@code headers} may not be sent (client side), or {@code null} when they may. */
    String checkSending(Http2Headers headers) {
        if (headers.protocol() != null && !peerEnabled) {
            // RFC 8441 §4: an extended CONNECT waits for the server's SETTINGS_ENABLE_CONNECT_PROTOCOL = 1.
            return "extended CONNECT (:protocol " + headers.protocol() + ") before the peer sent "
                    + "SETTINGS_ENABLE_CONNECT_PROTOCOL = 1 (RFC 8441 §4)";
        }
        return null;
    }

    /** Completes with {@link #peerEnabled()} once the peer's first SETTINGS arrived. */
    Future<Boolean> peerSupport(EventExecutor executor) {
        if (peerSettingsSeen) {
            return executor.newSucceededFuture(peerEnabled);
        }
        if (peerSupport == null) {
            peerSupport = executor.newPromise();
        }
        return peerSupport;
    }

    /** The connection ended before the peer's SETTINGS. */
    void connectionClosed() {
        if (peerSupport != null) {
            peerSupport.tryFailure(new ClosedChannelException());
        }
    }
}
