package io.weir.microbench.http.websocket;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * WebSocket frames through each framework's codec, driven the same way on both sides: an EmbeddedChannel per
 * framework with events fired on its pipeline directly (void promises, sink handlers that release and count), a
 * pooled allocator on both.
 * <ul>
 * <li>{@code Encode}: one frame of {@code payload} through Weir's {@code WebSocketFrameEncoder} and Netty's
 *     {@code WebSocket13FrameEncoder}; {@code masked} is a client's encoder (masks, copying), else a server's.</li>
 * <li>{@code Decode}: the wire form of that frame through Weir's {@code WebSocketFrameDecoder} and Netty's
 *     {@code WebSocket13FrameDecoder}; {@code masked} is a server's decoder. Weir checks UTF-8 of text in its
 *     decoder, so Netty's pipeline gets its {@code Utf8FrameValidator} for text payloads: the {@code ascii64k}
 *     and {@code mixed64k} (Greek, CJK and emoji among ASCII) cases are therefore the UTF-8 validation cases.
 *     Weir unmasks in place, so for masked frames both sides get a fresh pooled copy of the wire per invocation
 *     (the copy is in both measurements); unmasked frames are a retained duplicate of one buffer.</li>
 * <li>{@code DeflateRoundTrip}: a frame compressed by permessage-deflate and inflated again (context takeover,
 *     level 6 on both: Weir's {@code PerMessageDeflateEncoder/Decoder}, Netty's from its server extension
 *     handshaker).</li>
 * </ul>
 */
public class WebSocketFrameBenchmark extends AbstractMicrobenchmark {
    @Param({"text16", "binary64k", "ascii64k", "mixed64k"})
    public String payload;

    @Param({"false", "true"})
    public boolean masked;

    private byte[] data;
    private boolean text;
    private io.weir.buffer.ByteBuf weirPayload;
    private io.netty.buffer.ByteBuf nettyPayload;
    private io.weir.buffer.ByteBuf weirWire;
    private io.netty.buffer.ByteBuf nettyWire;
    private io.weir.channel.embedded.EmbeddedChannel weirEncoder;
    private io.netty.channel.embedded.EmbeddedChannel nettyEncoder;
    private io.weir.channel.embedded.EmbeddedChannel weirDecoder;
    private io.netty.channel.embedded.EmbeddedChannel nettyDecoder;
    private io.weir.channel.embedded.EmbeddedChannel weirDeflater;
    private io.weir.channel.embedded.EmbeddedChannel weirInflater;
    private io.netty.channel.embedded.EmbeddedChannel nettyDeflater;
    private io.netty.channel.embedded.EmbeddedChannel nettyInflater;
    private WeirSink weirSink;
    private NettySink nettySink;
    private WeirCapture weirCapture;
    private NettyCapture nettyCapture;

    /** Releases what reaches it (read or written) and counts it; one per benchmark, in several pipelines. */
    @io.weir.channel.ChannelHandler.Sharable
    static final class WeirSink implements io.weir.channel.ChannelHandler {
        long count;

        @Override
        public void channelRead(io.weir.channel.ChannelHandlerContext ctx, Object msg) {
            count++;
            io.weir.util.ReferenceCountUtil.release(msg);
        }

        @Override
        public void write(io.weir.channel.ChannelHandlerContext ctx, Object msg, io.weir.channel.ChannelPromise p) {
            count++;
            io.weir.util.ReferenceCountUtil.release(msg);
        }
    }

    /** Releases what reaches it (read or written) and counts it; one per benchmark, in several pipelines. */
    @io.netty.channel.ChannelHandler.Sharable
    static final class NettySink extends io.netty.channel.ChannelDuplexHandler {
        long count;

        @Override
        public void channelRead(io.netty.channel.ChannelHandlerContext ctx, Object msg) {
            count++;
            io.netty.util.ReferenceCountUtil.release(msg);
        }

        @Override
        public void write(io.netty.channel.ChannelHandlerContext ctx, Object msg, io.netty.channel.ChannelPromise p) {
            count++;
            io.netty.util.ReferenceCountUtil.release(msg);
        }
    }

    /** Keeps the last frame written (the compressed one) for the inflater. */
    static final class WeirCapture implements io.weir.channel.ChannelHandler {
        Object last;

        @Override
        public void write(io.weir.channel.ChannelHandlerContext ctx, Object msg, io.weir.channel.ChannelPromise p) {
            last = msg;
        }
    }

    /** Keeps the last frame written (the compressed one) for the inflater. */
    static final class NettyCapture extends io.netty.channel.ChannelOutboundHandlerAdapter {
        Object last;

        @Override
        public void write(io.netty.channel.ChannelHandlerContext ctx, Object msg, io.netty.channel.ChannelPromise p) {
            last = msg;
        }
    }

