package io.weir.microbench.http2;

import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.handler.codec.http2.internal.hpack.HpackDecoder;
import io.weir.handler.codec.http2.internal.hpack.HpackEncoder;
import io.weir.microbench.util.AbstractMicrobenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * HPACK encoding and decoding of one header block: Weir's {@code HpackEncoder}/{@code HpackDecoder} against Netty
 * 4.2's {@code DefaultHttp2HeadersEncoder}/{@code DefaultHttp2HeadersDecoder}, on the same fields and bytes.
 *
 * <ul>
 *   <li>{@code size}: {@code small} is a typical GET request (8 fields), {@code medium} a typical response (20
 *   fields), {@code large} a request with 50 fields including long cookies (about 5 KB).</li>
 *   <li>{@code huffman}: on, each encoder Huffman-codes a literal when that is shorter (Netty: huffCodeThreshold 0);
 *   off, it never does (Netty: threshold {@code Integer.MAX_VALUE}). Decoding reads blocks made by Weir's encoder
 *   with the same setting, so the same bytes go to both decoders.</li>
 *   <li>{@code sensitive}: true marks every field sensitive in both encoders, so each block is made of never-indexed
 *   literals: the literal and Huffman paths run every time, and the decoders decode those literal blocks. False is
 *   the steady state of a connection that repeats its fields: encoders find them in their dynamic tables, and the
 *   decoders decode the all-indexed second block of a connection (their tables were primed with the first).</li>
 * </ul>
 *
 * <p>Like for like: both decoders validate names, pseudo-headers and values (Netty: {@code validateHeaders} and
 * {@code validateHeaderValues} true; Weir always does), with the same 8 KiB header-list limit and 4 KiB table. The
 * encoders differ in one choice Netty cannot be told to make: Weir does not index entries over 1 KiB, so in
 * {@code large} with {@code sensitive=false} Weir re-sends its two long cookies as literals where Netty indexes
 * them. Output and input buffers are reused heap buffers.
 */
public class HpackBenchmark extends AbstractMicrobenchmark {
    private static final int STREAM_ID = 3;

    @Param({"small", "medium", "large"})
    public String size;

    @Param({"true", "false"})
    public boolean huffman;

    @Param({"false", "true"})
    public boolean sensitive;

    private Http2Headers weirHeaders;
    private io.netty.handler.codec.http2.Http2Headers nettyHeaders;
    private HpackEncoder weirEncoder;
    private DefaultHttp2HeadersEncoder nettyEncoder;
    private HpackDecoder weirDecoder;
    private DefaultHttp2HeadersDecoder nettyDecoder;
    private ByteBuf weirOut;
    private io.netty.buffer.ByteBuf nettyOut;
    private ByteBuf weirBlock;
    private io.netty.buffer.ByteBuf nettyBlock;

    @Setup
    public void setup() throws Exception {
        String[][] fields = fields(size);
        boolean request = !size.equals("medium");
        weirHeaders = new Http2Headers(fields.length, false);
        nettyHeaders = new io.netty.handler.codec.http2.DefaultHttp2Headers(false, fields.length);
        for (String[] f : fields) {
            weirHeaders.add(io.weir.util.AsciiString.cached(f[0]), io.weir.util.AsciiString.cached(f[1]));
            nettyHeaders.add(io.netty.util.AsciiString.cached(f[0]), io.netty.util.AsciiString.cached(f[1]));
        }
        Http2HeadersEncoder.SensitivityDetector detector = sensitive ? (n, v) -> true
                : Http2HeadersEncoder.NEVER_SENSITIVE;
        weirEncoder = new HpackEncoder().huffman(huffman)
                .sensitivity(sensitive ? (n, v) -> true : io.weir.handler.codec.http2.Http2HeaderSensitivity.NONE);
        nettyEncoder = new DefaultHttp2HeadersEncoder(detector, false, 64, huffman ? 0 : Integer.MAX_VALUE);
        weirOut = Unpooled.buffer(8192);
        nettyOut = io.netty.buffer.Unpooled.buffer(8192);

        // The blocks both decoders read: the first block of a connection primes the tables, the second is timed.
        HpackEncoder source = new HpackEncoder().huffman(huffman)
                .sensitivity(sensitive ? (n, v) -> true : io.weir.handler.codec.http2.Http2HeaderSensitivity.NONE);
        byte[] first = encode(source, weirHeaders);
        byte[] second = encode(source, weirHeaders);
        weirDecoder = new HpackDecoder(request);
        nettyDecoder = new DefaultHttp2HeadersDecoder(true, true);
        ByteBuf w = Unpooled.wrappedBuffer(first);
        weirDecoder.decode(STREAM_ID, w, false);
        w.release();
        io.netty.buffer.ByteBuf n = io.netty.buffer.Unpooled.wrappedBuffer(first);
        nettyDecoder.decodeHeaders(STREAM_ID, n);
        n.release();
        weirBlock = Unpooled.wrappedBuffer(second);
        nettyBlock = io.netty.buffer.Unpooled.wrappedBuffer(second);
    }

