package io.weir.handler.codec.http.websocketx;

import io.weir.channel.ChannelHandlerContext;

/**
 * The protocol handler of a WebSocket whose handshake was not an HTTP/1.1 Upgrade (RFC 8441's extended CONNECT on
 * an HTTP/2 stream): open from the moment it is added, it answers pings, runs the close handshake and its timeout,
 * as {@link WebSocketServerProtocolHandler} and {@link WebSocketClientProtocolHandler} do after theirs. Only called
 * on the channel's event loop.
 */
final class WebSocketTunnelProtocolHandler extends WebSocketProtocolHandler {
    static final String NAME = "ws-protocol";

    WebSocketTunnelProtocolHandler(WebSocketConfig config, boolean server) {
        super(config, server);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        webSocketOpened(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        frameRead(ctx, msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancelTimers();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancelTimers();
    }
}
