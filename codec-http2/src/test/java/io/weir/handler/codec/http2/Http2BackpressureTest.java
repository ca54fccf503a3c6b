package io.weir.handler.codec.http2;

import static io.weir.handler.codec.http2.Http2FrameClient.find;
import static io.weir.handler.codec.http2.Http2FrameClient.get;
import static io.weir.handler.codec.http2.internal.Http2Frames.DATA;
import static io.weir.handler.codec.http2.internal.Http2Frames.GOAWAY;
import static io.weir.handler.codec.http2.internal.Http2Frames.HEADERS;
import static io.weir.handler.codec.http2.internal.Http2Frames.RST_STREAM;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.buffer.AbstractByteBufAllocator;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.handler.codec.http2.Http2FrameClient.Event;
import io.weir.handler.codec.http2.internal.Http2Frames;
import io.weir.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What an HTTP/2 connection holds for a peer that does not read: frames are not read while the socket does not
 * drain, DATA held back by the peer's windows is bounded (streams unwritable, new streams refused, a handler that
 * writes on regardless reset), a connection that owes output and makes no progress is closed, and a failed
 * allocation ends the connection without losing or misreading a byte.
 */
class Http2BackpressureTest {

    /** A user-defined writability bit the tests flip to play a socket that does not drain. */
    private static final int SOCKET_FULL_BIT = 7;
    private static final int BOUND = 1000;

