package io.weir.microbench.http2;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.nio.charset.StandardCharsets;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One whole HTTP/2 request per call, as h2load sends them to {@code WeirH2cServer}: a client HEADERS frame with
 * END_STREAM comes in, the server answers HEADERS ({@code :status 200} and three fields) plus a 13-octet DATA frame
 * with END_STREAM (a retained duplicate of one shared body), and the stream closes. Run with {@code -prof gc} it
 * gives the per-request time and bytes allocated of each style:
 * <ul>
 *   <li>{@code mux}: {@code Http2FrameCodec} + {@code Http2MultiplexHandler}, a child channel per stream whose
 *       handler answers (what gRPC and the example server use);</li>
 *   <li>{@code frames}: the {@code Http2FrameCodec} alone, answered by a handler on the connection's pipeline.</li>
 * </ul>
 * The difference between the two is what a stream channel costs. Weir against Netty 4.2's codec and multiplexer,
 * each in its own embedded channel whose written bytes are released unread. The request is a static-table-only
 * header block (no HPACK state), its stream id patched per call, followed by a connection WINDOW_UPDATE for the
 * body's 13 octets so that the connection's send window never runs out.
 */
public class Http2StreamChannelBenchmark extends AbstractMicrobenchmark {
    static final byte[] BODY = "Hello, World!".getBytes(StandardCharsets.US_ASCII);

    @Param({"mux", "frames"})
    public String style;

    private io.weir.channel.embedded.EmbeddedChannel weir;
    private io.netty.channel.embedded.EmbeddedChannel netty;
    private io.weir.buffer.ByteBuf weirBody;
    private io.netty.buffer.ByteBuf nettyBody;
    /** The HEADERS frame, then a WINDOW_UPDATE on stream 0 giving back the body's octets (as h2load does). */
    private final byte[] request = new byte[9 + Http2StreamBenchmark.BLOCK.length + 13];
    // Both start at 3: Netty's codec keeps stream 1 for an HTTP/1.1 upgrade when it is created in an embedded channel.
    private int weirStream = 3;
    private int nettyStream = 3;

    /** Weir's answer, on the connection's pipeline ({@code frames}) or shared by every child ({@code mux}). */
    @io.weir.channel.ChannelHandler.Sharable
    static final class WeirAnswer implements io.weir.channel.ChannelHandler {
        private final io.weir.buffer.ByteBuf body;

        WeirAnswer(io.weir.buffer.ByteBuf body) {
            this.body = body;
        }

        @Override
        public void channelRead(io.weir.channel.ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof io.weir.handler.codec.http2.Http2HeadersFrame request && request.endStream()) {
                // null in a child channel: its own stream.
                io.weir.handler.codec.http2.Http2FrameStream stream =
                        ctx.channel() instanceof io.weir.handler.codec.http2.Http2StreamChannel ? null : request.stream();
                io.weir.handler.codec.http2.Http2Headers headers =
                        new io.weir.handler.codec.http2.Http2Headers(4, false).status("200");
                headers.add("content-type", "text/plain").add("server", "weir").add("content-length", "13");
                ctx.write(new io.weir.handler.codec.http2.Http2HeadersFrame(stream, headers, false), ctx.voidPromise());
                ctx.write(new io.weir.handler.codec.http2.Http2DataFrame(stream, body.retainedDuplicate(), true, 0),
                        ctx.voidPromise());
            }
            io.weir.util.ReferenceCountUtil.release(msg);
        }

