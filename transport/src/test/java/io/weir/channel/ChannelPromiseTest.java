package io.weir.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChannelPromiseTest {

    @Test
    void voidPromiseRefusesListenersAndWaits() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ChannelPromise v = ch.voidPromise();
        assertThat(v.isVoid()).isTrue();
        assertThatThrownBy(() -> v.addListener(f -> { })).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(v::sync).isInstanceOf(IllegalStateException.class);
        assertThat(v.unvoid()).isNotSameAs(v);
        assertThat(v.unvoid().isVoid()).isFalse();
        ch.finish();
    }

    @Test
    void failedWriteWithTheVoidPromiseBecomesAnExceptionEvent() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelHandler() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                io.weir.util.ReferenceCountUtil.release(msg);
                promise.setFailure(new IllegalArgumentException("unsupported message"));
            }
        });
        ch.write(Unpooled.buffer(1).writeByte(1), ch.voidPromise());
        assertThatThrownBy(ch::checkException).hasMessage("unsupported message");
        ch.finish();
    }

    @Test
    void closeOnFailureClosesTheChannelWhenAWriteFails() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelHandler() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                io.weir.util.ReferenceCountUtil.release(msg);
                promise.setFailure(new IllegalStateException("encoder broke"));
            }
        });
        ch.writeOneOutbound(Unpooled.buffer(1).writeByte(1)).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
        ch.runPendingTasks();
        assertThat(ch.isOpen()).isFalse();
    }

    @Test
    void closeListenerClosesAfterASuccessfulWrite() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ByteBuf buf = Unpooled.buffer(1).writeByte(1);
        ch.writeAndFlush(buf).addListener(ChannelFutureListener.CLOSE);
        ch.runPendingTasks();
        assertThat(ch.isOpen()).isFalse();
        ByteBuf sent = ch.readOutbound();
        assertThat(sent).isSameAs(buf);
        sent.release();
    }

    @Test
    void lambdaListenersReceiveTheChannelFuture() {
        EmbeddedChannel ch = new EmbeddedChannel();
        Channel[] seen = new Channel[1];
        ch.newSucceededFuture().addListener(f -> seen[0] = f.channel());
        assertThat(seen[0]).isSameAs(ch);
        ch.close().addListener(f -> seen[0] = null);
        assertThat(seen[0]).isNull();
    }

    @Test
    void closeFutureCannotBeCompletedFromOutside() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ChannelPromise closeFuture = (ChannelPromise) ch.closeFuture();
        assertThatThrownBy(() -> closeFuture.setSuccess(null)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> closeFuture.tryFailure(new Exception())).isInstanceOf(IllegalStateException.class);
        assertThat(closeFuture.cancel(false)).isFalse();
        assertThat(closeFuture.isDone()).isFalse();
        ch.close();
        assertThat(closeFuture.isSuccess()).isTrue();
    }

    @Test
    void progressivePromiseReportsProgressToProgressListenersOnly() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ChannelProgressivePromise promise = ch.newProgressivePromise();
        List<String> seen = new ArrayList<>();
        promise.addListener(new ChannelProgressiveFutureListener() {
            @Override
            public void operationProgressed(ChannelProgressiveFuture future, long progress, long total) {
                seen.add(progress + "/" + total);
            }

            @Override
            public void operationComplete(ChannelFuture future) {
                seen.add("done");
            }
        });
        promise.addListener(f -> seen.add("plain done"));
        promise.setProgress(3, 10);
        assertThat(promise.tryProgress(11, 10)).isFalse();
        assertThatThrownBy(() -> promise.setProgress(-1, 10)).isInstanceOf(IllegalArgumentException.class);
        promise.setSuccess();
        assertThat(promise.tryProgress(10, 10)).isFalse();
        assertThat(seen).containsExactly("3/10", "done", "plain done");
        ch.finish();
    }

    @Test
    void failedAndSucceededFuturesAreAlreadyDone() {
        EmbeddedChannel ch = new EmbeddedChannel();
        assertThat(ch.newSucceededFuture().isSuccess()).isTrue();
        ChannelFuture failed = ch.newFailedFuture(new ClosedChannelException());
        assertThat(failed.cause()).isInstanceOf(ClosedChannelException.class);
        assertThat(failed.channel()).isSameAs(ch);
        ch.finish();
    }
}
