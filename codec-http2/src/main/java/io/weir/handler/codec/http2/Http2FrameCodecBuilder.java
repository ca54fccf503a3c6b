package io.weir.handler.codec.http2;

import io.weir.handler.codec.http.HttpServerPolicy;
import io.weir.handler.codec.http.HttpServerTimeouts;

import io.weir.handler.codec.http2.internal.Http2FrameReader;
import io.weir.metrics.HttpMetrics;
import io.weir.util.Ticker;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Builds an {@link Http2FrameCodec}: the settings it advertises and the limits that keep a connection safe. Every
 * limit has a safe default (a named constant on {@link Http2FrameCodec}) and a setter here. Not thread-safe; build
 * one codec per connection (the builder may be reused).
 */
public final class Http2FrameCodecBuilder {

    final boolean server;
    final Http2Settings initialSettings = new Http2Settings();
    int connectionWindowSize = Http2FrameCodec.DEFAULT_CONNECTION_WINDOW_SIZE_BYTES;
    int maxResetsPerWindow = Http2FrameCodec.DEFAULT_MAX_RESETS_PER_WINDOW;
    long resetWindowMillis = Http2FrameCodec.DEFAULT_RESET_WINDOW_MILLIS;
    int maxQueuedControlFrames = Http2FrameCodec.DEFAULT_MAX_QUEUED_CONTROL_FRAMES;
    int maxConsecutiveEmptyDataFrames = Http2FrameCodec.DEFAULT_MAX_CONSECUTIVE_EMPTY_DATA_FRAMES;
    long settingsAckTimeoutMillis = Http2FrameCodec.DEFAULT_SETTINGS_ACK_TIMEOUT_MILLIS;
    long streamStallTimeoutMillis = Http2FrameCodec.DEFAULT_STREAM_STALL_TIMEOUT_MILLIS;
    long maxQueuedOutboundBytes = Http2FrameCodec.DEFAULT_MAX_QUEUED_OUTBOUND_BYTES;
    long outboundHardLimitBytes = Http2FrameCodec.DEFAULT_MAX_QUEUED_OUTBOUND_BYTES
            * Http2FrameCodec.OUTBOUND_HARD_LIMIT_FACTOR;
    long writeProgressTimeoutMillis = Http2FrameCodec.DEFAULT_WRITE_PROGRESS_TIMEOUT_MILLIS;
    long gracefulShutdownTimeoutMillis = Http2FrameCodec.DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MILLIS;
    int maxHeaderCount = Http2FrameCodec.DEFAULT_MAX_HEADER_COUNT;
    int maxContinuationFrames = Http2FrameReader.DEFAULT_MAX_CONTINUATION_FRAMES;
    int maxPriorityFieldValueLength = Http2FrameCodec.DEFAULT_MAX_PRIORITY_FIELD_VALUE_BYTES;
    private long idleTimeoutMillis;
    private long streamReadTimeoutMillis;
    private long minBodyRateBytesPerSecond;
    long bodyRateGracePeriodNanos =
            TimeUnit.MILLISECONDS.toNanos(HttpServerTimeouts.DEFAULT_BODY_RATE_GRACE_PERIOD_MILLIS);
    long bodyRateWindowNanos = TimeUnit.MILLISECONDS.toNanos(HttpServerTimeouts.DEFAULT_BODY_RATE_WINDOW_MILLIS);
    Http2ResetBudget sharedResetBudget;
    Ticker ticker;
    HttpMetrics metrics;

    private Http2FrameCodecBuilder(boolean server) {
        this.server = server;
        // A server waits on clients it does not know; a client's own connections are its pool's business.
        this.idleTimeoutMillis = server ? Http2FrameCodec.DEFAULT_IDLE_TIMEOUT_MILLIS : 0;
        this.streamReadTimeoutMillis = server ? Http2FrameCodec.DEFAULT_STREAM_READ_TIMEOUT_MILLIS : 0;
        this.minBodyRateBytesPerSecond = server ? HttpServerTimeouts.DEFAULT_MIN_BODY_RATE_BYTES_PER_SECOND : 0;
        initialSettings.maxConcurrentStreams(Http2FrameCodec.DEFAULT_MAX_CONCURRENT_STREAMS);
        initialSettings.maxHeaderListSize(Http2FrameCodec.DEFAULT_MAX_HEADER_LIST_SIZE_BYTES);
        if (!server) {
            initialSettings.pushEnabled(false);
        }
    }

    /** A builder for the server side of a connection. */
    public static Http2FrameCodecBuilder forServer() {
        return new Http2FrameCodecBuilder(true);
    }

    /** A builder for the client side of a connection (server push is turned off). */
    public static Http2FrameCodecBuilder forClient() {
        return new Http2FrameCodecBuilder(false);
    }

