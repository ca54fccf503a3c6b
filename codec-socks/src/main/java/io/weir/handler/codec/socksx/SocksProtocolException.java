package io.weir.handler.codec.socksx;

import io.weir.handler.codec.DecoderException;
import java.util.Objects;

/**
 * Bytes received during a SOCKS handshake were refused: they break the protocol or one of the decoder's limits.
 * The {@link #reason()} says which rule, {@link #seen()} the offending value, and the message what was seen and
 * what was expected or allowed. After raising one, a decoder discards every further byte; it does not close the
 * connection itself, so that a server may still answer (SOCKS5 has reply codes for an unsupported command or
 * address type) before it closes.
 *
 * <p>Created without a stack trace: a peer can provoke it at will.
 */
public final class SocksProtocolException extends DecoderException {
    private static final long serialVersionUID = 1L;

    /** The value of {@link #seen()} when no single value is to blame. */
    public static final int NOTHING_SEEN = -1;

    /** The rule refused bytes broke. */
    public enum Reason {
        /** The version byte is not the one the protocol step expects. */
        UNSUPPORTED_VERSION,
        /** A command code the protocol does not define. */
        UNSUPPORTED_COMMAND,
        /** A SOCKS5 address type other than IPv4 (1), domain name (3) or IPv6 (4). */
        UNSUPPORTED_ADDRESS_TYPE,
        /** A SOCKS4 reply code other than 90 to 93. */
        UNSUPPORTED_STATUS,
        /** A NUL-terminated SOCKS4 field (user id, 4a host name) longer than the decoder's cap. */
        FIELD_TOO_LONG,
        /**
         * A field whose content is not allowed: no authentication method offered, an empty host name, a control
         * character in a host name, text that is not UTF-8, a reserved byte that is not zero.
         */
        MALFORMED,
        /** A message the handshake does not allow at this point, or bytes where the peer must wait for a reply. */
        UNEXPECTED_MESSAGE
    }

    private final Reason reason;
    private final int seen;

    /**
     * @param reason the rule the bytes broke
     * @param seen the offending value (a byte, a length), or {@link #NOTHING_SEEN}
     * @param message what was seen and what was expected or allowed
     * @throws NullPointerException if {@code reason} is null
     */
    public SocksProtocolException(Reason reason, int seen, String message) {
        super(message, null, false, false);
        this.reason = Objects.requireNonNull(reason, "reason");
        this.seen = seen;
    }

    /** The rule the bytes broke. */
    public Reason reason() {
        return reason;
    }

    /** The offending value: the unknown version, command or address type byte, or the length that was too long. */
    public int seen() {
        return seen;
    }
}
