package io.weir.microbench.http.load;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.nio.charset.StandardCharsets;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The plaintext load test's server work without the kernel: one read carrying {@link #depth} pipelined requests,
 * byte-identical to what {@code wrk} sends, through each framework's {@code HttpServerCodec} and the load servers'
 * own handler ({@link WeirPlaintextServer.Handler}, {@link NettyPlaintextServer.Handler}), which writes each
 * response as its request is decoded and flushes once at the end of the read. The flushed responses land in the
 * embedded channel's outbound queue and are released there. A score is reads per microsecond: multiply by
 * {@link #depth} for requests, and divide {@code gc.alloc.rate.norm} by it for the bytes a request allocates.
 *
 * <p>Events are fired on the pipeline directly (as in {@code HttpRequestDecoderBenchmark}). Each read is what a
 * socket read hands the pipeline: a pooled direct buffer from the framework's default allocator, with the
 * requests copied in.
 *
 * <p>Each JMH thread has its own channels, so {@code -t 2} runs two event loops' worth of the same work on two
 * cores: what they still share is the JVM's per-class state, such as the one-entry cache each class keeps of the
 * last interface a type check against it succeeded for.
 */
@State(Scope.Thread)
public class PlaintextPipelineBenchmark extends AbstractMicrobenchmark {
    /** What wrk sends for {@code wrk http://localhost:8080/}. */
    private static final String REQUEST = "GET / HTTP/1.1\r\nHost: localhost:8080\r\n\r\n";

    @Param({"1", "16"})
    public int depth;

    private byte[] wire;
    private io.weir.buffer.ByteBuf weirBody;
    private io.netty.buffer.ByteBuf nettyBody;
    private io.weir.channel.embedded.EmbeddedChannel weirChannel;
    private io.netty.channel.embedded.EmbeddedChannel nettyChannel;

    @Setup
    public void setup() {
        wire = REQUEST.repeat(depth).getBytes(StandardCharsets.US_ASCII);
        weirBody = io.weir.buffer.Unpooled.directBuffer().writeBytes(WeirPlaintextServer.BODY);
        nettyBody = io.netty.buffer.Unpooled.directBuffer().writeBytes(WeirPlaintextServer.BODY);
        weirChannel = new io.weir.channel.embedded.EmbeddedChannel(
                new io.weir.handler.codec.http.HttpServerCodec(), new WeirPlaintextServer.Handler(weirBody));
        nettyChannel = new io.netty.channel.embedded.EmbeddedChannel(
                new io.netty.handler.codec.http.HttpServerCodec(), new NettyPlaintextServer.Handler(nettyBody));
    }

    @TearDown
    public void tearDown() {
        weirChannel.finishAndReleaseAll();
        nettyChannel.finishAndReleaseAll();
        weirBody.release();
        nettyBody.release();
    }

    @Benchmark
    public boolean weirServe() {
        io.weir.buffer.ByteBuf read = io.weir.buffer.PooledByteBufAllocator.DEFAULT.directBuffer(wire.length);
        weirChannel.pipeline().fireChannelRead(read.writeBytes(wire)).fireChannelReadComplete();
        return weirChannel.releaseOutbound();
    }

    @Benchmark
    public boolean nettyServe() {
        io.netty.buffer.ByteBuf read = io.netty.buffer.PooledByteBufAllocator.DEFAULT.directBuffer(wire.length);
        nettyChannel.pipeline().fireChannelRead(read.writeBytes(wire)).fireChannelReadComplete();
        return nettyChannel.releaseOutbound();
    }
}