    @TearDown
    public void tearDown() {
        weirOut.release();
        nettyOut.release();
        weirBlock.release();
        nettyBlock.release();
        nettyEncoder.close();
    }

    @Benchmark
    public int weirEncode() {
        weirOut.clear();
        weirEncoder.encode(weirHeaders, weirOut);
        return weirOut.writerIndex();
    }

    @Benchmark
    public int nettyEncode() throws Exception {
        nettyOut.clear();
        nettyEncoder.encodeHeaders(STREAM_ID, nettyHeaders, nettyOut);
        return nettyOut.writerIndex();
    }

    @Benchmark
    public Object weirDecode() throws Exception {
        weirBlock.readerIndex(0);
        return weirDecoder.decode(STREAM_ID, weirBlock, false);
    }

    @Benchmark
    public Object nettyDecode() throws Exception {
        nettyBlock.readerIndex(0);
        return nettyDecoder.decodeHeaders(STREAM_ID, nettyBlock);
    }

    private static byte[] encode(HpackEncoder encoder, Http2Headers headers) {
        ByteBuf buf = Unpooled.buffer();
        encoder.encode(headers, buf);
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        buf.release();
        return bytes;
    }

    private static String[][] fields(String size) {
        switch (size) {
            case "small":
                return new String[][] {
                    {":method", "GET"},
                    {":scheme", "https"},
                    {":path", "/api/v1/users/12345?fields=name,email"},
                    {":authority", "api.example.com"},
                    {"user-agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)"},
                    {"accept", "application/json"},
                    {"accept-encoding", "gzip, deflate, br"},
                    {"accept-language", "en-US,en;q=0.9"},
                };
            case "medium":
                return new String[][] {
                    {":status", "200"},
                    {"content-type", "application/json; charset=utf-8"},
                    {"content-length", "4821"},
                    {"date", "Thu, 26 Nov 2026 12:00:00 GMT"},
                    {"server", "weir"},
                    {"cache-control", "private, max-age=0, must-revalidate"},
                    {"etag", "\"33a64df551425fcc55e4d42a148795d9f25f89d4\""},
                    {"last-modified", "Wed, 25 Nov 2026 08:30:00 GMT"},
                    {"vary", "accept-encoding, origin"},
                    {"x-request-id", "5f1c2a9e-8d1b-4c3e-9a7f-2b6d4e8c1a3f"},
                    {"strict-transport-security", "max-age=63072000; includeSubDomains; preload"},
                    {"x-content-type-options", "nosniff"},
                    {"x-frame-options", "DENY"},
                    {"content-encoding", "gzip"},
                    {"access-control-allow-origin", "https://www.example.com"},
                    {"set-cookie", "session=8f14e45fceea167a5a36dedd4bea2543; Path=/; Secure; HttpOnly"},
                    {"expires", "Thu, 26 Nov 2026 12:00:00 GMT"},
                    {"age", "0"},
                    {"via", "1.1 edge-cache-17"},
                    {"x-cache", "MISS"},
                };
            default:
                String[][] large = new String[50][];
                large[0] = new String[] {":method", "POST"};
                large[1] = new String[] {":scheme", "https"};
                large[2] = new String[] {":path", "/graphql?operation=SearchProducts&variables=%7B%22q%22%3A%22x%22%7D"};
                large[3] = new String[] {":authority", "shop.example.com"};
                large[4] = new String[] {"user-agent", "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15"};
                large[5] = new String[] {"accept", "application/json, text/plain, */*"};
                large[6] = new String[] {"accept-encoding", "gzip, deflate, br, zstd"};
                large[7] = new String[] {"accept-language", "en-GB,en;q=0.9,fr;q=0.8"};
                large[8] = new String[] {"content-type", "application/json"};
                large[9] = new String[] {"authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"};
                large[10] = new String[] {"cookie", "_ga=GA1.2.1234567890.1700000000; _gid=GA1.2.987654321.1700000000; "
                        + "consent=analytics%3Dyes%26ads%3Dno%26functional%3Dyes; theme=dark; lang=en-GB; "
                        + "cart=7f3a9c2e-1b4d-4e8f-a6c0-5d2b8e9f1a3c; recently_viewed=1001,1002,1003,1004,1005,1006"};
                large[11] = new String[] {"cookie", "session=" + "9b2f".repeat(60) + "; csrf=" + "a1c3".repeat(40)
                        + "; ab_test_bucket=checkout-v2-treatment-b; tracking_opt_out=false; last_visit=1700000000"};
                for (int i = 12; i < 50; i++) {
                    large[i] = new String[] {"x-custom-header-" + i, "value-" + i + "-" + "abcdefghij".repeat(2)};
                }
                return large;
        }
    }
}
