package io.weir.handler.codec.http2;

import static io.weir.handler.codec.http2.Http2FrameClient.get;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A frame a child wrote that the connection then fails to put on the wire is reported, never a silent stall. */
class Http2StreamChannelWriteFailureTest {

    /** Next to the transport: once armed, every flushed write fails, as a transport refusing a buffer does. */
    private static final class FailingFlush implements ChannelHandler {
        final IllegalArgumentException refusal = new IllegalArgumentException("not a direct ByteBuffer (test)");
        private final List<ChannelPromise> pending = new ArrayList<>();
        boolean armed;

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (!armed) {
                ctx.write(msg, promise);
                return;
            }
            ReferenceCountUtil.release(msg);
            pending.add(promise);
        }

        @Override
        public void flush(ChannelHandlerContext ctx) {
            if (!armed) {
                ctx.flush();
                return;
            }
            List<ChannelPromise> failing = new ArrayList<>(pending);
            pending.clear();
            for (ChannelPromise promise : failing) {
                promise.tryFailure(refusal);
            }
        }
    }

    @Test
    void aFrameTheConnectionFailsToWriteIsFiredInTheChildAndClosesTheConnection() throws Exception {
        FailingFlush transport = new FailingFlush();
        EmbeddedChannel server = new EmbeddedChannel(Http2FrameCodec.forServer(),
                new Http2MultiplexHandler(new ChannelHandler() { }));
        EmbeddedChannel client = new EmbeddedChannel(transport, Http2FrameCodecBuilder.forClient().build(),
                new Http2MultiplexHandler(new ChannelHandler() { }));
        try {
            for (int i = 0; i < 3; i++) {
                Http2FrameClient.pump(client, server);
                Http2FrameClient.pump(server, client);
            }
            List<Throwable> caught = new ArrayList<>();
            Http2StreamChannel stream = new Http2StreamChannelBootstrap(client).handler(new ChannelHandler() {
                @Override
                public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                    caught.add(cause);
                }
            }).open().get(5, TimeUnit.SECONDS);
            transport.armed = true;
            stream.writeAndFlush(new Http2HeadersFrame(get("/lost"), true));
            client.runPendingTasks();

            assertThat(caught).containsExactly(transport.refusal);
            assertThat(client.isOpen()).isFalse();
            assertThat(stream.isOpen()).isFalse();
        } finally {
            client.finishAndReleaseAll();
            server.finishAndReleaseAll();
        }
    }
}
