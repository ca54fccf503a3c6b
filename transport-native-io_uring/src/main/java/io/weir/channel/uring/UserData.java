package io.weir.channel.uring;

/**
 * The {@code user_data} of every SQE this transport submits: which registration and which operation a CQE
 * belongs to, so a completion finds its handle without a lookup by address or a map of pending operations.
 *
 * <pre>
 *  63                               32 31    25  24  23      16 15                 0
 *  +----------------------------------+-------+---+----------+-------------------+
 *  | registration id                  | 0     | I | opcode   | data              |
 *  +----------------------------------+-------+---+----------+-------------------+
 * </pre>
 * Registration id 0 ({@link #HANDLER_ID}) is the handler's own operations (the wake-up read). Bit I
 * ({@link #INTERNAL}) marks an operation the handler submitted for a registration (the cancellation of its
 * operations): its CQE counts in the registration's ledger but is not handed to the handle. An id is reused only
 * after every operation of its old registration, the cancellations included, has completed, so neither a CQE nor a
 * late cancellation can ever reach a later registration. {@code data} is the handle's own 16 bits
 * ({@link IoUringIoOps#data()}), returned in {@link IoUringIoEvent#data()}. Stateless.
 */
final class UserData {
    /** The handler's own operations. */
    static final int HANDLER_ID = 0;
    /** The handler's own operation for a registration. */
    static final long INTERNAL = 1L << 24;
    private static final int ID_SHIFT = 32;
    private static final int OPCODE_SHIFT = 16;
    private static final int BYTE_MASK = 0xff;
    private static final int DATA_MASK = 0xffff;

    private UserData() {
    }

    static long encode(int id, byte opcode, short data) {
        return ((long) id << ID_SHIFT) | ((opcode & BYTE_MASK) << OPCODE_SHIFT) | (data & DATA_MASK);
    }

    static boolean isInternal(long userData) {
        return (userData & INTERNAL) != 0;
    }

    static int id(long userData) {
        return (int) (userData >>> ID_SHIFT);
    }

    static byte opcode(long userData) {
        return (byte) (userData >>> OPCODE_SHIFT);
    }

    static short data(long userData) {
        return (short) userData;
    }
}
