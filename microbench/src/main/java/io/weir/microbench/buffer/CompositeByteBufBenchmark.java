package io.weir.microbench.buffer;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A composite of {@code components} heap buffers of {@value #COMPONENT_BYTES} bytes each: building it, reading
 * all of it sequentially ({@code getLong}, {@code readLong}), reading single bytes at random offsets, and
 * exposing it as NIO buffers. Weir's {@code CompositeByteBuf} against Netty's, both over their own unpooled
 * heap components. The JDK has no composite buffer, so there is no JDK case.
 */
public class CompositeByteBufBenchmark extends AbstractMicrobenchmark {
    private static final int COMPONENT_BYTES = 1024;
    /** Random reads per operation; a power of two so the index table wraps with a mask. */
    private static final int RANDOM_READS = 1024;
    private static final long RANDOM_SEED = 0x5eed;

    @Param({"4", "64"})
    public int components;

    private io.weir.buffer.ByteBuf[] weirParts;
    private io.netty.buffer.ByteBuf[] nettyParts;
    private io.weir.buffer.CompositeByteBuf weir;
    private io.netty.buffer.CompositeByteBuf netty;
    private int[] randomIndexes;

    @Setup
    public void setup() {
        weirParts = new io.weir.buffer.ByteBuf[components];
        nettyParts = new io.netty.buffer.ByteBuf[components];
        for (int i = 0; i < components; i++) {
            weirParts[i] = io.weir.buffer.Unpooled.buffer(COMPONENT_BYTES, COMPONENT_BYTES);
            nettyParts[i] = io.netty.buffer.Unpooled.buffer(COMPONENT_BYTES, COMPONENT_BYTES);
            for (int j = 0; j < COMPONENT_BYTES; j++) {
                weirParts[i].writeByte(i + j);
                nettyParts[i].writeByte(i + j);
            }
        }
        // maxNumComponents = components on both sides, so neither consolidates into one array.
        weir = io.weir.buffer.Unpooled.compositeBuffer(components);
        netty = io.netty.buffer.Unpooled.compositeBuffer(components);
        for (int i = 0; i < components; i++) {
            weir.addComponent(true, weirParts[i].retain());
            netty.addComponent(true, nettyParts[i].retain());
        }
        // A consolidated composite would measure one flat array, not the component lookup.
        if (weir.numComponents() != components || netty.numComponents() != components) {
            throw new IllegalStateException("components: " + components + ", weir: " + weir.numComponents()
                    + ", netty: " + netty.numComponents());
        }
        SplittableRandom random = new SplittableRandom(RANDOM_SEED);
        randomIndexes = new int[RANDOM_READS];
        for (int i = 0; i < RANDOM_READS; i++) {
            randomIndexes[i] = random.nextInt(components * COMPONENT_BYTES);
        }
    }

    @TearDown
    public void tearDown() {
        // The composites hold one reference to each part and the arrays another.
        weir.release();
        netty.release();
        for (int i = 0; i < components; i++) {
            weirParts[i].release();
            nettyParts[i].release();
        }
    }

    // ---- building: a new composite per op over the same components ----
    // The components are not allocated per op: allocating and zeroing 4-64 KiB would swamp the composite's own
    // bookkeeping. Each op instead adds a retained reference to every prepared component and releasing the
    // composite gives them back, on both sides alike.

    @Benchmark
    public int weirAddComponents() {
        io.weir.buffer.CompositeByteBuf c = io.weir.buffer.Unpooled.compositeBuffer(components);
        io.weir.buffer.ByteBuf[] parts = weirParts;
        for (int i = 0; i < parts.length; i++) {
            c.addComponent(true, parts[i].retain());
        }
        int readable = c.readableBytes();
        c.release();
        return readable;
    }

    @Benchmark
    public int nettyAddComponents() {
        io.netty.buffer.CompositeByteBuf c = io.netty.buffer.Unpooled.compositeBuffer(components);
        io.netty.buffer.ByteBuf[] parts = nettyParts;
        for (int i = 0; i < parts.length; i++) {
            c.addComponent(true, parts[i].retain());
        }
        int readable = c.readableBytes();
        c.release();
        return readable;
    }

    // ---- sequential reads of every byte ----

    @Benchmark
    public long weirGetLong() {
        io.weir.buffer.CompositeByteBuf c = weir;
        int end = c.writerIndex();
        long sum = 0;
        for (int i = 0; i < end; i += Long.BYTES) {
            sum += c.getLong(i);
        }
        return sum;
    }

    @Benchmark
    public long nettyGetLong() {
        io.netty.buffer.CompositeByteBuf c = netty;
        int end = c.writerIndex();
        long sum = 0;
        for (int i = 0; i < end; i += Long.BYTES) {
            sum += c.getLong(i);
        }
        return sum;
    }

    @Benchmark
    public long weirReadLong() {
        io.weir.buffer.CompositeByteBuf c = weir;
        // Rewinding is one field store, cheaper than a Level.Invocation setup would cost.
        c.readerIndex(0);
        long sum = 0;
        while (c.readableBytes() >= Long.BYTES) {
            sum += c.readLong();
        }
        return sum;
    }

    @Benchmark
    public long nettyReadLong() {
        io.netty.buffer.CompositeByteBuf c = netty;
        c.readerIndex(0);
        long sum = 0;
        while (c.readableBytes() >= Long.BYTES) {
            sum += c.readLong();
        }
        return sum;
    }

    // ---- random single-byte reads (the component lookup dominates) ----

    @Benchmark
    public long weirRandomGetByte() {
        io.weir.buffer.CompositeByteBuf c = weir;
        int[] indexes = randomIndexes;
        long sum = 0;
        for (int i = 0; i < indexes.length; i++) {
            sum += c.getByte(indexes[i]);
        }
        return sum;
    }

    @Benchmark
    public long nettyRandomGetByte() {
        io.netty.buffer.CompositeByteBuf c = netty;
        int[] indexes = randomIndexes;
        long sum = 0;
        for (int i = 0; i < indexes.length; i++) {
            sum += c.getByte(indexes[i]);
        }
        return sum;
    }

    // ---- gathering view for a write(ByteBuffer[]) ----

    @Benchmark
    public ByteBuffer[] weirNioBuffers() {
        return weir.nioBuffers();
    }

    @Benchmark
    public ByteBuffer[] nettyNioBuffers() {
        return netty.nioBuffers();
    }
}
