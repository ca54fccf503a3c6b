package io.weir.microbench.http;

import io.weir.microbench.util.AbstractMicrobenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * {@code HttpMethod.valueOf(String)} as a decoder calls it once per request: Weir's perfect-hash table against
 * Netty 4.2's. {@code known} cycles through standard methods (no allocation expected), {@code unknown} through
 * extension tokens and {@code mixed} through lower/mixed-case spellings (both allocate a new method in each
 * framework). Four names per case, cycled so the branch predictor cannot learn a single answer.
 */
public class HttpMethodBenchmark extends AbstractMicrobenchmark {
    private static final int NAMES_MASK = 3;

    @Param({"known", "unknown", "mixed"})
    public String kind;

    private String[] names;
    private int next;

    @Setup
    public void setup() {
        names = switch (kind) {
            case "known" -> new String[] {"GET", "POST", "HEAD", "OPTIONS"};
            case "unknown" -> new String[] {"PROPFIND", "MKCOL", "PURGE", "QUERY"};
            case "mixed" -> new String[] {"get", "Post", "hEAD", "options"};
            default -> throw new IllegalArgumentException("kind: " + kind);
        };
    }

    @Benchmark
    public io.weir.handler.codec.http.HttpMethod weirValueOf() {
        return io.weir.handler.codec.http.HttpMethod.valueOf(names[next++ & NAMES_MASK]);
    }

    @Benchmark
    public io.netty.handler.codec.http.HttpMethod nettyValueOf() {
        return io.netty.handler.codec.http.HttpMethod.valueOf(names[next++ & NAMES_MASK]);
    }
}
