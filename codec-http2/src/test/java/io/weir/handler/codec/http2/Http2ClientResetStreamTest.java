package io.weir.handler.codec.http2;

import static io.weir.handler.codec.http2.Http2FrameClient.exchange;
import static io.weir.handler.codec.http2.Http2FrameClient.get;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * RFC 9113 §5.1: frames the server sent before it saw the client's RST_STREAM are ignored on arrival, on a stream
 * the client itself opened as much as on one the server opened; they never end the connection.
 */
class Http2ClientResetStreamTest {

    /** Answers each request with HEADERS, 16 KiB of DATA and trailers, as a gRPC server does. */
    @ChannelHandler.Sharable
    private static final class FullResponse implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame h && h.headers().path() != null) {
                ctx.write(new Http2HeadersFrame(new Http2Headers().status("200"), false));
                ctx.write(new Http2DataFrame(Unpooled.wrappedBuffer(new byte[16 * 1024]), false));
                ctx.writeAndFlush(new Http2HeadersFrame(new Http2Headers().add("grpc-status", "0"), true));
            }
            ReferenceCountUtil.release(msg);
        }
    }

    /** Records what a client stream reads: "headers", "data:<n>", "trailers". */
    private static final class Recorder implements ChannelHandler {
        final List<String> events = new ArrayList<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2DataFrame d) {
                events.add("data:" + d.content().readableBytes());
            } else if (msg instanceof Http2HeadersFrame h) {
                events.add(h.endStream() ? "trailers" : "headers");
            }
            ReferenceCountUtil.release(msg);
        }
    }

    @Test
    void responseFramesInFlightAfterTheClientResetItsStreamAreIgnoredAndTheConnectionStaysUp() throws Exception {
        ChannelInitializer<Channel> serverInit = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new FullResponse());
            }
        };
        EmbeddedChannel server = new EmbeddedChannel(Http2FrameCodec.forServer(),
                new Http2MultiplexHandler(serverInit));
        EmbeddedChannel client = new EmbeddedChannel(Http2FrameCodecBuilder.forClient().build(),
                new Http2MultiplexHandler(new ChannelHandler() { }));
        try {
            exchange(client, server);
            Recorder cancelled = new Recorder();
            Http2StreamChannel first = new Http2StreamChannelBootstrap(client).handler(cancelled).open()
                    .get(5, TimeUnit.SECONDS);
            first.writeAndFlush(new Http2HeadersFrame(get("/cancelled"), true));
            Http2FrameClient.pump(client, server);
            // The server's whole response is now on its way; the client gives up before any of it arrives.
            server.runPendingTasks();
            first.close().get(5, TimeUnit.SECONDS);
            exchange(client, server);

            assertThat(cancelled.events).isEmpty();
            assertThat(client.isOpen()).isTrue();

            Recorder next = new Recorder();
            Http2StreamChannel second = new Http2StreamChannelBootstrap(client).handler(next).open()
                    .get(5, TimeUnit.SECONDS);
            second.writeAndFlush(new Http2HeadersFrame(get("/next"), true));
            exchange(client, server);

            assertThat(second.stream().id()).isEqualTo(3);
            assertThat(next.events).containsExactly("headers", "data:16384", "trailers");
            assertThat(client.isOpen()).isTrue();
        } finally {
            client.finishAndReleaseAll();
            server.finishAndReleaseAll();
        }
    }
}
