package io.weir.channel.uring;

import io.weir.channel.IoOps;

/**
 * One io_uring operation a handle asks its {@link IoUringIoHandler} to submit: the fields of one SQE
 * ({@code struct io_uring_sqe}) but {@code user_data}, which the handler fills in. Given to
 * {@link io.weir.channel.IoRegistration#submit}, which returns the operation's id (its {@code user_data}); its
 * completion reaches the handle as an {@link IoUringIoEvent} carrying the same opcode and {@link #data()}.
 *
 * <p><b>Memory the operation points to</b> ({@code addr}, {@code addr3}, an iovec array, a sockaddr) belongs to
 * the handle and must stay valid until the operation's last completion has been delivered (for a multishot
 * operation, the CQE without {@link IoUringIoEvent#CQE_F_MORE}); after the registration is cancelled, until
 * {@link IoUringIoHandle#unregistered()}. The kernel copies the SQE itself at submission
 * ({@code IORING_FEAT_SUBMIT_STABLE}), so this object may be dropped or reused at once.
 *
 * <p>Immutable; the factories check nothing the kernel checks itself (a bad descriptor or address comes back as
 * a negative result).
 */
public final class IoUringIoOps implements IoOps {
    // IORING_OP_* (linux/io_uring.h); the C file proves each value.
    /** {@code IORING_OP_NOP}: completes at once with 0. */
    public static final byte OP_NOP = 0;
    /** {@code IORING_OP_READV}. */
    public static final byte OP_READV = 1;
    /** {@code IORING_OP_WRITEV}. */
    public static final byte OP_WRITEV = 2;
    /** {@code IORING_OP_POLL_ADD}. */
    public static final byte OP_POLL_ADD = 6;
    /** {@code IORING_OP_POLL_REMOVE}. */
    public static final byte OP_POLL_REMOVE = 7;
    /** {@code IORING_OP_SENDMSG}. */
    public static final byte OP_SENDMSG = 9;
    /** {@code IORING_OP_RECVMSG}. */
    public static final byte OP_RECVMSG = 10;
    /** {@code IORING_OP_TIMEOUT}. */
    public static final byte OP_TIMEOUT = 11;
    /** {@code IORING_OP_ACCEPT}. */
    public static final byte OP_ACCEPT = 13;
    /** {@code IORING_OP_ASYNC_CANCEL}. */
    public static final byte OP_ASYNC_CANCEL = 14;
    /** {@code IORING_OP_CONNECT}. */
    public static final byte OP_CONNECT = 16;
    /** {@code IORING_OP_CLOSE}. */
    public static final byte OP_CLOSE = 19;
    /** {@code IORING_OP_READ}. */
    public static final byte OP_READ = 22;
    /** {@code IORING_OP_WRITE}. */
    public static final byte OP_WRITE = 23;
    /** {@code IORING_OP_SEND}. */
    public static final byte OP_SEND = 26;
    /** {@code IORING_OP_RECV}. */
    public static final byte OP_RECV = 27;
    /** {@code IORING_OP_SPLICE}. */
    public static final byte OP_SPLICE = 30;
    /** {@code IORING_OP_SHUTDOWN}. */
    public static final byte OP_SHUTDOWN = 34;
    /** {@code IORING_OP_MSG_RING}. */
    public static final byte OP_MSG_RING = 40;
    /** {@code IORING_OP_SEND_ZC}. */
    public static final byte OP_SEND_ZC = 47;

    /** {@code IORING_POLL_ADD_MULTI} in a poll's {@code len}: one CQE per readiness change until cancelled. */
    public static final int POLL_ADD_MULTI = 1;

    private final byte opcode;
    private final byte flags;
    private final short ioPrio;
    private final int fd;
    private final long off;
    private final long addr;
    private final int len;
    private final int opFlags;
    private final short bufIndex;
    private final int spliceFdIn;
    private final long addr3;
    private final short data;

    /**
     * An SQE of any operation, field by field ({@code struct io_uring_sqe}; {@code personality} 0).
     *
     * @param opcode {@code IORING_OP_*}
     * @param flags {@code IOSQE_*}
     * @param ioPrio {@code ioprio} (for accept and receive: {@code IORING_ACCEPT_*}, {@code IORING_RECVSEND_*})
     * @param fd the descriptor
     * @param off {@code off} / {@code addr2}
     * @param addr {@code addr}
     * @param len {@code len}
     * @param opFlags the operation's flags word ({@code rw_flags}, {@code msg_flags}, {@code poll32_events}, ...)
     * @param bufIndex {@code buf_index} / {@code buf_group}
     * @param spliceFdIn {@code splice_fd_in} / {@code file_index} / {@code addr_len}
     * @param addr3 {@code addr3}
     * @param data 16 bits of the handle's own, returned in {@link IoUringIoEvent#data()}
     */
    public IoUringIoOps(byte opcode, byte flags, short ioPrio, int fd, long off, long addr, int len, int opFlags,
                        short bufIndex, int spliceFdIn, long addr3, short data) {
        this.opcode = opcode;
        this.flags = flags;
        this.ioPrio = ioPrio;
        this.fd = fd;
        this.off = off;
        this.addr = addr;
        this.len = len;
        this.opFlags = opFlags;
        this.bufIndex = bufIndex;
        this.spliceFdIn = spliceFdIn;
        this.addr3 = addr3;
        this.data = data;
    }

