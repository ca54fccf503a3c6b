package io.weir.handler.codec.http.websocketx;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.http.HttpClientCodec;
import io.weir.handler.codec.http.HttpObjectAggregator;
import io.weir.handler.codec.http.HttpServerCodec;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;

/** A WebSocket server and client on two embedded channels whose bytes are carried across by {@link #pump()}. */
final class WebSocketPeers {
    /** Records what reaches the end of a pipeline: messages, user events and exceptions. */
    static final class Recorder implements ChannelHandler {
        final LinkedBlockingQueue<Object> messages = new LinkedBlockingQueue<>();
        final List<Object> events = new ArrayList<>();
        final List<Throwable> errors = new ArrayList<>();
        final boolean echo;

        Recorder(boolean echo) {
            this.echo = echo;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (echo && (msg instanceof TextWebSocketFrame || msg instanceof BinaryWebSocketFrame
                    || msg instanceof ContinuationWebSocketFrame)) {
                ctx.writeAndFlush(msg);
                return;
            }
            messages.add(msg);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            events.add(evt);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            errors.add(cause);
        }

        void releaseAll() {
            Object m;
            while ((m = messages.poll()) != null) {
                io.weir.util.ReferenceCountUtil.release(m);
            }
        }
    }

    final EmbeddedChannel server;
    final EmbeddedChannel client;
    final Recorder serverApp;
    final Recorder clientApp;
    final WebSocketClientProtocolHandler clientHandler;

    WebSocketPeers(WebSocketServerProtocolHandler serverHandler, WebSocketClientHandshaker handshaker,
                   boolean serverEchoes) {
        serverApp = new Recorder(serverEchoes);
        clientApp = new Recorder(false);
        server = new EmbeddedChannel(new HttpServerCodec(), new HttpObjectAggregator(65536), serverHandler, serverApp);
        clientHandler = new WebSocketClientProtocolHandler(handshaker);
        client = new EmbeddedChannel(new HttpClientCodec(), new HttpObjectAggregator(65536), clientHandler, clientApp);
    }

    static WebSocketClientHandshaker handshaker(PerMessageDeflateConfig deflate, List<String> subprotocols) {
        return new WebSocketClientHandshaker(URI.create("ws://localhost/ws"), subprotocols, null,
                new WebSocketConfig(), deflate);
    }

    /** Carries bytes both ways until neither side has anything more to send. */
    void pump() {
        boolean moved;
        do {
            moved = carry(client, server) | carry(server, client);
        } while (moved);
    }

    private static boolean carry(EmbeddedChannel from, EmbeddedChannel to) {
        boolean moved = false;
        Object o;
        while ((o = from.readOutbound()) != null) {
            moved = true;
            if (to.isOpen()) {
                to.writeInbound(o);
            } else {
                ((ByteBuf) o).release();
            }
        }
        return moved;
    }

    void finish() {
        serverApp.releaseAll();
        clientApp.releaseAll();
        server.finishAndReleaseAll();
        client.finishAndReleaseAll();
    }
}
