package io.weir.handler.codec.haproxy;

import io.weir.handler.codec.DecoderException;
import java.util.Objects;

/**
 * A PROXY protocol header was refused: the bytes are not a header, break one of the specification's rules or one
 * of the decoder's limits, or did not complete in time. The {@link #reason()} says which rule, the message what
 * was seen and what the limit was. The decoder closes the connection when it raises one.
 *
 * <p>Created without a stack trace: a peer can provoke it at will.
 */
public final class HAProxyProtocolException extends DecoderException {
    private static final long serialVersionUID = 1L;

    /** The rule a refused header broke. */
    public enum Reason {
        /** The first bytes match neither the version 1 text ({@code "PROXY "}) nor the version 2 signature. */
        NOT_A_PROXY_HEADER,
        /** A version 1 line without its CRLF within 107 bytes, or a version 2 header longer than the cap. */
        HEADER_TOO_LONG,
        /** A version 1 line that does not match the grammar: protocol word, addresses, ports, separators. */
        MALFORMED_V1_LINE,
        /** A version 2 header whose version nibble is not 2. */
        UNSUPPORTED_VERSION,
        /** A version 2 header whose command is neither LOCAL nor PROXY. */
        UNSUPPORTED_COMMAND,
        /** A version 2 family and protocol byte the specification does not list. */
        UNSUPPORTED_PROTOCOL,
        /** A version 2 PROXY header whose length is shorter than its family's address block. */
        ADDRESS_BLOCK_TOO_SHORT,
        /** A UNIX socket path that is not UTF-8. */
        MALFORMED_ADDRESS,
        /**
         * A TLV that overruns the header or its enclosing TLV, is cut short, repeats a type that may appear only
         * once, or has a value of the wrong size for its type.
         */
        MALFORMED_TLV,
        /** The CRC32C TLV does not match the header's checksum. */
        CHECKSUM_MISMATCH,
        /** The header did not complete within the decoder's header timeout. */
        TIMEOUT
    }

    private final Reason reason;

    /**
     * @param reason the rule the header broke
     * @param message what was seen and what the limit was
     * @throws NullPointerException if {@code reason} is null
     */
    public HAProxyProtocolException(Reason reason, String message) {
        super(message, null, false, false);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /** The rule the header broke. */
    public Reason reason() {
        return reason;
    }
}
