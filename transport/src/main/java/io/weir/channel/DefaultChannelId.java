package io.weir.channel;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@link ChannelId} of Weir's transports. Layout, 20 bytes:
 * <pre>
 * 0        8          12         16         20
 * +--------+----------+----------+----------+
 * | process| sequence | nanotime |  random  |
 * | token  | (counter)|  (low)   |          |
 * +--------+----------+----------+----------+
 * </pre>
 * The process token is drawn once from a {@link SecureRandom} and mixed with the pid, the sequence counts
 * channels created in this process, and the random suffix (also the {@linkplain #asShortText() short text})
 * separates ids made in the same nanosecond. Thread-safe and immutable.
 */
public final class DefaultChannelId implements ChannelId {
    private static final long serialVersionUID = 1L;
    private static final int PROCESS_TOKEN_BYTES = 8;
    private static final int SEQUENCE_BYTES = 4;
    private static final int TIME_BYTES = 4;
    private static final int RANDOM_BYTES = 4;
    private static final int LENGTH_BYTES = PROCESS_TOKEN_BYTES + SEQUENCE_BYTES + TIME_BYTES + RANDOM_BYTES;
    private static final byte[] PROCESS_TOKEN = processToken();
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final byte[] bytes;
    private final int hashCode;
    private transient String shortText;
    private transient String longText;

    private DefaultChannelId(byte[] bytes) {
        this.bytes = bytes;
        this.hashCode = Arrays.hashCode(bytes);
    }

    /** A new, unique id. Thread-safe. */
    public static DefaultChannelId newInstance() {
        byte[] b = new byte[LENGTH_BYTES];
        System.arraycopy(PROCESS_TOKEN, 0, b, 0, PROCESS_TOKEN_BYTES);
        int i = writeInt(b, PROCESS_TOKEN_BYTES, SEQUENCE.getAndIncrement());
        i = writeInt(b, i, (int) System.nanoTime());
        writeInt(b, i, ThreadLocalRandom.current().nextInt());
        return new DefaultChannelId(b);
    }

    private static byte[] processToken() {
        byte[] token = new byte[PROCESS_TOKEN_BYTES];
        new SecureRandom().nextBytes(token);
        long pid = ProcessHandle.current().pid();
        for (int i = 0; i < PROCESS_TOKEN_BYTES; i++) {
            token[i] ^= (byte) (pid >>> (i * 8));
        }
        return token;
    }

    private static int writeInt(byte[] b, int i, int value) {
        b[i] = (byte) (value >>> 24);
        b[i + 1] = (byte) (value >>> 16);
        b[i + 2] = (byte) (value >>> 8);
        b[i + 3] = (byte) value;
        return i + 4;
    }

    private static String hex(byte[] b, int from, int to) {
        char[] out = new char[(to - from) * 2];
        for (int i = from, j = 0; i < to; i++) {
            out[j++] = HEX[(b[i] >>> 4) & 0xF];
            out[j++] = HEX[b[i] & 0xF];
        }
        return new String(out);
    }

    @Override
    public String asShortText() {
        String s = shortText;
        if (s == null) {
            s = hex(bytes, LENGTH_BYTES - RANDOM_BYTES, LENGTH_BYTES);
            shortText = s;
        }
        return s;
    }

    @Override
    public String asLongText() {
        String s = longText;
        if (s == null) {
            int seq = PROCESS_TOKEN_BYTES;
            int time = seq + SEQUENCE_BYTES;
            int random = time + TIME_BYTES;
            s = hex(bytes, 0, seq) + '-' + hex(bytes, seq, time) + '-' + hex(bytes, time, random) + '-'
                    + hex(bytes, random, LENGTH_BYTES);
            longText = s;
        }
        return s;
    }

    @Override
    public int compareTo(ChannelId o) {
        if (o instanceof DefaultChannelId other) {
            return Arrays.compareUnsigned(bytes, other.bytes);
        }
        return asLongText().compareTo(o.asLongText());
    }

    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof DefaultChannelId other && hashCode == other.hashCode
                && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return hashCode;
    }

    @Override
    public String toString() {
        return asShortText();
    }
}
