package io.weir.microbench.http.app;

import io.weir.handler.codec.compression.CompressionLibrary;
import io.weir.handler.codec.compression.CompressionOptions;
import io.weir.microbench.util.AbstractMicrobenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A 16 KiB text body through each framework's {@code HttpContentCompressor}, on an embedded channel with the
 * pooled allocator: a request with {@code Accept-Encoding} goes in, a {@code FullHttpResponse} over a retained
 * duplicate of a shared direct body goes out, and everything written is released. Three codings, the same
 * settings on both sides:
 * <ul>
 *   <li>gzip level 6 (both defaults);</li>
 *   <li>br quality 4, window 2^22, generic mode (Netty's default quality and window, Weir's defaults);</li>
 *   <li>zstd level 3 (both defaults; Netty's 64 KiB block holds the whole body).</li>
 * </ul>
 * Most of the time is the native compressor's; the difference is what each handler adds around it (buffer
 * copies, per-response encoder set-up, message splitting).
 */
public class HttpContentCompressorBenchmark extends AbstractMicrobenchmark {
    private static final int BODY_BYTES = 16 * 1024;
    private static final int BROTLI_QUALITY = 4;
    private static final int BROTLI_WINDOW_BITS = 22;
    private static final int ZSTD_LEVEL = 3;

    private io.weir.buffer.ByteBuf weirBody;
    private io.netty.buffer.ByteBuf nettyBody;
    private io.weir.channel.embedded.EmbeddedChannel weirGzipChannel;
    private io.weir.channel.embedded.EmbeddedChannel weirBrotliChannel;
    private io.weir.channel.embedded.EmbeddedChannel weirZstdChannel;
    private io.netty.channel.embedded.EmbeddedChannel nettyGzipChannel;
    private io.netty.channel.embedded.EmbeddedChannel nettyBrotliChannel;
    private io.netty.channel.embedded.EmbeddedChannel nettyZstdChannel;
    /** Set only during set-up, so that the measured rounds do not look the header up. */
    private boolean checking;
    private String lastCoding;

