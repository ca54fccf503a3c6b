package io.weir.handler.timeout;

import java.util.Objects;

/**
 * The user event {@link IdleStateHandler} fires when a channel has been idle: which kind of idleness, and
 * whether it is the first such event since the last activity. Immutable; the six possible events are shared
 * constants, so handlers may compare with {@code ==}.
 */
public final class IdleStateEvent {
    /** First reader-idle event since the last read. */
    public static final IdleStateEvent FIRST_READER_IDLE_STATE_EVENT = new IdleStateEvent(IdleState.READER_IDLE, true);
    /** A later reader-idle event with still no read. */
    public static final IdleStateEvent READER_IDLE_STATE_EVENT = new IdleStateEvent(IdleState.READER_IDLE, false);
    /** First writer-idle event since the last write. */
    public static final IdleStateEvent FIRST_WRITER_IDLE_STATE_EVENT = new IdleStateEvent(IdleState.WRITER_IDLE, true);
    /** A later writer-idle event with still no write. */
    public static final IdleStateEvent WRITER_IDLE_STATE_EVENT = new IdleStateEvent(IdleState.WRITER_IDLE, false);
    /** First all-idle event since the last read or write. */
    public static final IdleStateEvent FIRST_ALL_IDLE_STATE_EVENT = new IdleStateEvent(IdleState.ALL_IDLE, true);
    /** A later all-idle event with still no read or write. */
    public static final IdleStateEvent ALL_IDLE_STATE_EVENT = new IdleStateEvent(IdleState.ALL_IDLE, false);

    private final IdleState state;
    private final boolean first;

    private IdleStateEvent(IdleState state, boolean first) {
        this.state = state;
        this.first = first;
    }

    /** The shared event for {@code state} and {@code first}. */
    public static IdleStateEvent of(IdleState state, boolean first) {
        return switch (Objects.requireNonNull(state, "state")) {
            case READER_IDLE -> first ? FIRST_READER_IDLE_STATE_EVENT : READER_IDLE_STATE_EVENT;
            case WRITER_IDLE -> first ? FIRST_WRITER_IDLE_STATE_EVENT : WRITER_IDLE_STATE_EVENT;
            case ALL_IDLE -> first ? FIRST_ALL_IDLE_STATE_EVENT : ALL_IDLE_STATE_EVENT;
        };
    }

    /** The kind of idleness. */
    public IdleState state() {
        return state;
    }

    /** Whether this is the first event of its kind since the last activity. */
    public boolean isFirst() {
        return first;
    }

    @Override
    public String toString() {
        return "IdleStateEvent(" + state + (first ? ", first)" : ")");
    }
}
