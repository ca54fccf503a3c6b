package io.weir.microbench.buffer;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.nio.ByteBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Finding a byte that sits at the very end of a {@code size}-byte buffer of zeros, so every search scans it all:
 * {@code indexOf} over the whole capacity and {@code bytesBefore} over the readable bytes. Weir against Netty
 * (both on their Unsafe paths where available); {@code kind} chooses heap or direct memory. The JDK has no byte
 * search on a ByteBuffer or a byte[], so its case is the plain loop over {@code ByteBuffer.get(int)} a user
 * would write, for both kinds.
 */
public class ByteBufSearchBenchmark extends AbstractMicrobenchmark {
    private static final byte NEEDLE = '\n';

    @Param({"1024", "65536"})
    public int size;

    @Param({"heap", "direct"})
    public String kind;

    private io.weir.buffer.ByteBuf weir;
    private io.netty.buffer.ByteBuf netty;
    private ByteBuffer jdk;

    @Setup
    public void setup() {
        boolean direct = "direct".equals(kind);
        weir = direct ? io.weir.buffer.Unpooled.directBuffer(size, size) : io.weir.buffer.Unpooled.buffer(size, size);
        netty = direct ? io.netty.buffer.Unpooled.directBuffer(size, size)
                : io.netty.buffer.Unpooled.buffer(size, size);
        jdk = direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
        // Fresh buffers are zeroed on every side; only the last byte is the needle.
        weir.writerIndex(size).setByte(size - 1, NEEDLE);
        netty.writerIndex(size).setByte(size - 1, NEEDLE);
        jdk.put(size - 1, NEEDLE);
    }

    @TearDown
    public void tearDown() {
        weir.release();
        netty.release();
    }

    @Benchmark
    public int weirIndexOf() {
        return weir.indexOf(0, size, NEEDLE);
    }

    @Benchmark
    public int nettyIndexOf() {
        return netty.indexOf(0, size, NEEDLE);
    }

    @Benchmark
    public int jdkIndexOf() {
        ByteBuffer b = jdk;
        int end = size;
        for (int i = 0; i < end; i++) {
            if (b.get(i) == NEEDLE) {
                return i;
            }
        }
        return -1;
    }

    @Benchmark
    public int weirBytesBefore() {
        return weir.bytesBefore(NEEDLE);
    }

    @Benchmark
    public int nettyBytesBefore() {
        return netty.bytesBefore(NEEDLE);
    }
}
