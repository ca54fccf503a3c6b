package io.weir.handler.codec.http2.internal.hpack;

import static io.weir.handler.codec.http2.Http2Exception.streamError;

import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.util.AsciiString;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Checks decoded fields against RFC 9113 §8.2 (field validity, connection-specific fields) and §8.3
 * (pseudo-headers), for one side of a connection. Used by {@link HpackDecoder} on its event loop; holds the state
 * of the header section being decoded (which pseudo-headers were seen, whether a regular field was).
 *
 * <p>Problems are returned as text rather than thrown, so the decoder can record the first, finish the block to
 * keep its table in sync, and only then raise the stream error.
 */
public final class HpackFieldValidator {
    // One bit per pseudo-header seen in the current section.
    private static final int METHOD = 1;
    private static final int SCHEME = 1 << 1;
    private static final int AUTHORITY = 1 << 2;
    private static final int PATH = 1 << 3;
    private static final int STATUS = 1 << 4;
    private static final int PROTOCOL = 1 << 5;
    /** RFC 9113 §8.3.1 and RFC 8441 §4: what a request may carry. */
    private static final int REQUEST_PSEUDO = METHOD | SCHEME | AUTHORITY | PATH | PROTOCOL;
    /** RFC 9113 §8.3.2: what a response may carry. */
    private static final int RESPONSE_PSEUDO = STATUS;

    // Static-table indices of the pseudo-header names (RFC 7541 Appendix A).
    private static final int STATIC_AUTHORITY = 1;
    private static final int STATIC_METHOD_LAST = 3;
    private static final int STATIC_PATH_LAST = 5;
    private static final int STATIC_SCHEME_LAST = 7;
    private static final int STATIC_STATUS_LAST = 14;

    private static final AsciiString TE = AsciiString.cached("te");
    private static final AsciiString TRAILERS = AsciiString.cached("trailers");
    private static final AsciiString CONNECTION = AsciiString.cached("connection");
    private static final AsciiString KEEP_ALIVE = AsciiString.cached("keep-alive");
    private static final AsciiString PROXY_CONNECTION = AsciiString.cached("proxy-connection");
    private static final AsciiString TRANSFER_ENCODING = AsciiString.cached("transfer-encoding");
    private static final AsciiString UPGRADE = AsciiString.cached("upgrade");
    private static final AsciiString CONNECT = AsciiString.cached("CONNECT");
    private static final int STATUS_DIGITS = 3;

    // SWAR scan of values: eight bytes per long, each lane tested for 0x00, '\r' and '\n' at once.
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long LOW_BITS = 0x0101_0101_0101_0101L;
    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;
    private static final long ALL_CR = LOW_BITS * '\r';
    private static final long ALL_LF = LOW_BITS * '\n';

    // RFC 9110 §5.6.2 tchar without upper case (RFC 9113 §8.2.1: upper case makes the message malformed).
    private static final boolean[] NAME_CHARS = new boolean[256];

    static {
        for (char c = 'a'; c <= 'z'; c++) {
            NAME_CHARS[c] = true;
        }
        for (char c = '0'; c <= '9'; c++) {
            NAME_CHARS[c] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            NAME_CHARS[c] = true;
        }
    }

    /**
     * True when {@code b} may appear in an HTTP/2 field name: an RFC 9110 §5.6.2 token character other than an
     * upper-case letter (RFC 9113 §8.2.1). Thread-safe.
     */
    public static boolean isNameByte(int b) {
        return NAME_CHARS[b & 0xFF];
    }

    /** Tag of a valid regular field (pseudo-headers are tagged with their bit). */
    static final int REGULAR_TAG = 1 << 6;

    private final int allowedPseudo;
    private int lastTag;
    private boolean trailers;
    private int pseudoSeen;
    private boolean regularSeen;

    /** A validator for the side that receives requests ({@code server}) or responses. */
    HpackFieldValidator(boolean server) {
        allowedPseudo = server ? REQUEST_PSEUDO : RESPONSE_PSEUDO;
    }

    /** Starts a header section ({@code trailers} false) or a trailer section. */
    void reset(boolean trailers) {
        this.trailers = trailers;
        pseudoSeen = 0;
        regularSeen = false;
    }

    /**
     * Checks one field in wire order.
     *
     * @param staticIndex the static-table index the name came from, or 0 (its name is then checked)
     * @param staticValue true when the value came from the static table too (then it is known to be valid)
     * @return what is wrong, or {@code null}; then {@link #lastTag()} tells what the field is
     */
    String validate(AsciiString name, AsciiString value, int staticIndex, boolean staticValue) {
        String problem = check(name, value, staticIndex, staticValue);
        if (problem != null) {
            lastTag = 0;
        }
        return problem;
    }

