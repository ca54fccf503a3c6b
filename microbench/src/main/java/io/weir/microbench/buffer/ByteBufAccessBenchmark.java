package io.weir.microbench.buffer;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.nio.ByteBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A loop of absolute {@code setLong} then {@code getLong} over a {@value #SIZE_BYTES}-byte buffer: the
 * per-access cost of bounds and accessibility checks plus the memory access itself. Weir's unpooled buffers
 * against Netty's unpooled buffers (both on their Unsafe paths where available) and the JDK's ByteBuffer.
 * {@code kind} chooses heap or direct memory.
 */
public class ByteBufAccessBenchmark extends AbstractMicrobenchmark {
    private static final int SIZE_BYTES = 4096;
    private static final int LONGS = SIZE_BYTES / Long.BYTES;

    @Param({"heap", "direct"})
    public String kind;

    private io.weir.buffer.ByteBuf weir;
    private io.netty.buffer.ByteBuf netty;
    private ByteBuffer jdk;

    @Setup
    public void setup() {
        boolean direct = "direct".equals(kind);
        weir = direct ? io.weir.buffer.Unpooled.directBuffer(SIZE_BYTES, SIZE_BYTES)
                : io.weir.buffer.Unpooled.buffer(SIZE_BYTES, SIZE_BYTES);
        netty = direct ? io.netty.buffer.Unpooled.directBuffer(SIZE_BYTES, SIZE_BYTES)
                : io.netty.buffer.Unpooled.buffer(SIZE_BYTES, SIZE_BYTES);
        jdk = direct ? ByteBuffer.allocateDirect(SIZE_BYTES) : ByteBuffer.allocate(SIZE_BYTES);
    }

    @TearDown
    public void tearDown() {
        weir.release();
        netty.release();
    }

    @Benchmark
    public long weirSetGetLong() {
        io.weir.buffer.ByteBuf b = weir;
        for (int i = 0; i < LONGS; i++) {
            b.setLong(i << 3, i);
        }
        long sum = 0;
        for (int i = 0; i < LONGS; i++) {
            sum += b.getLong(i << 3);
        }
        return sum;
    }

    @Benchmark
    public long nettySetGetLong() {
        io.netty.buffer.ByteBuf b = netty;
        for (int i = 0; i < LONGS; i++) {
            b.setLong(i << 3, i);
        }
        long sum = 0;
        for (int i = 0; i < LONGS; i++) {
            sum += b.getLong(i << 3);
        }
        return sum;
    }

    @Benchmark
    public long jdkSetGetLong() {
        ByteBuffer b = jdk;
        for (int i = 0; i < LONGS; i++) {
            b.putLong(i << 3, i);
        }
        long sum = 0;
        for (int i = 0; i < LONGS; i++) {
            sum += b.getLong(i << 3);
        }
        return sum;
    }
}