    static byte[] payloadBytes(String kind) {
        switch (kind) {
            case "text16":
                return "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
            case "binary64k": {
                byte[] b = new byte[65536];
                for (int i = 0; i < b.length; i++) {
                    b[i] = (byte) (i * 31 + (i >>> 8));
                }
                return b;
            }
            case "ascii64k": {
                byte[] b = new byte[65536];
                String words = "the quick brown fox jumps over the lazy dog, 0123456789. ";
                for (int i = 0; i < b.length; i++) {
                    b[i] = (byte) words.charAt(i % words.length());
                }
                return b;
            }
            case "mixed64k": {
                StringBuilder s = new StringBuilder();
                while (s.length() < 30000) {
                    s.append("Grüße, κόσμε, 世界, 😀 and plain ASCII words in between. ");
                }
                byte[] b = s.toString().getBytes(StandardCharsets.UTF_8);
                int n = 65536;
                while (n > b.length) {
                    n -= 4096;
                }
                // Cut on a character boundary.
                while ((b[n] & 0xC0) == 0x80) {
                    n--;
                }
                return Arrays.copyOf(b, n);
            }
            default:
                throw new IllegalArgumentException("payload: " + kind);
        }
    }

    /** The frame on the wire, masked with a fixed key when {@code masked}. */
    static byte[] wire(byte[] data, boolean text, boolean masked) {
        int n = data.length;
        int header = 2 + (n <= 125 ? 0 : n <= 0xFFFF ? 2 : 8) + (masked ? 4 : 0);
        byte[] w = new byte[header + n];
        w[0] = (byte) (0x80 | (text ? 1 : 2));
        int m = masked ? 0x80 : 0;
        int i = 2;
        if (n <= 125) {
            w[1] = (byte) (m | n);
        } else if (n <= 0xFFFF) {
            w[1] = (byte) (m | 126);
            w[i++] = (byte) (n >>> 8);
            w[i++] = (byte) n;
        } else {
            w[1] = (byte) (m | 127);
            for (int k = 7; k >= 0; k--) {
                w[i++] = (byte) ((long) n >>> (8 * k));
            }
        }
        byte[] key = {0x37, (byte) 0xFA, 0x21, 0x3D};
        if (masked) {
            System.arraycopy(key, 0, w, i, 4);
            i += 4;
        }
        for (int k = 0; k < n; k++) {
            w[i + k] = masked ? (byte) (data[k] ^ key[k & 3]) : data[k];
        }
        return w;
    }

    @Setup
    public void setup() throws Exception {
        data = payloadBytes(payload);
        text = !payload.startsWith("binary");
        weirPayload = io.weir.buffer.Unpooled.directBuffer(data.length).writeBytes(data);
        nettyPayload = io.netty.buffer.Unpooled.directBuffer(data.length).writeBytes(data);
        byte[] w = wire(data, text, masked);
        weirWire = io.weir.buffer.Unpooled.directBuffer(w.length).writeBytes(w);
        nettyWire = io.netty.buffer.Unpooled.directBuffer(w.length).writeBytes(w);
        weirSink = new WeirSink();
        nettySink = new NettySink();

        weirEncoder = new io.weir.channel.embedded.EmbeddedChannel(weirSink,
                new io.weir.handler.codec.http.websocketx.WebSocketFrameEncoder(masked));
        nettyEncoder = new io.netty.channel.embedded.EmbeddedChannel(nettySink,
                new io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder(masked));

        io.weir.handler.codec.http.websocketx.WebSocketConfig weirConfig =
                new io.weir.handler.codec.http.websocketx.WebSocketConfig();
        weirDecoder = new io.weir.channel.embedded.EmbeddedChannel(
                new io.weir.handler.codec.http.websocketx.WebSocketFrameDecoder(masked, weirConfig), weirSink);
        io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig nettyConfig =
                io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig.newBuilder()
                        .expectMaskedFrames(masked).maxFramePayloadLength(1 << 20).build();
        nettyDecoder = new io.netty.channel.embedded.EmbeddedChannel(
                new io.netty.handler.codec.http.websocketx.WebSocket13FrameDecoder(nettyConfig));
        if (text) {
            nettyDecoder.pipeline().addLast(new io.netty.handler.codec.http.websocketx.Utf8FrameValidator());
        }
        nettyDecoder.pipeline().addLast(nettySink);

        weirCapture = new WeirCapture();
        nettyCapture = new NettyCapture();
        weirDeflater = new io.weir.channel.embedded.EmbeddedChannel(weirCapture,
                new io.weir.handler.codec.http.websocketx.PerMessageDeflateEncoder(6, false));
        weirInflater = new io.weir.channel.embedded.EmbeddedChannel(
                new io.weir.handler.codec.http.websocketx.PerMessageDeflateDecoder(1 << 20), weirSink);
        io.netty.handler.codec.http.websocketx.extensions.WebSocketServerExtension ext =
                new io.netty.handler.codec.http.websocketx.extensions.compression
                        .PerMessageDeflateServerExtensionHandshaker()
                        .handshakeExtension(new io.netty.handler.codec.http.websocketx.extensions.WebSocketExtensionData(
                                "permessage-deflate", Map.of()));
        nettyDeflater = new io.netty.channel.embedded.EmbeddedChannel(nettyCapture, ext.newExtensionEncoder());
        nettyInflater = new io.netty.channel.embedded.EmbeddedChannel(ext.newExtensionDecoder(), nettySink);
        for (io.weir.channel.embedded.EmbeddedChannel c : new io.weir.channel.embedded.EmbeddedChannel[] {
                weirEncoder, weirDecoder, weirDeflater, weirInflater}) {
            c.config().setAllocator(io.weir.buffer.PooledByteBufAllocator.DEFAULT);
        }
        for (io.netty.channel.embedded.EmbeddedChannel c : new io.netty.channel.embedded.EmbeddedChannel[] {
                nettyEncoder, nettyDecoder, nettyDeflater, nettyInflater}) {
            c.config().setAllocator(io.netty.buffer.PooledByteBufAllocator.DEFAULT);
        }
        // Both round trips must give the payload back.
        checkRoundTrips();
    }

