package io.weir.handler.codec.http2;

import java.util.Arrays;

/**
 * The parameters of one SETTINGS frame (RFC 9113 §6.5): the six of §6.5.2, SETTINGS_ENABLE_CONNECT_PROTOCOL
 * (RFC 8441 §3) and SETTINGS_NO_RFC7540_PRIORITIES (RFC 9218 §2.1). Only the settings that were {@linkplain #has
 * set} are sent; an absent setting keeps the value the peer already has. Values are unsigned 32-bit numbers held in
 * a primitive array beside a presence bitmask, so reading or writing a setting never boxes.
 *
 * <p>Not thread-safe: an instance belongs to one event loop at a time (a frame reader hands a fresh one to its
 * listener per frame, which may keep it).
 */
public final class Http2Settings {

    /** SETTINGS_HEADER_TABLE_SIZE (0x1): HPACK dynamic table octets the sender allows its peer's encoder. */
    public static final int HEADER_TABLE_SIZE = 0x1;
    /** SETTINGS_ENABLE_PUSH (0x2): 0 or 1. */
    public static final int ENABLE_PUSH = 0x2;
    /** SETTINGS_MAX_CONCURRENT_STREAMS (0x3). */
    public static final int MAX_CONCURRENT_STREAMS = 0x3;
    /** SETTINGS_INITIAL_WINDOW_SIZE (0x4): at most 2^31-1 octets. */
    public static final int INITIAL_WINDOW_SIZE = 0x4;
    /** SETTINGS_MAX_FRAME_SIZE (0x5): 2^14..2^24-1 payload octets. */
    public static final int MAX_FRAME_SIZE = 0x5;
    /** SETTINGS_MAX_HEADER_LIST_SIZE (0x6): advisory header list octets (name + value + 32 per field). */
    public static final int MAX_HEADER_LIST_SIZE = 0x6;
    /** SETTINGS_ENABLE_CONNECT_PROTOCOL (0x8, RFC 8441): 0 or 1. */
    public static final int ENABLE_CONNECT_PROTOCOL = 0x8;
    /** SETTINGS_NO_RFC7540_PRIORITIES (0x9, RFC 9218): 0 or 1. */
    public static final int NO_RFC7540_PRIORITIES = 0x9;

    /** The largest identifier this class knows; ids above it (and 0, 0x7) are ignored (RFC 9113 §6.5.2). */
    public static final int MAX_KNOWN_ID = NO_RFC7540_PRIORITIES;

    private static final long MAX_UNSIGNED_INT = 0xffff_ffffL;
    private static final int MIN_MAX_FRAME_SIZE = 1 << 14;
    private static final int MAX_MAX_FRAME_SIZE = (1 << 24) - 1;
    /** Bits of the ids this class stores. */
    private static final int KNOWN_IDS = 1 << HEADER_TABLE_SIZE | 1 << ENABLE_PUSH | 1 << MAX_CONCURRENT_STREAMS
            | 1 << INITIAL_WINDOW_SIZE | 1 << MAX_FRAME_SIZE | 1 << MAX_HEADER_LIST_SIZE
            | 1 << ENABLE_CONNECT_PROTOCOL | 1 << NO_RFC7540_PRIORITIES;

    private final long[] values = new long[MAX_KNOWN_ID + 1];
    private int present;

    /** Empty settings: nothing set. */
    public Http2Settings() {
    }

    /** True when {@code id} is a setting this class stores (unknown ids are ignored on receipt, §6.5.2). */
    public static boolean isKnown(int id) {
        return id > 0 && id <= MAX_KNOWN_ID && (KNOWN_IDS & 1 << id) != 0;
    }

    /**
     * The RFC error a received {@code value} for setting {@code id} must be answered with, or {@code null} when
     * the value is acceptable (unknown ids are always acceptable). Every error is a connection error.
     *
     * @param id the 16-bit identifier as received
     * @param value the unsigned 32-bit value as received (0..2^32-1)
     */
    public static Http2Error violation(int id, long value) {
        if (value < 0 || value > MAX_UNSIGNED_INT) {
            return Http2Error.PROTOCOL_ERROR; // not a 32-bit value: only reachable through the API
        }
        switch (id) {
            case ENABLE_PUSH:
            case ENABLE_CONNECT_PROTOCOL: // RFC 8441 §3
            case NO_RFC7540_PRIORITIES: // RFC 9218 §2.1
                // RFC 9113 §6.5.2: any value other than 0 or 1 MUST be treated as PROTOCOL_ERROR.
                return value == 0 || value == 1 ? null : Http2Error.PROTOCOL_ERROR;
            case INITIAL_WINDOW_SIZE:
                // §6.5.2: values above 2^31-1 MUST be treated as FLOW_CONTROL_ERROR.
                return value > Integer.MAX_VALUE ? Http2Error.FLOW_CONTROL_ERROR : null;
            case MAX_FRAME_SIZE:
                // §6.5.2: outside 2^14..2^24-1 MUST be treated as PROTOCOL_ERROR.
                return value < MIN_MAX_FRAME_SIZE || value > MAX_MAX_FRAME_SIZE ? Http2Error.PROTOCOL_ERROR : null;
            default:
                return null;
        }
    }

