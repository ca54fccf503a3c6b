package io.weir.handler.codec.http.websocketx;

/**
 * The limits and timeouts of a WebSocket connection. Every limit is on by default; the decoder, the protocol
 * handlers and permessage-deflate copy the values when they are built, so a config may be reused and changed
 * afterwards without affecting connections already set up. Not thread-safe while being changed.
 *
 * <pre>{@code
 * new WebSocketServerProtocolHandler("/ws", new WebSocketConfig().setMaxMessageBytes(4 << 20));
 * }</pre>
 */
public final class WebSocketConfig implements Cloneable {
    /** Default largest payload of one frame (after the header); a larger frame fails the connection with 1009. */
    public static final int DEFAULT_MAX_FRAME_PAYLOAD_BYTES = 1 << 20;
    /**
     * Default largest message: the sum of its fragments' payloads, and for a compressed message also the size
     * after inflation; more fails the connection with 1009.
     */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 1 << 20;
    /** Default largest number of frames in one fragmented message; more fails the connection with 1009. */
    public static final int DEFAULT_MAX_FRAGMENTS_PER_MESSAGE = 4096;
    /** Default wait for the peer's close frame (or, for a client, the server's TCP close) after we sent ours. */
    public static final long DEFAULT_CLOSE_TIMEOUT_MILLIS = 10_000;
    /**
     * Default wait for the opening handshake: a client's for the 101 answer after sending its request, a
     * server's for its 101 answer to be written.
     */
    public static final long DEFAULT_HANDSHAKE_TIMEOUT_MILLIS = 10_000;
    /**
     * Default interval between the pings a protocol handler sends when the connection is idle: 30 s. A peer that
     * sends nothing for an interval is pinged, and one that answers nothing for another interval is closed with
     * 1001, so a silent or vanished peer is held at most about a minute (every wait on a peer has a timeout);
     * 0 turns it off.
     */
    public static final long DEFAULT_IDLE_PING_INTERVAL_MILLIS = 30_000;

    private int maxFramePayloadBytes = DEFAULT_MAX_FRAME_PAYLOAD_BYTES;
    private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
    private int maxFragmentsPerMessage = DEFAULT_MAX_FRAGMENTS_PER_MESSAGE;
    private long closeTimeoutMillis = DEFAULT_CLOSE_TIMEOUT_MILLIS;
    private long handshakeTimeoutMillis = DEFAULT_HANDSHAKE_TIMEOUT_MILLIS;
    private long idlePingIntervalMillis = DEFAULT_IDLE_PING_INTERVAL_MILLIS;

    /** A config with every default. */
    public WebSocketConfig() {
    }

    /** The largest frame payload accepted, in bytes. */
    public int maxFramePayloadBytes() {
        return maxFramePayloadBytes;
    }

    /**
     * Sets the largest frame payload accepted (bytes). The decoder buffers one frame at a time, so this bounds the
     * memory one connection holds in the decoder.
     *
     * @throws IllegalArgumentException if not positive
     */
    public WebSocketConfig setMaxFramePayloadBytes(int maxFramePayloadBytes) {
        this.maxFramePayloadBytes = checkPositive(maxFramePayloadBytes, "maxFramePayloadBytes");
        return this;
    }

    /** The largest message accepted, in bytes. */
    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    /**
     * Sets the largest message accepted (bytes, all fragments together; for a compressed message also after
     * inflation, checked while inflating so that a deflate bomb never grows past it).
     *
     * @throws IllegalArgumentException if not positive
     */
    public WebSocketConfig setMaxMessageBytes(int maxMessageBytes) {
        this.maxMessageBytes = checkPositive(maxMessageBytes, "maxMessageBytes");
        return this;
    }

    /** The largest number of frames in one message. */
    public int maxFragmentsPerMessage() {
        return maxFragmentsPerMessage;
    }

    /**
     * Sets the largest number of frames one message may be split into (bounds the work of a flood of tiny
     * continuation frames).
     *
     * @throws IllegalArgumentException if not positive
     */
    public WebSocketConfig setMaxFragmentsPerMessage(int maxFragmentsPerMessage) {
        this.maxFragmentsPerMessage = checkPositive(maxFragmentsPerMessage, "maxFragmentsPerMessage");
        return this;
    }

    /** The close-handshake timeout in milliseconds. */
    public long closeTimeoutMillis() {
        return closeTimeoutMillis;
    }

    /**
     * Sets how long to wait, after sending a close frame, for the peer's close frame (a server) or for the
     * server to close the TCP connection (a client) before closing it ourselves.
     *
     * @throws IllegalArgumentException if not positive
     */
    public WebSocketConfig setCloseTimeoutMillis(long closeTimeoutMillis) {
        this.closeTimeoutMillis = checkPositive(closeTimeoutMillis, "closeTimeoutMillis");
        return this;
    }

    /** The opening-handshake timeout in milliseconds. */
    public long handshakeTimeoutMillis() {
        return handshakeTimeoutMillis;
    }

    /**
     * Sets how long the opening handshake may take: a client waits this long for the 101 answer, a server for its
     * answer to be written; then the connection is closed.
     *
     * @throws IllegalArgumentException if not positive
     */
    public WebSocketConfig setHandshakeTimeoutMillis(long handshakeTimeoutMillis) {
        this.handshakeTimeoutMillis = checkPositive(handshakeTimeoutMillis, "handshakeTimeoutMillis");
        return this;
    }

    /** The idle-ping interval in milliseconds; 0 means no pings. */
    public long idlePingIntervalMillis() {
        return idlePingIntervalMillis;
    }

    /**
     * Sets the interval of the pings a protocol handler sends while nothing was read from the peer (0 turns them
     * off). A peer that still sends nothing for a further interval (not even the pong) is closed with 1001.
     *
     * @throws IllegalArgumentException if negative
     */
    public WebSocketConfig setIdlePingIntervalMillis(long idlePingIntervalMillis) {
        if (idlePingIntervalMillis < 0) {
            throw new IllegalArgumentException(
                    "idlePingIntervalMillis: " + idlePingIntervalMillis + " (expected: >= 0)");
        }
        this.idlePingIntervalMillis = idlePingIntervalMillis;
        return this;
    }

    @Override
    public WebSocketConfig clone() {
        try {
            return (WebSocketConfig) super.clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }

    @Override
    public String toString() {
        return "WebSocketConfig(maxFramePayloadBytes: " + maxFramePayloadBytes + ", maxMessageBytes: "
                + maxMessageBytes + ", maxFragmentsPerMessage: " + maxFragmentsPerMessage + ", closeTimeoutMillis: "
                + closeTimeoutMillis + ", handshakeTimeoutMillis: " + handshakeTimeoutMillis
                + ", idlePingIntervalMillis: " + idlePingIntervalMillis + ")";
    }

    private static int checkPositive(int value, String name) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: > 0)");
        }
        return value;
    }

    private static long checkPositive(long value, String name) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: > 0)");
        }
        return value;
    }
}
