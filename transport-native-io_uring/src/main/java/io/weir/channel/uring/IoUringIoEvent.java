package io.weir.channel.uring;

import io.weir.channel.IoEvent;

/**
 * One completion (CQE) of an operation a handle submitted through its {@link io.weir.channel.IoRegistration}.
 *
 * <p><b>Valid only during the {@link io.weir.channel.IoHandle#handle} call that receives it:</b> the handler
 * reuses one instance for every completion of a loop (a completion costs no allocation). Copy what must outlive
 * the call. Event loop only.
 */
public final class IoUringIoEvent implements IoEvent {
    /** {@code IORING_CQE_F_BUFFER}: the upper 16 bits of the flags are a provided buffer's id. */
    public static final int CQE_F_BUFFER = 1;
    /** {@code IORING_CQE_F_MORE}: the operation (multishot) will complete again. */
    public static final int CQE_F_MORE = 1 << 1;
    /** {@code IORING_CQE_F_SOCK_NONEMPTY}: the socket had more data after this receive. */
    public static final int CQE_F_SOCK_NONEMPTY = 1 << 2;
    /** {@code IORING_CQE_F_NOTIF}: a zero-copy send's notification that its buffer is free again. */
    public static final int CQE_F_NOTIF = 1 << 3;

    private long id;
    private byte opcode;
    private int res;
    private int flags;
    private short data;

    IoUringIoEvent() {
    }

    IoUringIoEvent set(long id, int res, int flags) {
        this.id = id;
        this.opcode = UserData.opcode(id);
        this.res = res;
        this.flags = flags;
        this.data = UserData.data(id);
        return this;
    }

    /** The operation's id, as {@link io.weir.channel.IoRegistration#submit} returned it. */
    public long id() {
        return id;
    }

    /** The operation ({@link IoUringIoOps#OP_READ}, ...). */
    public byte opcode() {
        return opcode;
    }

    /**
     * The result: {@code >= 0} success (bytes, a descriptor, ...), {@code -errno} failure; {@code -ECANCELED}
     * (-125) for an operation cancelled by {@link io.weir.channel.IoRegistration#cancel()} or the loop's shutdown.
     */
    public int res() {
        return res;
    }

    /** {@code IORING_CQE_F_*}. */
    public int flags() {
        return flags;
    }

    /** Whether the operation will complete again ({@link #CQE_F_MORE}): it is still in flight. */
    public boolean hasMore() {
        return (flags & CQE_F_MORE) != 0;
    }

    /** The 16 bits the handle gave in {@link IoUringIoOps#data()}. */
    public short data() {
        return data;
    }

    @Override
    public String toString() {
        return "IoUringIoEvent(opcode=" + opcode + ", res=" + res + ", flags=0x" + Integer.toHexString(flags)
                + ", data=" + data + ')';
    }
}
