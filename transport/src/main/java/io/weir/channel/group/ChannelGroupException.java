package io.weir.channel.group;

import io.weir.channel.Channel;
import io.weir.channel.ChannelException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The failure of a {@link ChannelGroupFuture}: the operation failed on at least one channel.
 * {@link #failures()} holds every channel it failed on with that channel's cause; the message names the first
 * few, and their distinct causes are attached as suppressed exceptions so a logged stack trace shows them.
 */
public final class ChannelGroupException extends ChannelException {
    private static final long serialVersionUID = 1L;
    /** How many failed channels the message names; the rest are counted, and all are in {@link #failures()}. */
    private static final int MAX_CHANNELS_IN_MESSAGE = 8;

    // Channels are not serializable; a deserialized exception keeps its message and suppressed causes only.
    private final transient Map<Channel, Throwable> failures;
    private final int attempted;

    /** An operation tried on {@code attempted} channels failed on each of {@code failures} (copied, in order). */
    ChannelGroupException(Map<Channel, Throwable> failures, int attempted) {
        super(message(failures, attempted));
        this.failures = Collections.unmodifiableMap(new LinkedHashMap<>(failures));
        this.attempted = attempted;
        // Many channels often fail with one shared exception (a closed channel's); attach each cause once, and
        // only as many as the message names, so a broadcast to thousands does not log thousands of traces.
        IdentityHashMap<Throwable, Boolean> attached = new IdentityHashMap<>();
        for (Throwable cause : this.failures.values()) {
            if (attached.size() == MAX_CHANNELS_IN_MESSAGE) {
                break;
            }
            if (attached.put(cause, Boolean.TRUE) == null) {
                addSuppressed(cause);
            }
        }
    }

    private static String message(Map<Channel, Throwable> failures, int attempted) {
        int failed = failures.size();
        StringBuilder buf = new StringBuilder(64 + 64 * Math.min(failed, MAX_CHANNELS_IN_MESSAGE))
                .append("failed on ").append(failed).append(" of ").append(attempted).append(" channels: ");
        int named = 0;
        for (Map.Entry<Channel, Throwable> e : failures.entrySet()) {
            if (named == MAX_CHANNELS_IN_MESSAGE) {
                buf.append(", and ").append(failed - named).append(" more");
                break;
            }
            if (named > 0) {
                buf.append(", ");
            }
            buf.append(e.getKey()).append(": ").append(e.getValue());
            named++;
        }
        return buf.toString();
    }

    /**
     * Each channel the operation failed on, with its cause, in the order the operation was started on them.
     * Unmodifiable; empty after deserialization (channels cannot be serialized).
     */
    public Map<Channel, Throwable> failures() {
        return failures == null ? Map.of() : failures;
    }

    /** How many channels the operation was tried on, successful ones included. */
    public int attempted() {
        return attempted;
    }
}
