package io.weir.handler.timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.channel.ChannelFuture;
import io.weir.channel.embedded.EmbeddedChannel;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TimeoutHandlersTest {

    private static void advance(EmbeddedChannel ch, long millis) {
        ch.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        ch.runPendingTasks();
    }

    @Test
    void readTimeoutFiresTheExceptionOnceAndClosesTheChannel() {
        EmbeddedChannel ch = new EmbeddedChannel(new ReadTimeoutHandler(500, TimeUnit.MILLISECONDS));
        advance(ch, 400);
        ch.writeInbound("keep-alive");
        assertThat(ch.<String>readInbound()).isEqualTo("keep-alive");
        advance(ch, 400);
        assertThat(ch.isOpen()).isTrue();
        advance(ch, 100);
        assertThat(ch.isOpen()).isFalse();
        assertThatThrownBy(ch::checkException).isSameAs(ReadTimeoutException.INSTANCE);
        assertThat(ReadTimeoutException.INSTANCE.getStackTrace()).isEmpty();
        ch.finishAndReleaseAll();
    }

    @Test
    void writeTimeoutClosesTheChannelWhenAWriteIsStuck() {
        EmbeddedChannel ch = new EmbeddedChannel(new WriteTimeoutHandler(1000, TimeUnit.MILLISECONDS));
        // Never flushed, so the write never completes.
        ChannelFuture stuck = ch.writeOneOutbound("stuck");
        advance(ch, 999);
        assertThat(ch.isOpen()).isTrue();
        advance(ch, 1);
        assertThat(ch.isOpen()).isFalse();
        assertThat(stuck.isDone()).isTrue();
        assertThat(stuck.isSuccess()).isFalse();
        assertThatThrownBy(ch::checkException).isSameAs(WriteTimeoutException.INSTANCE);
        ch.finishAndReleaseAll();
    }

    @Test
    void completedWritesCancelTheirTimers() {
        EmbeddedChannel ch = new EmbeddedChannel(new WriteTimeoutHandler(1, TimeUnit.SECONDS));
        for (int i = 0; i < 3; i++) {
            ch.writeOutbound("msg" + i);
        }
        ch.releaseOutbound();
        assertThat(ch.hasPendingTasks()).isFalse();
        advance(ch, 5000);
        assertThat(ch.isOpen()).isTrue();
        ch.finishAndReleaseAll();
    }

    @Test
    void removingTheHandlerCancelsPendingWriteTimers() {
        WriteTimeoutHandler handler = new WriteTimeoutHandler(1, TimeUnit.SECONDS);
        EmbeddedChannel ch = new EmbeddedChannel(handler);
        ch.writeOneOutbound("a");
        ch.writeOneOutbound("b");
        assertThat(ch.hasPendingTasks()).isTrue();
        ch.pipeline().remove(handler);
        advance(ch, 5000);
        assertThat(ch.isOpen()).isTrue();
        assertThat(ch.hasPendingTasks()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void nonPositiveTimeoutsAreRefused() {
        assertThatThrownBy(() -> new ReadTimeoutHandler(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("timeout: 0");
        assertThatThrownBy(() -> new WriteTimeoutHandler(-1, TimeUnit.SECONDS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout: -1");
    }
}