    /**
     * Sets {@code id} to {@code value}; an unknown id is ignored (RFC 9113 §6.5.2).
     *
     * @return true when the setting was stored, false for an unknown id
     * @throws IllegalArgumentException when the value is outside the setting's range (§6.5.2)
     */
    public boolean put(int id, long value) {
        if (violation(id, value) != null) {
            throw new IllegalArgumentException("setting 0x" + Integer.toHexString(id) + ": " + value
                    + " is outside its range (RFC 9113 §6.5.2)");
        }
        if (!isKnown(id)) {
            return false;
        }
        values[id] = value;
        present |= 1 << id;
        return true;
    }

    /** True when {@code id} is set. */
    public boolean has(int id) {
        return isKnown(id) && (present & 1 << id) != 0;
    }

    /** The value of {@code id}, or {@code defaultValue} when it is not set. */
    public long get(int id, long defaultValue) {
        return has(id) ? values[id] : defaultValue;
    }

    /** Removes {@code id}; returns whether it was set. */
    public boolean remove(int id) {
        boolean had = has(id);
        if (had) {
            present &= ~(1 << id);
            values[id] = 0;
        }
        return had;
    }

    /** Number of settings set. */
    public int size() {
        return Integer.bitCount(present);
    }

    /** True when no setting is set (an empty SETTINGS frame is legal and still needs an ACK). */
    public boolean isEmpty() {
        return present == 0;
    }

    /** Removes every setting. */
    public Http2Settings clear() {
        present = 0;
        Arrays.fill(values, 0);
        return this;
    }

    /** Sets, in this instance, every setting that {@code other} sets (later values win, as on the wire). */
    public Http2Settings putAll(Http2Settings other) {
        for (int id = 1; id <= MAX_KNOWN_ID; id++) {
            if (other.has(id)) {
                values[id] = other.values[id];
                present |= 1 << id;
            }
        }
        return this;
    }

    /** SETTINGS_HEADER_TABLE_SIZE: 0..2^32-1 octets. */
    public Http2Settings headerTableSize(long octets) {
        put(HEADER_TABLE_SIZE, octets);
        return this;
    }

    /** SETTINGS_ENABLE_PUSH. */
    public Http2Settings pushEnabled(boolean enabled) {
        put(ENABLE_PUSH, enabled ? 1 : 0);
        return this;
    }

    /** SETTINGS_MAX_CONCURRENT_STREAMS: 0..2^32-1. */
    public Http2Settings maxConcurrentStreams(long streams) {
        put(MAX_CONCURRENT_STREAMS, streams);
        return this;
    }

    /** SETTINGS_INITIAL_WINDOW_SIZE: 0..2^31-1 octets. */
    public Http2Settings initialWindowSize(int octets) {
        put(INITIAL_WINDOW_SIZE, octets);
        return this;
    }

    /** SETTINGS_MAX_FRAME_SIZE: 2^14..2^24-1 octets. */
    public Http2Settings maxFrameSize(int octets) {
        put(MAX_FRAME_SIZE, octets);
        return this;
    }

    /** SETTINGS_MAX_HEADER_LIST_SIZE: 0..2^32-1 octets. */
    public Http2Settings maxHeaderListSize(long octets) {
        put(MAX_HEADER_LIST_SIZE, octets);
        return this;
    }

    /** SETTINGS_ENABLE_CONNECT_PROTOCOL (RFC 8441). */
    public Http2Settings connectProtocolEnabled(boolean enabled) {
        put(ENABLE_CONNECT_PROTOCOL, enabled ? 1 : 0);
        return this;
    }

    /** SETTINGS_NO_RFC7540_PRIORITIES (RFC 9218). */
    public Http2Settings noRfc7540Priorities(boolean disabled) {
        put(NO_RFC7540_PRIORITIES, disabled ? 1 : 0);
        return this;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Http2Settings other && present == other.present && Arrays.equals(values, other.values);
    }

    @Override
    public int hashCode() {
        return 31 * present + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Http2Settings{");
        boolean first = true;
        for (int id = 1; id <= MAX_KNOWN_ID; id++) {
            if (has(id)) {
                if (!first) {
                    sb.append(", ");
                }
                first = false;
                sb.append(name(id)).append('=').append(values[id]);
            }
        }
        return sb.append('}').toString();
    }

    private static String name(int id) {
        switch (id) {
            case HEADER_TABLE_SIZE: return "HEADER_TABLE_SIZE";
            case ENABLE_PUSH: return "ENABLE_PUSH";
            case MAX_CONCURRENT_STREAMS: return "MAX_CONCURRENT_STREAMS";
            case INITIAL_WINDOW_SIZE: return "INITIAL_WINDOW_SIZE";
            case MAX_FRAME_SIZE: return "MAX_FRAME_SIZE";
            case MAX_HEADER_LIST_SIZE: return "MAX_HEADER_LIST_SIZE";
            case ENABLE_CONNECT_PROTOCOL: return "ENABLE_CONNECT_PROTOCOL";
            default: return "NO_RFC7540_PRIORITIES";
        }
    }
}
