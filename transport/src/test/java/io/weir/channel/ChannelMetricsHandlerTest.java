package io.weir.channel;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.metrics.ChannelMetrics;
import io.weir.metrics.ChannelMetrics.CloseReason;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class ChannelMetricsHandlerTest {

    private static long closed(ChannelMetrics metrics, CloseReason reason) {
        return metrics.closed().counter(reason.ordinal()).sum();
    }

    @Test
    void aHandlersCloseCountsAsLocal() {
        ChannelMetrics metrics = new ChannelMetrics();
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelMetricsHandler(metrics));
        assertThat(metrics.accepted().sum()).as("added to an active channel").isEqualTo(1);
        assertThat(metrics.open().value()).isEqualTo(1);

        ch.writeInbound(Unpooled.wrappedBuffer(new byte[3]));
        ByteBuf in = ch.readInbound();
        in.release();
        ch.writeOutbound(Unpooled.wrappedBuffer(new byte[4]));
        ByteBuf out = ch.readOutbound();
        out.release();
        ch.close();

        assertThat(metrics.open().value()).isZero();
        assertThat(closed(metrics, CloseReason.LOCAL)).isEqualTo(1);
        assertThat(closed(metrics, CloseReason.PEER) + closed(metrics, CloseReason.ERROR)).isZero();
    }

    @Test
    void readsWritesAndFlushesPassItBy() {
        // It handles no message, so the pipeline skips it: metrics cost nothing per request.
        int mask = HandlerType.of(ChannelMetricsHandler.class).mask;
        assertThat(mask & (ChannelHandlerMask.MASK_CHANNEL_READ | ChannelHandlerMask.MASK_CHANNEL_READ_COMPLETE
                | ChannelHandlerMask.MASK_WRITE | ChannelHandlerMask.MASK_FLUSH)).isZero();
        assertThat(mask & ChannelHandlerMask.MASK_CHANNEL_INACTIVE).as("but the close").isNotZero();
    }

    @Test
    void aCloseAfterAnExceptionCountsAsError() {
        ChannelMetrics metrics = new ChannelMetrics();
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelMetricsHandler(metrics), new ChannelHandler() {
            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                ctx.close();
            }
        });
        ch.pipeline().fireExceptionCaught(new IOException("connection reset by peer"));
        // channelInactive follows the close as a task of the loop.
        ch.runPendingTasks();

        assertThat(ch.isOpen()).isFalse();
        assertThat(closed(metrics, CloseReason.ERROR)).isEqualTo(1);
        assertThat(closed(metrics, CloseReason.LOCAL)).isZero();
        assertThat(metrics.open().value()).isZero();
    }

    @Test
    void aHandlerAddedTwiceToNoConnectionCountsNothingTwice() {
        ChannelMetrics metrics = new ChannelMetrics();
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelMetricsHandler(metrics));
        ch.pipeline().fireChannelActive();
        ch.close();
        ch.pipeline().fireChannelInactive();
        assertThat(metrics.accepted().sum()).isEqualTo(1);
        assertThat(metrics.closed().total()).isEqualTo(1);
        assertThat(metrics.open().value()).as("never below zero").isZero();
    }
}
