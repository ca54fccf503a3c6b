package io.weir.microbench.codec;

import io.weir.microbench.util.AbstractMicrobenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One read carrying {@code frames} small length-prefixed frames (2-byte length, {@value #CONTENT_BYTES} bytes of
 * content), decoded by each framework's {@code LengthFieldBasedFrameDecoder} in an EmbeddedChannel and released
 * by a sink handler: cumulation of the read (taken as is, nothing left over), the decode loop, one retained
 * slice per frame, the output list and one {@code channelRead} per frame.
 *
 * <p>Events are fired on the pipeline directly rather than through {@code writeInbound}, so the embedded
 * channels' own bookkeeping (task queues, exception checks) stays out of the measurement. Each invocation hands
 * the decoder a retained duplicate of one prepared heap buffer, so no bytes are copied to set up a read.
 */
public class LengthFieldDecoderBenchmark extends AbstractMicrobenchmark {
    private static final int CONTENT_BYTES = 16;
    private static final int MAX_FRAME_BYTES = 1024;

    @Param({"16", "256"})
    public int frames;

    private io.weir.buffer.ByteBuf weirWire;
    private io.netty.buffer.ByteBuf nettyWire;
    private io.weir.channel.embedded.EmbeddedChannel weirChannel;
    private io.netty.channel.embedded.EmbeddedChannel nettyChannel;
    private WeirSink weirSink;
    private NettySink nettySink;

    /** Releases each frame and counts it. */
    static final class WeirSink implements io.weir.channel.ChannelHandler {
        int count;

        @Override
        public void channelRead(io.weir.channel.ChannelHandlerContext ctx, Object msg) {
            count++;
            io.weir.util.ReferenceCountUtil.release(msg);
        }
    }

    /** Releases each frame and counts it. */
    static final class NettySink extends io.netty.channel.ChannelInboundHandlerAdapter {
        int count;

        @Override
        public void channelRead(io.netty.channel.ChannelHandlerContext ctx, Object msg) {
            count++;
            io.netty.util.ReferenceCountUtil.release(msg);
        }
    }

    @Setup
    public void setup() {
        weirWire = io.weir.buffer.Unpooled.buffer(frames * (CONTENT_BYTES + 2));
        nettyWire = io.netty.buffer.Unpooled.buffer(frames * (CONTENT_BYTES + 2));
        for (int i = 0; i < frames; i++) {
            weirWire.writeShort(CONTENT_BYTES).writeZero(CONTENT_BYTES);
            nettyWire.writeShort(CONTENT_BYTES).writeZero(CONTENT_BYTES);
        }
        weirSink = new WeirSink();
        nettySink = new NettySink();
        weirChannel = new io.weir.channel.embedded.EmbeddedChannel(
                new io.weir.handler.codec.LengthFieldBasedFrameDecoder(MAX_FRAME_BYTES, 0, 2, 0, 2), weirSink);
        nettyChannel = new io.netty.channel.embedded.EmbeddedChannel(
                new io.netty.handler.codec.LengthFieldBasedFrameDecoder(MAX_FRAME_BYTES, 0, 2, 0, 2), nettySink);
    }

    @TearDown
    public void tearDown() {
        weirChannel.finishAndReleaseAll();
        nettyChannel.finishAndReleaseAll();
        weirWire.release();
        nettyWire.release();
    }

    @Benchmark
    public int weirDecode() {
        weirChannel.pipeline().fireChannelRead(weirWire.retainedDuplicate()).fireChannelReadComplete();
        return weirSink.count;
    }

    @Benchmark
    public int nettyDecode() {
        nettyChannel.pipeline().fireChannelRead(nettyWire.retainedDuplicate()).fireChannelReadComplete();
        return nettySink.count;
    }
}
