package io.weir.handler.timeout;

/** Which kind of inactivity an {@link IdleStateEvent} reports. */
public enum IdleState {
    /** Nothing was read for the reader idle time. */
    READER_IDLE,
    /** Nothing was written for the writer idle time. */
    WRITER_IDLE,
    /** Nothing was read or written for the all idle time. */
    ALL_IDLE
}
