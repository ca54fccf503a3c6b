package io.weir.microbench.common;

import io.weir.microbench.util.AbstractMicrobenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The cost leak detection adds to one tracked object's life at PARANOID (every object tracked): track it,
 * record {@code records} accesses (as a buffer passing through that many handlers would), close the
 * tracker. Both detectors keep their default target of 4 records, so past that they drop records the same
 * way a long pipeline makes them.
 */
public class LeakDetectorBenchmark extends AbstractMicrobenchmark {

    @Param({"8", "16"})
    public int records;

    private final Object resource = new Object();
    private io.weir.util.ResourceLeakDetector<Object> weir;
    private io.netty.util.ResourceLeakDetector<Object> netty;

    @Setup
    public void setup() {
        weir = io.weir.util.ResourceLeakDetector.builder(Object.class)
                .level(io.weir.util.ResourceLeakDetector.Level.PARANOID)
                .build();
        io.netty.util.ResourceLeakDetector.setLevel(io.netty.util.ResourceLeakDetector.Level.PARANOID);
        netty = io.netty.util.ResourceLeakDetectorFactory.instance().newResourceLeakDetector(Object.class, 1);
    }

    @Benchmark
    public boolean weirTrackAndRecord() {
        io.weir.util.ResourceLeakTracker<Object> tracker = weir.track(resource);
        for (int i = 0; i < records; i++) {
            tracker.record();
        }
        return tracker.close(resource);
    }

    @Benchmark
    public boolean nettyTrackAndRecord() {
        io.netty.util.ResourceLeakTracker<Object> tracker = netty.track(resource);
        for (int i = 0; i < records; i++) {
            tracker.record();
        }
        return tracker.close(resource);
    }
}