    /**
     * Settings sent in the first SETTINGS frame, merged over the defaults (SETTINGS_MAX_CONCURRENT_STREAMS
     * {@value Http2FrameCodec#DEFAULT_MAX_CONCURRENT_STREAMS}, SETTINGS_MAX_HEADER_LIST_SIZE
     * {@value Http2FrameCodec#DEFAULT_MAX_HEADER_LIST_SIZE_BYTES}). The codec enforces what it advertises.
     */
    public Http2FrameCodecBuilder initialSettings(Http2Settings settings) {
        initialSettings.putAll(Objects.requireNonNull(settings, "settings"));
        return this;
    }

    /** Streams the peer may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS); the excess is refused. */
    public Http2FrameCodecBuilder maxConcurrentStreams(long streams) {
        initialSettings.maxConcurrentStreams(streams);
        return this;
    }

    /** The largest header list accepted, in octets (SETTINGS_MAX_HEADER_LIST_SIZE, RFC 9113 §6.5.2). */
    public Http2FrameCodecBuilder maxHeaderListSize(long octets) {
        initialSettings.maxHeaderListSize(octets);
        return this;
    }

    /** The most fields in a header section; more is a stream error (twice as many a connection error). */
    public Http2FrameCodecBuilder maxHeaderCount(int fields) {
        if (fields <= 0) {
            throw new IllegalArgumentException("maxHeaderCount: " + fields + " (expected > 0)");
        }
        this.maxHeaderCount = fields;
        return this;
    }

    /** The most CONTINUATION frames in one header block (more is a CONTINUATION flood: ENHANCE_YOUR_CALM). */
    public Http2FrameCodecBuilder maxContinuationFrames(int frames) {
        if (frames < 0) {
            throw new IllegalArgumentException("maxContinuationFrames: " + frames + " (expected >= 0)");
        }
        this.maxContinuationFrames = frames;
        return this;
    }

    /**
     * The longest RFC 9218 Priority Field Value parsed, in octets (the {@code priority} field of a request or the
     * payload of a PRIORITY_UPDATE frame): a longer one is ignored as the RFC ignores a malformed one (the stream
     * keeps the default priority), so a peer cannot make the codec scan kilobytes per signal.
     */
    public Http2FrameCodecBuilder maxPriorityFieldValueLength(int octets) {
        if (octets < 0) {
            throw new IllegalArgumentException("maxPriorityFieldValueLength: " + octets + " (expected >= 0)");
        }
        this.maxPriorityFieldValueLength = octets;
        return this;
    }

    /** The connection's receive window, in octets; default {@value Http2FrameCodec#DEFAULT_CONNECTION_WINDOW_SIZE_BYTES}. */
    public Http2FrameCodecBuilder connectionWindowSize(int octets) {
        if (octets < 65_535) {
            throw new IllegalArgumentException("connectionWindowSize: " + octets + " (expected >= 65535)");
        }
        this.connectionWindowSize = octets;
        return this;
    }

    /**
     * Resets (received and sent, any code) allowed per window before the connection ends with GOAWAY
     * ENHANCE_YOUR_CALM: Rapid Reset (CVE-2023-44487) and MadeYouReset (CVE-2025-8671).
     */
    public Http2FrameCodecBuilder maxResetsPerWindow(int resets, long windowMillis) {
        if (resets <= 0 || windowMillis <= 0) {
            throw new IllegalArgumentException("maxResetsPerWindow: " + resets + " per " + windowMillis
                    + " ms (expected both > 0)");
        }
        this.maxResetsPerWindow = resets;
        this.resetWindowMillis = windowMillis;
        return this;
    }

    /**
     * Control-frame answers (SETTINGS and PING acknowledgements, resets) allowed to wait unwritten before the
     * connection ends with ENHANCE_YOUR_CALM: a peer that floods PING or SETTINGS without reading the answers.
     */
    public Http2FrameCodecBuilder maxQueuedControlFrames(int frames) {
        if (frames <= 0) {
            throw new IllegalArgumentException("maxQueuedControlFrames: " + frames + " (expected > 0)");
        }
        this.maxQueuedControlFrames = frames;
        return this;
    }

    /** Consecutive empty DATA frames without END_STREAM allowed before ENHANCE_YOUR_CALM. */
    public Http2FrameCodecBuilder maxConsecutiveEmptyDataFrames(int frames) {
        if (frames <= 0) {
            throw new IllegalArgumentException("maxConsecutiveEmptyDataFrames: " + frames + " (expected > 0)");
        }
        this.maxConsecutiveEmptyDataFrames = frames;
        return this;
    }

