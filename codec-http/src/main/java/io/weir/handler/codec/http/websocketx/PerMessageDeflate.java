package io.weir.handler.codec.http.websocketx;

import java.util.List;
import java.util.Map;

/**
 * permessage-deflate (RFC 7692) as agreed for one connection, and the negotiation that agrees it (the rules are
 * listed in {@link PerMessageDeflateConfig}).
 */
final class PerMessageDeflate {
    static final String NAME = "permessage-deflate";
    static final String SERVER_NO_CONTEXT_TAKEOVER = "server_no_context_takeover";
    static final String CLIENT_NO_CONTEXT_TAKEOVER = "client_no_context_takeover";
    static final String SERVER_MAX_WINDOW_BITS = "server_max_window_bits";
    static final String CLIENT_MAX_WINDOW_BITS = "client_max_window_bits";
    /** java.util.zip.Deflater's window: 2^15 bytes, not settable. */
    static final int DEFLATER_WINDOW_BITS = 15;
    static final int MIN_WINDOW_BITS = 8;

    private final int compressionLevel;
    /** Whether our compressor starts afresh for each message. */
    private final boolean localNoContextTakeover;
    private final int maxMessageBytes;
    /** The Sec-WebSocket-Extensions element a server answers (null on a client). */
    private final String response;

    private PerMessageDeflate(int compressionLevel, boolean localNoContextTakeover, int maxMessageBytes,
                              String response) {
        this.compressionLevel = compressionLevel;
        this.localNoContextTakeover = localNoContextTakeover;
        this.maxMessageBytes = maxMessageBytes;
        this.response = response;
    }

    String response() {
        return response;
    }

    PerMessageDeflateEncoder newEncoder() {
        return new PerMessageDeflateEncoder(compressionLevel, localNoContextTakeover);
    }

    PerMessageDeflateDecoder newDecoder() {
        return new PerMessageDeflateDecoder(maxMessageBytes);
    }

    /** The offer a client sends. */
    static String offer(PerMessageDeflateConfig config) {
        StringBuilder b = new StringBuilder(NAME);
        if (config.serverNoContextTakeover()) {
            b.append("; ").append(SERVER_NO_CONTEXT_TAKEOVER);
        }
        if (config.clientNoContextTakeover()) {
            b.append("; ").append(CLIENT_NO_CONTEXT_TAKEOVER);
        }
        return b.toString();
    }

    /**
     * A server's choice among the client's offers (in the client's order of preference): the first
     * permessage-deflate offer it can honour, or null when it declines them all (or the header is malformed).
     */
    static PerMessageDeflate acceptOffer(List<String> headerValues, PerMessageDeflateConfig config,
                                         WebSocketConfig limits) {
        List<WebSocketExtensionParameters.Extension> offers = WebSocketExtensionParameters.parse(headerValues);
        if (offers == null) {
            return null;
        }
        for (int i = 0; i < offers.size(); i++) {
            WebSocketExtensionParameters.Extension e = offers.get(i);
            if (!NAME.equals(e.name()) || e.duplicateParam()) {
                continue;
            }
            boolean serverNoContext = config.serverNoContextTakeover();
            boolean clientNoContext = config.clientNoContextTakeover();
            boolean echoServerWindow = false;
            boolean ok = true;
            for (Map.Entry<String, String> p : e.params().entrySet()) {
                String v = p.getValue();
                switch (p.getKey()) {
                    case SERVER_NO_CONTEXT_TAKEOVER -> {
                        ok &= v == null;
                        serverNoContext = true;
                    }
                    case CLIENT_NO_CONTEXT_TAKEOVER -> {
                        ok &= v == null;
                        clientNoContext = true;
                    }
                    case SERVER_MAX_WINDOW_BITS -> {
                        // §7.1.2.1: our compressor must not use a bigger window; the JDK's is fixed at 15.
                        int bits = windowBits(v);
                        ok &= bits == DEFLATER_WINDOW_BITS;
                        echoServerWindow = true;
                    }
                    case CLIENT_MAX_WINDOW_BITS -> {
                        // §7.1.2.2: bare or 8..15; we inflate any window, so we accept and do not answer it.
                        ok &= v == null || windowBits(v) > 0;
                    }
                    default -> ok = false;
                }
            }
            if (!ok) {
                continue;
            }
            StringBuilder r = new StringBuilder(NAME);
            if (serverNoContext) {
                r.append("; ").append(SERVER_NO_CONTEXT_TAKEOVER);
            }
            if (clientNoContext) {
                r.append("; ").append(CLIENT_NO_CONTEXT_TAKEOVER);
            }
            if (echoServerWindow) {
                r.append("; ").append(SERVER_MAX_WINDOW_BITS).append('=').append(DEFLATER_WINDOW_BITS);
            }
            return new PerMessageDeflate(config.compressionLevel(), serverNoContext, limits.maxMessageBytes(),
                    r.toString());
        }
        return null;
    }

    /**
     * A client's check of the server's answer: the agreed extension, or null when the server answered none.
     *
     * @throws WebSocketHandshakeException if the answer names anything not offered, or parameters we cannot honour
     */
    static PerMessageDeflate acceptResponse(List<String> headerValues, PerMessageDeflateConfig config,
                                            WebSocketConfig limits) {
        if (headerValues.isEmpty()) {
            return null;
        }
        List<WebSocketExtensionParameters.Extension> answered = WebSocketExtensionParameters.parse(headerValues);
        if (answered == null) {
            throw new WebSocketHandshakeException(101, "malformed Sec-WebSocket-Extensions: " + headerValues);
        }
        if (answered.isEmpty()) {
            return null;
        }
        if (config == null) {
            throw new WebSocketHandshakeException(101, "server answered extensions not offered: " + headerValues);
        }
        if (answered.size() > 1) {
            throw new WebSocketHandshakeException(101, "server answered more than one extension: " + headerValues);
        }
        WebSocketExtensionParameters.Extension e = answered.get(0);
        if (!NAME.equals(e.name()) || e.duplicateParam()) {
            throw new WebSocketHandshakeException(101, "server answered an extension not offered: " + e.name());
        }
        boolean clientNoContext = config.clientNoContextTakeover();
        for (Map.Entry<String, String> p : e.params().entrySet()) {
            String v = p.getValue();
            boolean ok = switch (p.getKey()) {
                case SERVER_NO_CONTEXT_TAKEOVER -> v == null;
                case CLIENT_NO_CONTEXT_TAKEOVER -> {
                    clientNoContext = true;
                    yield v == null;
                }
                // Any window the server compresses with inflates here.
                case SERVER_MAX_WINDOW_BITS -> windowBits(v) > 0;
                // Not offered; and our compressor cannot use a window below 15.
                case CLIENT_MAX_WINDOW_BITS -> windowBits(v) == DEFLATER_WINDOW_BITS;
                default -> false;
            };
            if (!ok) {
                throw new WebSocketHandshakeException(101,
                        "permessage-deflate parameter refused: " + p.getKey() + (v == null ? "" : "=" + v));
            }
        }
        return new PerMessageDeflate(config.compressionLevel(), clientNoContext, limits.maxMessageBytes(), null);
    }

    /** 8..15, or -1 if {@code v} is absent or not such a number. */
    private static int windowBits(String v) {
        if (v == null || v.isEmpty() || v.length() > 2) {
            return -1;
        }
        int bits = 0;
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            bits = bits * 10 + (c - '0');
        }
        return bits >= MIN_WINDOW_BITS && bits <= DEFLATER_WINDOW_BITS && v.charAt(0) != '0' ? bits : -1;
    }
}
