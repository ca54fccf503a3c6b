package io.weir.microbench.http;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.nio.charset.StandardCharsets;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Encoding the TechEmpower plaintext response (status line, {@code content-type}, {@code content-length},
 * {@code server}, {@code date}, 13-byte body) as a server does per request: build a {@code FullHttpResponse}
 * over a retained duplicate of a shared body, write it through each framework's {@code HttpResponseEncoder} on
 * a pooled allocator, and release what comes out at a sink handler. {@code chunked} writes a head with
 * {@code transfer-encoding: chunked}, one content piece and the last chunk instead.
 *
 * <p>Writes are fired on the pipeline directly with a void promise so the embedded channels' own bookkeeping
 * (outbound queue, flush, exception checks) stays out of the measurement.
 */
public class HttpResponseEncoderBenchmark extends AbstractMicrobenchmark {
    private static final byte[] BODY = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
    private static final String SERVER = "weir-bench";
    private static final String DATE = "Sun, 06 Nov 1994 08:49:37 GMT";

    @Param({"full", "chunked"})
    public String framing;

    private io.weir.buffer.ByteBuf weirBody;
    private io.netty.buffer.ByteBuf nettyBody;
    private io.weir.channel.embedded.EmbeddedChannel weirChannel;
    private io.netty.channel.embedded.EmbeddedChannel nettyChannel;
    private WeirSink weirSink;
    private NettySink nettySink;

    /** Releases what the encoder writes and counts its bytes (shared by other encoder and writer benchmarks). */
    public static final class WeirSink implements io.weir.channel.ChannelHandler {
        public long bytes;

        @Override
        public void write(io.weir.channel.ChannelHandlerContext ctx, Object msg, io.weir.channel.ChannelPromise p) {
            if (msg instanceof io.weir.buffer.ByteBuf b) {
                bytes += b.readableBytes();
            }
            io.weir.util.ReferenceCountUtil.release(msg);
        }
    }

    /** Releases what the encoder writes and counts its bytes (shared by other encoder and writer benchmarks). */
    public static final class NettySink extends io.netty.channel.ChannelOutboundHandlerAdapter {
        public long bytes;

        @Override
        public void write(io.netty.channel.ChannelHandlerContext ctx, Object msg, io.netty.channel.ChannelPromise p) {
            if (msg instanceof io.netty.buffer.ByteBuf b) {
                bytes += b.readableBytes();
            }
            io.netty.util.ReferenceCountUtil.release(msg);
        }
    }

    @Setup
    public void setup() {
        weirBody = io.weir.buffer.Unpooled.directBuffer(BODY.length).writeBytes(BODY);
        nettyBody = io.netty.buffer.Unpooled.directBuffer(BODY.length).writeBytes(BODY);
        weirSink = new WeirSink();
        nettySink = new NettySink();
        weirChannel = new io.weir.channel.embedded.EmbeddedChannel(weirSink,
                new io.weir.handler.codec.http.HttpResponseEncoder());
        weirChannel.config().setAllocator(io.weir.buffer.PooledByteBufAllocator.DEFAULT);
        nettyChannel = new io.netty.channel.embedded.EmbeddedChannel(nettySink,
                new io.netty.handler.codec.http.HttpResponseEncoder());
        nettyChannel.config().setAllocator(io.netty.buffer.PooledByteBufAllocator.DEFAULT);
    }

