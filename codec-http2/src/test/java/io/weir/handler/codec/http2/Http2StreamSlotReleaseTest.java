package io.weir.handler.codec.http2;

import static io.weir.handler.codec.http2.Http2FrameClient.exchange;
import static io.weir.handler.codec.http2.Http2FrameClient.get;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
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
 * A stream stops counting against the peer's SETTINGS_MAX_CONCURRENT_STREAMS before its child channel's close is
 * observable, so a request issued from the previous child's closeFuture is not refused.
 */
class Http2StreamSlotReleaseTest {

    /** Answers each request with HEADERS and a body ending the stream. */
    @ChannelHandler.Sharable
    private static final class Answer implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame h && h.headers().path() != null) {
                ctx.write(new Http2HeadersFrame(new Http2Headers().status("200"), false));
                ctx.writeAndFlush(new Http2DataFrame(Unpooled.copiedBuffer("ok", StandardCharsets.UTF_8), true));
            }
            ReferenceCountUtil.release(msg);
        }
    }

    /** A client stream that closes itself as it reads the frame ending its stream, as a finished call does. */
    private static final class CloseOnEnd implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            boolean end = msg instanceof Http2DataFrame d && d.endStream();
            ReferenceCountUtil.release(msg);
            if (end) {
                ctx.close();
            }
        }
    }

    @Test
    void aStreamOpenedFromThePreviousChildsCloseFutureFitsUnderAPeerLimitOfOne() throws Exception {
        ChannelInitializer<Channel> serverInit = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new Answer());
            }
        };
        EmbeddedChannel server = new EmbeddedChannel(Http2FrameCodecBuilder.forServer().maxConcurrentStreams(1)
                .build(), new Http2MultiplexHandler(serverInit));
        EmbeddedChannel client = new EmbeddedChannel(Http2FrameCodecBuilder.forClient().build(),
                new Http2MultiplexHandler(new ChannelHandler() { }));
        try {
            exchange(client, server);
            Http2StreamChannel first = new Http2StreamChannelBootstrap(client).handler(new CloseOnEnd()).open()
                    .get(5, TimeUnit.SECONDS);
            List<ChannelFuture> nextWrites = new ArrayList<>();
            first.closeFuture().addListener(f -> {
                Http2StreamChannel next = new Http2StreamChannelBootstrap(client).handler(new CloseOnEnd()).open()
                        .getNow();
                nextWrites.add(next.writeAndFlush(new Http2HeadersFrame(get("/second"), true)));
            });
            first.writeAndFlush(new Http2HeadersFrame(get("/first"), true)).get(5, TimeUnit.SECONDS);
            exchange(client, server);

            assertThat(first.isOpen()).isFalse();
            assertThat(nextWrites).hasSize(1);
            assertThat(nextWrites.get(0).isDone()).isTrue();
            assertThat(nextWrites.get(0).cause()).isNull();
            assertThat(client.isOpen()).isTrue();
        } finally {
            client.finishAndReleaseAll();
            server.finishAndReleaseAll();
        }
    }
}
