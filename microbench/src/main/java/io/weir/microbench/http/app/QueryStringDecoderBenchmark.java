package io.weir.microbench.http.app;

import io.weir.microbench.util.AbstractMicrobenchmark;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * Decoding a request URI with ten parameters, several percent-escaped (UTF-8 multi-byte characters, reserved
 * characters) and one with '+' for space: the path and the full parameter map, as a router would ask.
 */
public class QueryStringDecoderBenchmark extends AbstractMicrobenchmark {
    static final String URI = "/search/r%C3%A9sultats?q=caf%C3%A9+cr%C3%A8me&page=2&size=50&sort=price%2Cdesc"
            + "&filter=brand%3Dacme%26color%3Dred&lang=fr-FR&from=2024-01-01&to=2024-12-31"
            + "&tag=%E2%82%AC%20deals&session=3f2a9c0d1b7e4f6a";

    @Benchmark
    public Object weirDecode() {
        io.weir.handler.codec.http.QueryStringDecoder d = new io.weir.handler.codec.http.QueryStringDecoder(URI);
        return d.path().length() + d.parameters().size();
    }

    @Benchmark
    public Object nettyDecode() {
        io.netty.handler.codec.http.QueryStringDecoder d = new io.netty.handler.codec.http.QueryStringDecoder(URI);
        return d.path().length() + d.parameters().size();
    }
}
