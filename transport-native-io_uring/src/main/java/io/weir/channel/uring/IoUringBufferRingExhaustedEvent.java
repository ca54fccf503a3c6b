package io.weir.channel.uring;

/**
 * Fired with {@code userEventTriggered} on an {@link IoUringSocketChannel} whose multishot receive found the
 * loop's provided buffer ring it was armed on (small or large buffers) empty ({@code -ENOBUFS}): more connections
 * received at once than the ring holds buffers (see {@link IoUringIoHandler#newFactory(int, int, int, int, int, int)}). Nothing is lost and nothing needs doing: the data
 * stays in the socket and the receive is re-armed on a later loop turn, once the ring has buffers again. Handlers
 * may count it; frequent events say the ring is too small for the load. The one instance is immutable.
 */
public final class IoUringBufferRingExhaustedEvent {
    /** The event. */
    public static final IoUringBufferRingExhaustedEvent INSTANCE = new IoUringBufferRingExhaustedEvent();

    private IoUringBufferRingExhaustedEvent() {
    }

    @Override
    public String toString() {
        return "IoUringBufferRingExhaustedEvent";
    }
}