    /** How long the peer has to acknowledge our SETTINGS before GOAWAY SETTINGS_TIMEOUT (RFC 9113 §6.5.3). */
    public Http2FrameCodecBuilder settingsAckTimeoutMillis(long millis) {
        this.settingsAckTimeoutMillis = positive("settingsAckTimeoutMillis", millis);
        return this;
    }

    /** How long a stream may hold queued DATA on a zero window before it is reset with CANCEL. */
    public Http2FrameCodecBuilder streamStallTimeoutMillis(long millis) {
        this.streamStallTimeoutMillis = positive("streamStallTimeoutMillis", millis);
        return this;
    }

    /**
     * The connection's output bound, in octets: outbound DATA held back by the peer's flow-control windows. Above
     * it every stream channel turns unwritable and new streams from the peer are refused (RST_STREAM
     * REFUSED_STREAM, RFC 9113 §8.7) until the queue drains below half; control frames (WINDOW_UPDATE above all)
     * are still read, so the peer can always let the queue drain. A handler that writes on regardless is stopped
     * at the hard limit, {@value Http2FrameCodec#OUTBOUND_HARD_LIMIT_FACTOR} times this bound: the stream that
     * crosses it is reset with CANCEL, and a socket backlog above it closes the connection. Bytes waiting for the
     * socket itself are bounded by the channel's write-buffer water mark: while the channel is unwritable no frame
     * is read. Default {@value Http2FrameCodec#DEFAULT_MAX_QUEUED_OUTBOUND_BYTES}.
     *
     * @throws IllegalArgumentException if {@code octets} is not positive
     */
    public Http2FrameCodecBuilder maxQueuedOutboundBytes(long octets) {
        this.maxQueuedOutboundBytes = positive("maxQueuedOutboundBytes", octets);
        this.outboundHardLimitBytes = octets > Long.MAX_VALUE / Http2FrameCodec.OUTBOUND_HARD_LIMIT_FACTOR
                ? Long.MAX_VALUE : octets * Http2FrameCodec.OUTBOUND_HARD_LIMIT_FACTOR;
        return this;
    }

    /**
     * How long a connection that owes output (DATA waiting for window, or bytes the socket has not taken) may make
     * no progress sending it before it is closed (GOAWAY, then close): a peer that stops reading, or never opens its
     * windows, cannot hold the connection and what it queued. Progress is any DATA sent or any shrinking of the
     * socket backlog. Default {@value Http2FrameCodec#DEFAULT_WRITE_PROGRESS_TIMEOUT_MILLIS} ms; 0 disables.
     *
     * @throws IllegalArgumentException if {@code millis} is negative
     */
    public Http2FrameCodecBuilder writeProgressTimeoutMillis(long millis) {
        this.writeProgressTimeoutMillis = nonNegative("writeProgressTimeoutMillis", millis);
        return this;
    }

    /** How long a graceful close waits for open streams before closing anyway. */
    public Http2FrameCodecBuilder gracefulShutdownTimeoutMillis(long millis) {
        this.gracefulShutdownTimeoutMillis = positive("gracefulShutdownTimeoutMillis", millis);
        return this;
    }

    /**
     * How long a connection may have no open stream before it is closed gracefully (GOAWAY NO_ERROR, then close).
     * The clock starts when the connection starts or its last stream closes; frames that open no stream (PING,
     * SETTINGS, WINDOW_UPDATE) do not restart it, output still queued for the peer holds it. With the SETTINGS
     * acknowledgement timeout it bounds the wait for the peer's preface. 0 disables. Default {@value Http2FrameCodec#DEFAULT_IDLE_TIMEOUT_MILLIS} ms on a server,
     * disabled on a client.
     *
     * @throws IllegalArgumentException if {@code millis} is negative
     */
    public Http2FrameCodecBuilder idleTimeoutMillis(long millis) {
        this.idleTimeoutMillis = nonNegative("idleTimeoutMillis", millis);
        return this;
    }

    /**
     * How long a stream the peer opened and has not ended (no END_STREAM from it yet) may receive nothing before it
     * is reset with RST_STREAM CANCEL (counted with the other resets, {@link #maxResetsPerWindow}). A stream the
     * peer has ended and the application still answers (a long poll) never times out; nor does a stream whose
     * receive window the application has not given back. 0 disables, which bidirectional streaming needs when a
     * client may stay silent on an open stream for longer. Default
     * {@value Http2FrameCodec#DEFAULT_STREAM_READ_TIMEOUT_MILLIS} ms on a server, disabled on a client.
     *
     * @throws IllegalArgumentException if {@code millis} is negative
     */
    public Http2FrameCodecBuilder streamReadTimeoutMillis(long millis) {
        this.streamReadTimeoutMillis = nonNegative("streamReadTimeoutMillis", millis);
        return this;
    }

