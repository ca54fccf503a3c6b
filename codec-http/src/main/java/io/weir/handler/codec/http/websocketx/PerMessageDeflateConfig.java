package io.weir.handler.codec.http.websocketx;

import java.util.zip.Deflater;

/**
 * The permessage-deflate (RFC 7692) settings of one side. Given to a protocol handler or handshaker, it turns the
 * extension on; what is agreed depends on the peer (see below). Not thread-safe while being changed; copied
 * when a connection negotiates.
 *
 * <h2>What is offered, accepted and declined</h2>
 * {@code java.util.zip.Deflater} always compresses with a 32 KiB window (15 bits), while {@code Inflater}
 * inflates data made with any window. So:
 * <ul>
 * <li>A server accepts {@code client_max_window_bits} (with or without a value): it only inflates with the
 *     client's window, and it does not answer the parameter, leaving the client's choice as it was.</li>
 * <li>A server declines an offer with {@code server_max_window_bits} below 15 (it cannot compress with a smaller
 *     window) and moves on to the client's next offer; 15 is accepted and echoed.</li>
 * <li>{@code server_no_context_takeover} and {@code client_no_context_takeover} are always accepted; a server
 *     that {@linkplain #setServerNoContextTakeover wants it} answers {@code server_no_context_takeover} even
 *     unasked, and one that {@linkplain #setClientNoContextTakeover wants it} asks the client for
 *     {@code client_no_context_takeover} (RFC 7692 §7.1.1.2 lets the server add it).</li>
 * <li>A client never offers {@code client_max_window_bits}, so a server may not limit the client's compressor
 *     window; an answer that does (below 15) fails the handshake. Any {@code server_max_window_bits} answered is
 *     accepted.</li>
 * <li>Unknown, repeated or malformed parameters make a server decline that offer and a client fail the
 *     handshake (§7.1).</li>
 * </ul>
 * Inflation is bounded by {@link WebSocketConfig#maxMessageBytes()}: it proceeds in pieces and a message whose
 * inflated size would pass the limit fails the connection with 1009 before more memory is taken.
 */
public final class PerMessageDeflateConfig implements Cloneable {
    /** Default deflate level (zlib's default trade-off). */
    public static final int DEFAULT_COMPRESSION_LEVEL = 6;

    private int compressionLevel = DEFAULT_COMPRESSION_LEVEL;
    private boolean serverNoContextTakeover;
    private boolean clientNoContextTakeover;

    /** Settings with every default: level 6, context takeover kept in both directions unless the peer asks. */
    public PerMessageDeflateConfig() {
    }

    /** The deflate level, 0 (store) to 9 (smallest). */
    public int compressionLevel() {
        return compressionLevel;
    }

    /**
     * Sets the deflate level.
     *
     * @throws IllegalArgumentException if not 0..9
     */
    public PerMessageDeflateConfig setCompressionLevel(int compressionLevel) {
        if (compressionLevel < Deflater.NO_COMPRESSION || compressionLevel > Deflater.BEST_COMPRESSION) {
            throw new IllegalArgumentException("compressionLevel: " + compressionLevel + " (expected: 0..9)");
        }
        this.compressionLevel = compressionLevel;
        return this;
    }

    /** Whether the server's compressor starts afresh for each message. */
    public boolean serverNoContextTakeover() {
        return serverNoContextTakeover;
    }

    /**
     * On a server: answer {@code server_no_context_takeover} even when the client did not offer it (less memory
     * held between messages, less compression). On a client: offer it (ask the server to).
     */
    public PerMessageDeflateConfig setServerNoContextTakeover(boolean serverNoContextTakeover) {
        this.serverNoContextTakeover = serverNoContextTakeover;
        return this;
    }

    /** Whether the client's compressor starts afresh for each message. */
    public boolean clientNoContextTakeover() {
        return clientNoContextTakeover;
    }

    /**
     * On a server: ask the client for {@code client_no_context_takeover} in the answer. On a client: offer it
     * (the client then compresses each message on its own).
     */
    public PerMessageDeflateConfig setClientNoContextTakeover(boolean clientNoContextTakeover) {
        this.clientNoContextTakeover = clientNoContextTakeover;
        return this;
    }

    @Override
    public PerMessageDeflateConfig clone() {
        try {
            return (PerMessageDeflateConfig) super.clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }
}