    /** {@code IORING_OP_NOP}: a completion with result 0, for a round trip through the ring. */
    public static IoUringIoOps newNop(short data) {
        return new IoUringIoOps(OP_NOP, (byte) 0, (short) 0, -1, 0, 0, 0, 0, (short) 0, 0, 0, data);
    }

    /**
     * {@code IORING_OP_READ} of up to {@code length} bytes into {@code address} ({@code offset} -1: the file
     * position, as {@code read(2)}).
     */
    public static IoUringIoOps newRead(int fd, long address, int length, long offset, short data) {
        return new IoUringIoOps(OP_READ, (byte) 0, (short) 0, fd, offset, address, length, 0, (short) 0, 0, 0,
                data);
    }

    /** {@code IORING_OP_WRITE} of {@code length} bytes from {@code address} ({@code offset} -1: the position). */
    public static IoUringIoOps newWrite(int fd, long address, int length, long offset, short data) {
        return new IoUringIoOps(OP_WRITE, (byte) 0, (short) 0, fd, offset, address, length, 0, (short) 0, 0, 0,
                data);
    }

    /** {@code IORING_OP_RECV} of up to {@code length} bytes into {@code address} with {@code msgFlags}. */
    public static IoUringIoOps newRecv(int fd, long address, int length, int msgFlags, short data) {
        return new IoUringIoOps(OP_RECV, (byte) 0, (short) 0, fd, 0, address, length, msgFlags, (short) 0, 0, 0,
                data);
    }

    /** {@code IORING_OP_SEND} of {@code length} bytes from {@code address} with {@code msgFlags}. */
    public static IoUringIoOps newSend(int fd, long address, int length, int msgFlags, short data) {
        return new IoUringIoOps(OP_SEND, (byte) 0, (short) 0, fd, 0, address, length, msgFlags, (short) 0, 0, 0,
                data);
    }

    /**
     * {@code IORING_OP_SPLICE} of up to {@code length} bytes from {@code fdIn} at {@code offsetIn} to {@code fdOut}
     * at {@code offsetOut}, with {@code SPLICE_F_*} {@code spliceFlags}; an offset of -1 for a pipe or a socket (one
     * of the two descriptors must be a pipe). The kernel runs it on a worker thread of its own.
     */
    public static IoUringIoOps newSplice(int fdIn, long offsetIn, int fdOut, long offsetOut, int length,
                                         int spliceFlags, short data) {
        return new IoUringIoOps(OP_SPLICE, (byte) 0, (short) 0, fdOut, offsetOut, offsetIn, length, spliceFlags,
                (short) 0, fdIn, 0, data);
    }

    /**
     * {@code IORING_OP_POLL_ADD} for {@code pollEvents} ({@code POLLIN}, ...); with {@code multishot} one CQE
     * per readiness until cancelled ({@link #POLL_ADD_MULTI}).
     */
    public static IoUringIoOps newPollAdd(int fd, int pollEvents, boolean multishot, short data) {
        return new IoUringIoOps(OP_POLL_ADD, (byte) 0, (short) 0, fd, 0, 0, multishot ? POLL_ADD_MULTI : 0,
                pollEvents, (short) 0, 0, 0, data);
    }

    /**
     * {@code IORING_OP_ASYNC_CANCEL} of the operation whose id ({@link io.weir.channel.IoRegistration#submit}'s
     * result) is {@code targetId}. Cancelling a registration cancels all of its operations without this.
     */
    public static IoUringIoOps newAsyncCancel(long targetId, short data) {
        return new IoUringIoOps(OP_ASYNC_CANCEL, (byte) 0, (short) 0, -1, 0, targetId, 0, 0, (short) 0, 0, 0,
                data);
    }

    /** {@code IORING_OP_*}. */
    public byte opcode() {
        return opcode;
    }

    /** {@code IOSQE_*}. */
    public byte flags() {
        return flags;
    }

    /** {@code ioprio}. */
    public short ioPrio() {
        return ioPrio;
    }

    /** The descriptor. */
    public int fd() {
        return fd;
    }

    /** {@code off} / {@code addr2}. */
    public long off() {
        return off;
    }

    /** {@code addr}. */
    public long addr() {
        return addr;
    }

    /** {@code len}. */
    public int len() {
        return len;
    }

    /** The operation's flags word. */
    public int opFlags() {
        return opFlags;
    }

    /** {@code buf_index} / {@code buf_group}. */
    public short bufIndex() {
        return bufIndex;
    }

    /** {@code splice_fd_in} / {@code file_index} / {@code addr_len}. */
    public int spliceFdIn() {
        return spliceFdIn;
    }

    /** {@code addr3}. */
    public long addr3() {
        return addr3;
    }

    /** The handle's own 16 bits, returned with the completion. */
    public short data() {
        return data;
    }

    @Override
    public String toString() {
        return "IoUringIoOps(opcode=" + opcode + ", fd=" + fd + ", len=" + len + ", data=" + data + ')';
    }
}
