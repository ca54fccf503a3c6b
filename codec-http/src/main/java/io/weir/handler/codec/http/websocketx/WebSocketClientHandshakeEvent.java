package io.weir.handler.codec.http.websocketx;

/** The user events a {@link WebSocketClientProtocolHandler} fires as the opening handshake proceeds. */
public enum WebSocketClientHandshakeEvent {
    /** The upgrade request was written. */
    HANDSHAKE_ISSUED,
    /** The 101 answer was validated; frames may now be written. */
    HANDSHAKE_COMPLETE,
    /** No valid answer came within the handshake timeout; the channel is closed. */
    HANDSHAKE_TIMEOUT
}
