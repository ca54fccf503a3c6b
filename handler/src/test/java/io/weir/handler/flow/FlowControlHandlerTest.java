package io.weir.handler.flow;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FlowControlHandlerTest {

    /** Records what reaches it, in order, including read completions. */
    static final class Recorder implements ChannelHandler {
        final List<String> events = new ArrayList<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            events.add(String.valueOf(msg));
            ctx.fireChannelRead(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            events.add("complete");
            ctx.fireChannelReadComplete();
        }
    }

    /** Splits each inbound string into its characters, like a decoder producing several frames per read. */
    static final class Splitter implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            for (char c : ((String) msg).toCharArray()) {
                ctx.fireChannelRead(String.valueOf(c));
            }
        }
    }

    private static EmbeddedChannel channel(Recorder recorder, FlowControlHandler flow) {
        EmbeddedChannel ch = new EmbeddedChannel(new Splitter(), flow, recorder);
        ch.config().setAutoRead(false);
        return ch;
    }

    @Test
    void eachReadDeliversExactlyOneMessageWhenAutoReadIsOff() {
        Recorder recorder = new Recorder();
        FlowControlHandler flow = new FlowControlHandler();
        EmbeddedChannel ch = channel(recorder, flow);
        // The read issued when the channel became active is still outstanding: it takes the first message,
        // which completes that read.
        ch.writeInbound("abc");
        assertThat(recorder.events).containsExactly("a", "complete");
        assertThat(flow.queueSize()).isEqualTo(2);

        ch.read();
        assertThat(recorder.events).containsExactly("a", "complete", "b");
        ch.read();
        assertThat(recorder.events).containsExactly("a", "complete", "b", "c", "complete");
        assertThat(flow.isQueueEmpty()).isTrue();

        // A read with nothing queued is remembered: the next message goes straight through.
        ch.read();
        ch.writeInbound("de");
        assertThat(recorder.events).containsExactly("a", "complete", "b", "c", "complete", "d", "complete");
        assertThat(flow.queueSize()).isEqualTo(1);
        ch.finishAndReleaseAll();
    }

    @Test
    void turningAutoReadBackOnDrainsTheQueue() {
        Recorder recorder = new Recorder();
        EmbeddedChannel ch = channel(recorder, new FlowControlHandler());
        ch.writeInbound("wxyz");
        assertThat(recorder.events).containsExactly("w", "complete");
        ch.config().setAutoRead(true);
        ch.read();
        assertThat(recorder.events).containsExactly("w", "complete", "x", "y", "z", "complete");
        ch.finishAndReleaseAll();
    }

    @Test
    void queuedBuffersAreReleasedWhenTheChannelCloses() {
        FlowControlHandler flow = new FlowControlHandler();
        EmbeddedChannel ch = new EmbeddedChannel(flow);
        ch.config().setAutoRead(false);
        ByteBuf first = Unpooled.copiedBuffer("1", StandardCharsets.US_ASCII);
        ByteBuf second = Unpooled.copiedBuffer("2", StandardCharsets.US_ASCII);
        ByteBuf third = Unpooled.copiedBuffer("3", StandardCharsets.US_ASCII);
        ch.writeInbound(first, second, third);
        assertThat(flow.queueSize()).isEqualTo(2);
        ch.close();
        assertThat(second.refCnt()).isZero();
        assertThat(third.refCnt()).isZero();
        ch.finishAndReleaseAll();
        assertThat(first.refCnt()).isZero();
    }

    @Test
    void removingTheHandlerPassesQueuedMessagesOn() {
        Recorder recorder = new Recorder();
        FlowControlHandler flow = new FlowControlHandler();
        EmbeddedChannel ch = channel(recorder, flow);
        ch.writeInbound("pqr");
        ch.pipeline().remove(flow);
        assertThat(recorder.events).containsExactly("p", "complete", "q", "r", "complete");
        ch.finishAndReleaseAll();
    }
}
