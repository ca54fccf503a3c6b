package io.weir.microbench.http.load;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http2.AbstractHttp2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;

/**
 * Netty 4.2's second HTTP/2 server style for {@code microbench/h2load-compare}: one {@code Http2ConnectionHandler}
 * per connection with an {@code Http2FrameListener} (no child channels), h2c by prior knowledge, the same logic
 * and response bytes as {@link WeirH2cServer}; flushed once per read by the connection handler.
 *
 * <p>Usage: {@code java -cp microbenchmarks.jar io.weir.microbench.http.load.NettyH2cConnectionHandlerServer
 * [--port 8080] [--transport nio|epoll|io_uring] [--threads 1]}; prints one line when it listens.
 */
public final class NettyH2cConnectionHandlerServer {

    private NettyH2cConnectionHandlerServer() {
    }

    public static void main(String[] args) throws Exception {
        LoadServerArgs options = LoadServerArgs.parse(args);
        ByteBuf body = Unpooled.directBuffer(WeirH2cServer.BODY.length).writeBytes(WeirH2cServer.BODY);
        NettyH2cMultiplexServer.run("netty h2c connection-handler server", options, body,
                new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(newHandler(body));
                    }
                });
    }

    /**
     * A new connection handler answering every request stream with {@code body} (retained per response, released
     * by the caller once the server stops); used by the h2c server here and by the TLS one,
     * {@link NettyTlsH2ConnectionHandlerServer}.
     */
    static Http2ConnectionHandler newHandler(ByteBuf body) {
        return new Builder(body).build();
    }

    private static final class Builder extends AbstractHttp2ConnectionHandlerBuilder<Handler, Builder> {
        private final ByteBuf body;

        Builder(ByteBuf body) {
            this.body = body;
            server(true);
        }

        @Override
        public Handler build() {
            return super.build();
        }

        @Override
        protected Handler build(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder,
                Http2Settings initialSettings) {
            Handler handler = new Handler(decoder, encoder, initialSettings, body);
            frameListener(handler.listener);
            return handler;
        }
    }

    private static final class Handler extends Http2ConnectionHandler {
        final Listener listener = new Listener();
        private final ByteBuf body;

        Handler(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings initialSettings,
                ByteBuf body) {
            super(decoder, encoder, initialSettings);
            this.body = body;
        }

        private final class Listener extends Http2FrameAdapter {
            @Override
            public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                    boolean endOfStream) {
                if (endOfStream) {
                    respond(ctx, streamId);
                }
            }

            @Override
            public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers,
                    int streamDependency, short weight, boolean exclusive, int padding, boolean endOfStream) {
                onHeadersRead(ctx, streamId, headers, padding, endOfStream);
            }

            @Override
            public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding,
                    boolean endOfStream) {
                if (endOfStream) {
                    respond(ctx, streamId);
                }
                return data.readableBytes() + padding;
            }

            private void respond(ChannelHandlerContext ctx, int streamId) {
                encoder().writeHeaders(ctx, streamId, NettyH2cMultiplexServer.responseHeaders(), 0, false,
                        ctx.voidPromise());
                encoder().writeData(ctx, streamId, body.retainedDuplicate(), 0, true, ctx.voidPromise());
            }
        }
    }
}
