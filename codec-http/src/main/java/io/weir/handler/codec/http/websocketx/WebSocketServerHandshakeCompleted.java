package io.weir.handler.codec.http.websocketx;

import io.weir.handler.codec.http.HttpHeaders;

/**
 * The user event a {@link WebSocketServerProtocolHandler} fires once its 101 answer is written and the pipeline
 * speaks WebSocket: the upgrade request's URI and headers, and the subprotocol chosen ({@code null} if none).
 *
 * @param requestUri the request-target of the upgrade request
 * @param requestHeaders its header fields (a copy the application may keep)
 * @param subprotocol the subprotocol selected, or null
 * @param extensions the {@code Sec-WebSocket-Extensions} value answered, or null when no extension is in use
 */
public record WebSocketServerHandshakeCompleted(String requestUri, HttpHeaders requestHeaders, String subprotocol,
                                                String extensions) {
}
