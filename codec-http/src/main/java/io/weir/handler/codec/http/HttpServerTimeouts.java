package io.weir.handler.codec.http;

import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The time limits of an HTTP/1.1 server connection, applied by {@link HttpServerTimeoutHandler}: how long a client
 * may take to send a request head, how slowly it may send a body, how long a kept-alive connection may sit silent
 * between requests, and how long output owed to a client may stay unread. Every limit has a safe default and a setter; a time or rate of zero
 * turns that limit off. A handler copies the values when it is built, so a config may be shared by every
 * connection of a server and changed afterwards without affecting handlers already built. Not thread-safe while
 * being changed.
 *
 * <p>{@link HttpServerPolicy} supersedes it: the same limits as {@link java.time.Duration}s, immutable, one
 * configuration for HTTP/1.1 and HTTP/2 ({@link HttpServerPolicy#of(HttpServerTimeouts)} and
 * {@link HttpServerPolicy#toTimeouts()} convert between the two).
 *
 * <pre>{@code
 * HttpServerTimeouts timeouts = new HttpServerTimeouts().setRequestHeadTimeout(5, TimeUnit.SECONDS);
 * ch.pipeline().addLast(new HttpServerCodec(), new HttpServerTimeoutHandler(timeouts), ...);
 * }</pre>
 *
 * <p>The defaults follow what long-running public servers ship with, tightened where a peer could hold resources
 * for nothing:
 * <ul>
 * <li>request head {@value #DEFAULT_REQUEST_HEAD_TIMEOUT_MILLIS} ms: a real client sends its head in one or two
 *     packets right after connecting or after its first byte; ten seconds still covers several TCP retransmission
 *     back-offs (1 s, 2 s, 4 s) on a lossy mobile link. nginx's {@code client_header_timeout} is 60 s, Apache's
 *     {@code mod_reqtimeout} 20 to 40 s, ASP.NET Kestrel's 30 s; at those values 10,000 slowloris connections stay
 *     open three to six times longer.</li>
 * <li>keep-alive idle {@value #DEFAULT_IDLE_TIMEOUT_MILLIS} ms, nginx's {@code keepalive_timeout}: longer than
 *     the 60 s idle timeout of the common load balancers (AWS ALB, GCP, nginx upstream pools), so the balancer
 *     rather than this server ends an idle connection and never sends a request into a connection being
 *     closed.</li>
 * <li>minimum body rate {@value #DEFAULT_MIN_BODY_RATE_BYTES_PER_SECOND} bytes/s averaged over
 *     {@value #DEFAULT_BODY_RATE_WINDOW_MILLIS} ms windows after a {@value #DEFAULT_BODY_RATE_GRACE_PERIOD_MILLIS}
 *     ms grace period (Kestrel: 240 bytes/s after 5 s; Apache: 500 bytes/s): 8 kbit/s is below any working
 *     uplink, and a ten-second window rides out a TCP stall of several retransmissions; an attacker must keep
 *     sending 1 KiB/s per connection to hold it.</li>
 * <li>write progress {@value #DEFAULT_WRITE_PROGRESS_TIMEOUT_MILLIS} ms, as HTTP/2's
 *     ({@code Http2FrameCodecBuilder.writeProgressTimeoutMillis}): a client reading any amount within that time
 *     keeps a download going, however slowly; one that stopped reading holds at most the socket's high water mark
 *     of responses, and only for that long.</li>
 * </ul>
 * How long a connection lingers after a 408 (or any other close while the client may still be sending), and how
 * many bytes it drops meanwhile, is not set here: the {@link HttpServerCodec}'s graceful close does that, with its
 * {@linkplain HttpServerCodec#setLingerTimeoutMillis(long) time} and {@linkplain
 * HttpServerCodec#setLingerMaxBytes(long) byte} limits.
 */
public final class HttpServerTimeouts implements Cloneable {
    /** Default time from connection start (or from the first byte of a later request) to its complete head. */
    public static final long DEFAULT_REQUEST_HEAD_TIMEOUT_MILLIS = 10_000;
    /** Default time a kept-alive connection may stay silent between a response and the next request. */
    public static final long DEFAULT_IDLE_TIMEOUT_MILLIS = 75_000;
    /** Default slowest request body accepted, in bytes per second averaged over a window. */
    public static final long DEFAULT_MIN_BODY_RATE_BYTES_PER_SECOND = 1024;
    /** Default time from the request head to the first body-rate window, during which any rate is accepted. */
    public static final long DEFAULT_BODY_RATE_GRACE_PERIOD_MILLIS = 5_000;
    /** Default length of the windows the body rate is averaged over. */
    public static final long DEFAULT_BODY_RATE_WINDOW_MILLIS = 10_000;
    /** Default time output may wait for the client without any of it being read before the connection closes. */
    public static final long DEFAULT_WRITE_PROGRESS_TIMEOUT_MILLIS = 30_000;

    private long requestHeadTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(DEFAULT_REQUEST_HEAD_TIMEOUT_MILLIS);
    private long idleTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(DEFAULT_IDLE_TIMEOUT_MILLIS);
    private long minBodyRateBytesPerSecond = DEFAULT_MIN_BODY_RATE_BYTES_PER_SECOND;
    private long bodyRateGracePeriodNanos = TimeUnit.MILLISECONDS.toNanos(DEFAULT_BODY_RATE_GRACE_PERIOD_MILLIS);
    private long bodyRateWindowNanos = TimeUnit.MILLISECONDS.toNanos(DEFAULT_BODY_RATE_WINDOW_MILLIS);
    private long writeProgressTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(DEFAULT_WRITE_PROGRESS_TIMEOUT_MILLIS);

    /** A config with every default. */
    public HttpServerTimeouts() {
    }

    /** A config with every limit turned off: a handler built from it never closes a connection. */
    public static HttpServerTimeouts disabled() {
        return new HttpServerTimeouts().setRequestHeadTimeout(0, TimeUnit.NANOSECONDS)
                .setIdleTimeout(0, TimeUnit.NANOSECONDS).setMinBodyRate(0)
                .setWriteProgressTimeout(0, TimeUnit.NANOSECONDS);
    }

    /** The request-head timeout in nanoseconds; 0 when off. */
    public long requestHeadTimeoutNanos() {
        return requestHeadTimeoutNanos;
    }

    /**
     * Sets how long a client may take to send a complete request head, counted from connection start for the
     * first request and from the request's first byte for later ones (while the server still owes a response,
     * the clock does not run: the wait is the server's). On expiry a client that sent part of a head is answered
     * 408 (Request Timeout) and the connection closed gracefully by the {@link HttpServerCodec}; a new connection
     * on which nothing arrived is closed quietly. 0 turns it off.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @throws NullPointerException if {@code unit} is null
     */
    public HttpServerTimeouts setRequestHeadTimeout(long timeout, TimeUnit unit) {
        this.requestHeadTimeoutNanos = toNanos(timeout, unit, "requestHeadTimeout");
        return this;
    }

    /** The keep-alive idle timeout in nanoseconds; 0 when off. */
    public long idleTimeoutNanos() {
        return idleTimeoutNanos;
    }

    /**
     * Sets how long a kept-alive connection may receive nothing after the last response was written before it is
     * closed quietly (RFC 9112 §9.3: a server may close an idle connection at any time). It also bounds a new
     * connection's wait for its first byte when the request-head timeout is off. 0 turns it off.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @throws NullPointerException if {@code unit} is null
     */
    public HttpServerTimeouts setIdleTimeout(long timeout, TimeUnit unit) {
        this.idleTimeoutNanos = toNanos(timeout, unit, "idleTimeout");
        return this;
    }

    /** The slowest request body accepted, in bytes per second; 0 when off. */
    public long minBodyRateBytesPerSecond() {
        return minBodyRateBytesPerSecond;
    }

    /**
     * Sets the slowest request body accepted. After the {@linkplain #setBodyRateGracePeriod grace period}, the
     * body bytes received in each {@linkplain #setBodyRateWindow window} must average at least this rate, or the
     * request is answered 408 (if no response to it has begun) and the connection closed. Windows while the
     * server is not reading (auto-read off: the application or the codec applying backpressure) do not count. 0
     * turns it off.
     *
     * @throws IllegalArgumentException if {@code bytesPerSecond} is negative
     */
    public HttpServerTimeouts setMinBodyRate(long bytesPerSecond) {
        if (bytesPerSecond < 0) {
            throw new IllegalArgumentException("minBodyRate: " + bytesPerSecond + " bytes/s (expected: >= 0)");
        }
        this.minBodyRateBytesPerSecond = bytesPerSecond;
        return this;
    }

    /** The body-rate grace period in nanoseconds. */
    public long bodyRateGracePeriodNanos() {
        return bodyRateGracePeriodNanos;
    }

    /**
     * Sets how long after the request head the body may arrive at any rate (slow start, a client waiting for
     * {@code 100 Continue}).
     *
     * @throws IllegalArgumentException if {@code gracePeriod} is negative
     * @throws NullPointerException if {@code unit} is null
     */
    public HttpServerTimeouts setBodyRateGracePeriod(long gracePeriod, TimeUnit unit) {
        this.bodyRateGracePeriodNanos = toNanos(gracePeriod, unit, "bodyRateGracePeriod");
        return this;
    }

    /** The body-rate window in nanoseconds. */
    public long bodyRateWindowNanos() {
        return bodyRateWindowNanos;
    }

    /**
     * Sets the length of the windows the body rate is averaged over: longer windows forgive longer stalls.
     *
     * @throws IllegalArgumentException if {@code window} is not positive
     * @throws NullPointerException if {@code unit} is null
     */
    public HttpServerTimeouts setBodyRateWindow(long window, TimeUnit unit) {
        long nanos = toNanos(window, unit, "bodyRateWindow");
        if (nanos == 0) {
            throw new IllegalArgumentException("bodyRateWindow: " + window + " " + unit + " (expected: > 0)");
        }
        this.bodyRateWindowNanos = nanos;
        return this;
    }

    /** The write-progress timeout in nanoseconds; 0 when off. */
    public long writeProgressTimeoutNanos() {
        return writeProgressTimeoutNanos;
    }

    /**
     * Sets how long output queued for the client (a response, or part of one, flushed or not) may wait without the
     * client reading any of it before the connection is closed. Any progress restarts the clock, so a slow but
     * steady reader is never cut; a client that stopped reading is (slowloris in reverse: it holds the queued
     * responses and the connection otherwise). The close goes through the {@link HttpServerCodec}'s graceful close,
     * whose linger bound then ends it. 0 turns it off.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @throws NullPointerException if {@code unit} is null
     */
    public HttpServerTimeouts setWriteProgressTimeout(long timeout, TimeUnit unit) {
        this.writeProgressTimeoutNanos = toNanos(timeout, unit, "writeProgressTimeout");
        return this;
    }

    /** A copy to change without affecting this config. */
    @Override
    public HttpServerTimeouts clone() {
        try {
            return (HttpServerTimeouts) super.clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }

    @Override
    public String toString() {
        return "HttpServerTimeouts(head " + TimeUnit.NANOSECONDS.toMillis(requestHeadTimeoutNanos) + " ms, idle "
                + TimeUnit.NANOSECONDS.toMillis(idleTimeoutNanos) + " ms, min body rate " + minBodyRateBytesPerSecond
                + " bytes/s after " + TimeUnit.NANOSECONDS.toMillis(bodyRateGracePeriodNanos) + " ms over "
                + TimeUnit.NANOSECONDS.toMillis(bodyRateWindowNanos) + " ms windows, write progress "
                + TimeUnit.NANOSECONDS.toMillis(writeProgressTimeoutNanos) + " ms)";
    }

    private static long toNanos(long time, TimeUnit unit, String name) {
        Objects.requireNonNull(unit, "unit");
        if (time < 0) {
            throw new IllegalArgumentException(name + ": " + time + " " + unit + " (expected: >= 0)");
        }
        return unit.toNanos(time);
    }
}
