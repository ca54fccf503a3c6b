package io.weir.channel.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class EmbeddedChannelTest {

    @Test
    void inboundAndOutboundRoundTrip() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ctx.fireChannelRead(((String) msg).toUpperCase());
            }

            @Override
            public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                ctx.write(msg + "!", promise);
            }
        });
        assertThat(ch.writeInbound("a", "b")).isTrue();
        assertThat(ch.writeOutbound("c")).isTrue();
        assertThat((String) ch.readInbound()).isEqualTo("A");
        assertThat((String) ch.readInbound()).isEqualTo("B");
        assertThat((Object) ch.readInbound()).isNull();
        assertThat((String) ch.readOutbound()).isEqualTo("c!");
        assertThat(ch.finish()).isFalse();
        assertThat(ch.isOpen()).isFalse();
        assertThat(ch.closeFuture().isSuccess()).isTrue();
    }

    @Test
    void writeOneInboundDefersReadCompleteUntilFlushInbound() {
        List<String> events = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                events.add("read " + msg);
                ctx.fireChannelRead(msg);
            }

            @Override
            public void channelReadComplete(ChannelHandlerContext ctx) {
                events.add("complete");
            }
        });
        assertThat(ch.writeOneInbound("a").isSuccess()).isTrue();
        ch.writeOneInbound("b");
        assertThat(events).containsExactly("read a", "read b");
        ch.flushInbound();
        assertThat(events).containsExactly("read a", "read b", "complete");
        assertThat(ch.inboundMessages()).containsExactly("a", "b");
        ch.finishAndReleaseAll();
    }

    @Test
    void writeOneOutboundWaitsForFlushOutbound() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ChannelFuture f = ch.writeOneOutbound("x");
        assertThat(ch.outboundMessages()).isEmpty();
        ch.flushOutbound();
        assertThat(f.isSuccess()).isTrue();
        assertThat(ch.outboundMessages()).containsExactly("x");
        ch.finishAndReleaseAll();
    }

    @Test
    void isRegisteredAndActiveFromTheStart() {
        EmbeddedChannel ch = new EmbeddedChannel();
        assertThat(ch.isRegistered()).isTrue();
        assertThat(ch.isActive()).isTrue();
        assertThat(ch.id()).isEqualTo(EmbeddedChannelId.INSTANCE);
        assertThat(ch.localAddress()).hasToString("embedded");
        ch.finish();
    }

    @Test
    void scheduledTasksRunWhenTheManualClockReachesThem() {
        EmbeddedChannel ch = new EmbeddedChannel();
        List<String> ran = new ArrayList<>();
        ScheduledFuture<?> late = ch.eventLoop().schedule(() -> ran.add("10s"), 10, TimeUnit.SECONDS);
        ch.eventLoop().schedule(() -> ran.add("5s"), 5, TimeUnit.SECONDS);
        assertThat(ch.runScheduledPendingTasks()).isEqualTo(TimeUnit.SECONDS.toNanos(5));
        ch.advanceTimeBy(5, TimeUnit.SECONDS);
        ch.runPendingTasks();
        assertThat(ran).containsExactly("5s");
        ch.advanceTimeBy(4, TimeUnit.SECONDS);
        assertThat(ch.runScheduledPendingTasks()).isEqualTo(TimeUnit.SECONDS.toNanos(1));
        assertThat(late.isDone()).isFalse();
        ch.advanceTimeBy(1, TimeUnit.SECONDS);
        assertThat(ch.runScheduledPendingTasks()).isEqualTo(-1);
        assertThat(ran).containsExactly("5s", "10s");
        assertThat(late.isSuccess()).isTrue();
        ch.finish();
    }

    @Test
    void closeCancelsScheduledTasks() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ScheduledFuture<?> f = ch.eventLoop().schedule(() -> { }, 1, TimeUnit.SECONDS);
        ch.close();
        assertThat(f.isCancelled()).isTrue();
    }

    @Test
    void tasksRunOnlyWhenAsked() {
        EmbeddedChannel ch = new EmbeddedChannel();
        int[] runs = new int[1];
        ch.eventLoop().execute(() -> runs[0]++);
        assertThat(runs[0]).isZero();
        assertThat(ch.hasPendingTasks()).isTrue();
        ch.runPendingTasks();
        assertThat(runs[0]).isEqualTo(1);
        ch.finish();
    }

    @Test
    void checkExceptionRethrowsTheFirstExceptionOnce() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.pipeline().fireExceptionCaught(new IOException("first"));
        ch.pipeline().fireExceptionCaught(new IOException("second"));
        assertThatThrownBy(ch::checkException).isInstanceOf(IOException.class).hasMessage("first");
        ch.checkException();
        ch.finish();
    }

    @Test
    void exceptionFromATaskIsRecorded() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.eventLoop().execute(() -> {
            throw new IllegalStateException("task failed");
        });
        ch.runPendingTasks();
        assertThatThrownBy(ch::checkException).hasMessage("task failed");
        ch.finish();
    }

    @Test
    void writeInboundOnAClosedChannelThrows() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.close();
        ByteBuf buf = Unpooled.buffer(1).writeByte(1);
        assertThatThrownBy(() -> ch.writeInbound(buf)).isInstanceOf(ClosedChannelException.class);
        buf.release();
    }

    @Test
    void finishReportsAndFinishAndReleaseAllReleasesLeftovers() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ByteBuf in = Unpooled.buffer(1).writeByte(1);
        ByteBuf out = Unpooled.buffer(1).writeByte(2);
        ch.writeInbound(in);
        ch.writeOutbound(out);
        assertThat(ch.finishAndReleaseAll()).isTrue();
        assertThat(in.refCnt()).isZero();
        assertThat(out.refCnt()).isZero();
    }

    @Test
    void closeFailsPendingWritesAndReleasesTheirBuffers() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ByteBuf unflushed = Unpooled.buffer(4).writeInt(7);
        ChannelFuture write = ch.writeOneOutbound(unflushed);
        assertThat(write.isDone()).isFalse();
        ChannelFuture close = ch.close();
        assertThat(close.isSuccess()).isTrue();
        assertThat(ch.closeFuture().isDone()).isTrue();
        assertThat(write.cause()).isInstanceOf(ClosedChannelException.class);
        assertThat(unflushed.refCnt()).isZero();
        ByteBuf late = Unpooled.buffer(1).writeByte(1);
        ChannelFuture lateWrite = ch.write(late);
        assertThat(lateWrite.cause()).isInstanceOf(ClosedChannelException.class);
        assertThat(late.refCnt()).isZero();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void closingTwiceSucceedsBothTimes() {
        EmbeddedChannel ch = new EmbeddedChannel();
        assertThat(ch.close().isSuccess()).isTrue();
        assertThat(ch.close().isSuccess()).isTrue();
    }

    @Test
    void deregisterThenRegisterAgainOnTheSameLoop() {
        List<String> events = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelHandler() {
            @Override
            public void channelRegistered(ChannelHandlerContext ctx) {
                events.add("registered");
            }

            @Override
            public void channelUnregistered(ChannelHandlerContext ctx) {
                events.add("unregistered");
            }

            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                events.add("active");
            }
        });
        ChannelFuture deregistered = ch.deregister();
        ch.runPendingTasks();
        assertThat(deregistered.isSuccess()).isTrue();
        assertThat(ch.isRegistered()).isFalse();
        assertThat(ch.isOpen()).isTrue();
        ChannelFuture registered = ch.register();
        assertThat(registered.isSuccess()).isTrue();
        assertThat(ch.isRegistered()).isTrue();
        assertThat(ch.register().cause()).isInstanceOf(IllegalStateException.class);
        // channelActive only once: a re-registered channel is not newly active.
        assertThat(events).containsExactly("registered", "active", "unregistered", "registered");
        assertThat(ch.eventLoop()).isSameAs(ch.embeddedEventLoop());
        ch.finish();
    }

    @Test
    void disconnectClosesAChannelWithoutDisconnect() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.disconnect();
        assertThat(ch.isOpen()).isFalse();
    }

    @Test
    void disconnectKeepsADatagramLikeChannelOpen() {
        EmbeddedChannel ch = new EmbeddedChannel(EmbeddedChannelId.INSTANCE, true, true);
        assertThat(ch.disconnect().isSuccess()).isTrue();
        assertThat(ch.isOpen()).isTrue();
        ch.finish();
    }

    @Test
    void unregisteredChannelRegistersLater() {
        EmbeddedChannel ch = new EmbeddedChannel(EmbeddedChannelId.INSTANCE, false, false);
        assertThat(ch.isRegistered()).isFalse();
        assertThat(ch.register().isSuccess()).isTrue();
        assertThat(ch.isActive()).isTrue();
        ch.finish();
    }
}
