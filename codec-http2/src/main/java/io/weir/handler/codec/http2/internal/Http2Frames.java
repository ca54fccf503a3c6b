package io.weir.handler.codec.http2.internal;

/**
 * Wire constants of RFC 9113: the frame header, the frame types and flags, the size limits and the client
 * connection preface. Pure constants; no state.
 *
 * <p>Every frame starts with a 9-octet header (RFC 9113 §4.1):
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-----------------------------------------------+
 * |                 Length (24)                   |                  octets 0..2
 * +---------------+---------------+---------------+
 * |   Type (8)    |   Flags (8)   |                                  octets 3, 4
 * +-+-------------+---------------+-------------------------------+
 * |R|                 Stream Identifier (31)                      |  octets 5..8
 * +=+=============================================================+
 * |                   Frame Payload (Length octets)             ...
 * +---------------------------------------------------------------+
 * </pre>
 *
 * Length counts the payload only (not these 9 octets). R is reserved: sent as 0, ignored on receipt. Stream
 * identifier 0 means the connection as a whole.
 */
public final class Http2Frames {

    /** Octets in a frame header (RFC 9113 §4.1). */
    public static final int FRAME_HEADER_LENGTH_BYTES = 9;

    // Frame types, RFC 9113 §6 (0x0..0x9) and RFC 9218 §7.1 (0x10).
    public static final byte DATA = 0x0;
    public static final byte HEADERS = 0x1;
    public static final byte PRIORITY = 0x2;
    public static final byte RST_STREAM = 0x3;
    public static final byte SETTINGS = 0x4;
    public static final byte PUSH_PROMISE = 0x5;
    public static final byte PING = 0x6;
    public static final byte GOAWAY = 0x7;
    public static final byte WINDOW_UPDATE = 0x8;
    public static final byte CONTINUATION = 0x9;
    public static final byte PRIORITY_UPDATE = 0x10;

    // Flags, RFC 9113 §6. Each is defined only for the frame types named; other types ignore it (§4.1).
    /** DATA, HEADERS: the last frame the sender sends on this stream. */
    public static final int FLAG_END_STREAM = 0x1;
    /** SETTINGS, PING: an acknowledgement. */
    public static final int FLAG_ACK = 0x1;
    /** HEADERS, PUSH_PROMISE, CONTINUATION: the header block ends in this frame. */
    public static final int FLAG_END_HEADERS = 0x4;
    /** DATA, HEADERS, PUSH_PROMISE: a Pad Length octet leads the payload and padding trails it. */
    public static final int FLAG_PADDED = 0x8;
    /** HEADERS: Exclusive, Stream Dependency and Weight (5 octets) follow the Pad Length. */
    public static final int FLAG_PRIORITY = 0x20;

    // Payload sizes fixed by RFC 9113 §6.
    /** §6.3: Exclusive + Stream Dependency (4) + Weight (1). */
    public static final int PRIORITY_PAYLOAD_BYTES = 5;
    /** §6.4: Error Code. */
    public static final int RST_STREAM_PAYLOAD_BYTES = 4;
    /** §6.5.1: each setting is Identifier (16) + Value (32). */
    public static final int SETTING_ENTRY_BYTES = 6;
    /** §6.7: Opaque Data. */
    public static final int PING_PAYLOAD_BYTES = 8;
    /** §6.8: Last-Stream-ID (4) + Error Code (4), then optional debug data. */
    public static final int GOAWAY_MIN_PAYLOAD_BYTES = 8;
    /** §6.9: Window Size Increment. */
    public static final int WINDOW_UPDATE_PAYLOAD_BYTES = 4;
    /** §6.6: Promised Stream ID. */
    public static final int PROMISED_STREAM_ID_BYTES = 4;
    /** RFC 9218 §7.1: Prioritized Stream ID, then the Priority Field Value. */
    public static final int PRIORITY_UPDATE_MIN_PAYLOAD_BYTES = 4;
    /** §6.1: the Pad Length octet. */
    public static final int PAD_LENGTH_BYTES = 1;
    /** Largest padding a Pad Length octet can announce. */
    public static final int MAX_PADDING_BYTES = 255;

