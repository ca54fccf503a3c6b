package io.weir.microbench.http2;

import io.weir.microbench.util.AbstractMicrobenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One HTTP/2 stream opened and closed through a server's frame codec and multiplexer: a client HEADERS frame with
 * END_STREAM comes in, the multiplexer makes a child channel, the child's handler answers HEADERS {@code :status
 * 200} with END_STREAM, the stream closes and the child with it. Weir's {@code Http2FrameCodec} +
 * {@code Http2MultiplexHandler} against Netty 4.2's {@code Http2FrameCodec} + {@code Http2MultiplexHandler}, each in
 * an embedded channel whose written bytes are released unread. The request is the same 9-octet frame header plus a
 * static-table-only header block (no HPACK state), its stream id patched per call; the response is HPACK-encoded by
 * each side.
 */
public class Http2StreamBenchmark extends AbstractMicrobenchmark {
    /** :method GET, :scheme http, :path /, :authority "a" (literal without indexing, static name 1). */
    static final byte[] BLOCK = {(byte) 0x82, (byte) 0x86, (byte) 0x84, 0x01, 0x01, 'a'};
    static final byte[] PREFACE_AND_SETTINGS = concat("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(
            java.nio.charset.StandardCharsets.US_ASCII), new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0}, new byte[] {
                0, 0, 0, 4, 1, 0, 0, 0, 0});

    private io.weir.channel.embedded.EmbeddedChannel weir;
    private io.netty.channel.embedded.EmbeddedChannel netty;
    private final byte[] request = new byte[9 + BLOCK.length];
    // Both start at 3: Netty's codec keeps stream 1 for an HTTP/1.1 upgrade when it is created in an embedded channel.
    private int weirStream = 3;
    private int nettyStream = 3;

    static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int i = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, i, p.length);
            i += p.length;
        }
        return out;
    }

    /** Answers each request with a 200 that ends the stream. */
    @io.weir.channel.ChannelHandler.Sharable
    static final class WeirAnswer implements io.weir.channel.ChannelHandler {
        @Override
        public void channelRead(io.weir.channel.ChannelHandlerContext ctx, Object msg) {
            io.weir.util.ReferenceCountUtil.release(msg);
            ctx.writeAndFlush(new io.weir.handler.codec.http2.Http2HeadersFrame(
                    new io.weir.handler.codec.http2.Http2Headers().status("200"), true), ctx.voidPromise());
        }
    }

    /** Answers each request with a 200 that ends the stream. */
    @io.netty.channel.ChannelHandler.Sharable
    static final class NettyAnswer extends io.netty.channel.ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(io.netty.channel.ChannelHandlerContext ctx, Object msg) {
            io.netty.util.ReferenceCountUtil.release(msg);
            ctx.writeAndFlush(new io.netty.handler.codec.http2.DefaultHttp2HeadersFrame(
                    new io.netty.handler.codec.http2.DefaultHttp2Headers().status("200"), true), ctx.voidPromise());
        }
    }

    @Setup
    public void setup() {
        request[2] = (byte) BLOCK.length;
        request[3] = 0x1; // HEADERS
        request[4] = 0x5; // END_STREAM | END_HEADERS
        System.arraycopy(BLOCK, 0, request, 9, BLOCK.length);
        weir = new io.weir.channel.embedded.EmbeddedChannel(
                io.weir.handler.codec.http2.Http2FrameCodecBuilder.forServer().build(), new io.weir.handler.codec.http2.Http2MultiplexHandler(new WeirAnswer()));
        weir.writeInbound(io.weir.buffer.Unpooled.wrappedBuffer(PREFACE_AND_SETTINGS));
        drainWeir();
        netty = new io.netty.channel.embedded.EmbeddedChannel(
                io.netty.handler.codec.http2.Http2FrameCodecBuilder.forServer().build(),
                new io.netty.handler.codec.http2.Http2MultiplexHandler(new NettyAnswer()));
        netty.writeInbound(io.netty.buffer.Unpooled.wrappedBuffer(PREFACE_AND_SETTINGS));
        drainNetty();
    }

    @TearDown
    public void tearDown() {
        weir.finishAndReleaseAll();
        netty.finishAndReleaseAll();
    }

    private long drainWeir() {
        return Http2StreamChannelBenchmark.drain(weir);
    }

    private long drainNetty() {
        return Http2StreamChannelBenchmark.drain(netty);
    }

    private void streamId(int id) {
        Http2StreamChannelBenchmark.streamId(request, id);
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION})
    public long weirStreamOpenClose() {
        streamId(weirStream);
        weirStream += 2;
        io.weir.buffer.ByteBuf in = weir.alloc().buffer(request.length).writeBytes(request);
        weir.writeInbound(in);
        return drainWeir();
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION})
    public long nettyStreamOpenClose() {
        streamId(nettyStream);
        nettyStream += 2;
        io.netty.buffer.ByteBuf in = netty.alloc().buffer(request.length).writeBytes(request);
        netty.writeInbound(in);
        return drainNetty();
    }
}
