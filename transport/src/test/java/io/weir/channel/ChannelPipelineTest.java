package io.weir.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

class ChannelPipelineTest {

    private static final class Named implements ChannelHandler {
        final String label;

        Named(String label) {
            this.label = label;
        }
    }

    @Test
    void addMethodsPlaceHandlersWhereAsked() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ChannelPipeline p = ch.pipeline();
        p.addLast("b", new Named("b"));
        p.addFirst("a", new Named("a"));
        p.addLast("d", new Named("d"));
        p.addBefore("d", "c", new Named("c"));
        p.addAfter("d", "e", new Named("e"));
        assertThat(p.names()).containsExactly("a", "b", "c", "d", "e");
        assertThat(((Named) p.first()).label).isEqualTo("a");
        assertThat(((Named) p.last()).label).isEqualTo("e");
        assertThat(p.context("c").name()).isEqualTo("c");
        assertThat(p.toMap().keySet()).containsExactly("a", "b", "c", "d", "e");
        ch.finish();
    }

    @Test
    void varargsAddFirstKeepsTheGivenOrder() {
        EmbeddedChannel ch = new EmbeddedChannel();
        Named x = new Named("x");
        Named y = new Named("y");
        ch.pipeline().addLast(new Named("last"));
        ch.pipeline().addFirst(x, y);
        assertThat(ch.pipeline().first()).isSameAs(x);
        assertThat(ch.pipeline().context(y).name()).isEqualTo(ch.pipeline().names().get(1));
        ch.finish();
    }

    @Test
    void generatedNamesAreUniquePerClass() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.pipeline().addLast(new Named("1"), new Named("2"));
        assertThat(ch.pipeline().names()).containsExactly("Named#0", "Named#1");
        ch.finish();
    }

    @Test
    void duplicateNameIsRejectedAndTheHandlerCanBeAddedElsewhere() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.pipeline().addLast("h", new Named("1"));
        Named second = new Named("2");
        assertThatThrownBy(() -> ch.pipeline().addLast("h", second))
                .isInstanceOf(ChannelPipelineException.class).hasMessageContaining("duplicate handler name: h");
        // The failed add must not leave the (non-sharable) instance marked as in use.
        ch.pipeline().addLast("other", second);
        assertThat(ch.pipeline().get("other")).isSameAs(second);
        ch.finish();
    }

    @Test
    void removeByNameInstanceAndTypeCallsHandlerRemoved() {
        List<String> events = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel();
        RecordingHandler a = new RecordingHandler("a", events);
        ch.pipeline().addLast("a", a);
        ch.pipeline().addLast("b", new RecordingHandler("b", events));
        ch.pipeline().addLast("n", new Named("n"));
        assertThat(ch.pipeline().remove("b")).isInstanceOf(RecordingHandler.class);
        ch.pipeline().remove(a);
        assertThat(ch.pipeline().remove(Named.class).label).isEqualTo("n");
        assertThat(events).containsExactly("a:added", "b:added", "b:removed", "a:removed");
        assertThat(ch.pipeline().names()).isEmpty();
        assertThatThrownBy(() -> ch.pipeline().remove("b")).isInstanceOf(NoSuchElementException.class);
        assertThatThrownBy(() -> ch.pipeline().removeFirst()).isInstanceOf(NoSuchElementException.class);
        assertThat(ch.pipeline().removeIfExists("b")).isNull();
        ch.finish();
    }

    @Test
    void replaceAddsTheNewHandlerBeforeRemovingTheOldOneAndKeepsThePosition() {
        List<String> events = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.pipeline().addLast("first", new Named("f"));
        ch.pipeline().addLast("old", new RecordingHandler("old", events));
        ch.pipeline().addLast("last", new Named("l"));
        ChannelHandler replaced = ch.pipeline().replace("old", "new", new RecordingHandler("new", events));
        assertThat(replaced).isInstanceOf(RecordingHandler.class);
        assertThat(ch.pipeline().names()).containsExactly("first", "new", "last");
        assertThat(events).containsExactly("old:added", "new:added", "old:removed");
        events.clear();
        ch.writeInbound("m");
        assertThat(events).containsExactly("new:read(m)", "new:readComplete", "new:read");
        assertThat((String) ch.readInbound()).isEqualTo("m");
        ch.finish();
    }

    @Test
    void replaceMayReuseTheOldName() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.pipeline().addLast("h", new Named("old"));
        ch.pipeline().replace(Named.class, "h", new Named("new"));
        assertThat(((Named) ch.pipeline().get("h")).label).isEqualTo("new");
        ch.finish();
    }

    @Test
    void handlerAddedIsCalledAtOnceAndRemovedOnesGetNoEvents() {
        List<String> events = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.pipeline().addLast(new RecordingHandler("h", events));
        assertThat(events).containsExactly("h:added");
        ChannelHandlerContext ctx = ch.pipeline().context(RecordingHandler.class);
        ch.pipeline().remove(RecordingHandler.class);
        assertThat(ctx.isRemoved()).isTrue();
        ch.writeInbound("x");
        assertThat(events).containsExactly("h:added", "h:removed");
        assertThat((String) ch.readInbound()).isEqualTo("x");
        ch.finish();
    }

    @Test
    void inboundEventsTravelHeadToTailAndOutboundTailToHead() {
        List<String> events = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new RecordingHandler("1", events),
                new RecordingHandler("2", events), new RecordingHandler("3", events));
        events.clear();
        ch.writeInbound("in");
        ch.writeOutbound("out");
        assertThat(events).containsExactly(
                "1:read(in)", "2:read(in)", "3:read(in)",
                "1:readComplete", "2:readComplete", "3:readComplete",
                // Auto-read: the head asks for the next read once a read loop completes.
                "3:read", "2:read", "1:read",
                "3:write(out)", "2:write(out)", "1:write(out)",
                "3:flush", "2:flush", "1:flush");
        assertThat((String) ch.readInbound()).isEqualTo("in");
        assertThat((String) ch.readOutbound()).isEqualTo("out");
        ch.finish();
    }

    @Test
    void registrationFiresRegisteredThenActiveInOrder() {
        List<String> events = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new RecordingHandler("1", events), new RecordingHandler("2", events));
        assertThat(events).containsExactly("1:added", "2:added", "2:register", "1:register",
                "1:registered", "2:registered", "1:active", "2:active", "2:read", "1:read");
        events.clear();
        ch.close();
        assertThat(events).containsExactly("2:close", "1:close", "1:inactive", "2:inactive",
                "1:unregistered", "2:unregistered", "2:removed", "1:removed");
    }

    @Test
    void contextOperationsStartFromTheHandlersPosition() {
        List<String> events = new ArrayList<>();
        ChannelHandler sender = new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                // Answers from its own position: handler "after" never sees this write.
                ctx.writeAndFlush(msg);
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(new RecordingHandler("before", events), sender,
                new RecordingHandler("after", events));
        events.clear();
        ch.writeInbound("ping");
        assertThat(events).containsExactly("before:read(ping)", "before:write(ping)", "before:flush",
                "before:readComplete", "after:readComplete", "after:read", "before:read");
        assertThat((String) ch.readOutbound()).isEqualTo("ping");
        assertThat(ch.finish()).isFalse();
    }

    /** Handles reads only; must never be entered for outbound operations. */
    private static final class ReadOnlyHandler implements ChannelHandler {
        int reads;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            reads++;
            ctx.fireChannelRead(msg);
        }
    }

    /** Records the call stack of the write it sees. */
    private static final class StackCapturingHandler implements ChannelHandler {
        StackTraceElement[] stack;

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            stack = new Throwable().getStackTrace();
            ctx.write(msg, promise);
        }
    }

    @Test
    void passThroughHandlersAreJumpedOverNotCalled() {
        StackCapturingHandler capture = new StackCapturingHandler();
        ReadOnlyHandler readOnly = new ReadOnlyHandler();
        EmbeddedChannel ch = new EmbeddedChannel(capture, readOnly, new ReadOnlyHandler());
        ch.writeOutbound("x");
        assertThat(capture.stack).isNotNull();
        for (StackTraceElement e : capture.stack) {
            assertThat(e.getClassName()).doesNotContain("ReadOnlyHandler");
            // Skipped handlers cost no frame of the interface default either.
            assertThat(e.getClassName() + '.' + e.getMethodName()).isNotEqualTo(ChannelHandler.class.getName() + ".write");
        }
        ch.writeInbound("y");
        assertThat(readOnly.reads).isEqualTo(1);
        assertThat(ch.finishAndReleaseAll()).isTrue();
    }

    @Test
    void maskReflectsOverriddenMethodsAndIsComputedOncePerClass() {
        int mask = HandlerType.of(ReadOnlyHandler.class).mask;
        assertThat(mask & ChannelHandlerMask.MASK_CHANNEL_READ).isNotZero();
        assertThat(mask & ~ChannelHandlerMask.MASK_CHANNEL_READ).isZero();
        assertThat(HandlerType.of(ReadOnlyHandler.class)).isSameAs(HandlerType.of(ReadOnlyHandler.class));
        assertThat(HandlerType.of(Named.class).mask).isZero();
    }

    private static final class SkippingHandler implements ChannelHandler {
        int writes;

        @Skip
        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            writes++;
            ctx.write(msg, promise);
        }
    }

    @Test
    void skipAnnotatedOverridesAreNotCalled() {
        SkippingHandler h = new SkippingHandler();
        EmbeddedChannel ch = new EmbeddedChannel(h);
        ch.writeOutbound("x");
        assertThat(h.writes).isZero();
        assertThat((String) ch.readOutbound()).isEqualTo("x");
        assertThat(HandlerType.of(SkippingHandler.class).mask & ChannelHandlerMask.MASK_WRITE).isZero();
        ch.finish();
    }

    @Test
    void nonSharableHandlerCannotSitInTwoPipelines() {
        Named h = new Named("x");
        EmbeddedChannel a = new EmbeddedChannel(h);
        EmbeddedChannel b = new EmbeddedChannel();
        assertThatThrownBy(() -> b.pipeline().addLast(h))
                .isInstanceOf(ChannelPipelineException.class).hasMessageContaining("@Sharable");
        assertThatThrownBy(() -> a.pipeline().addLast("again", h)).isInstanceOf(ChannelPipelineException.class);
        a.pipeline().remove(h);
        b.pipeline().addLast(h);
        assertThat(b.pipeline().context(h)).isNotNull();
        a.finish();
        b.finish();
    }

    @Test
    void nonSharableHandlerRemovedOnAnotherThreadMayBeAddedAgain() throws Exception {
        Named h = new Named("x");
        EmbeddedChannel a = new EmbeddedChannel(h);
        Thread remover = new Thread(() -> a.pipeline().remove(h));
        remover.start();
        remover.join();
        EmbeddedChannel b = new EmbeddedChannel(h);
        assertThat(b.pipeline().get(Named.class)).isSameAs(h);
        assertThatThrownBy(() -> a.pipeline().addLast(h)).isInstanceOf(ChannelPipelineException.class);
        a.finish();
        b.finish();
    }

    @Test
    void changesFromManyThreadsAtOnceKeepTheListWhole() throws Exception {
        EmbeddedChannel ch = new EmbeddedChannel();
        int threads = 4;
        int rounds = 2_000;
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String prefix = "t" + t + "-";
            Thread w = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < rounds; i++) {
                        ch.pipeline().addLast(prefix + i, new Named(prefix + i));
                        if (i % 2 == 0) {
                            ch.pipeline().addFirst(prefix + "first" + i, new Named("first"));
                            ch.pipeline().remove(prefix + "first" + i);
                        }
                        ch.pipeline().remove(prefix + i);
                    }
                    ch.pipeline().addLast(prefix + "kept", new Named("kept"));
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            workers.add(w);
            w.start();
        }
        for (Thread w : workers) {
            w.join(30_000);
        }
        ch.runPendingTasks();
        assertThat(ch.pipeline().names()).containsExactlyInAnyOrder("t0-kept", "t1-kept", "t2-kept", "t3-kept");
        // Walked both ways, the list holds the same four contexts.
        List<String> backwards = new ArrayList<>();
        DefaultChannelPipeline p = (DefaultChannelPipeline) ch.pipeline();
        for (DefaultChannelHandlerContext c = p.tail.prev; c != p.head; c = c.prev) {
            backwards.add(0, c.name());
        }
        assertThat(backwards).isEqualTo(ch.pipeline().names());
        ch.finish();
    }

    @ChannelHandler.Sharable
    private static final class SharedHandler implements ChannelHandler {
    }

    @Test
    void sharableHandlerMayBeAddedManyTimes() {
        SharedHandler h = new SharedHandler();
        EmbeddedChannel a = new EmbeddedChannel(h, h);
        EmbeddedChannel b = new EmbeddedChannel(h);
        assertThat(a.pipeline().names()).hasSize(2);
        assertThat(b.pipeline().names()).hasSize(1);
        a.finish();
        b.finish();
    }

    @Test
    void closedChannelReleasesItsNonSharableHandlers() {
        Named h = new Named("x");
        EmbeddedChannel a = new EmbeddedChannel(h);
        a.finish();
        EmbeddedChannel b = new EmbeddedChannel(h);
        assertThat(b.pipeline().get(Named.class)).isSameAs(h);
        b.finish();
    }

    @Test
    void deregistrationRemovesEveryHandlerLastFirstAndThoseAddedMeanwhile() {
        List<String> events = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel();
        ChannelHandler addsOneWhenRemoved = new RecordingHandler("b", events) {
            @Override
            public void handlerRemoved(ChannelHandlerContext ctx) {
                super.handlerRemoved(ctx);
                ctx.pipeline().addLast(new RecordingHandler("late", events));
            }
        };
        ch.pipeline().addLast(new RecordingHandler("a", events), addsOneWhenRemoved, new RecordingHandler("c", events));
        ch.close();
        ch.runPendingTasks();
        assertThat(events.stream().filter(e -> e.endsWith(":removed")))
                .containsExactly("c:removed", "b:removed", "a:removed", "late:removed");
        assertThat(ch.pipeline().names()).isEmpty();
        assertThat(ch.pipeline().firstContext()).isNull();
    }

    @Test
    void exceptionThrownByAHandlerBecomesItsExceptionCaught() {
        List<String> events = new ArrayList<>();
        ChannelHandler thrower = new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                throw new IllegalStateException("boom");
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                events.add("thrower:" + cause.getMessage());
                ctx.fireExceptionCaught(cause);
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(thrower, new RecordingHandler("next", events));
        events.clear();
        assertThatThrownBy(() -> ch.writeInbound("x")).isInstanceOf(IllegalStateException.class).hasMessage("boom");
        assertThat(events).containsExactly("thrower:boom", "next:exception(boom)", "next:readComplete", "next:read");
        ch.finish();
    }

    @Test
    void exceptionFromExceptionCaughtIsLoggedNotLooped() {
        int[] calls = new int[1];
        ChannelHandler h = new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                throw new IllegalStateException("first");
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                calls[0]++;
                throw new IllegalStateException("second");
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(h);
        ch.writeInbound("x");
        assertThat(calls[0]).isEqualTo(1);
        ch.checkException();
        ch.finish();
    }

    @Test
    void outboundHandlerThatThrowsFailsTheOperationsPromise() {
        ByteBuf buf = Unpooled.buffer(4).writeInt(1);
        ChannelHandler h = new ChannelHandler() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                io.weir.util.ReferenceCountUtil.release(msg);
                throw new IllegalArgumentException("rejected");
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(h);
        ChannelFuture f = ch.writeOneOutbound(buf);
        assertThat(f.isDone()).isTrue();
        assertThat(f.cause()).isInstanceOf(IllegalArgumentException.class).hasMessage("rejected");
        assertThat(buf.refCnt()).isZero();
        ch.finish();
    }

    @Test
    void handlerAddedThatThrowsRemovesTheHandlerAndReportsIt() {
        ChannelHandler bad = new ChannelHandler() {
            @Override
            public void handlerAdded(ChannelHandlerContext ctx) {
                throw new IllegalStateException("cannot start");
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.pipeline().addLast("bad", bad);
        assertThat(ch.pipeline().get("bad")).isNull();
        assertThatThrownBy(ch::checkException).isInstanceOf(ChannelPipelineException.class)
                .hasMessageContaining("handlerAdded() has thrown").hasRootCauseMessage("cannot start");
        ch.finish();
    }

    @Test
    void promiseOfAnotherChannelIsRefused() {
        EmbeddedChannel a = new EmbeddedChannel();
        EmbeddedChannel b = new EmbeddedChannel();
        ByteBuf buf = Unpooled.buffer(1).writeByte(1);
        assertThatThrownBy(() -> a.write(buf, b.newPromise())).isInstanceOf(IllegalArgumentException.class);
        assertThat(buf.refCnt()).isZero();
        a.finish();
        b.finish();
    }

    @Test
    void cancelledWritePromiseDropsTheMessage() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ByteBuf buf = Unpooled.buffer(1).writeByte(1);
        ChannelPromise promise = ch.newPromise();
        promise.cancel(false);
        ch.write(buf, promise);
        ch.flush();
        assertThat(buf.refCnt()).isZero();
        assertThat((Object) ch.readOutbound()).isNull();
        ch.finish();
    }
}
