package io.weir.handler.codec.http;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * How an HTTP server treats its clients, one configuration for HTTP/1.1 and HTTP/2: how long a client may take to
 * send a request head (or, on a port that serves both, to show which protocol it speaks), how long a connection may
 * sit idle, how slowly a request body may arrive, how long output may wait for a client that stopped reading, how
 * long a closing connection lingers, whether connections are kept alive, how many may be open at once, and, for
 * HTTP/2, how long an open stream may receive nothing. Immutable and thread-safe: one policy serves every
 * connection of a server.
 *
 * <pre>{@code
 * HttpServerPolicy policy = HttpServerPolicy.builder().requestHeadTimeout(Duration.ofSeconds(5)).build();
 * ch.pipeline().addLast(new HttpServerCodec(policy), new HttpObjectAggregator(1 << 20), new MyHandler());
 * Http2FrameCodecBuilder.forServer().policy(policy);
 * }</pre>
 *
 * <p>Every value has a safe default, chosen as {@link HttpServerTimeouts} explains (head 10 s, idle 75 s, body at
 * least 1 KiB/s over 10 s windows after 5 s, write progress 30 s), plus a 2 s, 1 MiB linger
 * ({@link HttpServerCodec#DEFAULT_LINGER_TIMEOUT_MILLIS}) and a 30 s HTTP/2 stream read timeout. A zero duration or
 * rate turns that limit off. The builder checks each value as it is set and throws an
 * {@link IllegalArgumentException} naming the option and the value.
 *
 * <h2>Where each value applies</h2>
 * <table>
 * <caption>Options and the protocols they apply to</caption>
 * <tr><th>option</th><th>HTTP/1.1 ({@link HttpServerCodec#HttpServerCodec(HttpServerPolicy)})</th>
 *     <th>HTTP/2 ({@code Http2FrameCodecBuilder.policy})</th></tr>
 * <tr><td>{@link #requestHeadTimeout()}</td><td>request head, then 408</td>
 *     <td>the h2c decision: time to send the preface or a request line</td></tr>
 * <tr><td>{@link #idleTimeout()}</td><td>between requests, then closed quietly</td>
 *     <td>without any stream, then GOAWAY and close</td></tr>
 * <tr><td>{@link #minBodyRate()}, {@link #bodyRateGracePeriod()}, {@link #bodyRateWindow()}</td>
 *     <td>per request body, then 408</td><td>per stream, then RST_STREAM CANCEL</td></tr>
 * <tr><td>{@link #writeTimeout()}</td><td>output queued and none read, then close</td>
 *     <td>the same, then GOAWAY and close</td></tr>
 * <tr><td>{@link #lingerTimeout()}, {@link #lingerMaxBytes()}</td><td>graceful close (RFC 9112 §9.6)</td>
 *     <td>not used: HTTP/2 closes after GOAWAY</td></tr>
 * <tr><td>{@link #keepAlive()}</td><td>off: every response closes the connection</td><td>not used</td></tr>
 * <tr><td>{@link #streamReadTimeout()}</td><td>not used</td>
 *     <td>an open stream receiving nothing, then RST_STREAM CANCEL</td></tr>
 * <tr><td>{@link #maxConnections()}</td><td colspan="2">on the listening channel
 *     ({@code io.weir.handler.limit.ConnectionLimitHandler})</td></tr>
 * </table>
 */
public final class HttpServerPolicy {
    /** Default of {@link #requestHeadTimeout()}. */
    public static final Duration DEFAULT_REQUEST_HEAD_TIMEOUT =
            Duration.ofMillis(HttpServerTimeouts.DEFAULT_REQUEST_HEAD_TIMEOUT_MILLIS);
    /** Default of {@link #idleTimeout()}. */
    public static final Duration DEFAULT_IDLE_TIMEOUT =
            Duration.ofMillis(HttpServerTimeouts.DEFAULT_IDLE_TIMEOUT_MILLIS);
    /** Default of {@link #minBodyRate()}, in bytes per second. */
    public static final long DEFAULT_MIN_BODY_RATE_BYTES_PER_SECOND =
            HttpServerTimeouts.DEFAULT_MIN_BODY_RATE_BYTES_PER_SECOND;
    /** Default of {@link #bodyRateGracePeriod()}. */
    public static final Duration DEFAULT_BODY_RATE_GRACE_PERIOD =
            Duration.ofMillis(HttpServerTimeouts.DEFAULT_BODY_RATE_GRACE_PERIOD_MILLIS);
    /** Default of {@link #bodyRateWindow()}. */
    public static final Duration DEFAULT_BODY_RATE_WINDOW =
            Duration.ofMillis(HttpServerTimeouts.DEFAULT_BODY_RATE_WINDOW_MILLIS);
    /** Default of {@link #writeTimeout()}. */
    public static final Duration DEFAULT_WRITE_TIMEOUT =
            Duration.ofMillis(HttpServerTimeouts.DEFAULT_WRITE_PROGRESS_TIMEOUT_MILLIS);
    /** Default of {@link #lingerTimeout()}. */
    public static final Duration DEFAULT_LINGER_TIMEOUT =
            Duration.ofMillis(HttpServerCodec.DEFAULT_LINGER_TIMEOUT_MILLIS);
    /** Default of {@link #lingerMaxBytes()}. */
    public static final long DEFAULT_LINGER_MAX_BYTES = HttpServerCodec.DEFAULT_LINGER_MAX_BYTES;
    /**
     * Default of {@link #streamReadTimeout()}: 30 s, three request-head timeouts, for a client that opened a stream
     * and sends its body in bursts.
     */
    public static final Duration DEFAULT_STREAM_READ_TIMEOUT = Duration.ofSeconds(30);
    /** {@link #maxConnections()}'s value for no cap, the default: the process's descriptor limit is the cap. */
    public static final int NO_CONNECTION_LIMIT = 0;

    private static final HttpServerPolicy DEFAULTS = new Builder().build();

    private final Duration requestHeadTimeout;
    private final Duration idleTimeout;
    private final long minBodyRate;
    private final Duration bodyRateGracePeriod;
    private final Duration bodyRateWindow;
    private final Duration writeTimeout;
    private final Duration lingerTimeout;
    private final long lingerMaxBytes;
    private final boolean keepAlive;
    private final Duration streamReadTimeout;
    private final int maxConnections;

    private HttpServerPolicy(Builder b) {
        requestHeadTimeout = b.requestHeadTimeout;
        idleTimeout = b.idleTimeout;
        minBodyRate = b.minBodyRate;
        bodyRateGracePeriod = b.bodyRateGracePeriod;
        bodyRateWindow = b.bodyRateWindow;
        writeTimeout = b.writeTimeout;
        lingerTimeout = b.lingerTimeout;
        lingerMaxBytes = b.lingerMaxBytes;
        keepAlive = b.keepAlive;
        streamReadTimeout = b.streamReadTimeout;
        maxConnections = b.maxConnections;
    }

    /** The policy with every default. */
    public static HttpServerPolicy defaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this policy's values. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * The same limits as {@code timeouts} (an {@link HttpServerTimeouts} in the older dialect), the other values
     * default.
     *
     * @throws NullPointerException if {@code timeouts} is null
     */
    public static HttpServerPolicy of(HttpServerTimeouts timeouts) {
        Objects.requireNonNull(timeouts, "timeouts");
        return builder()
                .requestHeadTimeout(Duration.ofNanos(timeouts.requestHeadTimeoutNanos()))
                .idleTimeout(Duration.ofNanos(timeouts.idleTimeoutNanos()))
                .minBodyRate(timeouts.minBodyRateBytesPerSecond(),
                        Duration.ofNanos(timeouts.bodyRateGracePeriodNanos()),
                        Duration.ofNanos(timeouts.bodyRateWindowNanos()))
                .writeTimeout(Duration.ofNanos(timeouts.writeProgressTimeoutNanos()))
                .build();
    }

    /**
     * How long a client may take to send a complete request head, from connection start (or the first byte of a
     * later request); on a port serving h2c and HTTP/1.1 also how long a new connection has to send the HTTP/2
     * preface or a request line. Zero: off.
     */
    public Duration requestHeadTimeout() {
        return requestHeadTimeout;
    }

    /** How long a connection may stay idle (HTTP/1.1: between requests; HTTP/2: without a stream). Zero: off. */
    public Duration idleTimeout() {
        return idleTimeout;
    }

    /** The slowest request body accepted, in bytes per second, per request or stream. Zero: off. */
    public long minBodyRate() {
        return minBodyRate;
    }

    /** How long after a request head (or a stream's start) its body may arrive at any rate. */
    public Duration bodyRateGracePeriod() {
        return bodyRateGracePeriod;
    }

    /** The length of the windows the body rate is averaged over (positive). */
    public Duration bodyRateWindow() {
        return bodyRateWindow;
    }

    /**
     * How long output owed to a client (queued, flushed or not) may wait without the client reading any of it
     * before the connection is closed: the bound on a peer that stops reading while a response is owed. Any
     * progress restarts the clock. Zero: off.
     */
    public Duration writeTimeout() {
        return writeTimeout;
    }

    /**
     * How long an HTTP/1.1 connection closing while the client may still send keeps reading and dropping its
     * input before it closes (RFC 9112 §9.6). Zero: close at once.
     */
    public Duration lingerTimeout() {
        return lingerTimeout;
    }

    /** The most bytes a lingering HTTP/1.1 connection drops before it closes anyway. */
    public long lingerMaxBytes() {
        return lingerMaxBytes;
    }

    /** Whether HTTP/1.1 connections persist between requests (RFC 9112 §9.3); off closes after every response. */
    public boolean keepAlive() {
        return keepAlive;
    }

    /** How long an HTTP/2 stream the client has not ended may receive nothing before it is reset. Zero: off. */
    public Duration streamReadTimeout() {
        return streamReadTimeout;
    }

    /** The most connections open at once on a listening channel; {@link #NO_CONNECTION_LIMIT} for no cap. */
    public int maxConnections() {
        return maxConnections;
    }

    /** This policy's timeouts in the older dialect, for APIs that take an {@link HttpServerTimeouts}. */
    public HttpServerTimeouts toTimeouts() {
        return new HttpServerTimeouts()
                .setRequestHeadTimeout(requestHeadTimeout.toNanos(), TimeUnit.NANOSECONDS)
                .setIdleTimeout(idleTimeout.toNanos(), TimeUnit.NANOSECONDS)
                .setMinBodyRate(minBodyRate)
                .setBodyRateGracePeriod(bodyRateGracePeriod.toNanos(), TimeUnit.NANOSECONDS)
                .setBodyRateWindow(bodyRateWindow.toNanos(), TimeUnit.NANOSECONDS)
                .setWriteProgressTimeout(writeTimeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HttpServerPolicy p && requestHeadTimeout.equals(p.requestHeadTimeout)
                && idleTimeout.equals(p.idleTimeout) && minBodyRate == p.minBodyRate
                && bodyRateGracePeriod.equals(p.bodyRateGracePeriod) && bodyRateWindow.equals(p.bodyRateWindow)
                && writeTimeout.equals(p.writeTimeout) && lingerTimeout.equals(p.lingerTimeout)
                && lingerMaxBytes == p.lingerMaxBytes && keepAlive == p.keepAlive
                && streamReadTimeout.equals(p.streamReadTimeout) && maxConnections == p.maxConnections;
    }

    @Override
    public int hashCode() {
        return Objects.hash(requestHeadTimeout, idleTimeout, minBodyRate, bodyRateGracePeriod, bodyRateWindow,
                writeTimeout, lingerTimeout, lingerMaxBytes, keepAlive, streamReadTimeout, maxConnections);
    }

    @Override
    public String toString() {
        return "HttpServerPolicy(head " + requestHeadTimeout.toMillis() + " ms, idle " + idleTimeout.toMillis()
                + " ms, min body rate " + minBodyRate + " bytes/s after " + bodyRateGracePeriod.toMillis()
                + " ms over " + bodyRateWindow.toMillis() + " ms windows, write " + writeTimeout.toMillis()
                + " ms, linger " + lingerTimeout.toMillis() + " ms or " + lingerMaxBytes + " bytes, keep-alive "
                + (keepAlive ? "on" : "off") + ", HTTP/2 stream read " + streamReadTimeout.toMillis() + " ms, "
                + (maxConnections == NO_CONNECTION_LIMIT ? "no connection cap" : "at most " + maxConnections
                        + " connections") + ")";
    }

    /**
     * Builds an {@link HttpServerPolicy}; starts from the defaults. Each setter checks its value at once. Not
     * thread-safe; the policies it builds are.
     */
    public static final class Builder {
        private Duration requestHeadTimeout = DEFAULT_REQUEST_HEAD_TIMEOUT;
        private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
        private long minBodyRate = DEFAULT_MIN_BODY_RATE_BYTES_PER_SECOND;
        private Duration bodyRateGracePeriod = DEFAULT_BODY_RATE_GRACE_PERIOD;
        private Duration bodyRateWindow = DEFAULT_BODY_RATE_WINDOW;
        private Duration writeTimeout = DEFAULT_WRITE_TIMEOUT;
        private Duration lingerTimeout = DEFAULT_LINGER_TIMEOUT;
        private long lingerMaxBytes = DEFAULT_LINGER_MAX_BYTES;
        private boolean keepAlive = true;
        private Duration streamReadTimeout = DEFAULT_STREAM_READ_TIMEOUT;
        private int maxConnections = NO_CONNECTION_LIMIT;

        private Builder() {
        }

        private Builder(HttpServerPolicy p) {
            requestHeadTimeout = p.requestHeadTimeout;
            idleTimeout = p.idleTimeout;
            minBodyRate = p.minBodyRate;
            bodyRateGracePeriod = p.bodyRateGracePeriod;
            bodyRateWindow = p.bodyRateWindow;
            writeTimeout = p.writeTimeout;
            lingerTimeout = p.lingerTimeout;
            lingerMaxBytes = p.lingerMaxBytes;
            keepAlive = p.keepAlive;
            streamReadTimeout = p.streamReadTimeout;
            maxConnections = p.maxConnections;
        }

        /**
         * Sets {@link HttpServerPolicy#requestHeadTimeout()}.
         *
         * @throws IllegalArgumentException if negative
         * @throws NullPointerException if null
         */
        public Builder requestHeadTimeout(Duration timeout) {
            requestHeadTimeout = nonNegative("requestHeadTimeout", timeout);
            return this;
        }

        /**
         * Sets {@link HttpServerPolicy#idleTimeout()}.
         *
         * @throws IllegalArgumentException if negative
         * @throws NullPointerException if null
         */
        public Builder idleTimeout(Duration timeout) {
            idleTimeout = nonNegative("idleTimeout", timeout);
            return this;
        }

        /**
         * Sets {@link HttpServerPolicy#minBodyRate()}, keeping the grace period and window.
         *
         * @throws IllegalArgumentException if negative
         */
        public Builder minBodyRate(long bytesPerSecond) {
            if (bytesPerSecond < 0) {
                throw new IllegalArgumentException("minBodyRate: " + bytesPerSecond + " bytes/s (expected: >= 0)");
            }
            minBodyRate = bytesPerSecond;
            return this;
        }

        /**
         * Sets {@link HttpServerPolicy#minBodyRate()}, {@link HttpServerPolicy#bodyRateGracePeriod()} and
         * {@link HttpServerPolicy#bodyRateWindow()}.
         *
         * @throws IllegalArgumentException if the rate or grace period is negative or the window not positive
         * @throws NullPointerException if a duration is null
         */
        public Builder minBodyRate(long bytesPerSecond, Duration gracePeriod, Duration window) {
            Duration grace = nonNegative("bodyRateGracePeriod", gracePeriod);
            Objects.requireNonNull(window, "bodyRateWindow");
            if (window.isNegative() || window.isZero()) {
                throw new IllegalArgumentException("bodyRateWindow: " + window + " (expected: > 0)");
            }
            minBodyRate(bytesPerSecond);
            bodyRateGracePeriod = grace;
            bodyRateWindow = window;
            return this;
        }

        /**
         * Sets {@link HttpServerPolicy#writeTimeout()}.
         *
         * @throws IllegalArgumentException if negative
         * @throws NullPointerException if null
         */
        public Builder writeTimeout(Duration timeout) {
            writeTimeout = nonNegative("writeTimeout", timeout);
            return this;
        }

        /**
         * Sets {@link HttpServerPolicy#lingerTimeout()} and {@link HttpServerPolicy#lingerMaxBytes()}.
         *
         * @throws IllegalArgumentException if the time or the byte count is negative
         * @throws NullPointerException if {@code timeout} is null
         */
        public Builder linger(Duration timeout, long maxBytes) {
            Duration checked = nonNegative("lingerTimeout", timeout);
            if (maxBytes < 0) {
                throw new IllegalArgumentException("lingerMaxBytes: " + maxBytes + " (expected: >= 0)");
            }
            lingerTimeout = checked;
            lingerMaxBytes = maxBytes;
            return this;
        }

        /** Sets {@link HttpServerPolicy#keepAlive()}. */
        public Builder keepAlive(boolean enabled) {
            keepAlive = enabled;
            return this;
        }

        /**
         * Sets {@link HttpServerPolicy#streamReadTimeout()}.
         *
         * @throws IllegalArgumentException if negative
         * @throws NullPointerException if null
         */
        public Builder streamReadTimeout(Duration timeout) {
            streamReadTimeout = nonNegative("streamReadTimeout", timeout);
            return this;
        }

        /**
         * Sets {@link HttpServerPolicy#maxConnections()}.
         *
         * @throws IllegalArgumentException if negative
         */
        public Builder maxConnections(int connections) {
            if (connections < 0) {
                throw new IllegalArgumentException("maxConnections: " + connections
                        + " (expected: >= 0, 0 for no cap)");
            }
            maxConnections = connections;
            return this;
        }

        /** The policy with the values set so far. */
        public HttpServerPolicy build() {
            return new HttpServerPolicy(this);
        }

        private static Duration nonNegative(String option, Duration value) {
            Objects.requireNonNull(value, option);
            if (value.isNegative()) {
                throw new IllegalArgumentException(option + ": " + value + " (expected: >= 0, 0 turns it off)");
            }
            // Timers take nanoseconds: a longer duration would overflow them.
            try {
                value.toNanos();
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException(option + ": " + value + " (expected: at most "
                        + Duration.ofNanos(Long.MAX_VALUE) + ")");
            }
            return value;
        }
    }
}