    private void checkRoundTrips() {
        long w = weirSink.count;
        long n = nettySink.count;
        weirDecode();
        nettyDecode();
        weirDeflateRoundTrip();
        nettyDeflateRoundTrip();
        if (weirSink.count != w + 2 || nettySink.count != n + 2) {
            throw new IllegalStateException("a decoder produced nothing: weir " + (weirSink.count - w) + ", netty "
                    + (nettySink.count - n));
        }
    }

    @TearDown
    public void tearDown() {
        weirEncoder.finishAndReleaseAll();
        nettyEncoder.finishAndReleaseAll();
        weirDecoder.finishAndReleaseAll();
        nettyDecoder.finishAndReleaseAll();
        weirDeflater.finishAndReleaseAll();
        weirInflater.finishAndReleaseAll();
        nettyDeflater.finishAndReleaseAll();
        nettyInflater.finishAndReleaseAll();
        weirPayload.release();
        nettyPayload.release();
        weirWire.release();
        nettyWire.release();
    }

    private io.weir.handler.codec.http.websocketx.WebSocketFrame weirFrame() {
        io.weir.buffer.ByteBuf p = weirPayload.retainedDuplicate();
        return text ? new io.weir.handler.codec.http.websocketx.TextWebSocketFrame(true, 0, p)
                : new io.weir.handler.codec.http.websocketx.BinaryWebSocketFrame(true, 0, p);
    }

    private io.netty.handler.codec.http.websocketx.WebSocketFrame nettyFrame() {
        io.netty.buffer.ByteBuf p = nettyPayload.retainedDuplicate();
        return text ? new io.netty.handler.codec.http.websocketx.TextWebSocketFrame(true, 0, p)
                : new io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame(true, 0, p);
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, WEIR_THREADS})
    public long weirEncode() {
        weirEncoder.pipeline().write(weirFrame(), weirEncoder.voidPromise());
        return weirSink.count;
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, NETTY_THREADS})
    public long nettyEncode() {
        nettyEncoder.pipeline().write(nettyFrame(), nettyEncoder.voidPromise());
        return nettySink.count;
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, WEIR_THREADS})
    public long weirDecode() {
        io.weir.buffer.ByteBuf in;
        if (masked) {
            in = weirDecoder.alloc().buffer(weirWire.readableBytes()).writeBytes(weirWire, weirWire.readerIndex(),
                    weirWire.readableBytes());
        } else {
            in = weirWire.retainedDuplicate();
        }
        weirDecoder.pipeline().fireChannelRead(in).fireChannelReadComplete();
        return weirSink.count;
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, NETTY_THREADS})
    public long nettyDecode() {
        io.netty.buffer.ByteBuf in;
        if (masked) {
            in = nettyDecoder.alloc().buffer(nettyWire.readableBytes()).writeBytes(nettyWire,
                    nettyWire.readerIndex(), nettyWire.readableBytes());
        } else {
            in = nettyWire.retainedDuplicate();
        }
        nettyDecoder.pipeline().fireChannelRead(in).fireChannelReadComplete();
        return nettySink.count;
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, WEIR_THREADS})
    public long weirDeflateRoundTrip() {
        weirDeflater.pipeline().write(weirFrame(), weirDeflater.voidPromise());
        Object compressed = weirCapture.last;
        weirCapture.last = null;
        weirInflater.pipeline().fireChannelRead(compressed);
        return weirSink.count;
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, NETTY_THREADS})
    public long nettyDeflateRoundTrip() {
        nettyDeflater.pipeline().write(nettyFrame(), nettyDeflater.voidPromise());
        Object compressed = nettyCapture.last;
        nettyCapture.last = null;
        nettyInflater.pipeline().fireChannelRead(compressed);
        return nettySink.count;
    }
}
