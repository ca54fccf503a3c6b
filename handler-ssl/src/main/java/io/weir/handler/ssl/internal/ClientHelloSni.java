package io.weir.handler.ssl.internal;

import io.weir.buffer.ByteBuf;
import io.weir.handler.ssl.MalformedClientHelloException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Finds the server_name (RFC 6066 §3) in a ClientHello (RFC 8446 §4.1.2, RFC 5246 §7.4.1.2) that arrives as
 * the fragments of one or more handshake records. Each byte is looked at a bounded number of times, so the work is
 * linear in the bytes received however the peer splits them (one byte per record included); the message is
 * reassembled into one buffer of at most the configured size. Every malformation throws
 * {@link MalformedClientHelloException}. One instance per connection; not thread-safe.
 *
 * <pre>
 *  Handshake:   msg_type(1) = 1 | length(3) | ClientHello
 *  ClientHello: legacy_version(2) | random(32) | session_id&lt;0..32&gt; (1-byte length)
 *               | cipher_suites&lt;2..2^16-2&gt; | compression_methods&lt;1..2^8-1&gt; | extensions&lt;0..2^16-1&gt;
 *  Extension:   type(2) | data&lt;0..2^16-1&gt;; server_name = 0:
 *               ServerNameList&lt;1..2^16-1&gt; of { name_type(1) = 0 host_name | HostName&lt;1..2^16-1&gt; }
 * </pre>
 */
public final class ClientHelloSni {
    private static final int HANDSHAKE_HEADER_LENGTH = 4;
    private static final int CLIENT_HELLO = 1;
    private static final int EXTENSION_SERVER_NAME = 0;
    private static final int NAME_TYPE_HOST_NAME = 0;
    private static final int MAX_HOST_NAME_LENGTH = 255;

    private final int maxClientHelloLength;
    private final ByteBuf message;
    private int messageLength = -1;

    /**
     * A parser collecting into {@code buffer} (owned by the caller, released by it), refusing ClientHellos longer
     * than {@code maxClientHelloLength} bytes (handshake header included).
     */
    public ClientHelloSni(ByteBuf buffer, int maxClientHelloLength) {
        this.message = buffer;
        this.maxClientHelloLength = maxClientHelloLength;
    }

    /**
     * Adds one handshake record's fragment ({@code length} bytes of {@code buf} from {@code offset}); returns true
     * once the whole ClientHello is there.
     */
    public boolean addFragment(ByteBuf buf, int offset, int length) throws MalformedClientHelloException {
        int need = messageLength < 0 ? HANDSHAKE_HEADER_LENGTH - message.readableBytes()
                : messageLength - message.readableBytes();
        if (messageLength >= 0 && length > need) {
            // RFC 8446 §5.1: a record may carry the next message too, but a client sends nothing after its
            // ClientHello before the server answers.
            throw new MalformedClientHelloException("bytes after the ClientHello in its last record");
        }
        if (message.readableBytes() + length > maxClientHelloLength) {
            throw new MalformedClientHelloException("the ClientHello is longer than " + maxClientHelloLength + " bytes");
        }
        message.writeBytes(buf, offset, length);
        if (messageLength < 0 && message.readableBytes() >= HANDSHAKE_HEADER_LENGTH) {
            int type = message.getUnsignedByte(0);
            if (type != CLIENT_HELLO) {
                throw new MalformedClientHelloException("the first handshake message has type " + type
                        + ", not ClientHello (1)");
            }
            int bodyLength = message.getUnsignedMedium(1);
            if (bodyLength + HANDSHAKE_HEADER_LENGTH > maxClientHelloLength) {
                throw new MalformedClientHelloException("a ClientHello of " + bodyLength + " bytes, the limit is "
                        + (maxClientHelloLength - HANDSHAKE_HEADER_LENGTH));
            }
            messageLength = bodyLength + HANDSHAKE_HEADER_LENGTH;
        }
        if (messageLength >= 0 && message.readableBytes() > messageLength) {
            throw new MalformedClientHelloException("bytes after the ClientHello in its last record");
        }
        return messageLength >= 0 && message.readableBytes() == messageLength;
    }

