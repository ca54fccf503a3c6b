package io.weir.microbench.transport;

import io.weir.microbench.util.AbstractMicrobenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The test-harness round trip every codec test performs: {@code writeInbound} of one message through one
 * handler that passes it on, then {@code readInbound}; and the outbound twin, {@code writeOutbound} then
 * {@code readOutbound}. Weir's {@code EmbeddedChannel} against Netty's. The message is a constant that is
 * not reference counted. Both include what the harness does per call: read-complete, auto-read, pending
 * tasks, the exception check, and for outbound a promise per write.
 */
public class EmbeddedRoundTripBenchmark extends AbstractMicrobenchmark {
    private static final Object MSG = new Object();

    private io.weir.channel.embedded.EmbeddedChannel weir;
    private io.netty.channel.embedded.EmbeddedChannel netty;

    static final class WeirForwarder implements io.weir.channel.ChannelHandler {
        @Override
        public void channelRead(io.weir.channel.ChannelHandlerContext ctx, Object msg) {
            ctx.fireChannelRead(msg);
        }

        @Override
        public void write(io.weir.channel.ChannelHandlerContext ctx, Object msg, io.weir.channel.ChannelPromise promise) {
            ctx.write(msg, promise);
        }
    }

    static final class NettyForwarder extends io.netty.channel.ChannelDuplexHandler {
        @Override
        public void channelRead(io.netty.channel.ChannelHandlerContext ctx, Object msg) {
            ctx.fireChannelRead(msg);
        }

        @Override
        public void write(io.netty.channel.ChannelHandlerContext ctx, Object msg, io.netty.channel.ChannelPromise promise) {
            ctx.write(msg, promise);
        }
    }

    @Setup
    public void setup() {
        weir = new io.weir.channel.embedded.EmbeddedChannel(new WeirForwarder());
        netty = new io.netty.channel.embedded.EmbeddedChannel(new NettyForwarder());
    }

    @TearDown
    public void tearDown() {
        weir.finishAndReleaseAll();
        netty.finishAndReleaseAll();
    }

    @Benchmark
    public Object weirInbound() {
        weir.writeInbound(MSG);
        return weir.readInbound();
    }

    @Benchmark
    public Object nettyInbound() {
        netty.writeInbound(MSG);
        return netty.readInbound();
    }

    @Benchmark
    public Object weirOutbound() {
        weir.writeOutbound(MSG);
        return weir.readOutbound();
    }

    @Benchmark
    public Object nettyOutbound() {
        netty.writeOutbound(MSG);
        return netty.readOutbound();
    }
}
