package io.weir.microbench.http.multipart;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * POST body decoding by Weir's and Netty 4.2's {@code HttpPostRequestDecoder}, each fed the same body in 8 KiB
 * {@code HttpContent}s and destroyed afterwards, at each leak-detection level of both frameworks:
 * <ul>
 *   <li>{@code *BigItem}: {@code multipart/form-data} with one 1 MiB file of random bytes;</li>
 *   <li>{@code *SmallItems}: {@code multipart/form-data} with 100 short text fields;</li>
 *   <li>{@code *UrlEncoded}: {@code application/x-www-form-urlencoded} with 100 percent-encoded fields.</li>
 * </ul>
 * Both factories keep items in memory, so the numbers measure decoding, not the disk; Weir's in-memory field limit
 * is raised to 2 MiB and both decoders get the same field count (1000) and buffered-bytes (1 MiB) limits.
 *
 * <p>The leak level is set per trial in {@link #setup()} through each framework's {@code setLevel}, which every
 * detector without a fixed level follows. Unlike the other benchmarks the forks start without
 * {@code -Dio.weir.leakDetection.level=DISABLED}: Weir's allocators skip leak detection for the JVM's life when
 * started that way, so the per-trial level would reach Netty only and the comparison would be one-sided. Each chunk
 * is wrapped fresh per invocation (a cheap heap wrapper in both frameworks) because the decoders read them; the
 * wrappers are released after each offer, as a handler would.
 */
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = AbstractMicrobenchmark.FORKS,
        jvmArgsAppend = {AbstractMicrobenchmark.HEAP_MIN, AbstractMicrobenchmark.HEAP_MAX})
public class PostRequestDecoderBenchmark extends AbstractMicrobenchmark {
    private static final int CHUNK_SIZE_BYTES = 8 * 1024;
    private static final int BIG_ITEM_BYTES = 1024 * 1024;
    private static final int SMALL_ITEMS = 100;
    private static final String BOUNDARY = "----WebKitFormBoundary7MA4YWxkTrZu0gW";
    private static final String MULTIPART = "multipart/form-data; boundary=" + BOUNDARY;
    private static final String URLENCODED = "application/x-www-form-urlencoded";
    private static final int MAX_FIELDS = 1000;
    private static final int MAX_BUFFERED_BYTES = 1024 * 1024;

    @Param({"DISABLED", "SIMPLE", "ADVANCED", "PARANOID"})
    public String leakLevel;

    private List<byte[]> bigItem;
    private List<byte[]> smallItems;
    private List<byte[]> urlEncoded;
    private io.weir.handler.codec.http.multipart.DefaultHttpDataFactory weirFactory;
    private io.weir.handler.codec.http.multipart.HttpPostDecoderConfig weirConfig;
    private io.netty.handler.codec.http.multipart.DefaultHttpDataFactory nettyFactory;

    @Setup
    public void setup() {
        io.weir.util.ResourceLeakDetector.setLevel(io.weir.util.ResourceLeakDetector.Level.valueOf(leakLevel));
        io.netty.util.ResourceLeakDetector.setLevel(io.netty.util.ResourceLeakDetector.Level.valueOf(leakLevel));
        byte[] file = new byte[BIG_ITEM_BYTES];
        new Random(42).nextBytes(file);
        bigItem = chunks(concat(ascii("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"; "
                + "filename=\"data.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n"), file,
                ascii("\r\n--" + BOUNDARY + "--\r\n")));
        StringBuilder small = new StringBuilder();
        StringBuilder form = new StringBuilder();
        for (int i = 0; i < SMALL_ITEMS; i++) {
            small.append("--").append(BOUNDARY).append("\r\nContent-Disposition: form-data; name=\"field")
                    .append(i).append("\"\r\n\r\nvalue number ").append(i).append(" of the form\r\n");
            form.append(i == 0 ? "" : "&").append("field").append(i).append("=value+number+").append(i)
                    .append("+%C3%A0+la+carte");
        }
        small.append("--").append(BOUNDARY).append("--\r\n");
        smallItems = chunks(ascii(small.toString()));
        urlEncoded = chunks(ascii(form.toString()));
        weirFactory = new io.weir.handler.codec.http.multipart.DefaultHttpDataFactory(
                io.weir.handler.codec.http.multipart.DefaultHttpDataFactory.Mode.MEMORY);
        weirConfig = new io.weir.handler.codec.http.multipart.HttpPostDecoderConfig().setMaxFields(MAX_FIELDS)
                .setMaxFieldSizeBytes(2 * BIG_ITEM_BYTES).setMaxBufferedBytes(MAX_BUFFERED_BYTES);
        nettyFactory = new io.netty.handler.codec.http.multipart.DefaultHttpDataFactory(false);
    }

