package io.weir.microbench.transport;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Echo throughput of large messages over io_uring: Weir's io_uring TCP channels against Netty 4.2's, both with their
 * defaults. The shape of {@code SslHandlerEchoBenchmark} without TLS: the client writes {@code size} bytes, the server
 * echoes each read as it arrives (flushing once per read), the client counts the echo and sends the next message once
 * all of it is back. A 64 KiB message crosses loopback in several segments, so each round trip is many receive
 * completions, partial sends and buffer-size guesses on both sides: the score, round trips per millisecond of one
 * server loop and one client loop ({@value #ROUNDS} per invocation), multiplied by {@code size} is the bytes echoed.
 * Same handlers as {@link NioPingPongBenchmark}; Linux 5.11+ with io_uring enabled; each method's fork sets up only
 * the side it measures.
 */
@Fork(value = AbstractMicrobenchmark.FORKS, jvmArgsAppend = {
        AbstractMicrobenchmark.HEAP_MIN, AbstractMicrobenchmark.HEAP_MAX,
        AbstractMicrobenchmark.WEIR_NO_LEAK_DETECTION, AbstractMicrobenchmark.NETTY_NO_LEAK_DETECTION,
        EpollEventLoopExecuteBenchmark.NATIVE_ACCESS})
@OperationsPerInvocation(IoUringEchoBenchmark.ROUNDS)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class IoUringEchoBenchmark extends AbstractMicrobenchmark {
    static final int ROUNDS = 20;

    @Param({"65536"})
    public int size;

    private ForkSide side;

    @Setup
    public void setup(BenchmarkParams params) throws Exception {
        side = ForkSide.open(params, () -> weirSide(size), () -> nettySide(size));
    }

    @TearDown
    public void tearDown() throws Exception {
        side.close();
    }

    @Benchmark
    public int weirEcho() throws Exception {
        return side.weir().run(ROUNDS);
    }

    @Benchmark
    public int nettyEcho() throws Exception {
        return side.netty().run(ROUNDS);
    }

    /** A connected Weir io_uring client and server exchanging {@code size}-byte messages; shared with the ping-pong. */
    static NioPingPongBenchmark.WeirSide weirSide(int size) throws Exception {
        return new NioPingPongBenchmark.WeirSide(size, TransportLoops.Weir.ioUring(),
                io.weir.channel.uring.IoUringServerSocketChannel.class,
                io.weir.channel.uring.IoUringSocketChannel.class);
    }

    /** Netty 4.2's io_uring client and server, as {@link #weirSide}. */
    static NioPingPongBenchmark.NettySide nettySide(int size) throws Exception {
        return new NioPingPongBenchmark.NettySide(size, TransportLoops.Netty.ioUring(),
                io.netty.channel.uring.IoUringServerSocketChannel.class,
                io.netty.channel.uring.IoUringSocketChannel.class);
    }
}
