package io.weir.handler.codec.http2;

import static io.weir.handler.codec.http2.Http2FrameClient.exchange;
import static io.weir.handler.codec.http2.Http2FrameClient.get;
import static io.weir.handler.codec.http2.Http2FrameClient.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.ssl.SelfSignedCertificate;
import io.weir.handler.ssl.SslContext;
import io.weir.handler.ssl.SslContextBuilder;
import io.weir.handler.ssl.SslHandler;
import io.weir.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
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

    /** A client stream whose handler records every exception it is told about. */
    private static Http2StreamChannel openRecordingFailures(EmbeddedChannel client, List<Throwable> caught)
            throws Exception {
        return new Http2StreamChannelBootstrap(client).handler(new ChannelHandler() {
            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                caught.add(cause);
            }
        }).open().get(5, TimeUnit.SECONDS);
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
            Http2StreamChannel stream = openRecordingFailures(client, caught);
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

    /**
     * Through TLS, the stream's HEADERS and DATA travel in one record whose write fails as a whole: the failure of
     * the record still reaches the stream channel, although its frames went down with its shared write promise.
     */
    @Test
    void aFrameLostInACoalescedTlsRecordIsFiredInTheChildAndClosesTheConnection() throws Exception {
        SelfSignedCertificate cert = SelfSignedCertificate.create("localhost");
        SslContext serverTls = SslContextBuilder.forServer(cert.privateKey(), cert.certificate()).build();
        SslContext clientTls = SslContextBuilder.forClient().trustManager(cert.certificate()).build();
        FailingFlush transport = new FailingFlush();
        SslHandler clientSsl = clientTls.newHandler(ByteBufAllocator.DEFAULT, "localhost", 443);
        EmbeddedChannel server = new EmbeddedChannel(serverTls.newHandler(ByteBufAllocator.DEFAULT),
                Http2FrameCodec.forServer(), new Http2MultiplexHandler(new ChannelHandler() { }));
        EmbeddedChannel client = new EmbeddedChannel(transport, clientSsl, Http2FrameCodecBuilder.forClient().build(),
                new Http2MultiplexHandler(new ChannelHandler() { }));
        try {
            for (int i = 0; i < 6; i++) {
                Http2FrameClient.pump(client, server);
                Http2FrameClient.pump(server, client);
            }
            assertThat(clientSsl.handshakeFuture().isSuccess()).isTrue();
            List<Throwable> caught = new ArrayList<>();
            Http2StreamChannel stream = openRecordingFailures(client, caught);
            transport.armed = true;
            stream.write(new Http2HeadersFrame(post("/lost"), false));
            stream.writeAndFlush(new Http2DataFrame(Unpooled.wrappedBuffer(new byte[100]), true));
            client.runPendingTasks();

            assertThat(caught).containsExactly(transport.refusal);
            assertThat(client.isOpen()).isFalse();
            assertThat(stream.isOpen()).isFalse();
        } finally {
            client.finishAndReleaseAll();
            server.finishAndReleaseAll();
        }
    }

    /** Closing a stream channel while its DATA waits for window resets the stream; the connection carries on. */
    @Test
    void dataQueuedOnAStreamTheClientResetsIsDroppedWithoutEndingTheConnection() throws Exception {
        endWhileDataWaitsForWindow(Http2StreamChannel::close);
    }

    /**
     * A reset the stream channel writes while its DATA waits for window drops that DATA: the reset itself is
     * written, and its write succeeds, although the connection failed the dropped frames during that write.
     */
    @Test
    void aResetWrittenWhileDataWaitsForWindowSucceedsAndDropsTheData() throws Exception {
        endWhileDataWaitsForWindow(stream -> stream.writeAndFlush(new Http2ResetFrame(Http2Error.CANCEL)));
    }

    /**
     * Opens a client stream whose upload waits for window, ends the stream with {@code end}, and checks that the end
     * succeeded, that the upload's write had succeeded when it was accepted, and that no failure was fired and the
     * connection stayed open.
     */
    private static void endWhileDataWaitsForWindow(Function<Http2StreamChannel, ChannelFuture> end) throws Exception {
        EmbeddedChannel server = new EmbeddedChannel(Http2FrameCodec.forServer(),
                new Http2MultiplexHandler(new ChannelHandler() { }));
        EmbeddedChannel client = new EmbeddedChannel(Http2FrameCodecBuilder.forClient().build(),
                new Http2MultiplexHandler(new ChannelHandler() { }));
        try {
            exchange(client, server);
            List<Throwable> caught = new ArrayList<>();
            Http2StreamChannel stream = openRecordingFailures(client, caught);
            stream.write(new Http2HeadersFrame(post("/upload"), false));
            // More than the peer's initial 65,535-octet window: the rest waits in the codec's flow-control queue.
            ChannelFuture data = stream.writeAndFlush(new Http2DataFrame(Unpooled.wrappedBuffer(new byte[100_000]),
                    true));
            client.runPendingTasks();
            ChannelFuture ended = end.apply(stream);
            client.runPendingTasks();
            assertThat(ended.await(5, TimeUnit.SECONDS)).isTrue();
            exchange(client, server);

            assertThat(data.isSuccess()).as("accepted before the end").isTrue();
            assertThat(ended.isSuccess()).as("end: %s", ended.cause()).isTrue();
            assertThat(caught).isEmpty();
            assertThat(client.isOpen()).isTrue();
            assertThat(stream.isOpen()).isFalse();
        } finally {
            client.finishAndReleaseAll();
            server.finishAndReleaseAll();
        }
    }
}
