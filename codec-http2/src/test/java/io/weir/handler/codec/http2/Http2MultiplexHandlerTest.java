package io.weir.handler.codec.http2;

import static io.weir.handler.codec.http2.Http2FrameClient.find;
import static io.weir.handler.codec.http2.Http2FrameClient.get;
import static io.weir.handler.codec.http2.Http2FrameClient.post;
import static io.weir.handler.codec.http2.internal.Http2Frames.DATA;
import static io.weir.handler.codec.http2.internal.Http2Frames.GOAWAY;
import static io.weir.handler.codec.http2.internal.Http2Frames.HEADERS;
import static io.weir.handler.codec.http2.internal.Http2Frames.PING;
import static io.weir.handler.codec.http2.internal.Http2Frames.RST_STREAM;
import static io.weir.handler.codec.http2.internal.Http2Frames.WINDOW_UPDATE;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.WriteBufferWaterMark;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.http2.Http2FrameClient.Event;
import io.weir.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class Http2MultiplexHandlerTest {

    /** Answers each request with "200" and the request path as the body. */
    @ChannelHandler.Sharable
    static final class PathEcho implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame h && h.headers().path() != null) {
                ctx.write(new Http2HeadersFrame(new Http2Headers().status("200"), false));
                ctx.writeAndFlush(new Http2DataFrame(Unpooled.copiedBuffer(h.headers().path().toString(),
                        StandardCharsets.UTF_8), true));
            }
            ReferenceCountUtil.release(msg);
        }
    }

    /** Sets up each child channel with {@code init}. */
    private static ChannelInitializer<Channel> eachChild(Consumer<Channel> init) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                init.accept(ch);
            }
        };
    }

    /** Counts the connection's flushes into {@code flushes[0]}; goes first in the pipeline. */
    private static ChannelHandler flushCounter(int[] flushes) {
        return new ChannelHandler() {
            @Override
            public void flush(ChannelHandlerContext ctx) {
                flushes[0]++;
                ctx.flush();
            }
        };
    }

    /** Children that close as soon as they read their first frame. */
    private static ChannelInitializer<Channel> closeOnFirstFrame() {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ReferenceCountUtil.release(msg);
                        ctx.close();
                    }
                });
            }
        };
    }

    @Test
    void eachStreamGetsItsOwnChildChannel() {
        List<Channel> children = new ArrayList<>();
        List<Throwable> errors = new ArrayList<>();
        ChannelInitializer<Channel> init = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                children.add(ch);
                ch.pipeline().addLast(new PathEcho(), new ChannelHandler() {
                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        errors.add(cause);
                    }
                });
            }
        };
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), new Http2MultiplexHandler(init))
                .handshake()) {
            c.headers(1, get("/a"), true);
            c.headers(3, get("/b"), true);
            List<Event> events = c.read();
            assertThat(events.stream().filter(e -> e.type() == DATA).map(Http2FrameClient::text))
                    .containsExactly("/a", "/b");
            assertThat(children).hasSize(2);
            assertThat(children.get(0).parent()).isSameAs(c.channel);
            assertThat(((Http2StreamChannel) children.get(1)).stream().id()).isEqualTo(3);
            assertThat(children).allMatch(ch -> !ch.isOpen());
            // The last write closes the stream and so the child, without failing that write.
            assertThat(errors).isEmpty();
        }
    }

    @Test
    void receiveWindowFollowsTheChildsReads() {
        List<Channel> children = new ArrayList<>();
        List<Object> read = new ArrayList<>();
        ChannelInitializer<Channel> init = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                children.add(ch);
                ch.config().setAutoRead(false);
                ch.pipeline().addLast(new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        read.add(msg);
                        ReferenceCountUtil.release(msg);
                    }
                });
            }
        };
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), new Http2MultiplexHandler(init))
                .handshake()) {
            c.headers(1, post("/"), false);
            for (int i = 0; i < 3; i++) {
                c.data(1, new byte[16_384], false);
            }
            assertThat(c.read()).noneMatch(e -> e.type() == WINDOW_UPDATE && e.streamId() == 1);
            assertThat(read).isEmpty();
            Channel child = children.get(0);
            for (int i = 0; i < 4; i++) {
                child.read();
            }
            assertThat(read).hasSize(4);
            Event update = find(c.read(), WINDOW_UPDATE);
            assertThat(update).isNotNull();
            assertThat(update.code()).isEqualTo(2 * 16_384);
        }
    }

    @Test
    void readAskedForDuringADeliveryIsServedBeyondTheReadBudget() {
        // A reader that asks for the next read as it takes each frame (as a gRPC call with demand does), with more
        // frames queued than one read delivers: the reads asked for inside the delivery must not be lost, or the
        // stream stalls with its bytes unconsumed while the peer waits for window.
        List<Channel> children = new ArrayList<>();
        List<Object> read = new ArrayList<>();
        ChannelInitializer<Channel> init = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                children.add(ch);
                ch.config().setAutoRead(false);
                ch.pipeline().addLast(new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        read.add(msg);
                        ReferenceCountUtil.release(msg);
                        ctx.read();
                    }

                    @Override
                    public void channelReadComplete(ChannelHandlerContext ctx) {
                        ctx.read();
                    }
                });
            }
        };
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), new Http2MultiplexHandler(init))
                .handshake()) {
            c.headers(1, post("/"), false);
            for (int i = 0; i < 40; i++) {
                c.data(1, new byte[1_000], false);
            }
            c.read();
            assertThat(read).isEmpty();
            // The first read comes from outside the connection's read (a task, as a listener's request(n) does).
            c.channel.eventLoop().execute(() -> children.get(0).read());
            // The HEADERS frame and the 40 DATA frames.
            for (int turn = 0; turn < 10 && read.size() < 41; turn++) {
                c.channel.runPendingTasks();
            }
            assertThat(read).hasSize(41);
            assertThat(read.stream().filter(m -> m instanceof Http2DataFrame)).hasSize(40);
        }
    }

    @Test
    void childWritabilityFollowsTheStreamWindow() {
        List<Channel> children = new ArrayList<>();
        ChannelInitializer<Channel> init = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                children.add(ch);
            }
        };
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), new Http2MultiplexHandler(init))) {
            c.raw(Unpooled.wrappedBuffer(io.weir.handler.codec.http2.internal.Http2Frames.connectionPreface()));
            c.settings(Http2Settings.INITIAL_WINDOW_SIZE, 100);
            c.headers(1, get("/"), true);
            c.read();
            Channel child = children.get(0);
            assertThat(child.isWritable()).isTrue();
            child.write(new Http2HeadersFrame(new Http2Headers().status("200"), false));
            child.writeAndFlush(new Http2DataFrame(Unpooled.copiedBuffer(new byte[150]), true));
            c.channel.runPendingTasks();
            assertThat(child.isWritable()).isFalse();
            c.read();
            c.windowUpdate(1, 100);
            List<Event> events = c.read();
            assertThat(events.stream().filter(e -> e.type() == DATA).mapToInt(e -> e.data().length).sum())
                    .isEqualTo(50);
        }
    }

    @Test
    void aStreamEndedByItsResponseClosesItsChildWithoutAReset() {
        List<Channel> children = new ArrayList<>();
        ChannelInitializer<Channel> init = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                children.add(ch);
                ch.pipeline().addLast(new PathEcho());
            }
        };
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), new Http2MultiplexHandler(init))
                .handshake()) {
            c.headers(1, get("/a"), true);
            List<Event> events = c.read();
            c.channel.runPendingTasks();
            events.addAll(c.read());
            assertThat(find(events, DATA).endStream()).isTrue();
            assertThat(find(events, RST_STREAM)).as("the stream ended; nothing to reset").isNull();
            assertThat(children).singleElement().matches(ch -> !ch.isOpen(), "closed");
            assertThat(c.channel.pipeline().get(Http2FrameCodec.class).activeStreams()).isZero();
        }
    }

    @Test
    void aResponseFlushedInChannelReadCompleteLeavesEvenThoughItsLastFrameClosedTheChild() {
        // The common handler shape: write in channelRead, flush in channelReadComplete. The last frame ends the
        // stream and closes the child before its channelReadComplete, which a closed child never gets.
        ChannelInitializer<Channel> init = eachChild(ch -> {
            ch.pipeline().addLast(new ChannelHandler() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    ctx.write(new Http2HeadersFrame(new Http2Headers().status("200"), false));
                    ctx.write(new Http2DataFrame(Unpooled.copiedBuffer("done", StandardCharsets.UTF_8), true));
                    ReferenceCountUtil.release(msg);
                }

                @Override
                public void channelReadComplete(ChannelHandlerContext ctx) {
                    ctx.flush();
                }
            });
        });
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), new Http2MultiplexHandler(init))
                .handshake()) {
            c.headers(1, get("/a"), true);
            c.headers(3, get("/b"), true);
            List<Event> events = c.read();
            assertThat(events.stream().filter(e -> e.type() == DATA).map(Http2FrameClient::text))
                    .containsExactly("done", "done");
        }
    }

    @Test
    void aChildsUnflushedWritesCountAgainstItsWaterMarksUntilItFlushes() {
        List<Boolean> writable = new ArrayList<>();
        List<Long> before = new ArrayList<>();
        ChannelInitializer<Channel> init = eachChild(ch -> {
            ch.config().setWriteBufferWaterMark(new WriteBufferWaterMark(8, 16));
            ch.pipeline().addLast(new ChannelHandler() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    ReferenceCountUtil.release(msg);
                    ctx.write(new Http2HeadersFrame(new Http2Headers().status("200"), false));
                    writable.add(ctx.channel().isWritable());
                    // A head costs the peer no window and counts nothing; DATA counts its octets.
                    before.add(ctx.channel().bytesBeforeUnwritable());
                    ctx.write(new Http2DataFrame(Unpooled.wrappedBuffer(new byte[4]), false));
                    before.add(ctx.channel().bytesBeforeUnwritable());
                    ctx.write(new Http2DataFrame(Unpooled.wrappedBuffer(new byte[32]), false));
                    writable.add(ctx.channel().isWritable());
                    ctx.flush();
                    writable.add(ctx.channel().isWritable());
                }
            });
        });
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), new Http2MultiplexHandler(init))
                .handshake()) {
            c.headers(1, get("/"), true);
            assertThat(find(c.read(), DATA)).isNotNull();
            assertThat(writable).containsExactly(true, false, true);
            // Unwritable above the high water mark of 16: 17 octets to go after the head, 13 after 4 of DATA.
            assertThat(before).containsExactly(17L, 13L);
        }
    }

    @Test
    void aChildClosedByItsLastFrameIsDeregisteredAsItsChannelReadReturnsNotAfterTheParentsRead() {
        List<String> events = new ArrayList<>();
        ChannelInitializer<Channel> init = eachChild(ch -> ch.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ReferenceCountUtil.release(msg);
                events.add("read " + ctx.channel().isOpen());
                ctx.write(new Http2HeadersFrame(new Http2Headers().status("200"), true));
                // The stream ended with that frame and the child is closed, but still registered inside the call.
                events.add("read returns " + ctx.channel().isOpen() + " " + ctx.channel().isRegistered());
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                events.add("inactive");
            }

            @Override
            public void channelUnregistered(ChannelHandlerContext ctx) {
                events.add("unregistered");
            }

            @Override
            public void handlerRemoved(ChannelHandlerContext ctx) {
                events.add("removed");
            }
        }));
        ChannelHandler parentReadComplete = new ChannelHandler() {
            @Override
            public void channelReadComplete(ChannelHandlerContext ctx) {
                events.add("parent read complete");
            }
        };
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), new Http2MultiplexHandler(init),
                parentReadComplete).handshake()) {
            events.clear();
            c.headers(1, get("/"), true);
            assertThat(find(c.read(), HEADERS)).isNotNull();
            assertThat(events).containsExactly("read true", "read returns false true", "inactive", "unregistered",
                    "removed", "parent read complete");
        }
    }

    @Test
    void aChildsWriteIsHandedToTheConnectionAtOnceAndFailsOnceTheStreamEnded() {
        List<ChannelFuture> writes = new ArrayList<>();
        ChannelInitializer<Channel> init = eachChild(ch -> {
            ch.pipeline().addLast(new ChannelHandler() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    ReferenceCountUtil.release(msg);
                    writes.add(ctx.write(new Http2HeadersFrame(new Http2Headers().status("200"), false)));
                    writes.add(ctx.write(new Http2DataFrame(Unpooled.copiedBuffer("a", StandardCharsets.UTF_8),
                            true)));
                    // The stream ended with the frame before: this one is refused, and its buffer released.
                    writes.add(ctx.write(new Http2DataFrame(Unpooled.copiedBuffer("b", StandardCharsets.UTF_8),
                            true)));
                }
            });
        });
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), new Http2MultiplexHandler(init))
                .handshake()) {
            c.headers(1, get("/"), true);
            List<Event> events = c.read();
            assertThat(writes).hasSize(3);
            // Accepted by the codec during the write call itself, not at a later flush.
            assertThat(writes.get(0).isSuccess()).isTrue();
            assertThat(writes.get(1).isSuccess()).isTrue();
            assertThat(writes.get(2).isDone()).isTrue();
            assertThat(writes.get(2).cause()).isNotNull();
            assertThat(events.stream().filter(e -> e.type() == DATA).map(Http2FrameClient::text))
                    .containsExactly("a");
        }
    }

    @Test
    void removingTheMultiplexerClosesItsChildren() {
        // Stream channels are not tracked by the loop: once the multiplexer is gone nothing else would close them.
        List<Channel> children = new ArrayList<>();
        ChannelInitializer<Channel> init = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                children.add(ch);
            }
        };
        Http2MultiplexHandler multiplexer = new Http2MultiplexHandler(init);
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), multiplexer).handshake()) {
            c.headers(1, get("/"), false);
            c.read();
            assertThat(children).singleElement().matches(Channel::isOpen, "open");
            c.channel.pipeline().remove(multiplexer);
            c.channel.runPendingTasks();
            assertThat(children).singleElement().matches(ch -> !ch.isOpen(), "closed");
            assertThat(c.channel.isOpen()).as("the connection stays").isTrue();
        }
    }

    @Test
    void closingAChildResetsItsStreamWithCancel() {
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(),
                new Http2MultiplexHandler(closeOnFirstFrame())).handshake()) {
            c.headers(1, get("/"), false);
            Event rst = find(c.read(), RST_STREAM);
            assertThat(rst.code()).isEqualTo(Http2Error.CANCEL.code());
        }
    }

    @Test
    void rapidResetThroughTheMultiplexerIsCutOff() {
        // The application gives up on each stream: every one is a reset the server sends.
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodecBuilder.forServer()
                .maxResetsPerWindow(20, 30_000).build(), new Http2MultiplexHandler(closeOnFirstFrame()))
                .handshake()) {
            for (int i = 0; i < 30; i++) {
                c.headers(1 + 2 * i, get("/"), false);
            }
            assertThat(find(c.read(), GOAWAY).code()).isEqualTo(Http2Error.ENHANCE_YOUR_CALM.code());
        }
    }

    @Test
    void clientOpensStreamsWithTheBootstrap() throws Exception {
        ChannelInitializer<Channel> serverInit = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new PathEcho());
            }
        };
        EmbeddedChannel server = new EmbeddedChannel(Http2FrameCodec.forServer(),
                new Http2MultiplexHandler(serverInit));
        EmbeddedChannel client = new EmbeddedChannel(Http2FrameCodecBuilder.forClient().build(),
                new Http2MultiplexHandler(new PathEcho()));
        try {
            List<Object> responses = new ArrayList<>();
            Http2StreamChannel stream = new Http2StreamChannelBootstrap(client).handler(new ChannelHandler() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    if (msg instanceof Http2DataFrame d) {
                        responses.add(d.content().toString(StandardCharsets.UTF_8));
                    } else {
                        responses.add(msg);
                    }
                    ReferenceCountUtil.release(msg);
                }
            }).open().get(5, TimeUnit.SECONDS);
            stream.writeAndFlush(new Http2HeadersFrame(get("/from-client"), true));
            for (int i = 0; i < 4; i++) {
                Http2FrameClient.pump(client, server);
                Http2FrameClient.pump(server, client);
            }
            assertThat(stream.stream().id()).isEqualTo(1);
            assertThat(responses).hasSize(2);
            assertThat(((Http2HeadersFrame) responses.get(0)).headers().status().toString()).isEqualTo("200");
            assertThat(responses.get(1)).isEqualTo("/from-client");
            assertThat(stream.isOpen()).isFalse();
        } finally {
            client.finishAndReleaseAll();
            server.finishAndReleaseAll();
        }
    }

    @Test
    void childrensFlushesDuringFlushingOnceAfterMakeOneConnectionFlush() throws Exception {
        int[] flushes = new int[1];
        ChannelHandler flushCounter = flushCounter(flushes);
        Http2MultiplexHandler multiplexer = new Http2MultiplexHandler(new PathEcho());
        EmbeddedChannel client = new EmbeddedChannel(flushCounter, Http2FrameCodecBuilder.forClient().build(),
                multiplexer);
        try {
            List<Http2StreamChannel> streams = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                streams.add(new Http2StreamChannelBootstrap(client).handler(new ChannelHandler() { })
                        .open().get(5, TimeUnit.SECONDS));
            }
            flushes[0] = 0;
            multiplexer.flushingOnceAfter(() -> multiplexer.flushingOnceAfter(() -> {
                for (Http2StreamChannel stream : streams) {
                    stream.writeAndFlush(new Http2HeadersFrame(post("/batch"), false));
                }
                assertThat(flushes[0]).as("flushes while held").isZero();
            }));
            assertThat(flushes[0]).as("flushes after the outermost batch").isEqualTo(1);
            assertThat(streams).allSatisfy(stream -> assertThat(stream.stream().id()).isPositive());

            flushes[0] = 0;
            streams.get(0).writeAndFlush(new Http2DataFrame(Unpooled.EMPTY_BUFFER, true));
            assertThat(flushes[0]).as("a flush outside a batch goes out at once").isEqualTo(1);
        } finally {
            client.finishAndReleaseAll();
        }
    }

    @Test
    void pingAnswerWaitsForTheResponsesOfTheSameRead() {
        // A gRPC peer sends a PING (its bandwidth probe) beside its requests: answering it in a write of its own
        // doubled the server's socket writes per read.
        int[] flushes = new int[1];
        ChannelHandler flushCounter = flushCounter(flushes);
        try (Http2FrameClient c = new Http2FrameClient(flushCounter, Http2FrameCodec.forServer(),
                new Http2MultiplexHandler(new PathEcho())).handshake()) {
            flushes[0] = 0;
            c.headers(1, get("/one-write"), true);
            c.ping(42);
            List<Event> out = c.read();
            assertThat(flushes[0]).as("flushes of the connection").isEqualTo(1);
            assertThat(out).extracting(Event::type).containsExactlyInAnyOrder((int) PING, (int) HEADERS, (int) DATA);
            assertThat(find(out, PING).ack()).isTrue();
            assertThat(find(out, PING).code()).isEqualTo(42);

            flushes[0] = 0;
            c.ping(43);
            out = c.read();
            assertThat(flushes[0]).as("a PING alone is still answered at the read's end").isEqualTo(1);
            assertThat(out).extracting(Event::type).containsExactly((int) PING);
        }
    }

    /** Answers 413 at once, before the request body is in, and closes: what an aggregator does over HTTP/2. */
    private static ChannelInitializer<Channel> answerEarlyAndClose(int bodyBytes) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        boolean head = msg instanceof Http2HeadersFrame;
                        ReferenceCountUtil.release(msg);
                        if (head) {
                            ctx.write(new Http2HeadersFrame(new Http2Headers().status("413"), false));
                            ctx.writeAndFlush(new Http2DataFrame(Unpooled.wrappedBuffer(new byte[bodyBytes]), true))
                                    .addListener(f -> ctx.close());
                        }
                    }
                });
            }
        };
    }

    @Test
    void aChildClosedAfterItsCompleteResponseStopsTheRequestWithoutError() {
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(),
                new Http2MultiplexHandler(answerEarlyAndClose(10))).handshake()) {
            c.headers(1, post("/too-large"), false);
            List<Event> events = c.read();
            c.channel.runPendingTasks();
            events.addAll(c.read());
            Event rst = find(events, RST_STREAM);
            assertThat(find(events, HEADERS)).as("the early answer").isNotNull();
            // RFC 9113 §8.1: a complete response, then NO_ERROR, so the client keeps the answer.
            assertThat(rst.code()).isEqualTo(Http2Error.NO_ERROR.code());
        }
    }

    @Test
    void aCompleteResponseStillWaitingForWindowIsSentBeforeTheReset() {
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(),
                new Http2MultiplexHandler(answerEarlyAndClose(100_000))).handshake()) {
            c.headers(1, post("/too-large"), false);
            c.read();
            c.channel.runPendingTasks();
            assertThat(find(c.read(), RST_STREAM)).as("no reset while the response waits for window").isNull();
            c.windowUpdate(0, 100_000);
            c.windowUpdate(1, 100_000);
            List<Event> events = c.read();
            int data = events.stream().filter(e -> e.type() == DATA).mapToInt(e -> e.data().length).sum();
            Event rst = find(events, RST_STREAM);
            assertThat(data + 65_535).as("the whole body").isGreaterThanOrEqualTo(100_000);
            assertThat(rst).as("the reset after it").isNotNull();
            assertThat(rst.code()).isEqualTo(Http2Error.NO_ERROR.code());
            assertThat(events.indexOf(rst)).isGreaterThan(events.indexOf(find(events, DATA)));
        }
    }
}
