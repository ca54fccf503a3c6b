package io.weir.microbench.http.app;

import io.weir.microbench.util.AbstractMicrobenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * gzip of a 16 KiB text body through each framework's {@code HttpContentCompressor} (level 6 in both), on an
 * embedded channel with the pooled allocator: a request with {@code Accept-Encoding: gzip, deflate} goes
 * in, a {@code FullHttpResponse} over a retained duplicate of a shared direct body goes out, and everything
 * written is released. Most of the time is zlib's; the difference is what each handler adds around it
 * (buffer copies, per-response encoder set-up, message splitting).
 */
public class HttpContentCompressorBenchmark extends AbstractMicrobenchmark {
    private static final int BODY_BYTES = 16 * 1024;

    private io.weir.buffer.ByteBuf weirBody;
    private io.netty.buffer.ByteBuf nettyBody;
    private io.weir.channel.embedded.EmbeddedChannel weirChannel;
    private io.netty.channel.embedded.EmbeddedChannel nettyChannel;

    static byte[] body() {
        byte[] words = ("{\"id\":12345,\"name\":\"weir\",\"tags\":[\"net\",\"http\",\"codec\"],\"price\":19.99,"
                + "\"description\":\"the quick brown fox jumps over the lazy dog\"}\n").getBytes();
        byte[] b = new byte[BODY_BYTES];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (words[i % words.length] + (i / words.length % 3));
        }
        return b;
    }

    @Setup
    public void setup() {
        byte[] body = body();
        weirBody = io.weir.buffer.Unpooled.directBuffer(body.length).writeBytes(body);
        nettyBody = io.netty.buffer.Unpooled.directBuffer(body.length).writeBytes(body);
        weirChannel = new io.weir.channel.embedded.EmbeddedChannel(
                new io.weir.handler.codec.http.HttpContentCompressor());
        weirChannel.config().setAllocator(io.weir.buffer.PooledByteBufAllocator.DEFAULT);
        nettyChannel = new io.netty.channel.embedded.EmbeddedChannel(
                new io.netty.handler.codec.http.HttpContentCompressor());
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
    public long weirGzip() {
        io.weir.handler.codec.http.DefaultFullHttpRequest req = new io.weir.handler.codec.http.DefaultFullHttpRequest(
                io.weir.handler.codec.http.HttpVersion.HTTP_1_1, io.weir.handler.codec.http.HttpMethod.GET, "/data");
        req.headers().set(io.weir.handler.codec.http.HttpHeaderNames.ACCEPT_ENCODING, "gzip, deflate");
        weirChannel.writeInbound(req);
        io.weir.util.ReferenceCountUtil.release(weirChannel.readInbound());
        io.weir.handler.codec.http.FullHttpResponse res = new io.weir.handler.codec.http.DefaultFullHttpResponse(
                io.weir.handler.codec.http.HttpVersion.HTTP_1_1, io.weir.handler.codec.http.HttpResponseStatus.OK,
                weirBody.retainedDuplicate());
        res.headers().set(io.weir.handler.codec.http.HttpHeaderNames.CONTENT_LENGTH, BODY_BYTES);
        weirChannel.writeOutbound(res);
        long bytes = 0;
        for (Object o; (o = weirChannel.readOutbound()) != null; ) {
            if (o instanceof io.weir.handler.codec.http.HttpContent c) {
                bytes += c.content().readableBytes();
            }
            io.weir.util.ReferenceCountUtil.release(o);
        }
        return bytes;
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, NETTY_THREADS})
    public long nettyGzip() {
        io.netty.handler.codec.http.DefaultFullHttpRequest req = new io.netty.handler.codec.http.DefaultFullHttpRequest(
                io.netty.handler.codec.http.HttpVersion.HTTP_1_1, io.netty.handler.codec.http.HttpMethod.GET, "/data");
        req.headers().set(io.netty.handler.codec.http.HttpHeaderNames.ACCEPT_ENCODING, "gzip, deflate");
        nettyChannel.writeInbound(req);
        io.netty.util.ReferenceCountUtil.release(nettyChannel.readInbound());
        io.netty.handler.codec.http.FullHttpResponse res = new io.netty.handler.codec.http.DefaultFullHttpResponse(
                io.netty.handler.codec.http.HttpVersion.HTTP_1_1, io.netty.handler.codec.http.HttpResponseStatus.OK,
                nettyBody.retainedDuplicate());
        res.headers().set(io.netty.handler.codec.http.HttpHeaderNames.CONTENT_LENGTH, BODY_BYTES);
        nettyChannel.writeOutbound(res);
        long bytes = 0;
        for (Object o; (o = nettyChannel.readOutbound()) != null; ) {
            if (o instanceof io.netty.handler.codec.http.HttpContent c) {
                bytes += c.content().readableBytes();
            }
            io.netty.util.ReferenceCountUtil.release(o);
        }
        return bytes;
    }
}
