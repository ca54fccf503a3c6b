package io.weir.microbench.http;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.nio.charset.StandardCharsets;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One read carrying one whole request, decoded by each framework's {@code HttpRequestDecoder} (default limits,
 * header validation on in both) in an EmbeddedChannel whose sink handler releases and counts what comes out:
 * {@code smallGet} (request line and Host), {@code headers20} (a browser-like GET with 20 header fields) and
 * {@code chunkedPost} (three chunks and a trailer).
 *
 * <p>Events are fired on the pipeline directly rather than through {@code writeInbound}, keeping the embedded
 * channels' bookkeeping out of the measurement. Each invocation hands the decoder a retained duplicate of one
 * prepared heap buffer, so setting up a read copies nothing; both decoders return to their initial state after
 * each request, so every invocation decodes the same thing.
 */
public class HttpRequestDecoderBenchmark extends AbstractMicrobenchmark {
    private static final String SMALL_GET = "GET /plaintext HTTP/1.1\r\nHost: localhost:8080\r\n\r\n";
    private static final String CHUNKED_POST = "POST /upload HTTP/1.1\r\nHost: localhost:8080\r\n"
            + "Content-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "10\r\n0123456789abcdef\r\n20\r\n0123456789abcdef0123456789abcdef\r\n8\r\n01234567\r\n"
            + "0\r\nX-Checksum: 1234\r\n\r\n";

    @Param({"smallGet", "headers20", "chunkedPost"})
    public String request;

    private io.weir.buffer.ByteBuf weirWire;
    private io.netty.buffer.ByteBuf nettyWire;
    private io.weir.channel.embedded.EmbeddedChannel weirChannel;
    private io.netty.channel.embedded.EmbeddedChannel nettyChannel;
    private WeirSink weirSink;
    private NettySink nettySink;

    /** Releases each decoded object and counts it. */
    static final class WeirSink implements io.weir.channel.ChannelHandler {
        int count;

        @Override
        public void channelRead(io.weir.channel.ChannelHandlerContext ctx, Object msg) {
            count++;
            io.weir.util.ReferenceCountUtil.release(msg);
        }
    }

    /** Releases each decoded object and counts it. */
    static final class NettySink extends io.netty.channel.ChannelInboundHandlerAdapter {
        int count;

        @Override
        public void channelRead(io.netty.channel.ChannelHandlerContext ctx, Object msg) {
            count++;
            io.netty.util.ReferenceCountUtil.release(msg);
        }
    }

    static String requestText(String kind) {
        switch (kind) {
            case "smallGet":
                return SMALL_GET;
            case "headers20":
                return "GET /index.html?user=42&lang=en HTTP/1.1\r\n"
                        + "Host: www.example.com\r\n"
                        + "User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0\r\n"
                        + "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\n"
                        + "Accept-Language: en-US,en;q=0.5\r\n"
                        + "Accept-Encoding: gzip, deflate, br\r\n"
                        + "Connection: keep-alive\r\n"
                        + "Upgrade-Insecure-Requests: 1\r\n"
                        + "Sec-Fetch-Dest: document\r\n"
                        + "Sec-Fetch-Mode: navigate\r\n"
                        + "Sec-Fetch-Site: none\r\n"
                        + "Sec-Fetch-User: ?1\r\n"
                        + "Cache-Control: max-age=0\r\n"
                        + "Cookie: session=0123456789abcdef; theme=dark; tracking=off\r\n"
                        + "If-None-Match: \"33a64df551425fcc55e4d42a148795d9f25f89d4\"\r\n"
                        + "If-Modified-Since: Wed, 21 Oct 2015 07:28:00 GMT\r\n"
                        + "Referer: https://www.example.com/start\r\n"
                        + "DNT: 1\r\n"
                        + "Pragma: no-cache\r\n"
                        + "X-Requested-With: XMLHttpRequest\r\n"
                        + "X-Forwarded-For: 203.0.113.195\r\n"
                        + "\r\n";
            case "chunkedPost":
                return CHUNKED_POST;
            default:
                throw new IllegalArgumentException("request: " + kind);
        }
    }

    @Setup
    public void setup() {
        byte[] bytes = requestText(request).getBytes(StandardCharsets.US_ASCII);
        weirWire = io.weir.buffer.Unpooled.copiedBuffer(bytes);
        nettyWire = io.netty.buffer.Unpooled.copiedBuffer(bytes);
        weirSink = new WeirSink();
        nettySink = new NettySink();
        weirChannel = new io.weir.channel.embedded.EmbeddedChannel(
                new io.weir.handler.codec.http.HttpRequestDecoder(), weirSink);
        nettyChannel = new io.netty.channel.embedded.EmbeddedChannel(
                new io.netty.handler.codec.http.HttpRequestDecoder(), nettySink);
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