    @TearDown
    public void tearDown() {
        io.weir.util.ResourceLeakDetector.setLevel(io.weir.util.ResourceLeakDetector.Level.DISABLED);
        io.netty.util.ResourceLeakDetector.setLevel(io.netty.util.ResourceLeakDetector.Level.DISABLED);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] concat(byte[] a, byte[] b, byte[] c) {
        byte[] all = new byte[a.length + b.length + c.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        System.arraycopy(c, 0, all, a.length + b.length, c.length);
        return all;
    }

    private static List<byte[]> chunks(byte[] body) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < body.length; i += CHUNK_SIZE_BYTES) {
            byte[] c = new byte[Math.min(CHUNK_SIZE_BYTES, body.length - i)];
            System.arraycopy(body, i, c, 0, c.length);
            out.add(c);
        }
        return out;
    }

    private int weir(List<byte[]> body, String contentType) {
        io.weir.handler.codec.http.HttpRequest request = new io.weir.handler.codec.http.DefaultHttpRequest(
                io.weir.handler.codec.http.HttpVersion.HTTP_1_1, io.weir.handler.codec.http.HttpMethod.POST, "/");
        request.headers().set(io.weir.handler.codec.http.HttpHeaderNames.CONTENT_TYPE, contentType);
        io.weir.handler.codec.http.multipart.HttpPostRequestDecoder decoder =
                new io.weir.handler.codec.http.multipart.HttpPostRequestDecoder(weirFactory, request,
                        StandardCharsets.UTF_8, weirConfig);
        int items = 0;
        try {
            int last = body.size() - 1;
            for (int i = 0; i <= last; i++) {
                io.weir.buffer.ByteBuf buf = io.weir.buffer.Unpooled.wrappedBuffer(body.get(i));
                io.weir.handler.codec.http.HttpContent content = i == last
                        ? new io.weir.handler.codec.http.DefaultLastHttpContent(buf)
                        : new io.weir.handler.codec.http.DefaultHttpContent(buf);
                try {
                    decoder.offer(content);
                } finally {
                    content.release();
                }
                while (decoder.next() != null) {
                    items++;
                }
            }
        } finally {
            decoder.destroy();
        }
        return items;
    }

    private int netty(List<byte[]> body, String contentType) {
        io.netty.handler.codec.http.HttpRequest request = new io.netty.handler.codec.http.DefaultHttpRequest(
                io.netty.handler.codec.http.HttpVersion.HTTP_1_1, io.netty.handler.codec.http.HttpMethod.POST, "/");
        request.headers().set(io.netty.handler.codec.http.HttpHeaderNames.CONTENT_TYPE, contentType);
        io.netty.handler.codec.http.multipart.HttpPostRequestDecoder decoder =
                new io.netty.handler.codec.http.multipart.HttpPostRequestDecoder(nettyFactory, request,
                        StandardCharsets.UTF_8, MAX_FIELDS, MAX_BUFFERED_BYTES);
        int items = 0;
        try {
            int last = body.size() - 1;
            for (int i = 0; i <= last; i++) {
                io.netty.buffer.ByteBuf buf = io.netty.buffer.Unpooled.wrappedBuffer(body.get(i));
                io.netty.handler.codec.http.HttpContent content = i == last
                        ? new io.netty.handler.codec.http.DefaultLastHttpContent(buf)
                        : new io.netty.handler.codec.http.DefaultHttpContent(buf);
                try {
                    decoder.offer(content);
                } finally {
                    content.release();
                }
                while (decoder.hasNext()) {
                    if (decoder.next() != null) {
                        items++;
                    }
                }
            }
        } catch (io.netty.handler.codec.http.multipart.HttpPostRequestDecoder.EndOfDataDecoderException end) {
            // Netty signals the end of the body from hasNext() by throwing.
        } finally {
            decoder.destroy();
        }
        return items;
    }

    @Benchmark
    public int weirBigItem() {
        return weir(bigItem, MULTIPART);
    }

    @Benchmark
    public int nettyBigItem() {
        return netty(bigItem, MULTIPART);
    }

    @Benchmark
    public int weirSmallItems() {
        return weir(smallItems, MULTIPART);
    }

    @Benchmark
    public int nettySmallItems() {
        return netty(smallItems, MULTIPART);
    }

    @Benchmark
    public int weirUrlEncoded() {
        return weir(urlEncoded, URLENCODED);
    }

    @Benchmark
    public int nettyUrlEncoded() {
        return netty(urlEncoded, URLENCODED);
    }
}