    @TearDown
    public void tearDown() {
        weirChannel.finishAndReleaseAll();
        nettyChannel.finishAndReleaseAll();
        weirBody.release();
        nettyBody.release();
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, WEIR_THREADS})
    public long weirEncode() {
        io.weir.channel.ChannelPipeline p = weirChannel.pipeline();
        if ("full".equals(framing)) {
            io.weir.handler.codec.http.FullHttpResponse res = new io.weir.handler.codec.http.DefaultFullHttpResponse(
                    io.weir.handler.codec.http.HttpVersion.HTTP_1_1, io.weir.handler.codec.http.HttpResponseStatus.OK,
                    weirBody.retainedDuplicate());
            weirHeaders(res.headers()).set(io.weir.handler.codec.http.HttpHeaderNames.CONTENT_LENGTH, "13");
            p.write(res, weirChannel.voidPromise());
        } else {
            io.weir.handler.codec.http.HttpResponse res = new io.weir.handler.codec.http.DefaultHttpResponse(
                    io.weir.handler.codec.http.HttpVersion.HTTP_1_1, io.weir.handler.codec.http.HttpResponseStatus.OK);
            weirHeaders(res.headers()).set(io.weir.handler.codec.http.HttpHeaderNames.TRANSFER_ENCODING,
                    io.weir.handler.codec.http.HttpHeaderValues.CHUNKED);
            p.write(res, weirChannel.voidPromise());
            p.write(new io.weir.handler.codec.http.DefaultHttpContent(weirBody.retainedDuplicate()),
                    weirChannel.voidPromise());
            p.write(io.weir.handler.codec.http.LastHttpContent.EMPTY_LAST_CONTENT, weirChannel.voidPromise());
        }
        return weirSink.bytes;
    }

    private static io.weir.handler.codec.http.HttpHeaders weirHeaders(io.weir.handler.codec.http.HttpHeaders h) {
        return h.set(io.weir.handler.codec.http.HttpHeaderNames.CONTENT_TYPE,
                        io.weir.handler.codec.http.HttpHeaderValues.TEXT_PLAIN)
                .set(io.weir.handler.codec.http.HttpHeaderNames.SERVER, SERVER)
                .set(io.weir.handler.codec.http.HttpHeaderNames.DATE, DATE);
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, NETTY_THREADS})
    public long nettyEncode() {
        io.netty.channel.ChannelPipeline p = nettyChannel.pipeline();
        if ("full".equals(framing)) {
            io.netty.handler.codec.http.FullHttpResponse res = new io.netty.handler.codec.http.DefaultFullHttpResponse(
                    io.netty.handler.codec.http.HttpVersion.HTTP_1_1, io.netty.handler.codec.http.HttpResponseStatus.OK,
                    nettyBody.retainedDuplicate());
            nettyHeaders(res.headers()).set(io.netty.handler.codec.http.HttpHeaderNames.CONTENT_LENGTH, "13");
            p.write(res, nettyChannel.voidPromise());
        } else {
            io.netty.handler.codec.http.HttpResponse res = new io.netty.handler.codec.http.DefaultHttpResponse(
                    io.netty.handler.codec.http.HttpVersion.HTTP_1_1, io.netty.handler.codec.http.HttpResponseStatus.OK);
            nettyHeaders(res.headers()).set(io.netty.handler.codec.http.HttpHeaderNames.TRANSFER_ENCODING,
                    io.netty.handler.codec.http.HttpHeaderValues.CHUNKED);
            p.write(res, nettyChannel.voidPromise());
            p.write(new io.netty.handler.codec.http.DefaultHttpContent(nettyBody.retainedDuplicate()),
                    nettyChannel.voidPromise());
            p.write(io.netty.handler.codec.http.LastHttpContent.EMPTY_LAST_CONTENT, nettyChannel.voidPromise());
        }
        return nettySink.bytes;
    }

    private static io.netty.handler.codec.http.HttpHeaders nettyHeaders(io.netty.handler.codec.http.HttpHeaders h) {
        return h.set(io.netty.handler.codec.http.HttpHeaderNames.CONTENT_TYPE,
                        io.netty.handler.codec.http.HttpHeaderValues.TEXT_PLAIN)
                .set(io.netty.handler.codec.http.HttpHeaderNames.SERVER, SERVER)
                .set(io.netty.handler.codec.http.HttpHeaderNames.DATE, DATE);
    }
}