        @Override
        public void channelReadComplete(io.weir.channel.ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    /** Netty's answer, the same frames. */
    @io.netty.channel.ChannelHandler.Sharable
    static final class NettyAnswer extends io.netty.channel.ChannelInboundHandlerAdapter {
        private final io.netty.buffer.ByteBuf body;

        NettyAnswer(io.netty.buffer.ByteBuf body) {
            this.body = body;
        }

        @Override
        public void channelRead(io.netty.channel.ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof io.netty.handler.codec.http2.Http2HeadersFrame request && request.isEndStream()) {
                io.netty.handler.codec.http2.Http2FrameStream stream =
                        ctx.channel() instanceof io.netty.handler.codec.http2.Http2StreamChannel ? null : request.stream();
                io.netty.handler.codec.http2.Http2Headers headers =
                        new io.netty.handler.codec.http2.DefaultHttp2Headers(false, 4).status("200");
                headers.add("content-type", "text/plain").add("server", "netty").add("content-length", "13");
                ctx.write(new io.netty.handler.codec.http2.DefaultHttp2HeadersFrame(headers, false).stream(stream),
                        ctx.voidPromise());
                ctx.write(new io.netty.handler.codec.http2.DefaultHttp2DataFrame(body.retainedDuplicate(), true)
                        .stream(stream), ctx.voidPromise());
            }
            io.netty.util.ReferenceCountUtil.release(msg);
        }

        @Override
        public void channelReadComplete(io.netty.channel.ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    @Setup
    public void setup() {
        byte[] block = Http2StreamBenchmark.BLOCK;
        request[2] = (byte) block.length;
        request[3] = 0x1; // HEADERS
        request[4] = 0x5; // END_STREAM | END_HEADERS
        System.arraycopy(block, 0, request, 9, block.length);
        int update = 9 + block.length;
        request[update + 2] = 4;
        request[update + 3] = 0x8; // WINDOW_UPDATE, stream 0
        request[update + 12] = (byte) BODY.length;
        boolean mux = switch (style) {
            case "mux" -> true;
            case "frames" -> false;
            default -> throw new IllegalArgumentException("style: " + style + " (expected: mux or frames)");
        };
        weirBody = io.weir.buffer.Unpooled.directBuffer(BODY.length).writeBytes(BODY);
        WeirAnswer weirAnswer = new WeirAnswer(weirBody);
        weir = new io.weir.channel.embedded.EmbeddedChannel(
                io.weir.handler.codec.http2.Http2FrameCodecBuilder.forServer().build(),
                mux ? new io.weir.handler.codec.http2.Http2MultiplexHandler(weirAnswer) : weirAnswer);
        weir.writeInbound(io.weir.buffer.Unpooled.wrappedBuffer(Http2StreamBenchmark.PREFACE_AND_SETTINGS));
        drain(weir);
        nettyBody = io.netty.buffer.Unpooled.directBuffer(BODY.length).writeBytes(BODY);
        NettyAnswer nettyAnswer = new NettyAnswer(nettyBody);
        netty = new io.netty.channel.embedded.EmbeddedChannel(
                io.netty.handler.codec.http2.Http2FrameCodecBuilder.forServer().build(),
                mux ? new io.netty.handler.codec.http2.Http2MultiplexHandler(nettyAnswer) : nettyAnswer);
        netty.writeInbound(io.netty.buffer.Unpooled.wrappedBuffer(Http2StreamBenchmark.PREFACE_AND_SETTINGS));
        drain(netty);
    }

    @TearDown
    public void tearDown() {
        weir.finishAndReleaseAll();
        netty.finishAndReleaseAll();
        weirBody.release();
        nettyBody.release();
    }

    /** Releases what {@code channel} wrote; returns how many bytes that was. */
    static long drain(io.weir.channel.embedded.EmbeddedChannel channel) {
        long bytes = 0;
        Object o;
        while ((o = channel.readOutbound()) != null) {
            bytes += ((io.weir.buffer.ByteBuf) o).readableBytes();
            io.weir.util.ReferenceCountUtil.release(o);
        }
        return bytes;
    }

    /** Releases what {@code channel} wrote; returns how many bytes that was. */
    static long drain(io.netty.channel.embedded.EmbeddedChannel channel) {
        long bytes = 0;
        Object o;
        while ((o = channel.readOutbound()) != null) {
            bytes += ((io.netty.buffer.ByteBuf) o).readableBytes();
            io.netty.util.ReferenceCountUtil.release(o);
        }
        return bytes;
    }

    /** Writes {@code id} into the stream identifier of the frame header at the start of {@code frame}. */
    static void streamId(byte[] frame, int id) {
        frame[5] = (byte) (id >>> 24);
        frame[6] = (byte) (id >>> 16);
        frame[7] = (byte) (id >>> 8);
        frame[8] = (byte) id;
    }

    @Benchmark
    public long weirRequest() {
        streamId(request, weirStream);
        weirStream += 2;
        weir.writeInbound(weir.alloc().buffer(request.length).writeBytes(request));
        return drain(weir);
    }

    @Benchmark
    public long nettyRequest() {
        streamId(request, nettyStream);
        nettyStream += 2;
        netty.writeInbound(netty.alloc().buffer(request.length).writeBytes(request));
        return drain(netty);
    }
}
