package io.weir.handler.flush;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

class FlushConsolidationHandlerTest {

    /** Counts the flushes that get past the consolidation handler. */
    static final class FlushCounter implements ChannelHandler {
        int flushes;

        @Override
        public void flush(ChannelHandlerContext ctx) {
            flushes++;
            ctx.flush();
        }
    }

    /** Writes and flushes a reply for every message read. */
    static final class Echo implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.writeAndFlush(msg);
        }
    }

    @Test
    void flushesDuringAReadAreConsolidatedIntoOneAtReadComplete() {
        FlushCounter counter = new FlushCounter();
        EmbeddedChannel ch = new EmbeddedChannel(counter, new FlushConsolidationHandler(), new Echo());
        ch.writeOneInbound("a");
        ch.writeOneInbound("b");
        ch.writeOneInbound("c");
        assertThat(counter.flushes).isZero();
        assertThat(ch.outboundMessages()).isEmpty();
        ch.flushInbound();
        assertThat(counter.flushes).isEqualTo(1);
        assertThat(ch.outboundMessages()).containsExactly("a", "b", "c");
        ch.finishAndReleaseAll();
    }

    @Test
    void aLongBurstFlushesEveryExplicitFlushAfterFlushes() {
        FlushCounter counter = new FlushCounter();
        EmbeddedChannel ch = new EmbeddedChannel(counter, new FlushConsolidationHandler(3), new Echo());
        for (int i = 0; i < 7; i++) {
            ch.writeOneInbound(i);
        }
        assertThat(counter.flushes).isEqualTo(2);
        assertThat(ch.outboundMessages()).hasSize(6);
        ch.flushInbound();
        assertThat(counter.flushes).isEqualTo(3);
        assertThat(ch.outboundMessages()).hasSize(7);
        ch.finishAndReleaseAll();
    }

    @Test
    void outsideAReadFlushesGoThroughUnlessConsolidationIsAskedFor() {
        FlushCounter direct = new FlushCounter();
        EmbeddedChannel plain = new EmbeddedChannel(direct, new FlushConsolidationHandler());
        plain.writeAndFlush("x");
        plain.writeAndFlush("y");
        assertThat(direct.flushes).isEqualTo(2);
        plain.finishAndReleaseAll();

        FlushCounter consolidated = new FlushCounter();
        EmbeddedChannel ch = new EmbeddedChannel(consolidated, new FlushConsolidationHandler(10, true));
        ch.writeAndFlush("x");
        ch.writeAndFlush("y");
        ch.writeAndFlush("z");
        assertThat(consolidated.flushes).isZero();
        ch.runPendingTasks();
        assertThat(consolidated.flushes).isEqualTo(1);
        assertThat(ch.outboundMessages()).containsExactly("x", "y", "z");
        ch.finishAndReleaseAll();
    }

    @Test
    void heldBackFlushesGoOutBeforeCloseAndOnRemovalAndOnExceptions() {
        FlushCounter counter = new FlushCounter();
        EmbeddedChannel ch = new EmbeddedChannel(counter, new FlushConsolidationHandler(), new Echo());
        ch.writeOneInbound("before-close");
        ch.close();
        assertThat(counter.flushes).isEqualTo(1);
        assertThat(ch.outboundMessages()).containsExactly("before-close");
        ch.finishAndReleaseAll();

        FlushCounter removedCounter = new FlushCounter();
        FlushConsolidationHandler handler = new FlushConsolidationHandler();
        EmbeddedChannel removed = new EmbeddedChannel(removedCounter, handler, new Echo());
        removed.writeOneInbound("pending");
        removed.pipeline().remove(handler);
        assertThat(removedCounter.flushes).isEqualTo(1);
        assertThat(removed.outboundMessages()).containsExactly("pending");
        removed.finishAndReleaseAll();

        FlushCounter errorCounter = new FlushCounter();
        EmbeddedChannel failing = new EmbeddedChannel(errorCounter, new FlushConsolidationHandler(), new Echo());
        failing.writeOneInbound("pending");
        failing.pipeline().fireExceptionCaught(new IllegalStateException("oops"));
        assertThat(errorCounter.flushes).isEqualTo(1);
        assertThatThrownBy(failing::checkException).hasMessage("oops");
        failing.finishAndReleaseAll();
    }

    @Test
    void nonPositiveThresholdIsRefused() {
        assertThatThrownBy(() -> new FlushConsolidationHandler(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("explicitFlushAfterFlushes: 0");
    }
}
