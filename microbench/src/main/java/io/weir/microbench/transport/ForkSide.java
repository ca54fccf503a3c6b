package io.weir.microbench.transport;

import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The client and server a transport benchmark's fork measures: Weir's when the fork runs a {@code weir*} method,
 * Netty's otherwise, so that one fork never has the other framework's loops running beside it. Setup and teardown
 * only: nothing here is measured.
 */
final class ForkSide {
    private final NioPingPongBenchmark.WeirSide weir;
    private final NioPingPongBenchmark.NettySide netty;

    /** Opens one side of a benchmark: its loops, its server and a connected client. */
    interface Opener<T> {
        T open() throws Exception;
    }

    private ForkSide(NioPingPongBenchmark.WeirSide weir, NioPingPongBenchmark.NettySide netty) {
        this.weir = weir;
        this.netty = netty;
    }

    /** Opens the side whose framework prefixes the fork's method name. */
    static ForkSide open(BenchmarkParams params, Opener<NioPingPongBenchmark.WeirSide> weir,
                         Opener<NioPingPongBenchmark.NettySide> netty) throws Exception {
        return TransportLoops.methodName(params).startsWith("weir") ? new ForkSide(weir.open(), null)
                : new ForkSide(null, netty.open());
    }

    NioPingPongBenchmark.WeirSide weir() {
        return weir;
    }

    NioPingPongBenchmark.NettySide netty() {
        return netty;
    }

    void close() throws Exception {
        if (weir != null) {
            weir.close();
        } else {
            netty.close();
        }
    }
}
