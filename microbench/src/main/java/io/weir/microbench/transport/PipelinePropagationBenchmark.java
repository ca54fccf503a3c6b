package io.weir.microbench.transport;

import io.weir.microbench.util.AbstractMicrobenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One {@code fireChannelRead} from the head of a pipeline through {@code passThroughHandlers} handlers that
 * do not handle reads, to one consumer at the end. Weir's pass-through handlers implement
 * {@code ChannelHandler} without overriding anything; Netty's extend {@code ChannelInboundHandlerAdapter},
 * whose methods Netty also marks as skippable, so both frameworks may jump over them: this measures how
 * cheaply each one does. Both run on their own {@code EmbeddedChannel}, whose loop runs on the caller. The
 * message is a constant that is not reference counted, so no buffer work blurs the propagation cost.
 */
public class PipelinePropagationBenchmark extends AbstractMicrobenchmark {
    private static final Object MSG = new Object();

    @Param({"0", "4", "8"})
    public int passThroughHandlers;

    private io.weir.channel.embedded.EmbeddedChannel weir;
    private io.netty.channel.embedded.EmbeddedChannel netty;
    private io.weir.channel.ChannelPipeline weirPipeline;
    private io.netty.channel.ChannelPipeline nettyPipeline;
    private WeirConsumer weirConsumer;
    private NettyConsumer nettyConsumer;

    @io.weir.channel.ChannelHandler.Sharable
    static final class WeirPassThrough implements io.weir.channel.ChannelHandler {
    }

    static final class WeirConsumer implements io.weir.channel.ChannelHandler {
        long reads;

        @Override
        public void channelRead(io.weir.channel.ChannelHandlerContext ctx, Object msg) {
            reads++;
        }
    }

    @io.netty.channel.ChannelHandler.Sharable
    static final class NettyPassThrough extends io.netty.channel.ChannelInboundHandlerAdapter {
    }

    static final class NettyConsumer extends io.netty.channel.ChannelInboundHandlerAdapter {
        long reads;

        @Override
        public void channelRead(io.netty.channel.ChannelHandlerContext ctx, Object msg) {
            reads++;
        }
    }

    @Setup
    public void setup() {
        weir = new io.weir.channel.embedded.EmbeddedChannel();
        netty = new io.netty.channel.embedded.EmbeddedChannel();
        WeirPassThrough weirPass = new WeirPassThrough();
        NettyPassThrough nettyPass = new NettyPassThrough();
        for (int i = 0; i < passThroughHandlers; i++) {
            weir.pipeline().addLast(weirPass);
            netty.pipeline().addLast(nettyPass);
        }
        weirConsumer = new WeirConsumer();
        nettyConsumer = new NettyConsumer();
        weir.pipeline().addLast(weirConsumer);
        netty.pipeline().addLast(nettyConsumer);
        weirPipeline = weir.pipeline();
        nettyPipeline = netty.pipeline();
    }

    @TearDown
    public void tearDown() {
        weir.finishAndReleaseAll();
        netty.finishAndReleaseAll();
    }

    @Benchmark
    public long weirFireChannelRead() {
        weirPipeline.fireChannelRead(MSG);
        return weirConsumer.reads;
    }

    @Benchmark
    public long nettyFireChannelRead() {
        nettyPipeline.fireChannelRead(MSG);
        return nettyConsumer.reads;
    }
}
