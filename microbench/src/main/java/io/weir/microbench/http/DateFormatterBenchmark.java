package io.weir.microbench.http;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.util.Date;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * HTTP-date parsing and formatting: Weir's positional parser and per-second cache against Netty 4.2's
 * {@code io.netty.handler.codec.DateFormatter} (a thread-local formatter and tokenizing parser).
 *
 * <p>{@code parse*} reads the IMF-fixdate form servers send into a {@link Date} on both sides (Netty has no
 * other return type; Weir's allocation-free {@code parseMillis} is {@code weirParse_millis}, paired with the same
 * Netty row and labelled as such); {@code format*} writes a fixed old date, which
 * Weir's cache does not hold (it keeps only the current second), so both sides format from scratch;
 * {@code *FormatNow} is what a server does for every response's {@code Date} header.
 */
public class DateFormatterBenchmark extends AbstractMicrobenchmark {
    private static final String IMF_FIXDATE = "Sun, 06 Nov 1994 08:49:37 GMT";
    private static final Date FIXED = new Date(784_111_777_000L);

    @Benchmark
    public Date weirParse() {
        return io.weir.handler.codec.http.DateFormatter.parseHttpDate(IMF_FIXDATE);
    }

    @Benchmark
    public long weirParse_millis() {
        return io.weir.handler.codec.http.DateFormatter.parseMillis(IMF_FIXDATE);
    }

    @Benchmark
    public Date nettyParse() {
        return io.netty.handler.codec.DateFormatter.parseHttpDate(IMF_FIXDATE);
    }

    @Benchmark
    public String weirFormat() {
        return io.weir.handler.codec.http.DateFormatter.format(FIXED);
    }

    @Benchmark
    public String nettyFormat() {
        return io.netty.handler.codec.DateFormatter.format(FIXED);
    }

    @Benchmark
    public CharSequence weirFormatNow() {
        return io.weir.handler.codec.http.DateFormatter.currentDate();
    }

    @Benchmark
    public String nettyFormatNow() {
        return io.netty.handler.codec.DateFormatter.format(new Date());
    }
}