    /**
     * The slowest request body a stream may send, in octets per second, with HTTP/1.1's meaning
     * ({@link HttpServerTimeouts#setMinBodyRate}): averaged over {@value HttpServerTimeouts#DEFAULT_BODY_RATE_WINDOW_MILLIS}
     * ms windows after a {@value HttpServerTimeouts#DEFAULT_BODY_RATE_GRACE_PERIOD_MILLIS} ms grace period from
     * the stream's start; a stream below it is reset with RST_STREAM CANCEL (counted with the other resets). Time
     * in which the peer could not send (the stream's or the connection's receive window used up by an application
     * that has not read, or reading paused) does not count against it. Only streams the peer opened and has not
     * ended are measured. 0 disables, which long-lived streams that may send slowly (gRPC client or bidirectional
     * streaming) need, as for the stream read timeout. Default {@value HttpServerTimeouts#DEFAULT_MIN_BODY_RATE_BYTES_PER_SECOND}
     * on a server, disabled on a client.
     *
     * @throws IllegalArgumentException if {@code bytesPerSecond} is negative
     */
    public Http2FrameCodecBuilder minBodyRate(long bytesPerSecond) {
        this.minBodyRateBytesPerSecond = nonNegative("minBodyRate", bytesPerSecond);
        return this;
    }

    /** The minimum body rate in octets per second, 0 when disabled. */
    public long minBodyRate() {
        return minBodyRateBytesPerSecond;
    }

    /**
     * Applies the HTTP/2 side of a server {@code policy}, the same object an HTTP/1.1 {@code HttpServerCodec} takes:
     * {@linkplain HttpServerPolicy#idleTimeout() idle timeout} ({@link #idleTimeoutMillis(long)}),
     * {@linkplain HttpServerPolicy#streamReadTimeout() stream read timeout} ({@link #streamReadTimeoutMillis(long)}),
     * {@linkplain HttpServerPolicy#minBodyRate() minimum body rate} with its grace period and window
     * ({@link #minBodyRate(long)}), and {@linkplain HttpServerPolicy#writeTimeout() write timeout}
     * ({@link #writeProgressTimeoutMillis(long)}), each in whole milliseconds. The head timeout is the h2c
     * decision's ({@link Http2CleartextServerHandler}); linger, keep-alive and the connection cap have no HTTP/2
     * meaning here. Later setters override what the policy set.
     *
     * @throws NullPointerException if {@code policy} is null
     */
    public Http2FrameCodecBuilder policy(HttpServerPolicy policy) {
        Objects.requireNonNull(policy, "policy");
        idleTimeoutMillis(policy.idleTimeout().toMillis());
        streamReadTimeoutMillis(policy.streamReadTimeout().toMillis());
        minBodyRate(policy.minBodyRate());
        bodyRateGracePeriodNanos = policy.bodyRateGracePeriod().toNanos();
        bodyRateWindowNanos = policy.bodyRateWindow().toNanos();
        writeProgressTimeoutMillis(policy.writeTimeout().toMillis());
        return this;
    }

    /**
     * A reset budget this connection shares with others (a server's), checked beside its own
     * {@linkplain #maxResetsPerWindow limit}: against Rapid Reset spread over many connections, each under its own
     * limit. None by default.
     */
    public Http2FrameCodecBuilder sharedResetBudget(Http2ResetBudget budget) {
        this.sharedResetBudget = Objects.requireNonNull(budget, "budget");
        return this;
    }

    /**
     * Records this connection's streams, RST_STREAM and GOAWAY frames and fired timeouts into {@code metrics}
     * (shared by every connection of a server); none by default, which costs a null check per event.
     */
    public Http2FrameCodecBuilder metrics(HttpMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        return this;
    }

    /** The idle timeout in milliseconds, 0 when disabled. */
    public long idleTimeoutMillis() {
        return idleTimeoutMillis;
    }

    /** The stream read timeout in milliseconds, 0 when disabled. */
    public long streamReadTimeoutMillis() {
        return streamReadTimeoutMillis;
    }

    /**
     * The clock of the reset window and of the idle and stream read deadlines (tests pass a
     * {@link io.weir.util.ManualTicker}); default: the event loop's. The timeout task itself is scheduled on the
     * event loop, so a ticker other than the loop's should advance with it.
     */
    public Http2FrameCodecBuilder ticker(Ticker ticker) {
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        return this;
    }

    /** A new codec for one connection. */
    public Http2FrameCodec build() {
        return new Http2FrameCodec(this);
    }

    private static long nonNegative(String name, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + ": " + value + " (expected >= 0, 0 disables)");
        }
        return value;
    }

    private static long positive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + ": " + value + " (expected > 0)");
        }
        return value;
    }
}