    /** The server_name host name of the complete ClientHello in lower case, or null if it has none. */
    public String hostName() throws MalformedClientHelloException {
        int i = HANDSHAKE_HEADER_LENGTH;
        int end = messageLength;
        i = skip(i, 2 + 32, end, "legacy_version and random");
        i = skipVector(i, 1, end, "legacy_session_id", 0, 32);
        i = skipVector(i, 2, end, "cipher_suites", 2, 0xFFFE);
        i = skipVector(i, 1, end, "legacy_compression_methods", 1, 0xFF);
        if (i == end) {
            return null; // RFC 5246 §7.4.1.2: extensions may be absent
        }
        int extensionsLength = u16(i, end, "extensions length");
        i += 2;
        if (i + extensionsLength != end) {
            throw new MalformedClientHelloException("extensions of " + extensionsLength + " bytes do not end the "
                    + "ClientHello (" + (end - i) + " bytes left)");
        }
        String host = null;
        boolean seen = false;
        while (i < end) {
            int type = u16(i, end, "extension type");
            int length = u16(i + 2, end, "extension length");
            i += 4;
            if (length > end - i) {
                throw new MalformedClientHelloException("extension " + type + " of " + length + " bytes runs past the "
                        + "ClientHello");
            }
            if (type == EXTENSION_SERVER_NAME) {
                if (seen) {
                    // RFC 8446 §4.2: no more than one extension of a type.
                    throw new MalformedClientHelloException("two server_name extensions");
                }
                seen = true;
                host = serverName(i, i + length);
            }
            i += length;
        }
        return host;
    }

    private String serverName(int i, int end) throws MalformedClientHelloException {
        int listLength = u16(i, end, "server_name list length");
        i += 2;
        if (listLength == 0 || i + listLength != end) {
            throw new MalformedClientHelloException("a server_name list of " + listLength + " bytes in an extension of "
                    + (end - i + 2));
        }
        String host = null;
        while (i < end) {
            if (end - i < 3) {
                throw new MalformedClientHelloException("a truncated server_name entry");
            }
            int nameType = message.getUnsignedByte(i);
            int length = message.getUnsignedShort(i + 1);
            i += 3;
            if (length > end - i) {
                throw new MalformedClientHelloException("a server name of " + length + " bytes runs past its list");
            }
            if (nameType == NAME_TYPE_HOST_NAME) {
                if (host != null) {
                    // RFC 6066 §3: at most one name of each type.
                    throw new MalformedClientHelloException("two host_name entries in server_name");
                }
                host = hostName(i, length);
            }
            i += length;
        }
        return host;
    }

    private String hostName(int offset, int length) throws MalformedClientHelloException {
        if (length == 0 || length > MAX_HOST_NAME_LENGTH) {
            throw new MalformedClientHelloException("a host_name of " + length + " bytes (1.." + MAX_HOST_NAME_LENGTH
                    + " allowed)");
        }
        for (int i = offset; i < offset + length; i++) {
            int c = message.getUnsignedByte(i);
            // RFC 6066 §3: a DNS host name in ASCII (A-labels for IDNs): letters, digits, '-', '.', and '_' which
            // some private networks use.
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.'
                    || c == '_';
            if (!ok) {
                throw new MalformedClientHelloException("a host_name with byte 0x" + Integer.toHexString(c));
            }
        }
        String name = message.toString(offset, length, StandardCharsets.US_ASCII).toLowerCase(Locale.ROOT);
        if (name.endsWith(".")) {
            name = name.substring(0, name.length() - 1);
        }
        if (name.isEmpty() || name.startsWith(".") || name.contains("..")) {
            throw new MalformedClientHelloException("an empty label in host_name");
        }
        return name;
    }

    private int u16(int i, int end, String what) throws MalformedClientHelloException {
        if (end - i < 2) {
            throw new MalformedClientHelloException("the ClientHello ends inside its " + what);
        }
        return message.getUnsignedShort(i);
    }

    private static int skip(int i, int n, int end, String what) throws MalformedClientHelloException {
        if (end - i < n) {
            throw new MalformedClientHelloException("the ClientHello ends inside its " + what);
        }
        return i + n;
    }

    private int skipVector(int i, int lengthBytes, int end, String what, int min, int max)
            throws MalformedClientHelloException {
        if (end - i < lengthBytes) {
            throw new MalformedClientHelloException("the ClientHello ends inside the length of " + what);
        }
        int length = lengthBytes == 1 ? message.getUnsignedByte(i) : message.getUnsignedShort(i);
        if (length < min || length > max) {
            throw new MalformedClientHelloException(what + " of " + length + " bytes (" + min + ".." + max + " allowed)");
        }
        return skip(i + lengthBytes, length, end, what);
    }
}
