package io.weir.handler.codec.http.websocketx.internal;

import io.weir.buffer.ByteBuf;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * An incremental UTF-8 validator (RFC 3629 §4) for text messages that arrive in pieces: a deterministic automaton
 * over bytes whose state survives from one fragment to the next, so a character split across fragments is
 * checked as one and the first byte that cannot continue a valid sequence is reported at once (RFC 6455 §8.1:
 * fail fast). Overlong forms, surrogates (U+D800..U+DFFF) and code points above U+10FFFF are rejected.
 *
 * <p>ASCII runs, the common case, are skipped eight bytes at a time with one mask test. Not thread-safe: one per
 * connection, used on its event loop.
 */
public final class Utf8Validator {
    /*
     * States (after the bytes seen so far):
     *   0 ACCEPT   at a character boundary
     *   1 REJECT   invalid; sticky
     *   2 TAIL1    one continuation byte 80..BF still needed
     *   3 TAIL2    two continuation bytes needed
     *   4 E0       after E0: A0..BF, then TAIL1 (no overlong 3-byte forms)
     *   5 ED       after ED: 80..9F, then TAIL1 (no surrogates)
     *   6 TAIL3    three continuation bytes needed (after F1..F3)
     *   7 F0       after F0: 90..BF, then TAIL2 (no overlong 4-byte forms)
     *   8 F4       after F4: 80..8F, then TAIL2 (nothing above U+10FFFF)
     */
    private static final int ACCEPT = 0;
    private static final int REJECT = 1;
    private static final int STATES = 9;
    /** next state = TRANSITIONS[state << 8 | byte]. */
    private static final byte[] TRANSITIONS = new byte[STATES << 8];
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final VarHandle LONG_VIEW =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    static {
        java.util.Arrays.fill(TRANSITIONS, (byte) REJECT);
        for (int b = 0; b < 256; b++) {
            int lead;
            if (b <= 0x7F) {
                lead = ACCEPT;
            } else if (b >= 0xC2 && b <= 0xDF) {
                lead = 2;
            } else if (b == 0xE0) {
                lead = 4;
            } else if (b >= 0xE1 && b <= 0xEC || b == 0xEE || b == 0xEF) {
                lead = 3;
            } else if (b == 0xED) {
                lead = 5;
            } else if (b == 0xF0) {
                lead = 7;
            } else if (b >= 0xF1 && b <= 0xF3) {
                lead = 6;
            } else if (b == 0xF4) {
                lead = 8;
            } else {
                lead = REJECT;
            }
            TRANSITIONS[ACCEPT << 8 | b] = (byte) lead;
            boolean cont = b >= 0x80 && b <= 0xBF;
            if (cont) {
                TRANSITIONS[2 << 8 | b] = ACCEPT;
                TRANSITIONS[3 << 8 | b] = 2;
                TRANSITIONS[6 << 8 | b] = 3;
            }
            if (b >= 0xA0 && b <= 0xBF) {
                TRANSITIONS[4 << 8 | b] = 2;
            }
            if (b >= 0x80 && b <= 0x9F) {
                TRANSITIONS[5 << 8 | b] = 2;
            }
            if (b >= 0x90 && b <= 0xBF) {
                TRANSITIONS[7 << 8 | b] = 3;
            }
            if (b >= 0x80 && b <= 0x8F) {
                TRANSITIONS[8 << 8 | b] = 3;
            }
        }
    }

    private int state = ACCEPT;

    /**
     * Feeds {@code length} bytes of {@code buf} from {@code index} (indexes unchanged).
     *
     * @return false as soon as the bytes seen so far can no longer be valid UTF-8 (and from then on)
     */
    public boolean update(ByteBuf buf, int index, int length) {
        if (state == REJECT) {
            return false;
        }
        int s;
        if (buf.hasArray()) {
            int off = buf.arrayOffset() + index;
            s = run(buf.array(), off, off + length, state);
        } else {
            s = run(buf, index, index + length, state);
        }
        state = s;
        return s != REJECT;
    }

    /** Feeds {@code length} bytes of {@code bytes} from {@code offset}; see {@link #update(ByteBuf, int, int)}. */
    public boolean update(byte[] bytes, int offset, int length) {
        if (state == REJECT) {
            return false;
        }
        state = run(bytes, offset, offset + length, state);
        return state != REJECT;
    }

    private static int run(byte[] a, int i, int end, int s) {
        while (i < end) {
            if (s == ACCEPT) {
                // ASCII fast path: eight bytes whose high bits are all clear leave the state at ACCEPT.
                while (i + 8 <= end && ((long) LONG_VIEW.get(a, i) & HIGH_BITS) == 0) {
                    i += 8;
                }
                if (i == end) {
                    break;
                }
            }
            s = TRANSITIONS[s << 8 | (a[i++] & 0xFF)];
            if (s == REJECT) {
                return REJECT;
            }
        }
        return s;
    }

    private static int run(ByteBuf buf, int i, int end, int s) {
        while (i < end) {
            if (s == ACCEPT) {
                while (i + 8 <= end && (buf.getLong(i) & HIGH_BITS) == 0) {
                    i += 8;
                }
                if (i == end) {
                    break;
                }
            }
            s = TRANSITIONS[s << 8 | buf.getUnsignedByte(i++)];
            if (s == REJECT) {
                return REJECT;
            }
        }
        return s;
    }

    /** Whether everything fed so far ends on a character boundary (a complete, valid text). */
    public boolean isComplete() {
        return state == ACCEPT;
    }

    /** Whether the bytes fed so far were invalid. */
    public boolean isRejected() {
        return state == REJECT;
    }

    /** Starts over for a new message. */
    public void reset() {
        state = ACCEPT;
    }

    /** Whether {@code length} bytes of {@code buf} from {@code index} are, on their own, valid UTF-8. */
    public static boolean isValid(ByteBuf buf, int index, int length) {
        Utf8Validator v = new Utf8Validator();
        return v.update(buf, index, length) && v.isComplete();
    }
}
