package io.weir.handler.codec.http2;

import static io.weir.handler.codec.http2.Http2FrameClient.find;
import static io.weir.handler.codec.http2.Http2FrameClient.get;
import static io.weir.handler.codec.http2.internal.Http2Frames.HEADERS;
import static io.weir.handler.codec.http2.internal.Http2Frames.RST_STREAM;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.http.DefaultFullHttpResponse;
import io.weir.handler.codec.http.FullHttpResponse;
import io.weir.handler.codec.http.HttpResponseStatus;
import io.weir.handler.codec.http.HttpVersion;
import io.weir.handler.codec.http.LastHttpContent;
import io.weir.handler.codec.http2.Http2FrameClient.Event;
import io.weir.handler.codec.http2.internal.Http2Frames;
import io.weir.util.ReferenceCountUtil;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The peer's SETTINGS_MAX_HEADER_LIST_SIZE (RFC 9113 §6.5.2) honoured on the sending side. */
class Http2OutboundHeaderListSizeTest {

    private static final int PEER_LIMIT = 200;

    @Test
    void responseAboveThePeersHeaderListSizeIsNotSentAndTheStreamIsReset() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), app)) {
            c.raw(Unpooled.wrappedBuffer(Http2Frames.connectionPreface()));
            c.settings(Http2Settings.MAX_HEADER_LIST_SIZE, PEER_LIMIT);
            c.frame(Http2Frames.SETTINGS, Http2Frames.FLAG_ACK, 0, new byte[0]);
            c.headers(1, get("/big"), true);
            c.headers(3, get("/small"), true);
            c.read();
            List<Http2HeadersFrame> requests = app.of(Http2HeadersFrame.class);

            Http2Headers big = new Http2Headers().status("200").add("x-large", "v".repeat(PEER_LIMIT));
            ChannelFuture refused = c.channel.writeAndFlush(new Http2HeadersFrame(requests.get(0).stream(), big,
                    true));
            assertThat(refused.cause()).isInstanceOf(Http2OutboundHeaderListSizeException.class);
            Http2OutboundHeaderListSizeException e = (Http2OutboundHeaderListSizeException) refused.cause();
            assertThat(e.streamId()).isEqualTo(1);
            assertThat(e.limit()).isEqualTo(PEER_LIMIT);
            assertThat(e.seen()).isEqualTo(":status".length() + 3 + 32 + "x-large".length() + PEER_LIMIT + 32);
            assertThat(e.error()).isEqualTo(Http2Error.INTERNAL_ERROR);
            List<Event> events = c.read();
            assertThat(find(events, HEADERS)).isNull();
            Event rst = find(events, RST_STREAM);
            assertThat(rst.streamId()).isEqualTo(1);
            assertThat(rst.code()).isEqualTo(Http2Error.INTERNAL_ERROR.code());
            assertThat(requests.get(0).stream().isActive()).isFalse();

            // Nothing of the refused section reached the HPACK tables: the next response decodes.
            c.channel.writeAndFlush(new Http2HeadersFrame(requests.get(1).stream(),
                    new Http2Headers().status("204").add("x-small", "v"), true));
            Event ok = find(c.read(), HEADERS);
            assertThat(ok.streamId()).isEqualTo(3);
            assertThat(ok.headers().get("x-small").toString()).isEqualTo("v");
            assertThat(c.channel.isOpen()).isTrue();
        }
    }

    @Test
    void http1HandlerWritingAnOversizedResponseSeesTheTypedErrorAndTheStreamIsReset() {
        AtomicReference<Throwable> writeFailure = new AtomicReference<>();
        ChannelInitializer<Channel> streams = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new Http2StreamFrameToHttpObjectCodec(), new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ReferenceCountUtil.release(msg);
                        if (msg instanceof LastHttpContent) {
                            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                                    HttpResponseStatus.OK);
                            response.headers().set("x-large", "v".repeat(PEER_LIMIT));
                            ctx.writeAndFlush(response).addListener(f -> writeFailure.set(f.cause()));
                        }
                    }
                });
            }
        };
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(),
                new Http2MultiplexHandler(streams))) {
            c.raw(Unpooled.wrappedBuffer(Http2Frames.connectionPreface()));
            c.settings(Http2Settings.MAX_HEADER_LIST_SIZE, PEER_LIMIT);
            c.frame(Http2Frames.SETTINGS, Http2Frames.FLAG_ACK, 0, new byte[0]);
            c.headers(1, get("/big"), true);
            List<Event> events = c.read();
            assertThat(find(events, HEADERS)).isNull();
            assertThat(find(events, RST_STREAM).code()).isEqualTo(Http2Error.INTERNAL_ERROR.code());
            assertThat(writeFailure.get()).isInstanceOf(Http2OutboundHeaderListSizeException.class);
            assertThat(c.channel.isOpen()).isTrue();
        }
    }

    @Test
    void requestAboveThePeersHeaderListSizeOpensNoStream() {
        FrameRecorder serverApp = new FrameRecorder();
        Http2FrameCodec clientCodec = Http2FrameCodecBuilder.forClient().build();
        EmbeddedChannel client = new EmbeddedChannel(clientCodec, new FrameRecorder());
        EmbeddedChannel server = new EmbeddedChannel(Http2FrameCodecBuilder.forServer()
                .maxHeaderListSize(PEER_LIMIT).build(), serverApp);
        try {
            Http2FrameClient.pump(client, server);
            Http2FrameClient.pump(server, client);
            Http2FrameStream tooBig = clientCodec.newStream();
            ChannelFuture refused = client.writeAndFlush(new Http2HeadersFrame(tooBig,
                    get("/").add("cookie", "c".repeat(PEER_LIMIT)), true));
            assertThat(refused.cause()).isInstanceOf(Http2OutboundHeaderListSizeException.class);
            assertThat(((Http2Exception) refused.cause()).streamId()).isEqualTo(Http2Exception.CONNECTION_STREAM_ID);
            assertThat(tooBig.id()).isEqualTo(-1);

            Http2FrameStream fits = clientCodec.newStream();
            assertThat(client.writeAndFlush(new Http2HeadersFrame(fits, get("/"), true)).isSuccess()).isTrue();
            Http2FrameClient.pump(client, server);
            assertThat(fits.id()).isEqualTo(1);
            assertThat(serverApp.of(Http2HeadersFrame.class)).hasSize(1);
            assertThat(client.isOpen()).isTrue();
        } finally {
            client.finishAndReleaseAll();
            server.finishAndReleaseAll();
        }
    }
}
