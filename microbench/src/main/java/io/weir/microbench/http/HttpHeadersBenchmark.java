package io.weir.microbench.http;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.util.Iterator;
import java.util.Map;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The header operations a server does per request, each on a fresh validating {@code DefaultHttpHeaders}
 * filled with {@code size} fields (the fill is part of every method: setup per invocation would cost more than
 * the work measured). Names are each framework's lower-case {@code AsciiString} constants, values Strings.
 *
 * <ul>
 *   <li>{@code add}: fill only, the baseline the other cases include;</li>
 *   <li>{@code get}: fill, then look up every name and one absent name;</li>
 *   <li>{@code remove}: fill, then remove every name;</li>
 *   <li>{@code iterate}: fill, then walk every field.</li>
 * </ul>
 */
public class HttpHeadersBenchmark extends AbstractMicrobenchmark {
    @Param({"4", "16"})
    public int size;

    private io.weir.util.AsciiString[] weirNames;
    private io.netty.util.AsciiString[] nettyNames;
    private String[] values;

    private static final String[] NAMES = {"host", "user-agent", "accept", "accept-encoding", "accept-language",
            "connection", "cookie", "content-type", "content-length", "referer", "cache-control", "pragma",
            "origin", "x-forwarded-for", "x-request-id", "authorization"};

    @Setup
    public void setup() {
        weirNames = new io.weir.util.AsciiString[size];
        nettyNames = new io.netty.util.AsciiString[size];
        values = new String[size];
        for (int i = 0; i < size; i++) {
            weirNames[i] = io.weir.util.AsciiString.cached(NAMES[i]);
            nettyNames[i] = io.netty.util.AsciiString.cached(NAMES[i]);
            values[i] = "value-" + i;
        }
    }

    private io.weir.handler.codec.http.HttpHeaders weirFilled() {
        io.weir.handler.codec.http.HttpHeaders h = new io.weir.handler.codec.http.DefaultHttpHeaders();
        for (int i = 0; i < weirNames.length; i++) {
            h.add(weirNames[i], values[i]);
        }
        return h;
    }

    private io.netty.handler.codec.http.HttpHeaders nettyFilled() {
        io.netty.handler.codec.http.HttpHeaders h = new io.netty.handler.codec.http.DefaultHttpHeaders();
        for (int i = 0; i < nettyNames.length; i++) {
            h.add(nettyNames[i], values[i]);
        }
        return h;
    }

    @Benchmark
    public Object weirAdd() {
        return weirFilled();
    }

    @Benchmark
    public Object nettyAdd() {
        return nettyFilled();
    }

    @Benchmark
    public void weirGet(Blackhole bh) {
        io.weir.handler.codec.http.HttpHeaders h = weirFilled();
        for (io.weir.util.AsciiString name : weirNames) {
            bh.consume(h.get(name));
        }
        bh.consume(h.get(io.weir.handler.codec.http.HttpHeaderNames.ETAG));
    }

    @Benchmark
    public void nettyGet(Blackhole bh) {
        io.netty.handler.codec.http.HttpHeaders h = nettyFilled();
        for (io.netty.util.AsciiString name : nettyNames) {
            bh.consume(h.get(name));
        }
        bh.consume(h.get(io.netty.handler.codec.http.HttpHeaderNames.ETAG));
    }

    @Benchmark
    public int weirRemove() {
        io.weir.handler.codec.http.HttpHeaders h = weirFilled();
        for (io.weir.util.AsciiString name : weirNames) {
            h.remove(name);
        }
        return h.size();
    }

    @Benchmark
    public int nettyRemove() {
        io.netty.handler.codec.http.HttpHeaders h = nettyFilled();
        for (io.netty.util.AsciiString name : nettyNames) {
            h.remove(name);
        }
        return h.size();
    }

    @Benchmark
    public int weirIterate() {
        int total = 0;
        for (Iterator<Map.Entry<CharSequence, CharSequence>> it = weirFilled().iterator(); it.hasNext(); ) {
            total += it.next().getValue().length();
        }
        return total;
    }

    @Benchmark
    public int nettyIterate() {
        int total = 0;
        for (Iterator<Map.Entry<CharSequence, CharSequence>> it = nettyFilled().iteratorCharSequence();
                it.hasNext(); ) {
            total += it.next().getValue().length();
        }
        return total;
    }
}
