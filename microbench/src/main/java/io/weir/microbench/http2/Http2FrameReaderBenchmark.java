package io.weir.microbench.http2;

import io.weir.handler.codec.http2.Http2Exception;
import io.weir.handler.codec.http2.Http2Settings;
import io.weir.handler.codec.http2.internal.Http2FrameListener;
import io.weir.handler.codec.http2.internal.Http2FrameReader;
import io.weir.microbench.util.AbstractMicrobenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Parsing one read's worth of HTTP/2 frames: Weir's {@code Http2FrameReader} against Netty 4.2's public
 * {@code DefaultHttp2FrameReader}, over the same bytes in a pooled direct buffer (as a socket read delivers them).
 * {@code data16}: 100 DATA frames of 16 octets; {@code data16k}: 32 DATA frames of 16 KiB; {@code mixed}: 20
 * rounds of HEADERS (60-octet block), HEADERS + CONTINUATION, DATA, WINDOW_UPDATE, PING, PRIORITY, RST_STREAM.
 *
 * <p>Netty's reader decodes header blocks itself, so it gets an {@code Http2HeadersDecoder} that returns an empty
 * header set without looking at the block, and Weir's listener likewise only counts the block's octets: HPACK is
 * out of both measurements. Netty's reader wants a {@code ChannelHandlerContext} (for its allocator and to pass to
 * its listener): it gets the context of a handler in an embedded channel, captured once; Weir's reader needs none.
 * Each invocation rewinds the input buffer and parses all of it.
 */
public class Http2FrameReaderBenchmark extends AbstractMicrobenchmark {

    @Param({"data16", "data16k", "mixed"})
    public String frames;

    private byte[] input;
    private io.weir.buffer.ByteBuf weirInput;
    private io.netty.buffer.ByteBuf nettyInput;
    private Http2FrameReader weirReader;
    private WeirCounter weirCounter;
    private io.netty.handler.codec.http2.DefaultHttp2FrameReader nettyReader;
    private NettyCounter nettyCounter;
    private io.netty.channel.embedded.EmbeddedChannel nettyChannel;
    private io.netty.channel.ChannelHandlerContext nettyCtx;

    private static void frame(java.io.ByteArrayOutputStream out, int type, int flags, int streamId, int length) {
        out.write(length >>> 16);
        out.write(length >>> 8);
        out.write(length);
        out.write(type);
        out.write(flags);
        out.write(streamId >>> 24);
        out.write(streamId >>> 16);
        out.write(streamId >>> 8);
        out.write(streamId);
        for (int i = 0; i < length; i++) {
            out.write(type == 0x8 || type == 0x2 ? (i == 3 ? 1 : 0) : 0x82);
        }
    }