    static byte[] body() {
        byte[] words = ("{\"id\":12345,\"name\":\"weir\",\"tags\":[\"net\",\"http\",\"codec\"],\"price\":19.99,"
                + "\"description\":\"the quick brown fox jumps over the lazy dog\"}\n").getBytes();
        byte[] b = new byte[BODY_BYTES];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (words[i % words.length] + (i / words.length % 3));
        }
        return b;
    }

    private static io.weir.channel.embedded.EmbeddedChannel weirChannel(
            io.weir.handler.codec.http.HttpContentCompressor compressor) {
        io.weir.channel.embedded.EmbeddedChannel ch = new io.weir.channel.embedded.EmbeddedChannel(compressor);
        ch.config().setAllocator(io.weir.buffer.PooledByteBufAllocator.DEFAULT);
        return ch;
    }

    private static io.netty.channel.embedded.EmbeddedChannel nettyChannel(
            io.netty.handler.codec.http.HttpContentCompressor compressor) {
        io.netty.channel.embedded.EmbeddedChannel ch = new io.netty.channel.embedded.EmbeddedChannel(compressor);
        ch.config().setAllocator(io.netty.buffer.PooledByteBufAllocator.DEFAULT);
        return ch;
    }

    @Setup
    public void setup() {
        CompressionLibrary.BROTLI.ensureAvailable();
        CompressionLibrary.ZSTD.ensureAvailable();
        if (!io.netty.handler.codec.compression.Brotli.isAvailable()
                || !io.netty.handler.codec.compression.Zstd.isAvailable()) {
            throw new IllegalStateException("Netty's brotli or zstd support did not load");
        }
        byte[] body = body();
        weirBody = io.weir.buffer.Unpooled.directBuffer(body.length).writeBytes(body);
        nettyBody = io.netty.buffer.Unpooled.directBuffer(body.length).writeBytes(body);
        weirGzipChannel = weirChannel(new io.weir.handler.codec.http.HttpContentCompressor());
        weirBrotliChannel = weirChannel(new io.weir.handler.codec.http.HttpContentCompressor(
                io.weir.handler.codec.http.HttpContentCompressor.DEFAULT_MIN_CONTENT_SIZE_BYTES,
                CompressionOptions.brotli(BROTLI_QUALITY, BROTLI_WINDOW_BITS)));
        weirZstdChannel = weirChannel(new io.weir.handler.codec.http.HttpContentCompressor(
                io.weir.handler.codec.http.HttpContentCompressor.DEFAULT_MIN_CONTENT_SIZE_BYTES,
                CompressionOptions.zstd(ZSTD_LEVEL,
                        CompressionOptions.Zstd.AUTO_WINDOW_LOG)));
        nettyGzipChannel = nettyChannel(new io.netty.handler.codec.http.HttpContentCompressor());
        nettyBrotliChannel = nettyChannel(new io.netty.handler.codec.http.HttpContentCompressor(
                io.weir.handler.codec.http.HttpContentCompressor.DEFAULT_MIN_CONTENT_SIZE_BYTES,
                io.netty.handler.codec.compression.StandardCompressionOptions.brotli(BROTLI_QUALITY,
                        BROTLI_WINDOW_BITS, io.netty.handler.codec.compression.BrotliMode.GENERIC)));
        nettyZstdChannel = nettyChannel(new io.netty.handler.codec.http.HttpContentCompressor(
                io.weir.handler.codec.http.HttpContentCompressor.DEFAULT_MIN_CONTENT_SIZE_BYTES,
                io.netty.handler.codec.compression.StandardCompressionOptions.zstd(ZSTD_LEVEL, 64 * 1024,
                        32 * 1024 * 1024)));
        // Fail at set-up, not as silently uncompressed rows, if a coding is not chosen.
        checking = true;
        expectCoding(weirRound(weirGzipChannel, "gzip, deflate"), "gzip");
        expectCoding(weirRound(weirBrotliChannel, "br"), "br");
        expectCoding(weirRound(weirZstdChannel, "zstd"), "zstd");
        expectCoding(nettyRound(nettyGzipChannel, "gzip, deflate"), "gzip");
        expectCoding(nettyRound(nettyBrotliChannel, "br"), "br");
        expectCoding(nettyRound(nettyZstdChannel, "zstd"), "zstd");
        checking = false;
    }

    private void expectCoding(long bytes, String coding) {
        if (!coding.equals(lastCoding) || bytes <= 0 || bytes >= BODY_BYTES) {
            throw new IllegalStateException("expected " + coding + " but got " + lastCoding + ", " + bytes
                    + " bytes");
        }
    }

    @TearDown
    public void tearDown() {
        weirGzipChannel.finishAndReleaseAll();
        weirBrotliChannel.finishAndReleaseAll();
        weirZstdChannel.finishAndReleaseAll();
        nettyGzipChannel.finishAndReleaseAll();
        nettyBrotliChannel.finishAndReleaseAll();
        nettyZstdChannel.finishAndReleaseAll();
        weirBody.release();
        nettyBody.release();
    }

    private long weirRound(io.weir.channel.embedded.EmbeddedChannel ch, String acceptEncoding) {
        io.weir.handler.codec.http.DefaultFullHttpRequest req = new io.weir.handler.codec.http.DefaultFullHttpRequest(
                io.weir.handler.codec.http.HttpVersion.HTTP_1_1, io.weir.handler.codec.http.HttpMethod.GET, "/data");
        req.headers().set(io.weir.handler.codec.http.HttpHeaderNames.ACCEPT_ENCODING, acceptEncoding);
        ch.writeInbound(req);
        io.weir.util.ReferenceCountUtil.release(ch.readInbound());
        io.weir.handler.codec.http.FullHttpResponse res = new io.weir.handler.codec.http.DefaultFullHttpResponse(
                io.weir.handler.codec.http.HttpVersion.HTTP_1_1, io.weir.handler.codec.http.HttpResponseStatus.OK,
                weirBody.retainedDuplicate());
        res.headers().set(io.weir.handler.codec.http.HttpHeaderNames.CONTENT_LENGTH, BODY_BYTES);
        ch.writeOutbound(res);
        long bytes = 0;
        for (Object o; (o = ch.readOutbound()) != null; ) {
            if (checking && o instanceof io.weir.handler.codec.http.HttpResponse r) {
                lastCoding = r.headers().get(io.weir.handler.codec.http.HttpHeaderNames.CONTENT_ENCODING);
            }
            if (o instanceof io.weir.handler.codec.http.HttpContent c) {
                bytes += c.content().readableBytes();
            }
            io.weir.util.ReferenceCountUtil.release(o);
        }
        return bytes;
    }

    private long nettyRound(io.netty.channel.embedded.EmbeddedChannel ch, String acceptEncoding) {
        io.netty.handler.codec.http.DefaultFullHttpRequest req = new io.netty.handler.codec.http.DefaultFullHttpRequest(
                io.netty.handler.codec.http.HttpVersion.HTTP_1_1, io.netty.handler.codec.http.HttpMethod.GET, "/data");
        req.headers().set(io.netty.handler.codec.http.HttpHeaderNames.ACCEPT_ENCODING, acceptEncoding);
        ch.writeInbound(req);
        io.netty.util.ReferenceCountUtil.release(ch.readInbound());
        io.netty.handler.codec.http.FullHttpResponse res = new io.netty.handler.codec.http.DefaultFullHttpResponse(
                io.netty.handler.codec.http.HttpVersion.HTTP_1_1, io.netty.handler.codec.http.HttpResponseStatus.OK,
                nettyBody.retainedDuplicate());
        res.headers().set(io.netty.handler.codec.http.HttpHeaderNames.CONTENT_LENGTH, BODY_BYTES);
        ch.writeOutbound(res);
        long bytes = 0;
        for (Object o; (o = ch.readOutbound()) != null; ) {
            if (checking && o instanceof io.netty.handler.codec.http.HttpResponse r) {
                lastCoding = r.headers().get(io.netty.handler.codec.http.HttpHeaderNames.CONTENT_ENCODING);
            }
            if (o instanceof io.netty.handler.codec.http.HttpContent c) {
                bytes += c.content().readableBytes();
            }
            io.netty.util.ReferenceCountUtil.release(o);
        }
        return bytes;
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, WEIR_THREADS})
    public long weirGzip() {
        return weirRound(weirGzipChannel, "gzip, deflate");
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, NETTY_THREADS})
    public long nettyGzip() {
        return nettyRound(nettyGzipChannel, "gzip, deflate");
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, WEIR_THREADS})
    public long weirBrotli() {
        return weirRound(weirBrotliChannel, "br");
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, NETTY_THREADS})
    public long nettyBrotli() {
        return nettyRound(nettyBrotliChannel, "br");
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, WEIR_THREADS})
    public long weirZstd() {
        return weirRound(weirZstdChannel, "zstd");
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, NETTY_THREADS})
    public long nettyZstd() {
        return nettyRound(nettyZstdChannel, "zstd");
    }
}