    /**
     * What the last field {@link #validate} accepted is: its pseudo-header bit or {@link #REGULAR_TAG}. The decoder
     * keeps it with the field's dynamic-table entry, so that an indexed field skips the character checks, whose
     * outcome depends only on the field itself ({@link #validateTagged}).
     */
    int lastTag() {
        return lastTag;
    }

    /** Checks a field known valid in itself, as tagged by {@link #lastTag()}: only its place in the section. */
    String validateTagged(AsciiString name, int tag) {
        if (tag == REGULAR_TAG) {
            regularSeen = true;
            return null;
        }
        return pseudo(name, tag);
    }

    private String check(AsciiString name, AsciiString value, int staticIndex, boolean staticValue) {
        lastTag = REGULAR_TAG;
        if (staticIndex != 0) {
            if (staticIndex <= STATIC_STATUS_LAST) {
                String problem = pseudo(name, pseudoBit(staticIndex));
                if (problem != null) {
                    return problem;
                }
            } else {
                regularSeen = true;
                if (staticIndex == HpackStaticTable.TRANSFER_ENCODING_INDEX) {
                    return "connection-specific field transfer-encoding (RFC 9113 §8.2.2)";
                }
            }
            return staticValue ? null : value(name, value);
        }
        int length = name.length();
        if (length == 0) {
            return "empty field name (RFC 9113 §8.2.1)";
        }
        byte[] a = name.array();
        int off = name.arrayOffset();
        if (a[off] == ':') {
            String problem = pseudo(name, pseudoBit(name));
            if (problem != null) {
                return problem;
            }
        } else {
            for (int i = off, e = off + length; i < e; i++) {
                if (!NAME_CHARS[a[i] & 0xFF]) {
                    return "field name '" + printable(name) + "' holds 0x" + Integer.toHexString(a[i] & 0xFF)
                            + ", not a lower-case token character (RFC 9113 §8.2.1)";
                }
            }
            regularSeen = true;
            String problem = connectionSpecific(name, value);
            if (problem != null) {
                return problem;
            }
        }
        return value(name, value);
    }

    /**
     * Checks what only the whole section shows: the required pseudo-headers and their values (RFC 9113 §8.3.1,
     * §8.3.2, RFC 8441 §4).
     *
     * @return a stream error PROTOCOL_ERROR, or {@code null}
     */
    Http2Exception finish(int streamId, Http2Headers headers) {
        if (trailers) {
            return null;
        }
        String problem = allowedPseudo == RESPONSE_PSEUDO ? response(headers) : request(headers);
        return problem == null ? null
                : streamError(streamId, Http2Error.PROTOCOL_ERROR, "malformed header section on stream " + streamId
                        + ": " + problem);
    }

    private String request(Http2Headers headers) {
        if ((pseudoSeen & METHOD) == 0) {
            return "request without :method (RFC 9113 §8.3.1)";
        }
        boolean connect = AsciiString.contentEquals(CONNECT, headers.method());
        if ((pseudoSeen & PROTOCOL) != 0 && !connect) {
            return ":protocol in a request whose method is not CONNECT (RFC 8441 §4)";
        }
        if (connect && (pseudoSeen & PROTOCOL) == 0) {
            // RFC 9113 §8.5: CONNECT names its target in :authority and carries no :scheme nor :path.
            if ((pseudoSeen & AUTHORITY) == 0) {
                return "CONNECT without :authority (RFC 9113 §8.5)";
            }
            if ((pseudoSeen & (SCHEME | PATH)) != 0) {
                return "CONNECT with :scheme or :path (RFC 9113 §8.5)";
            }
            return null;
        }
        if ((pseudoSeen & (SCHEME | PATH)) != (SCHEME | PATH)) {
            return "request without :scheme or :path (RFC 9113 §8.3.1)";
        }
        if (headers.path().length() == 0) {
            return "empty :path (RFC 9113 §8.3.1)";
        }
        return null;
    }

    private String response(Http2Headers headers) {
        if ((pseudoSeen & STATUS) == 0) {
            return "response without :status (RFC 9113 §8.3.2)";
        }
        CharSequence status = headers.status();
        if (status.length() != STATUS_DIGITS) {
            return ":status '" + printable(status) + "' is not three digits (RFC 9110 §15)";
        }
        for (int i = 0; i < STATUS_DIGITS; i++) {
            char c = status.charAt(i);
            if (c < '0' || c > '9') {
                return ":status '" + printable(status) + "' is not three digits (RFC 9110 §15)";
            }
        }
        return null;
    }

