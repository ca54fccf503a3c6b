package io.weir.microbench.transport;

import io.weir.microbench.util.AbstractMicrobenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A channel's outbound queue under a write burst: add {@code entries} messages, flush them, and drain them
 * either one by one ({@code remove()}, as a transport writing message by message does) or with one gathering
 * pass (NIO buffers gathered, then {@code removeBytes}, as the NIO transport does: Weir's through its
 * {@code NioBufferGatherer}, Netty's through {@code nioBuffers}). Weir's
 * {@code ChannelOutboundBuffer} against Netty's, reached through each framework's {@code EmbeddedChannel}
 * (Netty's through {@code unsafe().outboundBuffer()}). Each message is the same {@value #MESSAGE_BYTES}-byte
 * heap buffer, retained once per add so that the release on removal balances it; the void promise keeps
 * promise allocation out of the measurement. The water marks are set high enough that writability never
 * flips. Each framework's methods run on its own FastThreadLocalThreads, as on an event loop, where both
 * pool their queue entries through their recyclers.
 */
public class OutboundBufferBenchmark extends AbstractMicrobenchmark {
    private static final int MESSAGE_BYTES = 128;
    private static final int WATER_MARK_LOW_BYTES = 64 << 20;
    private static final int WATER_MARK_HIGH_BYTES = 128 << 20;
    private static final int MAX_NIO_BUFFERS = 1024;

    @Param({"1", "16", "256"})
    public int entries;

    private io.weir.channel.embedded.EmbeddedChannel weirChannel;
    private io.netty.channel.embedded.EmbeddedChannel nettyChannel;
    private io.weir.channel.ChannelOutboundBuffer weir;
    private io.netty.channel.ChannelOutboundBuffer netty;
    private io.weir.channel.ChannelPromise weirPromise;
    private io.netty.channel.ChannelPromise nettyPromise;
    private io.weir.buffer.ByteBuf weirMsg;
    private io.netty.buffer.ByteBuf nettyMsg;

    @Setup
    public void setup() {
        weirChannel = new io.weir.channel.embedded.EmbeddedChannel();
        weirChannel.config().setWriteBufferWaterMark(
                new io.weir.channel.WriteBufferWaterMark(WATER_MARK_LOW_BYTES, WATER_MARK_HIGH_BYTES));
        weir = new io.weir.channel.ChannelOutboundBuffer(weirChannel);
        weirPromise = weirChannel.voidPromise();
        nettyChannel = new io.netty.channel.embedded.EmbeddedChannel();
        nettyChannel.config().setWriteBufferWaterMark(
                new io.netty.channel.WriteBufferWaterMark(WATER_MARK_LOW_BYTES, WATER_MARK_HIGH_BYTES));
        netty = nettyChannel.unsafe().outboundBuffer();
        nettyPromise = nettyChannel.voidPromise();
        weirMsg = io.weir.buffer.Unpooled.buffer(MESSAGE_BYTES).writeZero(MESSAGE_BYTES);
        nettyMsg = io.netty.buffer.Unpooled.buffer(MESSAGE_BYTES).writeZero(MESSAGE_BYTES);
    }

    @TearDown
    public void tearDown() {
        weirMsg.release();
        nettyMsg.release();
        weirChannel.finishAndReleaseAll();
        nettyChannel.finishAndReleaseAll();
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, WEIR_THREADS})
    public int weirAddFlushRemove() {
        io.weir.channel.ChannelOutboundBuffer buf = weir;
        for (int i = 0; i < entries; i++) {
            buf.addMessage(weirMsg.retain(), MESSAGE_BYTES, weirPromise);
        }
        buf.addFlush();
        int removed = 0;
        while (buf.remove()) {
            removed++;
        }
        return removed;
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, NETTY_THREADS})
    public int nettyAddFlushRemove() {
        io.netty.channel.ChannelOutboundBuffer buf = netty;
        for (int i = 0; i < entries; i++) {
            buf.addMessage(nettyMsg.retain(), MESSAGE_BYTES, nettyPromise);
        }
        buf.addFlush();
        int removed = 0;
        while (buf.remove()) {
            removed++;
        }
        return removed;
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, WEIR_THREADS})
    public long weirAddFlushGather() throws Exception {
        io.weir.channel.ChannelOutboundBuffer buf = weir;
        for (int i = 0; i < entries; i++) {
            buf.addMessage(weirMsg.retain(), MESSAGE_BYTES, weirPromise);
        }
        buf.addFlush();
        io.weir.channel.nio.internal.NioBufferGatherer gatherer =
                io.weir.channel.nio.internal.NioBufferGatherer.ofThisThread();
        gatherer.gather(buf, MAX_NIO_BUFFERS, Long.MAX_VALUE);
        long bytes = gatherer.size();
        // Whole buffers written: removeBytes leaves the shared buffer's reader index alone.
        buf.removeBytes(bytes);
        gatherer.clear();
        return bytes;
    }

    @Benchmark
    @Fork(value = FORKS, jvmArgsAppend = {HEAP_MIN, HEAP_MAX, WEIR_NO_LEAK_DETECTION, NETTY_NO_LEAK_DETECTION,
            CUSTOM_EXECUTOR, NETTY_THREADS})
    public long nettyAddFlushGather() {
        io.netty.channel.ChannelOutboundBuffer buf = netty;
        for (int i = 0; i < entries; i++) {
            buf.addMessage(nettyMsg.retain(), MESSAGE_BYTES, nettyPromise);
        }
        buf.addFlush();
        buf.nioBuffers(MAX_NIO_BUFFERS, Long.MAX_VALUE);
        long bytes = buf.nioBufferSize();
        buf.removeBytes(bytes);
        return bytes;
    }
}
