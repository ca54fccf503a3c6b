package io.weir.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class UserDefinedWritabilityTest {
    private static final int FLOW_CONTROL_BIT = 3;

    private final List<String> events = new ArrayList<>();
    private final EmbeddedChannel channel = new EmbeddedChannel(new RecordingHandler("before", events),
            new FlowGate(), new RecordingHandler("after", events));

    @AfterEach
    void tearDown() {
        channel.finishAndReleaseAll();
    }

    /** Closes or opens its bit when it reads "stop" or "go", as a flow-control handler would. */
    private static final class FlowGate implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if ("stop".equals(msg)) {
                ctx.channel().setUserDefinedWritability(FLOW_CONTROL_BIT, false);
            } else if ("go".equals(msg)) {
                ctx.channel().setUserDefinedWritability(FLOW_CONTROL_BIT, true);
            } else {
                ctx.fireChannelRead(msg);
            }
        }
    }

    private List<String> writabilityEvents() {
        channel.runPendingTasks();
        List<String> out = new ArrayList<>();
        for (String e : events) {
            if (e.contains(":writability")) {
                out.add(e);
            }
        }
        return out;
    }

    @Test
    void handlerClearingItsBitMakesTheChannelUnwritableAndTellsThePipeline() {
        assertThat(channel.isWritable()).isTrue();
        channel.writeInbound("stop");
        assertThat(channel.isWritable()).isFalse();
        assertThat(channel.getUserDefinedWritability(FLOW_CONTROL_BIT)).isFalse();
        assertThat(channel.getUserDefinedWritability(FLOW_CONTROL_BIT + 1)).isTrue();
        assertThat(channel.bytesBeforeUnwritable()).isZero();
        assertThat(writabilityEvents()).containsExactly("before:writability(false)", "after:writability(false)");

        channel.writeInbound("go");
        assertThat(channel.isWritable()).isTrue();
        assertThat(channel.getUserDefinedWritability(FLOW_CONTROL_BIT)).isTrue();
        assertThat(writabilityEvents()).containsExactly("before:writability(false)", "after:writability(false)",
                "before:writability(true)", "after:writability(true)");
    }

    @Test
    void settingABitToTheValueItHasFiresNothing() {
        channel.setUserDefinedWritability(FLOW_CONTROL_BIT, true);
        channel.writeInbound("stop");
        channel.writeInbound("stop");
        assertThat(writabilityEvents()).containsExactly("before:writability(false)", "after:writability(false)");
    }

    @Test
    void bitFlippedFromAnotherThreadIsSeenAtOnceAndReportedOnTheLoop() throws Exception {
        CompletableFuture.runAsync(() -> channel.setUserDefinedWritability(FLOW_CONTROL_BIT, false))
                .get(10, TimeUnit.SECONDS);
        assertThat(channel.isWritable()).isFalse();
        assertThat(writabilityEvents()).containsExactly("before:writability(false)", "after:writability(false)");
    }

    @Test
    void indexOutsideTheUserRangeIsRefusedWithTheIndex() {
        assertThatThrownBy(() -> channel.setUserDefinedWritability(0, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
        assertThatThrownBy(() -> channel.getUserDefinedWritability(32))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("32");
        assertThat(channel.isWritable()).isTrue();
    }

    @Test
    void closedChannelIgnoresFlipsAndStaysUnwritable() {
        channel.close();
        channel.setUserDefinedWritability(FLOW_CONTROL_BIT, true);
        assertThat(channel.isWritable()).isFalse();
        assertThat(channel.getUserDefinedWritability(FLOW_CONTROL_BIT)).isFalse();
        assertThatThrownBy(() -> channel.setUserDefinedWritability(40, true))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