    private String pseudo(AsciiString name, int bit) {
        if (bit == 0 || (bit & allowedPseudo) == 0) {
            return (bit == 0 ? "undefined" : allowedPseudo == RESPONSE_PSEUDO ? "request" : "response")
                    + " pseudo-header " + printable(name) + " (RFC 9113 §8.3)";
        }
        if (trailers) {
            return "pseudo-header " + name + " in a trailer section (RFC 9113 §8.1)";
        }
        if (regularSeen) {
            return "pseudo-header " + name + " after a regular field (RFC 9113 §8.3)";
        }
        if ((pseudoSeen & bit) != 0) {
            return "duplicate pseudo-header " + name + " (RFC 9113 §8.3)";
        }
        pseudoSeen |= bit;
        lastTag = bit;
        return null;
    }

    private static int pseudoBit(int staticIndex) {
        if (staticIndex == STATIC_AUTHORITY) {
            return AUTHORITY;
        }
        if (staticIndex <= STATIC_METHOD_LAST) {
            return METHOD;
        }
        if (staticIndex <= STATIC_PATH_LAST) {
            return PATH;
        }
        return staticIndex <= STATIC_SCHEME_LAST ? SCHEME : STATUS;
    }

    private static int pseudoBit(AsciiString name) {
        if (Http2Headers.METHOD.contentEquals(name)) {
            return METHOD;
        }
        if (Http2Headers.SCHEME.contentEquals(name)) {
            return SCHEME;
        }
        if (Http2Headers.AUTHORITY.contentEquals(name)) {
            return AUTHORITY;
        }
        if (Http2Headers.PATH.contentEquals(name)) {
            return PATH;
        }
        if (Http2Headers.STATUS.contentEquals(name)) {
            return STATUS;
        }
        return Http2Headers.PROTOCOL.contentEquals(name) ? PROTOCOL : 0;
    }

    /** RFC 9113 §8.2.2: fields that only mean something to HTTP/1.1 connections make the message malformed. */
    private static String connectionSpecific(AsciiString name, AsciiString value) {
        switch (name.length()) {
            case 2:
                if (TE.contentEquals(name) && !TRAILERS.contentEquals(value)) {
                    return "te other than \"trailers\" (RFC 9113 §8.2.2)";
                }
                return null;
            case 7:
                return UPGRADE.contentEquals(name) ? "connection-specific field upgrade (RFC 9113 §8.2.2)" : null;
            case 10:
                return CONNECTION.contentEquals(name) || KEEP_ALIVE.contentEquals(name)
                        ? "connection-specific field " + name + " (RFC 9113 §8.2.2)" : null;
            case 16:
                return PROXY_CONNECTION.contentEquals(name)
                        ? "connection-specific field proxy-connection (RFC 9113 §8.2.2)" : null;
            case 17:
                return TRANSFER_ENCODING.contentEquals(name)
                        ? "connection-specific field transfer-encoding (RFC 9113 §8.2.2)" : null;
            default:
                return null;
        }
    }

    /** RFC 9113 §8.2.1: no NUL, CR or LF, no leading or trailing space or tab. */
    private static String value(AsciiString name, AsciiString value) {
        int length = value.length();
        if (length == 0) {
            return null;
        }
        byte[] a = value.array();
        int off = value.arrayOffset();
        int last = off + length - 1;
        if (isWhitespace(a[off]) || isWhitespace(a[last])) {
            return "value of " + printable(name) + " starts or ends with white space (RFC 9113 §8.2.1)";
        }
        int i = off;
        // Eight bytes at a time while none of them is NUL, CR or LF; the byte loop below finds which one is.
        for (int limit = last - Long.BYTES + 1; i <= limit; i += Long.BYTES) {
            long w = (long) LONGS.get(a, i);
            if (hasZeroByte(w) || hasZeroByte(w ^ ALL_CR) || hasZeroByte(w ^ ALL_LF)) {
                break;
            }
        }
        for (; i <= last; i++) {
            byte b = a[i];
            if (b == '\r' || b == '\n' || b == 0) {
                return "value of " + printable(name) + " holds 0x" + Integer.toHexString(b)
                        + " (NUL, CR and LF are not allowed, RFC 9113 §8.2.1)";
            }
        }
        return null;
    }

    /** Exact test for a zero byte in {@code w} (no false positive on the answer, only on which byte). */
    private static boolean hasZeroByte(long w) {
        return ((w - LOW_BITS) & ~w & HIGH_BITS) != 0;
    }

    private static boolean isWhitespace(byte b) {
        return b == ' ' || b == '\t';
    }

    /** The text with control and non-ASCII characters escaped, for error messages (a peer chose these bytes). */
    private static String printable(CharSequence s) {
        int max = Math.min(s.length(), 64);
        StringBuilder sb = new StringBuilder(max + 8);
        for (int i = 0; i < max; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c > 0x7E) {
                sb.append("\\x").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 0xF, 16));
            } else {
                sb.append(c);
            }
        }
        if (s.length() > max) {
            sb.append("...");
        }
        return sb.toString();
    }
}
