package io.weir.handler.codec.haproxy;

/**
 * The limits and options of an {@link HAProxyMessageDecoder}. Every setting has a safe default; a decoder copies
 * the values when it is built, so one config may serve every connection and be changed afterwards without
 * affecting decoders already built. Not thread-safe while being changed.
 *
 * <pre>{@code
 * HAProxyDecoderConfig config = new HAProxyDecoderConfig().setHeaderTimeoutMillis(5_000);
 * // in initChannel:
 * ch.pipeline().addLast(new HAProxyMessageDecoder(config), ...);
 * }</pre>
 */
public final class HAProxyDecoderConfig {
    /**
     * Default largest version 2 header, signature to last TLV: 4 KiB. HAProxy's own headers are a few hundred
     * bytes even with TLS facts and a unique ID (a UNIX address block alone is 232 bytes with the fixed part); the
     * specification allows up to {@value HAProxyMessageDecoder#MAX_V2_HEADER_BYTES}, which nobody needs to buffer
     * from a peer that is not yet known to be the proxy.
     */
    public static final int DEFAULT_MAX_V2_HEADER_BYTES = 4096;
    /**
     * Default time a new connection has to deliver its complete header, in milliseconds: 10 s. A proxy sends the
     * header at once when it connects (the specification asks for at least 3 s of patience, to cover a TCP
     * retransmit); a connection that has not finished its header by then is a stalled or hostile peer.
     */
    public static final long DEFAULT_HEADER_TIMEOUT_MILLIS = 10_000;

    private int maxV2HeaderBytes = DEFAULT_MAX_V2_HEADER_BYTES;
    private long headerTimeoutMillis = DEFAULT_HEADER_TIMEOUT_MILLIS;
    private boolean headerOptional;

    /** A config with every default. */
    public HAProxyDecoderConfig() {
    }

    /** The largest version 2 header accepted, in bytes, fixed part and TLVs included. */
    public int getMaxV2HeaderBytes() {
        return maxV2HeaderBytes;
    }

    /**
     * Sets the largest version 2 header accepted (bytes, including the 16-byte fixed part). A header whose length
     * field announces more is refused as soon as the length field is read, before its bytes are buffered.
     *
     * @throws IllegalArgumentException if below {@value HAProxyMessageDecoder#V2_FIXED_HEADER_BYTES} or above
     *         {@value HAProxyMessageDecoder#MAX_V2_HEADER_BYTES}
     */
    public HAProxyDecoderConfig setMaxV2HeaderBytes(int maxV2HeaderBytes) {
        if (maxV2HeaderBytes < HAProxyMessageDecoder.V2_FIXED_HEADER_BYTES
                || maxV2HeaderBytes > HAProxyMessageDecoder.MAX_V2_HEADER_BYTES) {
            throw new IllegalArgumentException("maxV2HeaderBytes: " + maxV2HeaderBytes + " (expected "
                    + HAProxyMessageDecoder.V2_FIXED_HEADER_BYTES + " to " + HAProxyMessageDecoder.MAX_V2_HEADER_BYTES
                    + ")");
        }
        this.maxV2HeaderBytes = maxV2HeaderBytes;
        return this;
    }

    /** The time a connection has to deliver its complete header, in milliseconds; 0 if unlimited. */
    public long getHeaderTimeoutMillis() {
        return headerTimeoutMillis;
    }

    /**
     * Sets the time a connection has, from when it becomes active, to deliver its complete header (or, with
     * {@linkplain #setHeaderOptional optional headers}, enough bytes to show it has none) before it is closed.
     * 0 disables the timeout, leaving a silent or slow peer to the server's other read timeouts.
     *
     * @throws IllegalArgumentException if negative
     */
    public HAProxyDecoderConfig setHeaderTimeoutMillis(long headerTimeoutMillis) {
        if (headerTimeoutMillis < 0) {
            throw new IllegalArgumentException("headerTimeoutMillis: " + headerTimeoutMillis
                    + " (expected >= 0, 0 disables)");
        }
        this.headerTimeoutMillis = headerTimeoutMillis;
        return this;
    }

    /** Whether connections without a header are accepted. */
    public boolean isHeaderOptional() {
        return headerOptional;
    }

    /**
     * Sets whether a connection whose first bytes cannot begin a header is accepted as it is: the decoder then
     * removes itself and hands those bytes on, sets no attribute and passes no message. Off by default, as the
     * specification requires (section 5): with it on, any client that can reach the port may send a header and
     * claim any address, so turn it on only where the port is reachable by trusted proxies and by clients whose
     * claims do not matter, e.g. during a migration. A connection that begins like a header must still complete a
     * valid one. Protocols in which the server speaks first cannot use it: the decoder waits for the client's
     * first bytes.
     */
    public HAProxyDecoderConfig setHeaderOptional(boolean headerOptional) {
        this.headerOptional = headerOptional;
        return this;
    }
}