    /** §6.5.2: initial and smallest SETTINGS_MAX_FRAME_SIZE, in payload octets. */
    public static final int DEFAULT_MAX_FRAME_SIZE_BYTES = 1 << 14;
    /** §6.5.2: largest SETTINGS_MAX_FRAME_SIZE, 2^24-1 payload octets. */
    public static final int MAX_FRAME_SIZE_UPPER_BOUND_BYTES = (1 << 24) - 1;
    /** §6.9.1: a flow-control window never exceeds 2^31-1 octets; also the largest stream identifier. */
    public static final int MAX_WINDOW_SIZE_BYTES = Integer.MAX_VALUE;
    /** §6.9.2: the initial window of every stream and of the connection, in octets. */
    public static final int DEFAULT_WINDOW_SIZE_BYTES = 65_535;
    /** §5.1.1: stream identifiers are 31-bit; this is the largest. */
    public static final int MAX_STREAM_ID = Integer.MAX_VALUE;
    /** RFC 7540 §5.3.5: the default priority weight (1..256; the wire carries weight - 1). */
    public static final int DEFAULT_PRIORITY_WEIGHT = 16;

    /** The 31-bit mask that drops the reserved bit from a stream id or window increment. */
    public static final int STREAM_ID_MASK = 0x7fff_ffff;

    /**
     * The client connection preface (RFC 9113 §3.4), "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" in ASCII. Read-only:
     * callers must not modify it.
     */
    private static final byte[] CONNECTION_PREFACE = {
        'P', 'R', 'I', ' ', '*', ' ', 'H', 'T', 'T', 'P', '/', '2', '.', '0', '\r', '\n',
        '\r', '\n', 'S', 'M', '\r', '\n', '\r', '\n'
    };

    /** Octets in the client connection preface. */
    public static final int CONNECTION_PREFACE_LENGTH_BYTES = CONNECTION_PREFACE.length;

    private Http2Frames() {
    }

    /** Octet {@code index} of the client connection preface. */
    public static byte connectionPrefaceByte(int index) {
        return CONNECTION_PREFACE[index];
    }

    /** A fresh copy of the client connection preface. */
    public static byte[] connectionPreface() {
        return CONNECTION_PREFACE.clone();
    }

    /**
     * Returns {@code octets} when it is a valid SETTINGS_MAX_FRAME_SIZE (§6.5.2).
     *
     * @throws IllegalArgumentException outside 2^14..2^24-1, naming the value
     */
    public static int checkMaxFrameSize(int octets) {
        if (octets < DEFAULT_MAX_FRAME_SIZE_BYTES || octets > MAX_FRAME_SIZE_UPPER_BOUND_BYTES) {
            throw new IllegalArgumentException("maxFrameSize: " + octets + " (expected " + DEFAULT_MAX_FRAME_SIZE_BYTES
                    + ".." + MAX_FRAME_SIZE_UPPER_BOUND_BYTES + ")");
        }
        return octets;
    }

    /** The RFC 9113 name of a frame type, or "UNKNOWN(0x..)" (for messages, not hot paths). */
    public static String typeName(int type) {
        switch (type) {
            case DATA: return "DATA";
            case HEADERS: return "HEADERS";
            case PRIORITY: return "PRIORITY";
            case RST_STREAM: return "RST_STREAM";
            case SETTINGS: return "SETTINGS";
            case PUSH_PROMISE: return "PUSH_PROMISE";
            case PING: return "PING";
            case GOAWAY: return "GOAWAY";
            case WINDOW_UPDATE: return "WINDOW_UPDATE";
            case CONTINUATION: return "CONTINUATION";
            case PRIORITY_UPDATE: return "PRIORITY_UPDATE";
            default: return "UNKNOWN(0x" + Integer.toHexString(type) + ')';
        }
    }
}
