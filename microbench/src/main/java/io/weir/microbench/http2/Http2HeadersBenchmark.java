package io.weir.microbench.http2;

import io.weir.microbench.util.AbstractMicrobenchmark;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * Building header sets the way a handler does, validating names and values: Weir's {@code Http2Headers} (its
 * no-argument constructor validates both) against Netty 4.2's {@code DefaultHttp2Headers(true, true, 8)} (its
 * no-argument constructor validates names only), the same fields in the same order, names and values as
 * {@code String} literals.
 * <ul>
 *   <li>{@code response}: {@code :status 200} and three fields, what the h2 load servers answer each request
 *       with;</li>
 *   <li>{@code request}: a GET's four pseudo-headers and three fields, what a client (a gRPC stub, say) sends.</li>
 * </ul>
 * Each call returns the set, which JMH consumes, so that it escapes as a written one would: no scalar replacement.
 */
public class Http2HeadersBenchmark extends AbstractMicrobenchmark {

    @Benchmark
    public io.weir.handler.codec.http2.Http2Headers weirResponse() {
        return new io.weir.handler.codec.http2.Http2Headers().status("200").add("content-type", "text/plain")
                .add("server", "weir").add("content-length", "13");
    }

    @Benchmark
    public io.netty.handler.codec.http2.Http2Headers nettyResponse() {
        return new io.netty.handler.codec.http2.DefaultHttp2Headers(true, true, 8).status("200")
                .add("content-type", "text/plain").add("server", "weir").add("content-length", "13");
    }

    @Benchmark
    public io.weir.handler.codec.http2.Http2Headers weirRequest() {
        return new io.weir.handler.codec.http2.Http2Headers().method("GET").scheme("https")
                .authority("example.com:8443").path("/helloworld.Greeter/SayHello").add("content-type",
                        "application/grpc").add("te", "trailers").add("user-agent", "grpc-java/1.0");
    }

    @Benchmark
    public io.netty.handler.codec.http2.Http2Headers nettyRequest() {
        return new io.netty.handler.codec.http2.DefaultHttp2Headers(true, true, 8).method("GET").scheme("https")
                .authority("example.com:8443").path("/helloworld.Greeter/SayHello").add("content-type",
                        "application/grpc").add("te", "trailers").add("user-agent", "grpc-java/1.0");
    }
}
