package io.weir.microbench.http2;

import io.weir.handler.codec.http2.internal.Http2FrameWriter;
import io.weir.microbench.http.HttpResponseEncoderBenchmark.NettySink;
import io.weir.microbench.http.HttpResponseEncoderBenchmark.WeirSink;
import io.weir.microbench.util.AbstractMicrobenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Writing one HTTP/2 frame as a connection does: Weir's {@code Http2FrameWriter} against Netty 4.2's public
 * {@code DefaultHttp2FrameWriter}, both on a pooled allocator. {@code headers} writes a HEADERS frame for a fixed
 * 96-octet pre-encoded header block: Weir gets it as a pooled buffer filled the way an HPACK encoder would fill it,
 * Netty through an {@code Http2HeadersEncoder} that copies the same bytes (so neither side runs HPACK).
 * {@code data16}, {@code data1k} and {@code data16k} (also {@code data64}, {@code data256} on request) write one
 * DATA frame over a retained duplicate of a shared direct payload (Weir copies payloads up to 256 octets behind
 * the header and hands larger ones on as they are; {@code copyThreshold} overrides that, for example
 * {@code -p copyThreshold=0,100000}).
 *
 * <p>Each writer gets a {@code ChannelHandlerContext} of an embedded channel, captured by a handler that sits
 * behind a sink; the sink releases every buffer written and counts its bytes, and writes carry the channel's void
 * promise, so neither side's outbound queue nor flush is measured, only frame building and the pipeline hop.
 */
public class Http2FrameWriterBenchmark extends AbstractMicrobenchmark {
    static final byte[] BLOCK = new byte[96];

    static {
        for (int i = 0; i < BLOCK.length; i++) {
            BLOCK[i] = (byte) (0x80 | i);
        }
    }

    @Param({"headers", "data16", "data1k", "data16k"})
    public String frame;

    /** Weir's DATA copy threshold; -1 keeps the default. Lets one run compare copying with a second write. */
    @Param("-1")
    public int copyThreshold;

    private io.weir.channel.embedded.EmbeddedChannel weirChannel;
    private io.netty.channel.embedded.EmbeddedChannel nettyChannel;
    private WeirSink weirSink;
    private NettySink nettySink;
    private io.weir.channel.ChannelHandlerContext weirCtx;
    private io.netty.channel.ChannelHandlerContext nettyCtx;
    private Http2FrameWriter weirWriter;
    private io.netty.handler.codec.http2.DefaultHttp2FrameWriter nettyWriter;
    private io.weir.buffer.ByteBuf weirData;
    private io.netty.buffer.ByteBuf nettyData;

    /** Captures the context Weir's writer is given. */
    static final class WeirContext implements io.weir.channel.ChannelHandler {
        io.weir.channel.ChannelHandlerContext ctx;

        @Override
        public void handlerAdded(io.weir.channel.ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }
    }

    /** Captures the context Netty's writer and reader are given. */
    static final class NettyContext extends io.netty.channel.ChannelHandlerAdapter {
        io.netty.channel.ChannelHandlerContext ctx;

        @Override
        public void handlerAdded(io.netty.channel.ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }
    }

    /** Netty's writer encodes headers itself; this encoder writes the same fixed block Weir is given. */
    static final class FixedBlockEncoder implements io.netty.handler.codec.http2.Http2HeadersEncoder,
            io.netty.handler.codec.http2.Http2HeadersEncoder.Configuration {
        @Override
        public void encodeHeaders(int streamId, io.netty.handler.codec.http2.Http2Headers headers,
                io.netty.buffer.ByteBuf buffer) {
            buffer.writeBytes(BLOCK);
        }

        @Override
        public Configuration configuration() {
            return this;
        }

        @Override
        public void maxHeaderTableSize(long max) {
        }

        @Override
        public long maxHeaderTableSize() {
            return 4096;
        }

        @Override
        public void maxHeaderListSize(long max) {
        }

        @Override
        public long maxHeaderListSize() {
            return 8192;
        }
    }

    private static int dataLength(String frame) {
        switch (frame) {
            case "data16": return 16;
            case "data64": return 64;
            case "data256": return 256;
            case "data1k": return 1024;
            case "data16k": return 16384;
            default: return 0;
        }
    }

    @Setup
    public void setup() {
        int dataLength = dataLength(frame);
        weirSink = new WeirSink();
        WeirContext weirContext = new WeirContext();
        weirChannel = new io.weir.channel.embedded.EmbeddedChannel(weirSink, weirContext);
        weirChannel.config().setAllocator(io.weir.buffer.PooledByteBufAllocator.DEFAULT);
        weirCtx = weirContext.ctx;
        weirWriter = new Http2FrameWriter();
        if (copyThreshold >= 0) {
            weirWriter.dataCopyThresholdBytes(copyThreshold);
        }
        weirData = io.weir.buffer.PooledByteBufAllocator.DEFAULT.directBuffer(dataLength).writeZero(dataLength);

        nettySink = new NettySink();
        NettyContext nettyContext = new NettyContext();
        nettyChannel = new io.netty.channel.embedded.EmbeddedChannel(nettySink, nettyContext);
        nettyChannel.config().setAllocator(io.netty.buffer.PooledByteBufAllocator.DEFAULT);
        nettyCtx = nettyContext.ctx;
        nettyWriter = new io.netty.handler.codec.http2.DefaultHttp2FrameWriter(new FixedBlockEncoder());
        nettyData = io.netty.buffer.PooledByteBufAllocator.DEFAULT.directBuffer(dataLength).writeZero(dataLength);
    }

    @TearDown
    public void tearDown() {
        weirChannel.finishAndReleaseAll();
        nettyChannel.finishAndReleaseAll();
        weirData.release();
        nettyData.release();
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, WEIR_THREADS})
    public long weirWrite() {
        io.weir.channel.ChannelHandlerContext ctx = weirCtx;
        if ("headers".equals(frame)) {
            io.weir.buffer.ByteBuf block = ctx.alloc().buffer(BLOCK.length).writeBytes(BLOCK);
            weirWriter.writeHeaders(ctx, 1, block, 0, false, ctx.voidPromise());
        } else {
            weirWriter.writeData(ctx, 1, weirData.retainedDuplicate(), 0, false, ctx.voidPromise());
        }
        return weirSink.bytes;
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, NETTY_THREADS})
    public long nettyWrite() {
        io.netty.channel.ChannelHandlerContext ctx = nettyCtx;
        if ("headers".equals(frame)) {
            nettyWriter.writeHeaders(ctx, 1, io.netty.handler.codec.http2.EmptyHttp2Headers.INSTANCE, 0, false,
                    ctx.voidPromise());
        } else {
            nettyWriter.writeData(ctx, 1, nettyData.retainedDuplicate(), 0, false, ctx.voidPromise());
        }
        return nettySink.bytes;
    }
}
