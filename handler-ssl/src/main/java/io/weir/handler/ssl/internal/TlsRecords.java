package io.weir.handler.ssl.internal;

import io.weir.buffer.ByteBuf;

/**
 * The TLS record header (RFC 8446 §5.1, RFC 5246 §6.2.1) and its limits, shared by the handlers that look at
 * records before an engine does.
 *
 * <pre>
 *  0        1        2        3        4        5
 *  +--------+--------+--------+--------+--------+------------------
 *  | type   | major  | minor  | length (uint16) | fragment ...
 *  +--------+--------+--------+--------+--------+------------------
 *  type: 20 change_cipher_spec, 21 alert, 22 handshake, 23 application_data
 *  version: 3.0 .. 3.4 (TLS 1.3 records say 3.3)
 * </pre>
 */
public final class TlsRecords {
    /** Bytes in a record header. */
    public static final int HEADER_LENGTH = 5;
    /** RFC 8446 §5.1 content types. */
    public static final int CHANGE_CIPHER_SPEC = 20;
    public static final int ALERT = 21;
    public static final int HANDSHAKE = 22;
    public static final int APPLICATION_DATA = 23;
    /** The largest plaintext fragment, 2^14 bytes (RFC 8446 §5.1, RFC 5246 §6.2.1). */
    public static final int MAX_PLAINTEXT_LENGTH = 1 << 14;
    /** The largest TLS 1.2 ciphertext, 2^14 + 2048 bytes (RFC 5246 §6.2.3). */
    public static final int MAX_TLS12_RECORD_LENGTH = MAX_PLAINTEXT_LENGTH + 2048;
    /** The largest TLS 1.3 ciphertext, 2^14 + 256 bytes (RFC 8446 §5.2). */
    public static final int MAX_TLS13_RECORD_LENGTH = MAX_PLAINTEXT_LENGTH + 256;
    /** {@link #recordLength} result: fewer than {@link #HEADER_LENGTH} bytes are there. */
    public static final int NEED_MORE = -1;
    /** {@link #recordLength} result: the header is not a TLS record header. */
    public static final int NOT_TLS = -2;

    private TlsRecords() {
    }

    /**
     * The length of the record (header included) that starts at {@code offset} in {@code buf}, or
     * {@link #NEED_MORE}, or {@link #NOT_TLS} for an unknown content type, a version other than 3.x (which
     * also refuses SSLv2-style headers, whose first byte has its high bit set) or plaintext. Does not check the
     * length against a limit.
     */
    public static int recordLength(ByteBuf buf, int offset) {
        if (buf.writerIndex() - offset < HEADER_LENGTH) {
            return NEED_MORE;
        }
        int type = buf.getUnsignedByte(offset);
        if (type < CHANGE_CIPHER_SPEC || type > APPLICATION_DATA) {
            return NOT_TLS;
        }
        if (buf.getUnsignedByte(offset + 1) != 3 || buf.getUnsignedByte(offset + 2) > 4) {
            return NOT_TLS;
        }
        return HEADER_LENGTH + buf.getUnsignedShort(offset + 3);
    }

    /** The first up to five bytes at {@code offset} as hex, for error messages. */
    public static String headerHex(ByteBuf buf, int offset) {
        StringBuilder sb = new StringBuilder(15);
        int end = Math.min(buf.writerIndex(), offset + HEADER_LENGTH);
        for (int i = offset; i < end; i++) {
            int b = buf.getUnsignedByte(i);
            sb.append(Character.forDigit(b >> 4, 16)).append(Character.forDigit(b & 15, 16));
        }
        return sb.toString();
    }
}
