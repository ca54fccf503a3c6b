package io.weir.handler.codec.http.websocketx;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPipeline;
import io.weir.handler.codec.http.HttpClientCodec;
import io.weir.handler.codec.http.HttpContentDecoder;
import io.weir.handler.codec.http.HttpContentEncoder;
import io.weir.handler.codec.http.HttpObjectAggregator;
import io.weir.handler.codec.http.HttpRequestDecoder;
import io.weir.handler.codec.http.HttpRequestEncoder;
import io.weir.handler.codec.http.HttpResponseDecoder;
import io.weir.handler.codec.http.HttpResponseEncoder;
import io.weir.handler.codec.http.HttpServerCodec;
import io.weir.handler.codec.http.HttpServerExpectContinueHandler;
import io.weir.handler.codec.http.HttpServerKeepAliveHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns an HTTP/1.1 pipeline into a WebSocket one after the opening handshake: the frame encoder and decoder (and
 * permessage-deflate's handlers) go where the HTTP codec was, and the HTTP handlers are removed. Bytes the HTTP
 * codec had already read past the handshake reach the frame decoder, which is added before the codec goes.
 */
final class WebSocketPipeline {
    static final String ENCODER = "ws-encoder";
    static final String DECODER = "ws-decoder";
    static final String DEFLATER = "ws-deflater";
    static final String INFLATER = "ws-inflater";

    private WebSocketPipeline() {
    }

    /**
     * Replaces the HTTP handlers of {@code ctx}'s pipeline with the WebSocket codec. Called on the event loop after
     * the 101 response was written (server) or read (client).
     *
     * @throws IllegalStateException if the pipeline has no HTTP codec to replace
     */
    static void switchToWebSocket(ChannelHandlerContext ctx, boolean server, WebSocketConfig config,
                                  PerMessageDeflate deflate) {
        ChannelPipeline p = ctx.pipeline();
        String codecName = null;
        List<String> http = new ArrayList<>();
        for (Map.Entry<String, ChannelHandler> e : p) {
            ChannelHandler h = e.getValue();
            if (h instanceof HttpServerCodec || h instanceof HttpClientCodec || h instanceof HttpRequestDecoder
                    || h instanceof HttpResponseDecoder) {
                if (codecName == null) {
                    codecName = e.getKey();
                }
                http.add(e.getKey());
            } else if (h instanceof HttpObjectAggregator || h instanceof HttpServerKeepAliveHandler
                    || h instanceof HttpContentEncoder || h instanceof HttpContentDecoder
                    || h instanceof HttpServerExpectContinueHandler || h instanceof HttpRequestEncoder
                    || h instanceof HttpResponseEncoder) {
                http.add(e.getKey());
            }
        }
        if (codecName == null) {
            throw new IllegalStateException("no HTTP codec in the pipeline: " + p.names());
        }
        addCodec(p, codecName, server, config, deflate);
        for (int i = 0; i < http.size(); i++) {
            p.remove(http.get(i));
        }
    }

    /**
     * Adds the frame encoder and decoder (and permessage-deflate's handlers) after the handler named {@code after},
     * which carries the connection's bytes ({@code ByteBuf} both ways).
     *
     * @return the name of the last handler added
     */
    static String addCodec(ChannelPipeline p, String after, boolean server, WebSocketConfig config,
                           PerMessageDeflate deflate) {
        WebSocketFrameDecoder decoder = new WebSocketFrameDecoder(server, config);
        // Inbound: bytes -> decoder -> inflater; outbound: deflater -> encoder -> bytes.
        p.addAfter(after, ENCODER, new WebSocketFrameEncoder(!server));
        p.addAfter(ENCODER, DECODER, decoder);
        if (deflate == null) {
            return DECODER;
        }
        decoder.allowReservedBits(WebSocketFrame.RSV1);
        p.addAfter(DECODER, DEFLATER, deflate.newEncoder());
        p.addAfter(DEFLATER, INFLATER, deflate.newDecoder());
        return INFLATER;
    }
}