    /** Answers each request with HEADERS and {@code bodyBytes} of DATA, ignoring writability. */
    private static ChannelInitializer<Channel> answering(int bodyBytes, List<Channel> children) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                children.add(ch);
                ch.pipeline().addLast(new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        boolean request = msg instanceof Http2HeadersFrame;
                        ReferenceCountUtil.release(msg);
                        if (request) {
                            ctx.write(new Http2HeadersFrame(new Http2Headers().status("200"), bodyBytes == 0));
                            if (bodyBytes > 0) {
                                ctx.write(new Http2DataFrame(Unpooled.wrappedBuffer(new byte[bodyBytes]), true));
                            }
                            ctx.flush();
                        }
                    }
                });
            }
        };
    }

    private static int count(List<Event> events, int type) {
        int n = 0;
        for (Event e : events) {
            if (e.type() == type) {
                n++;
            }
        }
        return n;
    }

    @Test
    void aPeerThatDoesNotReadGetsNoFrameReadUntilItDoes() {
        List<Channel> children = new ArrayList<>();
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(),
                new Http2MultiplexHandler(answering(0, children))).handshake()) {
            c.channel.setUserDefinedWritability(SOCKET_FULL_BIT, false);
            c.channel.runPendingTasks();
            for (int id = 1; id <= 19; id += 2) {
                c.headers(id, get("/" + id), true);
            }
            List<Event> whilePaused = c.read();
            assertThat(children).as("streams opened while the socket does not drain").isEmpty();
            assertThat(whilePaused).as("nothing answered").isEmpty();
            assertThat(c.channel.config().isAutoRead()).as("reading").isFalse();

            c.channel.setUserDefinedWritability(SOCKET_FULL_BIT, true);
            List<Event> after = c.read();
            assertThat(children).as("streams opened once it drains").hasSize(10);
            assertThat(count(after, HEADERS)).as("responses").isEqualTo(10);
            assertThat(c.channel.config().isAutoRead()).as("reading again").isTrue();
        }
    }

    @Test
    void streamsPastTheOutputBoundAreRefusedAndChildrenTurnUnwritable() {
        List<Channel> children = new ArrayList<>();
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodecBuilder.forServer()
                .maxQueuedOutboundBytes(BOUND).build(),
                new Http2MultiplexHandler(answering(BOUND * 3 / 2, children)))) {
            // The client's streams start with no window: every DATA byte the server writes waits.
            c.raw(Unpooled.wrappedBuffer(Http2Frames.connectionPreface()));
            c.settings(Http2Settings.INITIAL_WINDOW_SIZE, 0);
            c.frame(Http2Frames.SETTINGS, Http2Frames.FLAG_ACK, 0, new byte[0]);
            c.read();
            c.headers(1, get("/big"), true);
            c.read();
            c.channel.runPendingTasks();
            assertThat(children.get(0).isWritable()).as("stream 1 over the bound").isFalse();

            c.headers(3, get("/refused"), true);
            List<Event> refused = c.read();
            Event rst = find(refused, RST_STREAM);
            assertThat(rst).as("new stream past the bound").isNotNull();
            assertThat(rst.streamId()).isEqualTo(3);
            assertThat(rst.code()).isEqualTo(Http2Error.REFUSED_STREAM.code());
            assertThat(children).as("no child for a refused stream").hasSize(1);

            // The peer opens the window: the queue drains, the bound clears, streams are served again.
            c.windowUpdate(1, BOUND * 2);
            List<Event> drained = c.read();
            assertThat(find(drained, DATA)).as("queued DATA sent").isNotNull();
            c.headers(5, get("/accepted"), true);
            c.read();
            assertThat(children).as("a stream after the queue drained").hasSize(2);
            assertThat(find(c.events, GOAWAY)).isNull();
        }
    }

    @Test
    void aHandlerThatIgnoresWritabilityHasItsStreamResetAtTheHardLimit() {
        List<Channel> children = new ArrayList<>();
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodecBuilder.forServer()
                .maxQueuedOutboundBytes(BOUND).build(),
                new Http2MultiplexHandler(answering(BOUND * Http2FrameCodec.OUTBOUND_HARD_LIMIT_FACTOR + 1,
                        children)))) {
            c.raw(Unpooled.wrappedBuffer(Http2Frames.connectionPreface()));
            c.settings(Http2Settings.INITIAL_WINDOW_SIZE, 0);
            c.frame(Http2Frames.SETTINGS, Http2Frames.FLAG_ACK, 0, new byte[0]);
            c.read();
            c.headers(1, get("/huge"), true);
            List<Event> events = c.read();
            Event rst = find(events, RST_STREAM);
            assertThat(rst).as("the stream past the hard limit").isNotNull();
            assertThat(rst.streamId()).isEqualTo(1);
            assertThat(rst.code()).isEqualTo(Http2Error.CANCEL.code());
            assertThat(c.channel.isOpen()).as("the connection carries on").isTrue();
            c.channel.runPendingTasks();
            assertThat(children.get(0).isOpen()).as("the stream's child").isFalse();
        }
    }

    @Test
    void aConnectionThatOwesOutputAndMakesNoProgressIsClosed() {
        List<Channel> children = new ArrayList<>();
        // The stream's own stall timeout is out of the way: the connection-wide rule alone is under test.
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodecBuilder.forServer()
                .streamStallTimeoutMillis(Long.MAX_VALUE / 4).build(),
                new Http2MultiplexHandler(answering(100, children)))) {
            c.raw(Unpooled.wrappedBuffer(Http2Frames.connectionPreface()));
            c.settings(Http2Settings.INITIAL_WINDOW_SIZE, 0);
            c.frame(Http2Frames.SETTINGS, Http2Frames.FLAG_ACK, 0, new byte[0]);
            c.read();
            c.headers(1, get("/stuck"), true);
            c.read();
            // PINGs keep the peer looking alive, yet the DATA it is owed never moves.
            for (int i = 0; i < 3; i++) {
                c.advance(Http2FrameCodec.DEFAULT_WRITE_PROGRESS_TIMEOUT_MILLIS / 4);
                c.ping(i);
                c.read();
            }
            assertThat(c.channel.isOpen()).as("open before the timeout").isTrue();
            // The clock counts from the last progress, the response head leaving within the first check's period.
            c.advance(Http2FrameCodec.DEFAULT_WRITE_PROGRESS_TIMEOUT_MILLIS / 4);
            c.advance(Http2FrameCodec.DEFAULT_WRITE_PROGRESS_TIMEOUT_MILLIS / 4);
            List<Event> events = c.read();
            Event goAway = find(events, GOAWAY);
            assertThat(goAway).as("GOAWAY after no progress: " + c.events).isNotNull();
            assertThat(goAway.code()).isEqualTo(Http2Error.INTERNAL_ERROR.code());
            assertThat(c.channel.isOpen()).isFalse();
        }
    }

    @Test
    void streamsStalledOnTheConnectionWindowEndTheConnection() {
        List<Channel> children = new ArrayList<>();
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(),
                new Http2MultiplexHandler(answering(16_384, children))).handshake()) {
            // 100 streams of 16 KiB against the 65,535-octet connection window the client never refills.
            for (int id = 1; id < 200; id += 2) {
                c.headers(id, get("/s"), true);
            }
            c.read();
            assertThat(children).hasSize(100);
            c.advance(Http2FrameCodec.DEFAULT_STREAM_STALL_TIMEOUT_MILLIS);
            c.advance(Http2FrameCodec.DEFAULT_WRITE_PROGRESS_TIMEOUT_MILLIS / 4);
            List<Event> events = c.read();
            int resets = count(events, RST_STREAM);
            boolean closed = !c.channel.isOpen();
            assertThat(closed || resets >= 96).as("every stalled stream reset, or the connection closed (resets: "
                    + resets + ')').isTrue();
        }
    }

    @Test
    void aCloseWithTheVoidPromiseClosesGracefully() {
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer()).handshake()) {
            // What the transport does when a read fails: close(voidPromise()).
            c.channel.pipeline().close(c.channel.voidPromise());
            List<Event> events = c.read();
            assertThat(find(events, GOAWAY)).as("the graceful close's GOAWAY").isNotNull();
            c.channel.checkException();
        }
    }

    @Test
    void aFailedAllocationEndsTheConnectionWithoutMisreadingItsInput() {
        AtomicBoolean failAllocations = new AtomicBoolean();
        AtomicInteger frames = new AtomicInteger();
        List<Throwable> errors = new ArrayList<>();
        ChannelHandler app = new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                frames.incrementAndGet();
                ReferenceCountUtil.release(msg);
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                errors.add(cause);
            }
        };
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), app).handshake()) {
            c.channel.config().setAllocator(new FailingAllocator(failAllocations));
            c.headers(1, Http2FrameClient.post("/upload"), false);
            c.read();
            int before = frames.get();
            // Half a DATA frame of 'x' bytes: the codec keeps it; the rest arrives when no buffer can be had.
            byte[] payload = new byte[4096];
            java.util.Arrays.fill(payload, (byte) 'x');
            ByteBuf whole = Unpooled.buffer();
            whole.writeMedium(payload.length).writeByte(DATA).writeByte(0).writeInt(1).writeBytes(payload);
            // At its maximum capacity, so that joining the rest to it needs a new buffer from the channel's allocator.
            ByteBuf firstPart = Unpooled.buffer(2000, 2000);
            firstPart.writeBytes(whole, 2000);
            c.channel.writeInbound(firstPart);
            failAllocations.set(true);
            c.raw(whole);
            c.send();
            c.channel.runPendingTasks();
            assertThat(c.channel.isOpen()).as("the connection that could not get memory").isFalse();
            assertThat(frames.get()).as("no frame read from the middle of a payload").isEqualTo(before);
            assertThat(errors).as("nothing misparsed reached the handlers").isEmpty();
            c.channel.checkException();
        }
    }

    /** Heap buffers until told to fail, then {@link OutOfMemoryError} as exhausted direct memory throws it. */
    private static final class FailingAllocator extends AbstractByteBufAllocator {
        private final AtomicBoolean fail;

        FailingAllocator(AtomicBoolean fail) {
            super(false);
            this.fail = fail;
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            check(initialCapacity);
            return Unpooled.buffer(initialCapacity, maxCapacity);
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            check(initialCapacity);
            return Unpooled.buffer(initialCapacity, maxCapacity);
        }

        private void check(int capacity) {
            if (fail.get()) {
                throw new OutOfMemoryError("Cannot reserve " + capacity + " bytes of direct buffer memory");
            }
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }
    }
}
