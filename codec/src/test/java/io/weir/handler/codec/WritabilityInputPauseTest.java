package io.weir.handler.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.embedded.EmbeddedChannel;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Pausing input while the channel is unwritable, and resuming it once, with a read asked for meanwhile. */
class WritabilityInputPauseTest {
    private static final int PEER_NOT_READING_BIT = 5;

    @Test
    void pausesWhileUnwritableAndResumesOnceWithTheHeldRead() {
        WritabilityInputPause pause = new WritabilityInputPause();
        AtomicInteger resumes = new AtomicInteger();
        AtomicInteger reads = new AtomicInteger();
        ChannelHandler counter = new ChannelHandler() {
            @Override
            public void read(ChannelHandlerContext ctx) {
                reads.incrementAndGet();
                ctx.read();
            }
        };
        ChannelHandler gate = new ChannelHandler() {
            @Override
            public void channelWritabilityChanged(ChannelHandlerContext ctx) {
                pause.scheduleResume(ctx, () -> {
                    if (pause.beginResume(ctx)) {
                        resumes.incrementAndGet();
                        pause.endResume(ctx);
                    }
                });
            }

            @Override
            public void read(ChannelHandlerContext ctx) {
                if (!pause.holdRead()) {
                    ctx.read();
                }
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(counter, gate);
        ChannelHandlerContext ctx = ch.pipeline().context(gate);
        ch.setUserDefinedWritability(PEER_NOT_READING_BIT, false);
        ch.runPendingTasks();
        pause.pause(ctx);
        assertThat(pause.isPaused()).isTrue();
        assertThat(ch.config().isAutoRead()).isFalse();
        int before = reads.get();
        ch.read();
        assertThat(reads.get()).as("a read while paused is held").isEqualTo(before);

        ch.setUserDefinedWritability(PEER_NOT_READING_BIT, true);
        ch.setUserDefinedWritability(PEER_NOT_READING_BIT, false);
        ch.setUserDefinedWritability(PEER_NOT_READING_BIT, true);
        ch.runPendingTasks();
        assertThat(resumes.get()).as("resumed once").isEqualTo(1);
        assertThat(pause.isPaused()).isFalse();
        assertThat(ch.config().isAutoRead()).as("auto-read back on").isTrue();
        assertThat(reads.get()).as("the held read passed on").isGreaterThan(before);
        ch.finishAndReleaseAll();
    }

    @Test
    void leavesAutoReadOffWhenSomeoneElseTurnedItOff() {
        WritabilityInputPause pause = new WritabilityInputPause();
        ChannelHandler gate = new ChannelHandler() { };
        EmbeddedChannel ch = new EmbeddedChannel(gate);
        ChannelHandlerContext ctx = ch.pipeline().context(gate);
        ch.config().setAutoRead(false);
        pause.pause(ctx);
        assertThat(pause.beginResume(ctx)).isTrue();
        pause.endResume(ctx);
        assertThat(ch.config().isAutoRead()).as("not this pause's to turn on").isFalse();
        ch.finishAndReleaseAll();
    }
}
