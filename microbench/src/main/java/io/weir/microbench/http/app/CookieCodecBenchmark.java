package io.weir.microbench.http.app;

import io.weir.microbench.util.AbstractMicrobenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * Cookie work a server does per request: decoding a browser's {@code Cookie} header with five cookies (strict
 * mode in both frameworks), and encoding one {@code Set-Cookie} with Domain, Path, Max-Age (and thus Expires),
 * Secure, HttpOnly and SameSite. The cookie to encode is built once in setup; both encoders read the clock for
 * Expires, so that cost is in both.
 */
public class CookieCodecBenchmark extends AbstractMicrobenchmark {
    static final String COOKIE_HEADER = "_ga=GA1.2.1951246245.1703012345; session_id=3f2a9c0d1b7e4f6a8c5d2e1f0a9b8c7d; "
            + "lang=en-US; theme=\"dark\"; csrftoken=Wq8rZk2VfX1yT5uN3mB7cJ9dL0pH4sG6";

    private io.weir.handler.codec.http.cookie.Cookie weirCookie;
    private io.netty.handler.codec.http.cookie.Cookie nettyCookie;

    @Setup
    public void setup() {
        io.weir.handler.codec.http.cookie.DefaultCookie w =
                new io.weir.handler.codec.http.cookie.DefaultCookie("session_id", "3f2a9c0d1b7e4f6a8c5d2e1f0a9b8c7d");
        w.setDomain("example.com");
        w.setPath("/app");
        w.setMaxAge(3600);
        w.setSecure(true);
        w.setHttpOnly(true);
        w.setSameSite(io.weir.handler.codec.http.cookie.CookieHeaderNames.SameSite.Lax);
        weirCookie = w;
        io.netty.handler.codec.http.cookie.DefaultCookie n =
                new io.netty.handler.codec.http.cookie.DefaultCookie("session_id", "3f2a9c0d1b7e4f6a8c5d2e1f0a9b8c7d");
        n.setDomain("example.com");
        n.setPath("/app");
        n.setMaxAge(3600);
        n.setSecure(true);
        n.setHttpOnly(true);
        n.setSameSite(io.netty.handler.codec.http.cookie.CookieHeaderNames.SameSite.Lax);
        nettyCookie = n;
    }

    @Benchmark
    public Object weirServerDecode() {
        return io.weir.handler.codec.http.cookie.ServerCookieDecoder.STRICT.decodeAll(COOKIE_HEADER);
    }

    @Benchmark
    public Object nettyServerDecode() {
        return io.netty.handler.codec.http.cookie.ServerCookieDecoder.STRICT.decodeAll(COOKIE_HEADER);
    }

    @Benchmark
    public String weirServerEncode() {
        return io.weir.handler.codec.http.cookie.ServerCookieEncoder.STRICT.encode(weirCookie);
    }

    @Benchmark
    public String nettyServerEncode() {
        return io.netty.handler.codec.http.cookie.ServerCookieEncoder.STRICT.encode(nettyCookie);
    }
}