    static byte[] input(String frames) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        switch (frames) {
            case "data16":
                for (int i = 0; i < 100; i++) {
                    frame(out, 0x0, 0, 1, 16);
                }
                break;
            case "data16k":
                for (int i = 0; i < 32; i++) {
                    frame(out, 0x0, 0, 1, 16384);
                }
                break;
            default:
                for (int i = 0; i < 20; i++) {
                    int stream = 2 * i + 3;
                    frame(out, 0x1, 0x4, stream, 60);
                    frame(out, 0x1, 0x0, stream, 40);
                    frame(out, 0x9, 0x4, stream, 20);
                    frame(out, 0x0, 0x1, stream, 100);
                    frame(out, 0x8, 0, 0, 4);
                    frame(out, 0x6, 0, 0, 8);
                    frame(out, 0x2, 0, stream, 5);
                    frame(out, 0x3, 0, stream, 4);
                }
                break;
        }
        return out.toByteArray();
    }

    /** Counts what a connection would look at: payload octets and frames. */
    static final class WeirCounter implements Http2FrameListener {
        long octets;

        @Override
        public void onData(int streamId, io.weir.buffer.ByteBuf data, int index, int length, int padding,
                boolean endStream) {
            octets += length + padding;
        }

        @Override
        public void onHeaders(int streamId, io.weir.buffer.ByteBuf headerBlock, int padding, boolean endStream,
                boolean hasPriority, int streamDependency, int weight, boolean exclusive) {
            octets += headerBlock.readableBytes();
        }

        @Override
        public void onPriority(int streamId, int streamDependency, int weight, boolean exclusive) {
            octets++;
        }

        @Override
        public void onRstStream(int streamId, long errorCode) {
            octets++;
        }

        @Override
        public void onSettings(Http2Settings settings) {
        }

        @Override
        public void onSettingsAck() {
        }

        @Override
        public void onPing(long data) {
            octets++;
        }

        @Override
        public void onPingAck(long data) {
        }

        @Override
        public void onPushPromise(int streamId, int promisedStreamId, io.weir.buffer.ByteBuf headerBlock,
                int padding) {
        }

        @Override
        public void onGoAway(int lastStreamId, long errorCode, io.weir.buffer.ByteBuf debugData) {
        }

        @Override
        public void onWindowUpdate(int streamId, int windowSizeIncrement) {
            octets++;
        }

        @Override
        public void onPriorityUpdate(int prioritizedStreamId, io.weir.buffer.ByteBuf priorityFieldValue) {
        }
    }

    /** The same counts on Netty's listener. */
    static final class NettyCounter extends io.netty.handler.codec.http2.Http2FrameAdapter {
        long octets;

        @Override
        public int onDataRead(io.netty.channel.ChannelHandlerContext ctx, int streamId, io.netty.buffer.ByteBuf data,
                int padding, boolean endOfStream) {
            int n = data.readableBytes() + padding;
            octets += n;
            return n;
        }

        @Override
        public void onHeadersRead(io.netty.channel.ChannelHandlerContext ctx, int streamId,
                io.netty.handler.codec.http2.Http2Headers headers, int padding, boolean endStream) {
            octets += 1;
        }

        @Override
        public void onHeadersRead(io.netty.channel.ChannelHandlerContext ctx, int streamId,
                io.netty.handler.codec.http2.Http2Headers headers, int streamDependency, short weight,
                boolean exclusive, int padding, boolean endStream) {
            octets += 1;
        }

        @Override
        public void onPriorityRead(io.netty.channel.ChannelHandlerContext ctx, int streamId, int streamDependency,
                short weight, boolean exclusive) {
            octets++;
        }

        @Override
        public void onRstStreamRead(io.netty.channel.ChannelHandlerContext ctx, int streamId, long errorCode) {
            octets++;
        }

        @Override
        public void onPingRead(io.netty.channel.ChannelHandlerContext ctx, long data) {
            octets++;
        }

        @Override
        public void onWindowUpdateRead(io.netty.channel.ChannelHandlerContext ctx, int streamId,
                int windowSizeIncrement) {
            octets++;
        }
    }

    /** Skips HPACK on Netty's side, as Weir's reader leaves the block undecoded. */
    static final class NoDecoder implements io.netty.handler.codec.http2.Http2HeadersDecoder,
            io.netty.handler.codec.http2.Http2HeadersDecoder.Configuration {
        @Override
        public io.netty.handler.codec.http2.Http2Headers decodeHeaders(int streamId, io.netty.buffer.ByteBuf block) {
            return io.netty.handler.codec.http2.EmptyHttp2Headers.INSTANCE;
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
        public void maxHeaderListSize(long max, long goAwayMax) {
        }

        @Override
        public long maxHeaderListSize() {
            return 8192;
        }

        @Override
        public long maxHeaderListSizeGoAway() {
            return 8192;
        }
    }

    @Setup
    public void setup() throws Exception {
        input = input(frames);
        weirInput = io.weir.buffer.PooledByteBufAllocator.DEFAULT.directBuffer(input.length).writeBytes(input);
        nettyInput = io.netty.buffer.PooledByteBufAllocator.DEFAULT.directBuffer(input.length).writeBytes(input);
        weirCounter = new WeirCounter();
        weirReader = new Http2FrameReader(false, weirCounter);
        io.weir.buffer.ByteBuf settings = io.weir.buffer.Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0});
        weirReader.read(settings); // the peer's preface: a client reader wants SETTINGS first
        settings.release();
        nettyCounter = new NettyCounter();
        nettyReader = new io.netty.handler.codec.http2.DefaultHttp2FrameReader(new NoDecoder());
        Http2FrameWriterBenchmark.NettyContext context = new Http2FrameWriterBenchmark.NettyContext();
        nettyChannel = new io.netty.channel.embedded.EmbeddedChannel(context);
        nettyChannel.config().setAllocator(io.netty.buffer.PooledByteBufAllocator.DEFAULT);
        nettyCtx = context.ctx;
    }

    @TearDown
    public void tearDown() {
        weirReader.close();
        nettyReader.close();
        nettyChannel.finishAndReleaseAll();
        weirInput.release();
        nettyInput.release();
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, WEIR_THREADS})
    public long weirRead() throws Http2Exception {
        weirInput.readerIndex(0);
        weirReader.read(weirInput);
        return weirCounter.octets;
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, NETTY_THREADS})
    public long nettyRead() throws io.netty.handler.codec.http2.Http2Exception {
        nettyInput.readerIndex(0);
        nettyReader.readFrame(nettyCtx, nettyInput, nettyCounter);
        return nettyCounter.octets;
    }
}
