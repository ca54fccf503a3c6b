package io.weir.handler.codec.http2;

import static io.weir.handler.codec.http2.Http2FrameClient.find;
import static io.weir.handler.codec.http2.Http2FrameClient.get;
import static io.weir.handler.codec.http2.Http2FrameClient.post;
import static io.weir.handler.codec.http2.internal.Http2Frames.DATA;
import static io.weir.handler.codec.http2.internal.Http2Frames.HEADERS;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.ChannelPromise;
import io.weir.handler.codec.http.DefaultFullHttpResponse;
import io.weir.handler.codec.http.FullHttpRequest;
import io.weir.handler.codec.http.FullHttpResponse;
import io.weir.handler.codec.http.HttpContentCompressor;
import io.weir.handler.codec.http.HttpContentDecompressor;
import io.weir.handler.codec.http.HttpObjectAggregator;
import io.weir.handler.codec.http.HttpResponseStatus;
import io.weir.handler.codec.http.HttpUtil;
import io.weir.handler.codec.http.HttpVersion;
import io.weir.handler.codec.http.LastHttpContent;
import io.weir.handler.codec.http2.Http2FrameClient.Event;
import io.weir.util.ReferenceCountUtil;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

class Http2StreamFrameToHttpObjectCodecTest {

    /** An HTTP/1.1 handler: answers with what it saw of the request, HTTP/1.1 style. */
    @ChannelHandler.Sharable
    static final class Describe implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            FullHttpRequest request = (FullHttpRequest) msg;
            String text = request.method() + " " + request.uri() + " host=" + request.headers().get("host")
                    + " cookie=" + request.headers().get("cookie") + " body="
                    + request.content().toString(StandardCharsets.UTF_8) + " trailer="
                    + request.trailingHeaders().get("x-checksum") + " " + "x".repeat(200);
            request.release();
            ByteBuf body = Unpooled.copiedBuffer(text, StandardCharsets.UTF_8);
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    body);
            HttpUtil.setContentLength(response, body.readableBytes());
            response.headers().set("Connection", "keep-alive, X-Hop").set("X-Hop", "1").set("Keep-Alive", "5")
                    .set("Content-Type", "text/plain");
            ctx.writeAndFlush(response);
        }
    }

    private static Http2FrameClient server(boolean compress) {
        ChannelInitializer<Channel> init = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new Http2StreamFrameToHttpObjectCodec());
                if (compress) {
                    ch.pipeline().addLast(new HttpContentDecompressor(), new HttpContentCompressor(6, 0));
                }
                ch.pipeline().addLast(new HttpObjectAggregator(1024), new Describe());
            }
        };
        return new Http2FrameClient(Http2FrameCodec.forServer(), new Http2MultiplexHandler(init)).handshake();
    }

    @Test
    void http1HandlerServesAnHttp2Request() {
        try (Http2FrameClient c = server(false)) {
            c.headers(1, get("/path?q=1").add("cookie", "a=1").add("cookie", "b=2"), true);
            List<Event> events = c.read();
            Http2Headers response = find(events, HEADERS).headers();
            assertThat(response.status().toString()).isEqualTo("200");
            assertThat(response.get("content-type").toString()).isEqualTo("text/plain");
            assertThat(response.contains("connection")).isFalse();
            assertThat(response.contains("keep-alive")).isFalse();
            assertThat(response.contains("x-hop")).isFalse();
            String body = Http2FrameClient.text(find(events, DATA));
            assertThat(body).startsWith("GET /path?q=1 host=example.com cookie=a=1; b=2 body= trailer=null");
        }
    }

    /** Records the stream frames written through it, and passes them on. */
    private static final class WrittenFrames implements ChannelHandler {
        final List<Object> frames;

        WrittenFrames(List<Object> frames) {
            this.frames = frames;
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof Http2StreamFrame) {
                frames.add(msg);
            }
            ctx.write(msg, promise);
        }
    }

    /**
     * The codec binds its HEADERS, DATA and trailers to the stream channel's stream, so they reach the connection as
     * written: a frame without a stream would be copied onto it, an object per frame.
     */
    @Test
    void framesAreWrittenBoundToTheStreamAndReachTheConnectionUncopied() {
        List<Object> inChild = new ArrayList<>();
        List<Object> inConnection = new ArrayList<>();
        ChannelInitializer<Channel> init = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new WrittenFrames(inChild), new Http2StreamFrameToHttpObjectCodec(),
                        new ChannelHandler() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                ReferenceCountUtil.release(msg);
                                if (msg instanceof LastHttpContent) {
                                    FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                                            HttpResponseStatus.OK, Unpooled.copiedBuffer("body",
                                            StandardCharsets.UTF_8));
                                    response.trailingHeaders().set("x-checksum", "42");
                                    ctx.writeAndFlush(response);
                                }
                            }
                        });
            }
        };
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), new WrittenFrames(inConnection),
                new Http2MultiplexHandler(init)).handshake()) {
            c.headers(1, get("/"), true);
            List<Event> events = c.read();
            assertThat(Http2FrameClient.text(find(events, DATA))).isEqualTo("body");
            // HEADERS, DATA, trailers: the very objects the codec wrote, each already on the child's stream.
            assertThat(inChild).hasSize(3);
            assertThat(inConnection).hasSize(3);
            for (int i = 0; i < 3; i++) {
                assertThat(inConnection.get(i)).isSameAs(inChild.get(i));
                assertThat(((Http2StreamFrame) inChild.get(i)).stream().id()).isEqualTo(1);
            }
        }
    }

    @Test
    void requestBodyAndTrailersReachTheHandler() {
        try (Http2FrameClient c = server(false)) {
            c.headers(1, post("/upload"), false);
            c.data(1, "hello ".getBytes(StandardCharsets.UTF_8), false);
            c.data(1, "world".getBytes(StandardCharsets.UTF_8), false);
            c.headers(1, new Http2Headers().add("x-checksum", "42"), true);
            List<Event> events = c.read();
            assertThat(Http2FrameClient.text(find(events, DATA)))
                    .startsWith("POST /upload host=example.com cookie=null body=hello world trailer=42");
        }
    }

    @Test
    void responsesAreCompressedByTheHttp1Compressor() throws IOException {
        try (Http2FrameClient c = server(true)) {
            c.headers(1, get("/").add("accept-encoding", "gzip"), true);
            List<Event> events = c.read();
            Http2Headers response = find(events, HEADERS).headers();
            assertThat(response.get("content-encoding").toString()).isEqualTo("gzip");
            assertThat(response.contains("transfer-encoding")).isFalse();
            java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
            for (Event e : events) {
                if (e.type() == DATA) {
                    all.writeBytes(e.data());
                }
            }
            byte[] plain = new GZIPInputStream(new ByteArrayInputStream(all.toByteArray())).readAllBytes();
            assertThat(new String(plain, StandardCharsets.UTF_8)).startsWith("GET / host=example.com");
        }
    }

    @Test
    void requestBodiesAreDecompressedByTheHttp1Decompressor() throws IOException {
        java.io.ByteArrayOutputStream gz = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(gz)) {
            out.write("compressed request".getBytes(StandardCharsets.UTF_8));
        }
        byte[] body = gz.toByteArray();
        try (Http2FrameClient c = server(true)) {
            c.headers(1, post("/").add("content-encoding", "gzip").add("content-length",
                    Integer.toString(body.length)), false);
            c.data(1, body, true);
            List<Event> events = c.read();
            assertThat(Http2FrameClient.text(find(events, DATA))).contains("body=compressed request");
        }
    }
}
